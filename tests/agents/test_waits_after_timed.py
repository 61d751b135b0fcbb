"""A wait for a compile is said by whoever waits, whoever started it: a timed search starts the compile it
cannot wait for (it searches without it, in its time) and says nothing; the next search, untimed, waits for
that compile and says so (``zerosum: preparing the engine (alpha-beta's kernel), first run only: ...``).  It
said nothing: an auditor's ``alphabeta:time`` then ``alphabeta:depth=8`` on a fresh install waited 6 s in
silence, ``mcts:time=0.5`` then ``alphabeta:depth=4`` 22 s.  A wait a command already says
(:func:`zerosum.agents.prepare.announce`) is not said twice.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

import pytest

from zerosum.agents import prepare

WORD = "zerosum: preparing the engine (alpha-beta's kernel), first run only: "


def test_an_untimed_search_after_a_timed_one_on_a_cold_cache_says_its_wait(tmp_path) -> None:
    code = ("import zerosum\ngame = zerosum.ConnectX(5, 8, 4)\n"  # a board no other test compiles for
            "print(zerosum.make_agent('alphabeta:time=0.2')(game, game.initial_state), flush=True)\n"
            "print(zerosum.make_agent('alphabeta:depth=3')(game, game.initial_state))")
    env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}, "NUMBA_CACHE_DIR": str(tmp_path)}
    cold = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)
    assert cold.returncode == 0 and len(cold.stdout.split()) == 2, cold.stderr
    lines = cold.stderr.splitlines()
    assert lines and lines[0].startswith(WORD), lines  # said by the untimed search, which waits
    # once; again every 10 s only where the compile takes that long (a loaded machine)
    assert all(line.startswith(WORD + "compiling for ") for line in lines), lines


def slow_step(seconds: float, label: str) -> prepare.Step:
    return prepare.step(f"{label} {time.perf_counter()}", label, lambda: time.sleep(seconds), cold=3.0)


@pytest.mark.slow  # CI time (5 s of waits): the real case above stays in CI
def test_the_waiter_says_a_compile_a_timed_search_started_once_and_a_command_s_word_is_not_doubled(caplog) -> None:
    caplog.set_level(logging.WARNING, logger=prepare.LOG.name)
    started = slow_step(2.3, "the test's timed kernel")
    assert not prepare.settle([started], time.perf_counter() + 0.1)  # a timed search: it starts it, silent
    assert not [r for r in caplog.records if r.name == prepare.LOG.name]
    prepare.warm([started])  # the next search waits for it: says so
    time.sleep(0.3)
    said = [r.getMessage() for r in caplog.records if r.name == prepare.LOG.name]
    assert len(said) == 1 and said[0].startswith(
        "zerosum: preparing the engine (the test's timed kernel), first run only: compiling for "), said
    told: list[str] = []
    announced = slow_step(2.3, "the test's announced kernel")
    prepare.announce([announced], told.append, after=0.5)  # a command says it (zerosum analyze)...
    prepare.warm([announced])  # ...and then waits: its words only, not the logger's too
    time.sleep(0.3)
    assert told and len([r for r in caplog.records if r.name == prepare.LOG.name]) == 1, told


def test_a_solver_made_on_a_cold_cache_says_its_tables_compile(tmp_path) -> None:
    """``zerosum.Solver()`` compiled its tables' code in its constructor, outside any step: 3 s alone on a cold
    cache, 25 s after a timed MCTS search, in silence (a notebook's Solver cell waited 15 s)."""
    code = "import zerosum\nsolver = zerosum.Solver('connect4', book=False, tt_size=1 << 10)\nprint('made')"
    env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}, "NUMBA_CACHE_DIR": str(tmp_path)}
    began = time.perf_counter()
    cold = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)
    took = time.perf_counter() - began
    assert cold.returncode == 0 and cold.stdout == "made\n", cold.stderr
    lines = cold.stderr.splitlines()
    assert lines and lines[0].startswith("zerosum: preparing the engine (the solver's tables), first run only: "), (
        lines, took)
