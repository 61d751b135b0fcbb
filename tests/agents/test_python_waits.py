"""From Python (a notebook's cell, a script) a first search on a cold cache says what it waits for: one
warning of the ``zerosum.agents.prepare`` logger once a step turns out to compile (``zerosum: preparing the
engine (alpha-beta's kernel), first run only: ...``), nothing on a warm cache, nothing from the command line
(whose faces say it their own way) or from a worker process.

The real cases are fresh Python processes, numba's cache empty (``NUMBA_CACHE_DIR`` a fresh folder), then the
same again on the cache they left.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time

import pytest

from zerosum.agents import prepare
from zerosum.cli import main


def slow_step(seconds: float, label: str) -> prepare.Step:
    return prepare.step(f"{label} {time.perf_counter()}", label, lambda: time.sleep(seconds), cold=3.0)


def test_a_wait_that_compiles_is_told_once_and_a_load_is_not(caplog) -> None:
    caplog.set_level(logging.WARNING, logger=prepare.LOG.name)
    slow, quick = slow_step(2.5, "the test's kernel"), slow_step(0.2, "the test's quick kernel")
    prepare.warm([quick])  # loaded from a cache, as it were: no word
    prepare.warm([slow])
    time.sleep(0.3)
    said = [r.getMessage() for r in caplog.records if r.name == prepare.LOG.name]
    assert len(said) == 1, said
    assert said[0].startswith("zerosum: preparing the engine (the test's kernel), first run only: ") and "more" in said[0]
    prepare.warm([slow])  # done: nothing to say
    time.sleep(0.3)
    assert len([r for r in caplog.records if r.name == prepare.LOG.name]) == 1


def test_no_word_when_turned_off_or_in_a_worker_process(caplog, monkeypatch) -> None:
    caplog.set_level(logging.WARNING, logger=prepare.LOG.name)
    monkeypatch.setattr(prepare, "SPEAK", False)
    prepare.warm([slow_step(2.0, "a kernel nobody is told of")])
    monkeypatch.setattr(prepare, "SPEAK", True)
    monkeypatch.setattr(prepare.multiprocessing, "parent_process", lambda: object())  # as in a pool's worker
    prepare.warm([slow_step(2.0, "a worker's kernel")])
    time.sleep(0.3)
    assert not [r for r in caplog.records if r.name == prepare.LOG.name]


def test_the_command_line_turns_it_off_while_it_runs_and_back_on_after(monkeypatch, capsys) -> None:
    seen: list[bool] = []
    monkeypatch.setattr(prepare, "announce", lambda steps, say, after=1.0: seen.append(prepare.SPEAK))
    assert main(["analyze", "4453"]) == 0  # `zerosum analyze` announces its own wait
    assert seen == [False] and prepare.SPEAK is True


def test_a_new_solver_tells_of_the_solver_s_compiled_code(monkeypatch) -> None:
    import zerosum
    import zerosum.solver.agent as solver_agent

    told: list[list[str]] = []
    monkeypatch.setattr(solver_agent, "tell", lambda steps: told.append([s.key for s in steps]))
    zerosum.Solver("connect4-8x8", tt_size=1 << 10)
    assert told == [["numba", "solver tables", "solver search"]]


def _python(code: str, cache: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["NUMBA_CACHE_DIR"] = cache
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env)


def test_a_first_search_in_python_on_a_cold_cache_says_so_on_standard_error(tmp_path) -> None:
    code = ("import zerosum\ngame = zerosum.ConnectX(7, 9, 4)\n"  # a board no other test compiles for
            "print(zerosum.make_agent('alphabeta:depth=3')(game, game.initial_state))")
    cold = _python(code, str(tmp_path))
    assert cold.returncode == 0, cold.stderr
    lines = cold.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("zerosum: preparing the engine (alpha-beta's kernel), first run "
                                                   "only: "), lines
    warm = _python(code, str(tmp_path))  # the cache it left: a load, not a compile, and no word
    assert warm.returncode == 0 and warm.stderr == "" and warm.stdout == cold.stdout


@pytest.mark.slow
def test_a_first_solver_search_in_python_on_a_cold_cache_says_so(tmp_path) -> None:
    code = "import zerosum\nprint(zerosum.Solver().solve('4444441332'))"  # past the opening book
    cold = _python(code, str(tmp_path))
    assert cold.returncode == 0, cold.stderr
    assert "zerosum: preparing the engine (the solver's" in cold.stderr and "first run only" in cold.stderr
    warm = _python(code, str(tmp_path))
    assert warm.returncode == 0 and warm.stderr == "" and warm.stdout == cold.stdout
