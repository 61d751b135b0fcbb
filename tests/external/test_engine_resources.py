"""`zerosum engine` out of processes or threads (a contest seat whose fork bomb filled its process limit): it
goes on answering, and says why a search could not start, instead of ending in a traceback.

The engine runs as a real program; the system's refusal (``EAGAIN``, which root never meets under
``RLIMIT_NPROC``) is brought about inside it by a few lines run before ``zerosum.cli.main``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_engine_command import Program

#: run before the engine: forks after the first ``FORKS`` fail as a full process table makes them fail, and the
#: search process's watch of its parent gets no thread (a limit on processes counts threads too)
PRELUDE = """
import errno, os, sys, threading
real, made = os.fork, []
def fork():
    if len(made) >= int(os.environ["FORKS"]):
        raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
    made.append(1)
    return real()
os.fork = fork
start = threading.Thread.start
def refuse(self):
    if self.name == "die-with-parent":
        raise RuntimeError("can't start new thread")
    return start(self)
threading.Thread.start = refuse
from zerosum.cli import main
sys.exit(main(["engine", *sys.argv[1:]]))
"""


class Starved(Program):
    def __init__(self, forks: int, *args: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", PRELUDE, *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                     bufsize=0, env={**os.environ, "FORKS": str(forks)})


@pytest.fixture
def slow_player(tmp_path: Path) -> str:
    (tmp_path / "slow.py").write_text("import time\n\ndef player(game, state):\n    time.sleep(30)\n")
    return f"{tmp_path}/slow.py:player"


def test_a_search_process_that_cannot_be_forked_is_a_failure_said_and_the_first_legal_move(tmp_path: Path) -> None:
    (tmp_path / "last.py").write_text("def player(game, state):\n    return game.actions(state)[-1]\n")
    program = Starved(0, f"{tmp_path}/last.py:player")
    try:
        program.send("zsp 1")
        program.until("zspok")
        program.send("position connect4 moves 44")
        program.send("go movetime 2000")
        lines = program.until("bestmove")
        assert lines[-1] == "bestmove 1", lines  # a move, not (none): every go with a legal move has one
        assert ("info string error the agent failed: cannot start its search process: Resource temporarily "
                "unavailable") in lines, lines
        program.send("isready")
        assert program.until("readyok")[-1] == "readyok"  # still serving
    finally:
        program.close()


def test_an_overrun_search_answers_and_the_engine_goes_on_when_no_new_process_can_be_had(slow_player: str) -> None:
    # the search process, forked at the position, runs the player; the watchdog ends it, the engine answers and
    # forks the next search's process: that fork fails, and the engine must go on (it ended with "zerosum
    # engine: error: Resource temporarily unavailable", which a contest seat quoted as its crash)
    program = Starved(1, slow_player)
    try:
        program.send("zsp 1")
        program.until("zspok")
        program.send("position connect4 moves 44")
        program.send("go movetime 300")
        assert program.until("bestmove")[-1] == "bestmove 1"
        program.send("isready")
        assert program.until("readyok")[-1] == "readyok"
        program.send("go movetime 300")
        lines = program.until("bestmove")
        assert any("cannot start its search process" in line for line in lines), lines
        assert program.proc.poll() is None
    finally:
        program.close()
    assert "Traceback" not in program.proc.stderr.read().decode()  # type: ignore[union-attr]
