"""`zerosum engine` when the thread that prepares its compiled code cannot start (a process limit, which counts
threads, full for a moment): it says so in one error line and goes on, the position a position and each search
preparing its own code (audit: one failed start left a dead thread registered, so no later call started one and
the engine said ``preparing the engine (starting numba): 65 s; isready is answered when it is done`` for good).

The engine runs as a real program; the system's refusal is brought about inside it by a few lines run before
``zerosum.cli.main`` (as in test_engine_resources.py): ``threading.Thread.start`` fails for the threads named
in ``REFUSE`` (the first ``TIMES`` starts of each, in each process)."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import textwrap
import time
from typing import Any

import pytest

WAIT = 120.0  # seconds an answer may take on a loaded machine: a safety net, never a measure
PRELUDE = """
import os, sys, threading
refused, start = {}, threading.Thread.start
def refuse(self):
    if self.name in os.environ["REFUSE"].split(",") and refused.get(self.name, 0) < int(os.environ["TIMES"]):
        refused[self.name] = refused.get(self.name, 0) + 1
        raise RuntimeError("can't start new thread")
    return start(self)
threading.Thread.start = refuse
"""
ENGINE = PRELUDE + """
from zerosum.cli import main
sys.exit(main(["engine", *sys.argv[1:]]))
"""
REFUSED = ("info string error cannot prepare connectx:rows=6,cols=7,k=4 in the background (can't start new "
           "thread): each search prepares what it needs")


class Engine:
    """``zerosum engine ARGS`` with ``REFUSE`` and ``TIMES`` set; lines read with a deadline on the whole wait."""

    def __init__(self, refuse: str, times: int, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", ENGINE, *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                     bufsize=0, env={**os.environ, "REFUSE": refuse, "TIMES": str(times)})

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines).encode())

    def until(self, word: str) -> list[str]:
        """The lines up to the first that starts with ``word`` (the engine said to wait for good, before the fix)."""
        assert self.proc.stdout is not None
        lines: list[str] = []
        end = time.monotonic() + WAIT
        while not lines or not lines[-1].startswith(word):
            assert select.select([self.proc.stdout], [], [], max(0.0, end - time.monotonic()))[0], \
                f"no {word!r} in time: {lines[-5:]}"
            line = self.proc.stdout.readline().decode()
            assert line, f"the output ended: {lines[-5:]}"
            lines.append(line.rstrip("\n"))
        return lines

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, kind: Any, *_: Any) -> None:
        """After the test's lines: ``quit`` ends it with status 0 and no traceback; it is killed if need be."""
        try:
            if kind is None:
                self.send("quit")
                assert self.proc.wait(WAIT) == 0
        finally:
            if self.proc.poll() is None:
                os.killpg(self.proc.pid, 9)
            self.proc.wait()
        stderr = self.proc.stderr.read().decode()  # type: ignore[union-attr]
        assert kind is not None or "Traceback" not in stderr, stderr[-2000:]


@pytest.mark.parametrize("games", [["--game", "connect4"], []], ids=["--game", "at the position"])
def test_a_position_whose_preparation_cannot_start_is_said_once_and_every_go_searches(games: list[str]) -> None:
    with Engine("zerosum-prepare", 10**6, "alphabeta:depth=3", *games) as engine:  # never a thread to prepare in
        engine.send("zsp 1", "position connect4 moves 4453", "isready")
        lines = engine.until("readyok")
        assert lines.count(REFUSED) == 1 and not any("preparing the engine" in line for line in lines), lines
        engine.send("go depth 3")  # the search process prepares its own code, here and now
        lines = engine.until("bestmove")
        assert "info depth 3" in " ".join(lines) and not any("error" in line for line in lines), lines
        engine.send("position connect4 moves 44536", "go movetime 500")  # said once; a search within its time
        lines = engine.until("bestmove")
        assert lines[-1] != "bestmove (none)" and not any("error" in line for line in lines), lines
        engine.send("isready")
        assert engine.until("readyok") == ["readyok"]


def test_an_agent_warm_up_that_cannot_start_is_an_error_line_and_the_engine_goes_on() -> None:
    with Engine("zerosum-engine-warm-up", 10**6, "alphabeta:depth=3", "--game", "connect4") as engine:
        engine.send("zsp 1", "position connect4 moves 4453", "isready")
        lines = engine.until("readyok")
        assert ("info string error cannot warm the agent up for connectx:rows=6,cols=7,k=4 (can't start new "
                "thread): its search does it") in lines, lines
        engine.send("go depth 3")
        assert "info depth 3" in " ".join(engine.until("bestmove"))


def test_a_thread_that_could_not_start_leaves_nothing_stuck_and_the_next_start_runs_the_steps() -> None:
    # zerosum.agents.prepare itself, in a process of its own (its queue and thread are the process's)
    script = PRELUDE + textwrap.dedent("""
        from zerosum.agents import prepare
        done = []
        step = prepare.step("test", "a test step", lambda: done.append(1), 1.0)
        try:
            prepare.start([step])
        except RuntimeError as exc:
            print("refused:", exc)
        print("pending:", prepare.pending())
        print("settled:", prepare.settle([step], 0.0))  # refused again: False at once, nothing left queued
        prepare.start([step])  # the next call starts the thread
        print("ran:", step.wait(60), done)
        """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=WAIT,
                            env={**os.environ, "REFUSE": "zerosum-prepare", "TIMES": "2"})
    assert result.stdout.splitlines() == ["refused: can't start new thread", "pending: []", "settled: False",
                                          "ran: True [1]"], result.stdout + result.stderr[-2000:]
