"""``zerosum play`` whose standard output is no terminal (``zerosum play | tee game.txt``, a script) says a wait on
the engines' preparation all the same (#21's audit, item 1): on a cold cache the solver's reply on 8 x 8 came
after 24.5 s of silence, then "after 24 s preparing the engine".  Now the wait is said on standard error, as
``zerosum analyze`` says it (``zerosum: preparing the engine (...), first run only: compiling for ...``), as soon
as a compile begins (or after a second), again every 10 s, and no more once the wait is over; the game's own
lines on standard output are what they were.

And the words name what is actually being prepared (item 4): a hint on 8 x 8 whose solver code waited behind
alpha-beta's kernel said "analysing ... (meanwhile alpha-beta's kernel is being prepared for later)", then "the
solver's 128-bit tables was still compiling", though those had not begun.

The quick tests use a slow stand-in for a compile (a step that sleeps), in this process and in a real ``zerosum
play`` whose engine is an agent file's class; the slow one is the audit's game on an empty numba cache.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from zerosum import ConnectX
from zerosum.agents import prepare
from zerosum.ui.hints import LiveRow
from zerosum.ui.terminal import PlaySession
from zerosum.ui.terminal_view import Output

from test_terminal_first_run import PAST_BOOK, Stand, wait_lines
from test_terminal_waits import Screen, slow_step

#: a safety net for any process: far past a cold compile on two busy cores
PATIENCE = 900


@pytest.fixture(autouse=True)
def idle() -> None:
    """Nothing under way in the background from another test: it would be what a wait here waits on."""
    for step in prepare.pending():
        assert step.wait(120)


def _said(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("zerosum: preparing the engine")]


def test_a_wait_without_a_terminal_is_said_on_standard_error(capsys) -> None:
    step = slow_step(3.5, "a test kernel")
    prepare.start([step])
    log = io.StringIO()  # a pipe's transcript: no terminal
    with LiveRow(Output(log, color=False), idle="the test is thinking", needs=[step]):
        prepare.warm([step])
    err = capsys.readouterr().err
    said = _said(err)
    assert said and said[0].startswith("zerosum: preparing the engine (a test kernel)"), err
    assert any(line.startswith("zerosum: preparing the engine (a test kernel), first run only: ") for line in said), err
    assert log.getvalue() == ""  # nothing in the transcript


def test_nothing_more_is_said_once_the_wait_is_over(capsys) -> None:
    step = slow_step(2.5, "a kernel for later")
    prepare.start([step])
    with LiveRow(Output(io.StringIO(), color=False), idle="the test is thinking", needs=[step]):
        pass  # the wait ends at once; the step goes on (it compiles, as it were, from 1.5 s on)
    assert step.wait(60)
    time.sleep(0.5)
    assert _said(capsys.readouterr().err) == []


SLOW_AGENT = '''
import time

from zerosum.agents import prepare
from zerosum.agents.base import Agent


class Slow(Agent):
    """An engine whose compiled code takes 4 s to prepare (a compile's stand-in)."""

    name = "slow"

    def preparation(self, game, state=None):
        return [prepare.step("slow kernel", "the slow agent's kernel", lambda: time.sleep(4.0), cold=5.0)]

    def __call__(self, game, state):
        return game.actions(state)[0]
'''


def test_zerosum_play_into_a_pipe_says_its_engines_wait_on_standard_error(tmp_path: Path) -> None:
    agent = tmp_path / "slow_agent.py"
    agent.write_text(textwrap.dedent(SLOW_AGENT))
    done = subprocess.run([sys.executable, "-m", "zerosum", "play", "--game", "tictactoe", "--first",
                           f"{agent}:Slow", "--second", "first"], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=PATIENCE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = _said(done.stderr)
    assert said and said[0].startswith("zerosum: preparing the engine (the slow agent's kernel)"), done.stderr
    assert any("first run only" in line for line in said), done.stderr
    assert "preparing the engine (" not in done.stdout  # the transcript is the game's, as before
    assert f"X ({agent}:Slow) plays 1" in done.stdout and "after 4" in done.stdout, done.stdout


def test_a_hint_names_the_step_it_waits_behind_and_not_a_step_that_has_not_begun() -> None:
    """The solver's code (a stand-in) is queued behind another step that compiles (alpha-beta's, as on 8 x 8):
    the wait line names that one, never "for later", and the hint's note says it was what still compiled."""
    release = threading.Event()
    ahead = slow_step(0, "alpha-beta's stand-in kernel", lambda: release.wait(60))  # until the hint is done
    behind = slow_step(0.1, "the solver's stand-in tables")
    prepare.start([ahead, behind])
    began = time.monotonic()
    while not ahead.running and time.monotonic() - began < 60:  # the background thread is at it
        time.sleep(0.01)
    game = ConnectX()
    screen = Screen()
    session = PlaySession(game, {1: None, 2: None}, lambda prompt: None, Output(screen, color=False),
                          game.parse_moves(PAST_BOOK), hint_time=0.3, solver_time=2.0, hint_agent=Stand([behind]))
    try:
        session.hint()
    finally:
        release.set()
    shown = screen.getvalue()
    lines = wait_lines(shown)
    assert any(line.startswith("preparing the engine (alpha-beta's stand-in kernel)") for line in lines), lines
    assert not any("for later" in line for line in shown.replace("\r", "\n").splitlines()
                   if line.startswith("analysing")), shown
    assert "first run: alpha-beta's stand-in kernel was still compiling (the solver's code waits behind it) after " \
        "--solver-time 2 s, so alpha-beta estimated" in shown, shown
    assert "the solver's stand-in tables was still compiling" not in shown
    assert ahead.wait(60) and behind.wait(60)


@pytest.mark.slow  # the solver's 128-bit code compiles from nothing: about half a minute
def test_the_audits_game_into_a_pipe_on_a_cold_cache_says_what_it_compiles(tmp_path: Path) -> None:
    """``zerosum play --game connect4-8x8 --moves 183741713783566681826722``, fully piped, ``2`` typed: the
    solver's reply waits for its compile (24 s in the audit, in silence)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "NUMBA_CACHE_DIR")}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")
    done = subprocess.run([sys.executable, "-m", "zerosum", "play", "--game", "connect4-8x8", "--moves",
                           "183741713783566681826722"], input="2\n", capture_output=True, text=True,
                          timeout=PATIENCE, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    said = _said(done.stderr)
    assert said and any(", first run only: compiling for " in line for line in said), done.stderr
    assert "O (solver) plays 1: win in 1 move" in done.stdout and "preparing the engine (" not in done.stdout, \
        done.stdout
