"""Ctrl-C in ``zerosum play`` keeps the game as ``q`` and Ctrl-D do: the moves and the command that continues
them (``Game abandoned. Moves: 4141``, ``Continue later with: zerosum play ... --moves 4141``), then
``interrupted`` and exit status 130 as before -- at the prompt, while an engine searches (the search stops at
once, as before) and while an engine's code still compiles on a first run; at a terminal and from a pipe.
Before a move is played nothing more is said.  (Audit: Ctrl-C said only ``interrupted``, the moves lost.)

The processes are real (:class:`Play`): ``zerosum play`` in a pseudo-terminal that is its controlling
terminal, Ctrl-C typed there (the terminal sends SIGINT and echoes ``^C``), or with pipes for its standard
streams, sent SIGINT.  The screen is the output as a terminal shows it: a carriage return writes over its line
(:func:`screen`).
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from test_terminal_waits import env_for

fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="a pseudo-terminal needs fork")

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
CONNECT4 = "zerosum play --game connectx:rows=6,cols=7,k=4 --first human --second first"
MIGRATION = "zerosum play --game migration:n=6 --first human --second mcts:time=60"
SOLVER = "zerosum play --game connectx:rows=6,cols=7,k=4 --first human --second solver"
#: the bottom row of Connect Four's board after 41 and after 4141 (twice there): counted 4 times, the board after
#: 4141 is shown whole and the game waits at its prompt (in a pipe the prompt itself is flushed with the answer)
AFTER_4141 = ("O . . X . . .\n", 4)
#: a row of Migration's board once the person's move 1,0 is played (the engine's search begins)
MOVED = "1 . > . . . ."
#: the audit's position (tests/ui/test_terminal_first_run.py): past the opening book, the solver's search needed
PAST_BOOK = "4444355564"
#: a safety net only: each test ends in seconds
PATIENCE = 300.0


def _own_terminal() -> None:
    """In the child, a session leader already: its standard input (the pseudo-terminal) becomes its
    controlling terminal, so a Ctrl-C typed there sends it SIGINT."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Play:
    """A real ``zerosum play ARGS``, in a pseudo-terminal (``tty``) or with pipes for its standard streams."""

    def __init__(self, args: list[str], tty: bool, env: dict[str, str] | None = None) -> None:
        command = [sys.executable, "-m", "zerosum", "play", *args]
        env = env or env_for(None)
        if tty:
            self.fd, child = pty.openpty()
            self.proc = subprocess.Popen(command, stdin=child, stdout=child, stderr=child, env=env,
                                         start_new_session=True, preexec_fn=_own_terminal)
            os.close(child)
            self.got = {self.fd: b""}
        else:
            self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, env=env)
            assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
            self.fd = self.proc.stdin.fileno()
            self.got = {self.proc.stdout.fileno(): b"", self.proc.stderr.fileno(): b""}
        self.open = list(self.got)
        self.seen = dict.fromkeys(self.got, 0)  # how much of each stream was looked at for the text waited for
        self.signalled = 0.0

    def __enter__(self) -> "Play":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for fd in {self.fd, *self.got}:
            try:
                os.close(fd)
            except OSError:  # closed already (a pipe's by the test)
                pass

    def output(self) -> str:
        """Everything written so far (both streams), escape codes dropped."""
        return ESCAPES.sub("", b"".join(self.got.values()).decode(errors="replace"))

    def _read(self, wait: float) -> None:
        for fd in select.select(self.open, [], [], wait)[0]:
            try:
                data = os.read(fd, 65536)
            except OSError:  # a pseudo-terminal whose child has gone (Linux's EIO)
                data = b""
            if data:
                self.got[fd] += data
            else:
                self.open.remove(fd)

    def until(self, wanted: str, times: int = 1) -> None:
        """Read until ``wanted`` shows ``times`` times in the output after the text last waited for."""
        key, deadline = wanted.encode(), time.perf_counter() + PATIENCE
        while sum(self.got[fd][self.seen[fd]:].count(key) for fd in self.got) < times:
            if time.perf_counter() > deadline or not self.open:
                raise AssertionError(f"no {wanted!r} in:\n{self.output()[-3000:]}")
            self._read(0.05)
        for fd, data in self.got.items():
            at = data.rfind(key, self.seen[fd])
            self.seen[fd] = self.seen[fd] if at < 0 else at + len(key)

    def type(self, keys: bytes, after: float = 0.0) -> None:
        time.sleep(after)
        os.write(self.fd, keys)

    def interrupt(self, after: float = 0.0) -> None:
        """Ctrl-C after ``after`` seconds: typed at the terminal, else SIGINT sent."""
        time.sleep(after)
        if self.fd in self.got:
            os.write(self.fd, b"\x03")
        else:
            self.proc.send_signal(signal.SIGINT)
        self.signalled = time.perf_counter()

    def end(self) -> tuple[int, float]:
        """Read to the end; the exit status, and the seconds from the Ctrl-C to the end."""
        deadline = time.perf_counter() + PATIENCE
        while self.open and time.perf_counter() < deadline:
            self._read(0.05)
        status = self.proc.wait(timeout=max(1.0, deadline - time.perf_counter()))
        return status, time.perf_counter() - self.signalled

    def stream(self, which: int) -> str:
        """Standard output (1) or error (2) of a piped game."""
        return list(self.got.values())[which - 1].decode(errors="replace")


def screen(text: str) -> list[str]:
    """The lines a terminal shows for ``text``, the empty ones dropped (a carriage return writes over its line)."""
    lines = []
    for row in text.split("\n"):
        shown = ""
        for piece in row.split("\r"):
            shown = piece + shown[len(piece):]
        lines.append(shown.rstrip())
    return [line for line in lines if line]


def kept(moves: str, command: str, log: bool = False) -> list[str]:
    """The lines ``q`` says of a game: its moves, and the command that continues it (``log``: with
    ``--no-color --log``)."""
    return [f"Game abandoned. Moves: {moves}",
            f"Continue later with: {command} --moves {moves}" + (" --no-color --log" if log else "")]


def ending(lines: list[str], after: str) -> list[str]:
    """The lines from the last one that starts with ``after``."""
    return lines[max(i for i, line in enumerate(lines) if line.startswith(after)):]


# ---- at a terminal ---------------------------------------------------------------------------------------


@fork
@pytest.mark.parametrize("log", [True, False], ids=["log", "in-place"])
def test_ctrl_c_at_the_prompt_keeps_the_moves_as_q_does(log: bool) -> None:
    """Two moves each, then Ctrl-C at the prompt: the prompt's line ends (``^C``), then q's two lines, then
    ``interrupted``, exit status 130 (it said only ``interrupted``)."""
    with Play(["--second", "first", *(["--log", "--no-color"] if log else [])], tty=True) as game:
        for _ in range(2):
            game.until("to move: ")
            game.type(b"4\n", after=0.3)
            game.until("plays")
        game.until("to move: ")
        game.interrupt(after=0.5)
        status, _ = game.end()
    lines = screen(game.output())
    assert status == 130, (status, lines[-20:])
    assert ending(lines, "X (you) to move: ^C") == ["X (you) to move: ^C", *kept("4141", CONNECT4, log),
                                                    "interrupted"], lines[-20:]


@fork
def test_ctrl_c_before_any_move_says_only_interrupted() -> None:
    with Play(["--second", "first", "--log", "--no-color"], tty=True) as game:
        game.until("to move: ")
        game.interrupt(after=0.5)
        status, _ = game.end()
    lines = screen(game.output())
    assert status == 130 and lines[-1] == "X (you) to move: ^Cinterrupted", (status, lines[-20:])  # as before
    assert not any(line.startswith(("Game abandoned", "Continue later")) for line in lines), lines[-20:]


@fork
@pytest.mark.parametrize("delay", [0.3, 2.0], ids=["at-once", "wait-line-shown"])
def test_ctrl_c_while_the_engine_searches_stops_it_at_once_and_keeps_the_moves(delay: float) -> None:
    """MCTS searches 60 s on its reply (Migration: no compiled code); Ctrl-C typed into it, before its wait line
    shows or once it does: the process ends at once (well before the search would), the moves kept on lines of
    their own (no ``^C`` left on the screen before or after them)."""
    with Play(["--game", "migration:n=6", "--second", "mcts:time=60", "--log", "--no-color"], tty=True) as game:
        game.until("to move: ")
        game.type(b"1,0\n", after=0.3)
        game.until(MOVED)
        game.interrupt(after=delay)
        status, took = game.end()
    lines = screen(game.output())
    assert status == 130 and took < 20, (status, took, lines[-20:])  # a safety margin: the search had 60 s
    assert ending(lines, "Game abandoned.") == [*kept("1,0", MIGRATION, log=True), "interrupted"], lines[-20:]
    assert not any("plays" in line for line in lines)  # the engine's move never came


# ---- from a pipe -----------------------------------------------------------------------------------------


def test_ctrl_c_from_a_pipe_at_the_prompt_keeps_the_moves() -> None:
    """``4``, ``4`` piped in, the input left open: SIGINT at the third prompt, once the board after the engine's
    second move is shown."""
    with Play(["--second", "first"], tty=False) as game:
        game.type(b"4\n4\n")
        game.until(*AFTER_4141)
        game.interrupt(after=0.5)
        status, _ = game.end()
    out, err = game.stream(1), game.stream(2)
    assert status == 130, (status, out[-2000:], err[-2000:])
    assert out.endswith("\n" + "\n".join(kept("4141", CONNECT4)) + "\n"), out[-2000:]
    assert err.strip().splitlines()[-1] == "interrupted", err[-2000:]


def test_ctrl_c_from_a_pipe_while_the_engine_searches_stops_it_at_once() -> None:
    with Play(["--game", "migration:n=6", "--second", "mcts:time=60"], tty=False) as game:
        game.type(b"1,0\n")
        game.until(MOVED)
        game.interrupt(after=0.5)
        status, took = game.end()
    out, err = game.stream(1), game.stream(2)
    assert status == 130 and took < 20, (status, took, err[-2000:])  # a safety margin: the search had 60 s
    assert out.endswith("\n" + "\n".join(kept("1,0", MIGRATION)) + "\n") and "plays" not in out, out[-2000:]
    assert err.strip().splitlines()[-1] == "interrupted", err[-2000:]


def test_ctrl_c_with_the_outputs_reader_gone_still_exits_130() -> None:
    """``zerosum play | head``, Ctrl-C: the reader stops with the same signal, so the moves cannot be said;
    still ``interrupted`` and exit status 130 (not 0, as a closed pipe alone would end)."""
    with Play(["--second", "first"], tty=False) as game:
        game.type(b"4\n4\n")
        game.until(*AFTER_4141)
        game.until("to move: ")  # at the prompt: nothing more is written before the Ctrl-C
        assert game.proc.stdout is not None
        game.open.remove(game.proc.stdout.fileno())
        game.proc.stdout.close()  # the reader is gone
        game.interrupt()
        status, _ = game.end()
    err = game.stream(2)
    assert status == 130 and err.strip().splitlines()[-1] == "interrupted", (status, err[-2000:])


# ---- while the engine's code compiles (a first run) --------------------------------------------------------


@pytest.mark.slow  # a cold compile (20-60 s) cut short: CI time
@pytest.mark.parametrize("tty", [pytest.param(True, marks=fork), False], ids=["terminal", "pipe"])
def test_ctrl_c_while_the_solvers_code_compiles_keeps_the_moves(tmp_path: Path, tty: bool) -> None:
    """The audit's game past the book, numba's cache empty, ``1`` typed: the solver's reply waits for its
    search's compile, and says so; Ctrl-C then ends the process at once (it does not wait for the compile),
    the moves kept."""
    extra = ["--log", "--no-color"] if tty else []
    with Play(["--moves", PAST_BOOK, *extra], tty=tty, env=env_for(str(tmp_path / "numba"))) as game:
        game.until("to move: " if tty else "Type a move")
        game.type(b"1\n", after=0.3)
        game.until("first run only")  # its compile is under way
        game.interrupt(after=0.5)
        status, took = game.end()
    print(f"\nCtrl-C during a cold compile ({'terminal' if tty else 'pipe'}): the process ended {took:.2f} s after it")
    lines = screen(game.output()) if tty else game.stream(1).splitlines()
    assert status == 130 and took < 10, (status, took, game.output()[-2000:])  # the compile had 20 s more and up
    assert (ending(lines, "Game abandoned.") if tty else lines[-2:]) == \
        [*kept(PAST_BOOK + "1", SOLVER, log=tty), *(["interrupted"] if tty else [])], lines[-20:]
    if not tty:
        assert game.stream(2).strip().splitlines()[-1] == "interrupted", game.stream(2)[-2000:]


CTRL_C_AT_THE_END = """
import io, sys
from zerosum import cli

class Late(io.StringIO):  # the Ctrl-C comes as the console script flushes what the command wrote
    came = False

    def flush(self):
        if not self.came:
            self.came = True
            raise KeyboardInterrupt

cli.main = lambda: 0  # the pipe closed first: the command ended with status 0
sys.stdout = Late()
cli.entry()
"""


def test_ctrl_c_as_the_command_ends_says_interrupted_and_exits_130() -> None:
    """``zerosum play | head``: the pipe closed first, then Ctrl-C came while the console script flushed its
    output: ``interrupted`` and 130, not a traceback and 1 (seen in a full run of the tests)."""
    done = subprocess.run([sys.executable, "-c", CTRL_C_AT_THE_END], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (130, "interrupted\n")
