"""`zerosum engine` while it prepares its compiled code, as an audit found it on a cold numba cache: the first
`position` of a game warmed the agent up before reading the next line, so `go movetime 1000` sent with it was
answered 54.9 s later (the solver on 8 x 8), with nothing said meanwhile, and its info line claimed `time 29`.

Now the code is prepared in the background from the game's first `position`; the engine goes on reading, says
what it waits for in `info string` lines (at once and every few seconds), answers `isready` once the position's
game is prepared, keeps a `go`'s time limit (searching in a thread of its own, the agent going without what is
not ready in time), lets a `go` without a time limit wait (a `stop` answers it at once) and ends at `quit`.

The quick tests hold on a warm cache too: a fresh engine process loads its code (numba's start, about half a
second) after its first `position`, and the lines sent with it arrive during that.  The slow ones run the
audit's cases on an empty numba cache (`NUMBA_CACHE_DIR` a fresh folder): the solver's 128-bit search compiles
for half a minute or more.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

import pytest

from zerosum import get_game
from zerosum.external.protocol import BestMove, Info, parse_reply

WAIT = 120.0  # seconds any answer may take at most: a safety net (a first run compiles numba kernels)
#: the audit's position: 8 x 8 after 24 moves, where the solver answers (a win for the side to move)
AUDIT_8X8 = "183741713783566681826722"


class Program:
    """``python -m zerosum engine ARGS`` (the console script's path: it ends as the command does)."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "zerosum", "engine", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                     bufsize=0, env=env)

    def send(self, *lines: str) -> None:
        """``lines`` in one write: the engine reads them together."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
        self.proc.stdin.flush()

    def read(self, seconds: float = WAIT) -> tuple[float, str]:
        """The next line and when it came (``time.monotonic``)."""
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], seconds)
        assert ready, "no line in time"
        line = self.proc.stdout.readline().decode()
        assert line.endswith("\n"), f"the output ended: {self.proc.stderr.read().decode()[-500:]}"  # type: ignore[union-attr]
        return time.monotonic(), line[:-1]

    def until(self, word: str, seconds: float = WAIT) -> list[tuple[float, str]]:
        lines = [self.read(seconds)]
        while not lines[-1][1].startswith(word):
            lines.append(self.read(seconds))
        return lines

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, 9)
        self.proc.wait()


def _texts(lines: list[tuple[float, str]]) -> list[str]:
    return [text for _, text in lines]


def _legal(spec: str, moves: str, best: str) -> None:
    game = get_game(spec)
    state = game.from_moves(moves)
    reply = parse_reply(best)
    assert isinstance(reply, BestMove) and reply.move is not None, best
    game.result(state, game.parse_action(reply.move, state))  # raises for an illegal move


def _searched(lines: list[str]) -> list[Info]:
    """The search's ``info`` lines (not what the engine said in words)."""
    replies = [parse_reply(line) for line in lines]
    return [r for r in replies if isinstance(r, Info) and r.string is None]


@pytest.fixture
def engines():
    started: list[Program] = []

    def start(*args: str, env: dict[str, str] | None = None) -> Program:
        started.append(Program(*args, env=env))
        return started[-1]

    yield start
    for program in started:
        program.close()


def test_a_go_sent_with_the_first_position_keeps_its_time_and_says_what_it_waits_for(engines) -> None:
    """The audit's `position` + `go movetime` without `isready` (an MCTS, whose code loads in about a second):
    the engine used to load it before reading the `go`, in silence, and then searched the whole movetime."""
    engine = engines("mcts")
    engine.send("zsp 1")
    engine.until("zspok")
    engine.send("position connect4 moves 44", "go movetime 300")
    lines = _texts(engine.until("bestmove"))
    assert lines[0].startswith("info string preparing the engine (") and lines[0].endswith(
        "; this search keeps its time limit, and goes without what is not ready by then"), lines
    _legal("connect4", "44", lines[-1])
    engine.send("isready")  # the preparation done: the next go searches in a process forked after it
    assert all(line.startswith("info string ") for line in _texts(engine.until("readyok"))[:-1])
    engine.send("go movetime 300")
    lines = _texts(engine.until("bestmove"))
    assert not any(" string " in line for line in lines) and _searched(lines)[-1].nodes, lines
    _legal("connect4", "44", lines[-1])
    engine.send("quit")
    assert engine.proc.wait(WAIT) == 0


def test_isready_after_the_first_position_waits_for_the_code_and_says_so(engines) -> None:
    engine = engines("alphabeta")
    engine.send("zsp 1", "isready")
    assert _texts(engine.until("readyok"))[-2:] == ["zspok", "readyok"]  # no position yet: at once
    engine.send("position connect4 moves 44", "isready", "go depth 4")  # the go waits behind the readyok
    lines = _texts(engine.until("bestmove"))
    ready = lines.index("readyok")
    assert ready >= 1 and all(line.startswith("info string preparing the engine") for line in lines[:ready]), lines
    assert lines[0].endswith("; isready is answered when it is done"), lines
    assert [i.depth for i in _searched(lines[ready:])] == [1, 2, 3, 4], lines
    engine.send("quit")
    assert engine.proc.wait(WAIT) == 0


def test_stop_answers_a_go_that_waits_for_the_code_at_once(engines) -> None:
    """A go without a time limit waits for the preparation (it searches with the code, as it would after it); a
    stop meanwhile is answered with the first legal move, and says why."""
    engine = engines("alphabeta")
    engine.send("position connect4 moves 44", "go depth 30", "stop")
    lines = _texts(engine.until("bestmove"))
    assert lines[0].startswith("info string preparing the engine") and lines[0].endswith(
        "; the search starts when it is done"), lines
    assert lines[1:] == ["info string stopped before the search began, the engine still preparing: its first legal "
                         "move", "bestmove 1"], lines
    engine.send("isready", "go depth 3")
    lines = _texts(engine.until("bestmove"))
    assert [i.depth for i in _searched(lines)] == [1, 2, 3], lines
    engine.send("quit")
    assert engine.proc.wait(WAIT) == 0


def test_quit_while_isready_waits_ends_the_engine(engines) -> None:
    engine = engines("mcts")
    engine.send("position connect4-8x8 moves 45", "isready", "quit")
    assert engine.proc.wait(WAIT) == 0
    assert engine.proc.stdout is not None and engine.proc.stderr is not None
    out, err = engine.proc.stdout.read().decode(), engine.proc.stderr.read().decode()
    assert all(line.startswith(("info string preparing the engine", "readyok")) for line in out.splitlines()), out
    assert "Traceback" not in err, err


# ---- a cold numba cache: the audit's cases --------------------------------------------------------------


@pytest.fixture
def cold(tmp_path) -> dict[str, str]:
    """The environment of a first run: numba's cache an empty folder (the project's own is not touched)."""
    return {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}


@pytest.mark.slow  # the solver's 128-bit search compiles from nothing: half a minute to minutes
def test_a_cold_solver_on_8x8_keeps_go_movetime_and_says_what_it_compiles(engines, cold) -> None:
    engine = engines("solver", env=cold)
    engine.send("zsp 1", "isready")
    engine.until("readyok")
    sent = time.monotonic()
    engine.send(f"position connect4-8x8 moves {AUDIT_8X8}", "go movetime 1000")
    lines = engine.until("bestmove")
    answered = lines[-1][0] - sent
    assert lines[0][1].startswith("info string preparing the engine"), lines
    _legal("connect4-8x8", AUDIT_8X8, lines[-1][1])
    infos = _searched(_texts(lines))
    assert all(i.time is not None and i.time <= answered * 1000 for i in infos), (answered, lines)  # true times
    # the compile goes on after the answer: isready waits for it, saying so every few seconds
    engine.send("isready")
    lines = engine.until("readyok")
    said = lines[:-1]
    assert said and all(text.endswith("; isready is answered when it is done") for _, text in said), lines
    assert any("first run only: compiling for" in text for _, text in said), lines
    times = [when for when, _ in lines]
    assert max(b - a for a, b in zip(times, times[1:])) < 15, lines  # every 5 s (15: a safety net, a busy machine)
    engine.send("go movetime 1000")
    lines = engine.until("bestmove")
    assert not any(" string " in text for _, text in lines) and _searched(_texts(lines)), lines
    _legal("connect4-8x8", AUDIT_8X8, lines[-1][1])
    engine.send("quit")
    assert engine.proc.wait(WAIT) == 0


@pytest.mark.slow  # the solver's 128-bit search compiles from nothing
def test_quit_during_a_cold_compile_ends_the_engine_promptly(engines, cold) -> None:
    engine = engines("solver", env=cold)
    engine.send(f"position connect4-8x8 moves {AUDIT_8X8}", "isready")
    engine.read()  # what it prepares: said at once
    engine.read()  # and again, a few seconds later: it compiles
    sent = time.monotonic()
    engine.send("quit")
    assert engine.proc.wait(WAIT) == 0
    assert time.monotonic() - sent < 15  # not the compile's half a minute and more (a safety net: about 1 s)
