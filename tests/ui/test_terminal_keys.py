"""`zerosum play` while an engine prepares or thinks, and what the game says at its start: ``q`` (or Ctrl-D)
typed during an engine's move ends the game at once, other lines typed then are ignored with a word; the
wait's line names what the mover waits for, its times said which; the prompt's example is a move the prompt
takes; a search that cannot end on the board is warned of.

The keys are typed into a real ``zerosum play`` in a pseudo-terminal (as pty_play.py does), on games that need
no compiled code (Tic-Tac-Toe against MCTS), so no numba cache matters.
"""

from __future__ import annotations

import io
import os
import pty
import re
import signal
import subprocess
import sys
import time

import pytest

from zerosum import ConnectX, TicTacToe, make_agent
from zerosum.agents import prepare
from zerosum.agents.base import Agent
from zerosum.games import get_game
from zerosum.ui.terminal import PlaySession
from zerosum.ui.terminal_view import Output

import pty_play
from process_helpers import pty_read
from test_terminal_waits import Screen, env_for, slow_step

fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="a pseudo-terminal needs fork")


def typed(args: list[str], script: list[tuple[str, float, bytes]],
          timeout: float = 60.0) -> tuple[str, list[float], float]:
    """``zerosum play ARGS`` in a pseudo-terminal; for each ``(text, delay, keys)`` of ``script``: once ``text``
    shows (after the keys before), wait ``delay`` seconds and type ``keys``.  Returns the screen (escapes
    removed), when each keys were typed, and when the process ended."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(sys.executable, [sys.executable, "-m", "zerosum", "play", *args], env_for(None))
    chunks: list[bytes] = []
    sent: list[float] = []
    seen, due = 0, None
    deadline = time.perf_counter() + timeout
    try:
        while time.perf_counter() < deadline:
            data = pty_read(fd, 0.02)
            if data is None:
                break
            chunks.append(data)
            text = pty_play.ANSI.sub("", b"".join(chunks).decode(errors="replace"))
            if len(sent) < len(script):
                wanted, delay, keys = script[len(sent)]
                if due is None and wanted in text[seen:]:
                    due = time.perf_counter() + delay
                if due is not None and time.perf_counter() >= due:
                    os.write(fd, keys)
                    sent.append(time.perf_counter())
                    seen, due = len(text), None
        else:
            raise TimeoutError(pty_play.ANSI.sub("", b"".join(chunks).decode(errors="replace"))[-2000:])
        ended = time.perf_counter()
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    return pty_play.ANSI.sub("", b"".join(chunks).decode(errors="replace")), sent, ended


# ---- q and Ctrl-D while the engine thinks ------------------------------------------------------------------


@fork
@pytest.mark.parametrize("keys", [b"q\n", pytest.param(b"\x04", marks=pytest.mark.slow)],  # CI time: q alone
                         ids=["q", "ctrl-d"])
def test_quitting_while_the_engine_thinks_ends_the_game_at_once(keys: bytes) -> None:
    """MCTS thinks 8 s on its move (Migration: no compiled code); q (or Ctrl-D) typed a second into it ends
    the game at once, as at a prompt (it used to be echoed and ignored: the process ended after the engine's
    move, 8 s later)."""
    game = get_game("migration:n=6")
    move = game.format_action(game.actions(game.initial_state)[0])
    text, sent, ended = typed(["--game", "migration:n=6", "--second", "mcts:time=8", "--log"],
                              [("to move: ", 0.2, move.encode() + b"\n"), (move, 1.0, keys)])
    assert len(sent) == 2, text[-2000:]
    took = ended - sent[1]
    assert took < 4.0, (took, text[-2000:])
    assert f"game abandoned. Moves: {move}" in text.replace("Game", "game"), text[-2000:]
    assert "Continue later with: zerosum play --game migration:n=6" in text
    assert "plays" not in text  # the engine's move never came


@fork
def test_a_line_typed_while_the_engine_thinks_is_ignored_with_a_word() -> None:
    """A move typed before the engine has moved is not taken as the next move: the game says it ignored it,
    and the next prompt waits for a move typed there."""
    game = get_game("migration:n=6")
    first, other = (game.format_action(a) for a in game.actions(game.initial_state)[:2])
    text, sent, _ = typed(["--game", "migration:n=6", "--second", "mcts:time=1.5", "--log"],
                          [("to move: ", 0.2, first.encode() + b"\n"), (first, 0.5, other.encode() + b"\n"),
                           ("^ (mcts:time=1.5) plays", 0.3, b"q\n")])
    assert len(sent) == 3, text[-2000:]
    assert f"(ignored '{other}': typed while mcts:time=1.5 was thinking; type it at the prompt" in text, text[-2000:]
    after = text.split("^ (mcts:time=1.5) plays")[-1]
    assert "Game abandoned. Moves: " in after and f";{other}" not in after, after  # never played
    assert "Try again" not in after  # nor read at the prompt


# ---- what the wait's line says --------------------------------------------------------------------------


class Mover(Agent):
    """An engine whose move needs a step of its own (while another step runs in the background)."""

    name = "mover"

    def __init__(self, needs: prepare.Step) -> None:
        super().__init__()
        self.needs = needs

    def preparation(self, game: object, state: object = None) -> list[prepare.Step]:
        return [self.needs]

    def __call__(self, game: object, state: object) -> object:
        return game.actions(state)[0]  # type: ignore[attr-defined]


def test_the_wait_names_the_step_the_mover_waits_for() -> None:
    """Another engine's step compiling in the background (started first) is not what the mover waits for:
    the line names the mover's step (it named the first step running in the process)."""
    other = slow_step(3.0, "another engine's kernel")
    prepare.start([other])
    time.sleep(0.1)
    mine = slow_step(2.2, "the mover's kernel")
    screen = Screen()
    session = PlaySession(TicTacToe(), {1: Mover(mine), 2: None}, lambda prompt: None, Output(screen, color=False))
    session.engine_turn(session.seats[1])  # type: ignore[arg-type]
    shown = screen.getvalue()
    assert "preparing the engine (the mover's kernel)" in shown, shown
    assert "preparing the engine (another engine's kernel)" not in shown, shown
    other.wait(10)


def test_the_wait_says_which_time_is_which() -> None:
    """A compile that began long before the wait: the line gives the compile's time and the wait's, each
    named (it said ``0.4 s, taking longer than usual``: the wait's time and the compile's verdict)."""
    step = prepare.step(f"long compile {time.perf_counter()}", "a long compile", lambda: time.sleep(3.0), cold=1.0)
    prepare.start([step])
    time.sleep(2.5)
    now = time.perf_counter()
    said = prepare.status(now - 0.4, now, [step])
    step.wait(10)
    assert said is not None and said.startswith("preparing the engine (a long compile), first run only: "), said
    assert re.search(r"compiling for 2\.\d s, taking longer than usual; waiting 0\.4 s$", said), said


# ---- the start: the prompt's example, the warning of a search that cannot end --------------------------------


@pytest.mark.parametrize("spec", ["connect4", "tictactoe", "migration:n=6", "othello", "connectx:rows=6,cols=12,k=4"])
def test_the_prompts_example_is_a_move_the_prompt_takes(spec: str) -> None:
    """``Type a move: ..., e.g. X``: X typed at the prompt is a legal move (it showed ``e.g. 4453``, which the
    prompt refused as column 4453, and ``3,0;7,3`` on a 6 x 6 Migration board)."""
    game = get_game(spec)
    screen = io.StringIO()
    moves = iter([None])
    session = PlaySession(game, {1: None, 2: None}, lambda prompt: next(moves), Output(screen, color=False))
    session.run()
    head = next(line for line in screen.getvalue().splitlines() if line.startswith("Type a move: "))
    example = re.search(r"e\.g\. (\S+?)\.?$", head)
    assert example, head
    assert session.game.parse_action(example.group(1), game.initial_state) in game.actions(game.initial_state)


def _play(args: list[str], keys: str = "q\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zerosum", "play", *args], input=keys, capture_output=True,
                          text=True, timeout=120, env=env_for(None))


@pytest.mark.slow  # 5 s; CI keeps tests/agents/test_search_warns_unbounded.py
def test_a_search_that_cannot_end_is_warned_of_at_the_start() -> None:
    """Plain minimax (no depth or node limit) on Connect Four would think for ever: one line says so at the
    start, with the fix; on Tic-Tac-Toe it ends, and nothing is said."""
    big = _play(["--second", "minimax", "--game", "connectx:rows=4,cols=5,k=4"])
    assert big.returncode == 0, big.stderr
    warned = [line for line in big.stdout.splitlines() if line.startswith("Warning: minimax")]
    assert len(warned) == 1 and "--second minimax:depth=4" in warned[0], big.stdout
    small = _play(["--second", "minimax", "--game", "tictactoe"])
    assert small.returncode == 0 and "Warning" not in small.stdout, small.stdout
    bounded = _play(["--first", "minimax:depth=3", "--game", "connectx:rows=4,cols=5,k=4"])
    assert "Warning" not in bounded.stdout, bounded.stdout


# ---- 8 x 8: the first move waits for alpha-beta, not the solver's 128-bit compile ------------------------------


def test_an_early_position_past_64_bits_needs_only_alpha_betas_code() -> None:
    """The solver leaves 8 x 8 positions with more than 40 empty cells to alpha-beta: such a move needs
    alpha-beta's compiled code, not the solver's 128-bit compile (a minute, cold); in reach, the solver's;
    for any position, alpha-beta's first (queued first in the background), then the solver's."""
    solver, game = make_agent("solver"), ConnectX(8, 8, 4)
    keys = lambda steps: [s.key for s in steps]  # noqa: E731
    early = keys(prepare.steps_of(solver, game, game.from_moves("4455")))
    assert not any(k.startswith("solver") for k in early), early
    assert keys(prepare.steps_of(solver, game, game.from_moves("12345678" * 3)))[-1] == "solver search 128"
    every = keys(prepare.steps_of(solver, game))
    assert every[-1] == "solver search 128" and every.index("alphabeta") < every.index("solver tables 128"), every
