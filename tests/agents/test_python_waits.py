"""From Python (a notebook's cell, a script) a first search on a cold cache says what it waits for: one
warning of the ``zerosum.agents.prepare`` logger once a step turns out to compile (``zerosum: preparing the
engine (alpha-beta's kernel), first run only: ...``), nothing on a warm cache, nothing from the faces that say
it their own way (``zerosum play``, ``serve``...) or from a worker process; other commands say it as Python does.

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


@pytest.mark.slow  # CI time (3-5 s of waits): the first search's word, test_a_first_search_..., stays in CI
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


@pytest.mark.slow  # CI time (3-5 s of waits): the first search's word, test_a_first_search_..., stays in CI
def test_no_word_when_turned_off_or_in_a_worker_process(caplog, monkeypatch) -> None:
    caplog.set_level(logging.WARNING, logger=prepare.LOG.name)
    monkeypatch.setattr(prepare, "SPEAK", False)
    prepare.warm([slow_step(2.0, "a kernel nobody is told of")])
    monkeypatch.setattr(prepare, "SPEAK", True)
    monkeypatch.setattr(prepare.multiprocessing, "parent_process", lambda: object())  # as in a pool's worker
    prepare.warm([slow_step(2.0, "a worker's kernel")])
    time.sleep(0.3)
    assert not [r for r in caplog.records if r.name == prepare.LOG.name]


def test_the_command_line_turns_it_off_for_the_faces_with_their_own_words_only(monkeypatch, capsys) -> None:
    import zerosum.commands.play as play
    import zerosum.commands.solver as solver

    seen: dict[str, bool] = {}

    def run(args: object) -> int:  # instead of the command: what tell would do while it runs
        seen[getattr(args, "command")] = prepare.SPEAK
        return 0

    for module, name in ((play, "play"), (solver, "analyze")):
        monkeypatch.setitem(module.COMMANDS, name, (module.COMMANDS[name][0], run))
    assert main(["play", "--game", "tictactoe", "--first", "first", "--second", "first"]) == 0
    assert main(["analyze", "4453"]) == 0
    assert seen == {"play": False, "analyze": True} and prepare.SPEAK is True  # play's screen says it its own way


def test_a_solver_s_first_search_tells_of_the_solver_s_compiled_code(monkeypatch) -> None:
    import zerosum
    import zerosum.solver.steps as solver_steps

    told: list[list[str]] = []
    monkeypatch.setattr(solver_steps, "warm", lambda steps: told.append([s.key for s in steps]))
    # as in a process that has made solvers (run alone, it had not) but not searched yet
    monkeypatch.setattr(solver_steps, "_READY", {"solver tables", "solver tables 128"})
    assert zerosum.Solver("connect4", tt_size=1 << 10).solve("4453") == -2 and told == []  # the book: no search
    zerosum.Solver("connect4", tt_size=1 << 10, book=False).solve("4453")
    assert told[0] == ["numba", "solver tables", "solver search"]
    eight = zerosum.get_game("connect4-8x8")  # 72 bits: code compiled for 128-bit boards, steps of its own
    assert [s.key for s in solver_steps.solver_steps(eight, zerosum.Solver)] == [
        "numba", "solver tables 128", "solver search 128"]


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
    assert lines and lines[0].startswith("zerosum: preparing the engine (alpha-beta's kernel), first run only: "), lines
    # said once; again every 10 s only where the compile takes that long (a loaded machine: 2 lines at load 7)
    assert len(lines) == 1 or all(line.startswith("zerosum: preparing the engine (alpha-beta's kernel), first run "
                                                  "only: compiling for ") for line in lines), lines
    warm = _python(code, str(tmp_path))  # the cache it left: a load, not a compile, and no word
    assert warm.returncode == 0 and warm.stderr == "" and warm.stdout == cold.stdout


@pytest.mark.slow  # the solver's search compiles for about 20 s
def test_zerosum_solve_on_a_cold_cache_says_so_on_standard_error(tmp_path) -> None:
    env = {**{k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}, "NUMBA_CACHE_DIR": str(tmp_path)}
    run = [sys.executable, "-m", "zerosum", "solve"]
    cold = subprocess.run(run, input="4444441332\n", capture_output=True, text=True, timeout=600, env=env)
    assert cold.returncode == 0 and cold.stdout == "4444441332 2\n", cold.stderr
    assert cold.stderr.startswith("zerosum: preparing the engine (") and "first run only" in cold.stderr
    warm = subprocess.run(run, input="4444441332\n", capture_output=True, text=True, timeout=600, env=env)
    assert warm.returncode == 0 and warm.stdout == cold.stdout and warm.stderr == ""


@pytest.mark.slow
def test_a_first_solver_search_in_python_on_a_cold_cache_says_so(tmp_path) -> None:
    code = "import zerosum\nprint(zerosum.Solver().solve('4444441332'))"  # past the opening book
    cold = _python(code, str(tmp_path))
    assert cold.returncode == 0, cold.stderr
    assert "zerosum: preparing the engine (the solver's" in cold.stderr and "first run only" in cold.stderr
    warm = _python(code, str(tmp_path))
    assert warm.returncode == 0 and warm.stderr == "" and warm.stdout == cold.stdout


def test_the_interpreter_s_exit_waits_for_the_step_under_way_and_starts_no_other(tmp_path) -> None:
    """numba's compiler in a thread the interpreter stops midway ends the process with an LLVM assertion
    (134) or a segmentation fault: at exit the step under way is finished, the queued ones never start."""
    code = ("import sys, time\nfrom zerosum.agents import prepare\n"
            "def work(name):\n    time.sleep(1.6)\n    open(name, 'w').close()\n"
            "prepare.start([prepare.step('first', 'a test step', lambda: work('first'), 1.0),\n"
            "               prepare.step('second', 'a test step', lambda: work('second'), 1.0)])\n"
            "time.sleep(0.2)\nprint('leaving', flush=True)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 0 and done.stdout == "leaving\n", done.stderr
    assert (tmp_path / "first").exists() and not (tmp_path / "second").exists()
    assert done.stderr == "zerosum: finishing a test step before exiting (a first run: what it compiles is kept)\n"


@pytest.mark.slow  # CI time (3-5 s of waits): the first search's word, test_a_first_search_..., stays in CI
def test_a_command_done_while_a_step_compiles_ends_at_once_with_its_status(tmp_path) -> None:
    """The console script does not wait for a compile nobody needs any more (``zerosum play`` quit on a first
    run waited 20 s for the solver's): it flushes its output and ends with the command's status; a step that
    ends within the grace second is waited for, and the exit goes on as usual."""
    code = ("import sys, time\nfrom zerosum.agents import prepare\nfrom zerosum import cli\n"
            "prepare.start([prepare.step('long', 'a test step', lambda: time.sleep(float(sys.argv[1])), 1.0)])\n"
            "time.sleep(0.2)\nsys.argv = ['zerosum', 'analyze', '4455']\ncli.entry()\n")
    for seconds, quick in (("60", True), ("0.5", False)):
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", code, seconds], capture_output=True, text=True, timeout=120,
                              cwd=tmp_path)
        took = time.perf_counter() - began
        assert done.returncode == 0 and "best: column" in done.stdout, done.stderr
        assert "finishing" not in done.stderr, done.stderr  # no wait at the exit, and no word of one
        assert took < 30 if quick else took >= 0.5, took
    bad = subprocess.run([sys.executable, "-c", code.replace("'4455'", "'4x'"), "60"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.startswith("zerosum analyze: error:"), bad.stderr


@pytest.mark.slow  # 5 s; CI keeps this file's cold first searches
def test_a_command_answered_while_the_solver_loads_exits_cleanly() -> None:
    """``zerosum analyze 44`` is answered by the opening book in well under a second, while the solver's search
    loads in the background: it exited with 134 (an LLVM assertion) in 4 runs of 6 before the exit waited."""
    for _ in range(3):
        done = subprocess.run([sys.executable, "-m", "zerosum", "analyze", "44"], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0 and "best: column 4" in done.stdout, (done.returncode, done.stderr[-500:])


@pytest.mark.slow  # CI time (5 s of waits): the first search's word, test_a_first_search_..., stays in CI
def test_a_long_compile_is_told_again_every_little_while(caplog, monkeypatch) -> None:
    """A compile that outlasts its first word is said again every ``UPDATE_EVERY`` seconds, in Python and in
    a command alike: a newcomer's first analysis said one line, then nothing for 43 s."""
    caplog.set_level(logging.WARNING, logger=prepare.LOG.name)
    monkeypatch.setattr(prepare, "UPDATE_EVERY", 0.25)
    prepare.warm([slow_step(2.3, "the test's long kernel")])
    said = [r.getMessage() for r in caplog.records if r.name == prepare.LOG.name]
    assert 3 <= len(said) <= 6, said  # at about 1.5 s, then every 0.25 s until 2.3 s
    assert all(s.startswith("zerosum: preparing the engine (the test's long kernel), first run only: compiling for ")
               for s in said), said
    told: list[str] = []
    step = slow_step(2.3, "the test's other long kernel")
    prepare.announce([step], told.append, after=0.5)
    prepare.warm([step])
    time.sleep(0.3)
    assert 4 <= len(told) <= 7 and told[0].startswith("preparing the engine (the test's other long kernel): 0."), told
    assert all("first run only: compiling for " in t for t in told[1:]), told
