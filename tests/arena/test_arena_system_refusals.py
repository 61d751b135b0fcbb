"""`zerosum match` with an external engine when the system refuses a thread (a full process limit, ``ulimit -u``,
counts threads; ``ulimit -v`` leaves no memory for their stacks): one line saying so and what to do, nothing
stored wrongly, no traceback; the help that begins the engines before the games is skipped, not fatal.

The command runs as a real program; the refusal is brought about inside it (and inside its worker processes)
by a ``sitecustomize`` module that refuses the threads $REFUSE_THREADS names (``name/where[/within]``: where is
``main`` or ``worker``; within, the thread that starts it), as a full process limit refuses them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from process_helpers import rows  # noqa: E402 (tests/process_helpers.py)

ENGINE = Path(__file__).resolve().parents[2] / "examples" / "engines" / "random_engine.py"

SITE = r'''
import os, threading
RULES = [rule.split("/") for rule in os.environ.get("REFUSE_THREADS", "").split(",") if rule]
start = threading.Thread.start
def refuse(self):
    import multiprocessing
    where = "main" if multiprocessing.current_process().name == "MainProcess" else "worker"
    for name, place, *within in RULES:
        if self.name == name and place == where and within in ([], [threading.current_thread().name]):
            raise RuntimeError("can't start new thread")
    return start(self)
threading.Thread.start = refuse
'''


def _match(tmp_path: Path, refuse: str, *agents: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "site").mkdir(exist_ok=True)
    (tmp_path / "site" / "sitecustomize.py").write_text(SITE)
    env = {**os.environ, "REFUSE_THREADS": refuse,
           "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "zerosum", "match", "c", *agents, "--engine",
                           f"c={sys.executable} {ENGINE}", "--games", "2", "--jobs", "1", "--time", "0.05",
                           "-o", str(tmp_path / "r.db")], capture_output=True, text=True, timeout=300, env=env)


def test_no_thread_for_the_engine_in_a_worker_says_the_system_refused_and_what_to_do(tmp_path: Path) -> None:
    # it was "agent 'c': RuntimeError: can't start new thread (nothing was stored for it: fix the agent, ...)"
    done = _match(tmp_path, "zerosum-engine-stderr/worker", "random")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "game 1 could not start: agent 'c': engine c cannot start: the system refused a new thread " \
        "(can't start new thread)" in lines[0], lines[0]
    assert "fix the agent" not in lines[0] and "play fewer games at once (--jobs) or raise the limit, then carry " \
        "on with --resume" in lines[0], lines[0]
    assert rows(tmp_path / "r.db", "SELECT COUNT(*) FROM games") == [(0,)]  # nothing stored for it
    assert rows(tmp_path / "r.db", "SELECT COUNT(*) FROM plan") == [(2,)]  # the plan waits for --resume


def test_no_thread_for_the_engine_at_the_runs_check_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    # it was a traceback ending in "RuntimeError: can't start new thread"
    done = _match(tmp_path, "zerosum-engine-stderr/main", "random")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("zerosum match: error: engine c cannot start: the system refused a new thread "
                               "(can't start new thread): "), lines[0]
    assert not (tmp_path / "r.db").exists()


def test_no_thread_for_the_pool_stops_the_run_in_one_line(tmp_path: Path) -> None:
    # it was a traceback ending in the pool's start_thread: "RuntimeError: can't start new thread" (ulimit -v)
    done = _match(tmp_path, "zerosum-engine-warmup/main", "random")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0].startswith("zerosum match: error: the games cannot go on: the system refused a new thread (can't "
                               "start new thread): ") and "carry on with --resume" in lines[0], lines[0]
    assert rows(tmp_path / "r.db", "SELECT COUNT(*) FROM plan") == [(2,)]


@pytest.mark.parametrize("refuse", [
    "zerosum-engine-first/main,zerosum-prepare/main",  # the early start's threads
    "zerosum-wait-words/main,zerosum-engine-stderr/main/zerosum-engine-first,zerosum-announce/main",  # within it
])
def test_the_engines_early_start_without_threads_is_skipped_and_the_run_plays_on(tmp_path: Path, refuse: str) -> None:
    # it was a traceback (the thread zerosum-engine-first, or the preparation's, could not start), or
    # "Exception in thread zerosum-engine-first" (its words, or its engine's standard error, got no thread)
    done = _match(tmp_path, refuse, "alphabeta:depth=2")
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Exception" not in done.stderr, done.stderr
    assert rows(tmp_path / "r.db", "SELECT COUNT(*) FROM games") == [(2,)]
