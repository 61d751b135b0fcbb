"""A person at a terminal, scripted: ``zerosum play`` in a pseudo-terminal, answered some seconds after each
prompt, with every piece of output timed (used by test_terminal_waits.py).

The person plays the first free column of a fixed order (read from the moves on the screen), so the game
goes on whatever the engine answers.  :class:`Session` keeps what was written when; :meth:`Session.turns`
cuts it into the engine's turns: from an answer to the next prompt.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sys
import time
from dataclasses import dataclass, field

from zerosum import ConnectX

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
PROMPT = "to move: "
#: the person's preference: the first free column of these (1-based), centre first
ORDER = "4352617"


@dataclass
class Turn:
    """The time from an answer to the next prompt, and what was shown meanwhile."""

    answer: str
    seconds: float  # until the next prompt
    chunks: list[tuple[float, str]]  # (seconds after the answer, text without escapes) of each piece of output

    def silent_pauses(self, limit: float = 1.0) -> list[tuple[float, float, str]]:
        """Every pause longer than ``limit`` seconds (from the answer, or from a piece of output) after which
        no waiting message was on screen: ``(start, length, the last line shown)``."""
        out = []
        last, shown = 0.0, ""
        for at, text in [*self.chunks, (self.seconds, "")]:
            if at - last > limit and not says_what(shown):
                out.append((last, at - last, shown.strip().splitlines()[-1] if shown.strip() else ""))
            last = at
            if text.strip():
                shown = text
        return out


def says_what(text: str) -> bool:
    """Whether ``text`` (the last output) says what a wait is."""
    return any(w in text for w in ("preparing the engine", "is thinking", "analysing"))


@dataclass
class Session:
    chunks: list[tuple[float, bytes]] = field(default_factory=list)  # (time, bytes) as read
    answers: list[tuple[float, str]] = field(default_factory=list)  # (time, line) as sent
    started: float = 0.0
    status: int | None = None

    def text(self, since: float = 0.0) -> str:
        return ANSI.sub("", b"".join(b for t, b in self.chunks if t >= since).decode(errors="replace"))

    def turns(self) -> list[Turn]:
        result = []
        for i, (sent, line) in enumerate(self.answers):
            until = self.answers[i + 1][0] if i + 1 < len(self.answers) else float("inf")
            pieces = [(t - sent, ANSI.sub("", b.decode(errors="replace"))) for t, b in self.chunks if sent <= t < until]
            prompt_at = next((at for at, text in _running(pieces) if PROMPT in text), None)
            if prompt_at is None:
                continue
            result.append(Turn(line, prompt_at, [p for p in pieces if p[0] <= prompt_at]))
        return result


def _running(pieces: list[tuple[float, str]]) -> list[tuple[float, str]]:
    """Each piece's time with all text up to it (a prompt may come in two reads)."""
    text, out = "", []
    for at, piece in pieces:
        text = (text + piece)[-400:]
        out.append((at, text))
    return out


def play(args: list[str], env: dict[str, str], *, moves: int, think: float = 3.0, timeout: float = 600.0,
         keys: dict[int, str] | None = None, game: ConnectX | None = None) -> Session:
    """Run ``zerosum play ARGS`` in a pseudo-terminal; answer ``moves`` prompts ``think`` seconds after each
    (then ``q``): a move, or ``keys[i]`` at the i-th prompt (counted from 0; ``h`` for a hint).  Raises on a
    timeout (the process is killed).  ``game``: the board played (default Connect Four), to choose the moves."""
    game = game or ConnectX()
    session = Session(started=time.perf_counter())
    pid, fd = pty.fork()
    if pid == 0:  # the child: zerosum play on the terminal's other end
        os.execvpe(sys.executable, [sys.executable, "-m", "zerosum", "play", *args], env)
    deadline = session.started + timeout
    answer_at: float | None = None
    answered = 0
    seen = 0  # how much of the output has been looked at for a prompt
    try:
        while True:
            now = time.perf_counter()
            if now > deadline:
                raise TimeoutError(f"zerosum play took over {timeout:g} s:\n{session.text()[-2000:]}")
            wait = 0.05 if answer_at is None else max(0.0, min(0.05, answer_at - now))
            ready, _, _ = select.select([fd], [], [], wait)
            if ready:
                try:
                    data = os.read(fd, 65536)
                except OSError:  # the child closed the terminal: it ended
                    break
                if not data:
                    break
                session.chunks.append((time.perf_counter(), data))
            text = session.text()
            if answer_at is None and PROMPT in text[seen:]:
                seen = len(text)
                answer_at = time.perf_counter() + think
            if answer_at is not None and time.perf_counter() >= answer_at:
                line = (keys or {}).get(answered) or (_choose(game, text) if answered < moves else "q")
                os.write(fd, (line + "\n").encode())
                session.answers.append((time.perf_counter(), line))
                answered += 1
                answer_at = None
                seen = len(session.text())  # the prompt just answered stays behind
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        _, status = os.waitpid(pid, 0)
        session.status = status
        os.close(fd)
    return session


def _choose(game: ConnectX, text: str) -> str:
    """The person's move: the first free column of ``ORDER`` after the moves last shown on screen."""
    shown = re.findall(r"Moves: (\d*)", text)
    state = game.from_moves(shown[-1]) if shown and shown[-1] else game.initial_state
    free = [c for c in ORDER if int(c) - 1 in game.actions(state)]
    return free[0] if free else "q"
