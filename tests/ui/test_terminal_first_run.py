"""A newcomer's first run of ``zerosum play`` (numba's cache empty), as an audit found it:

1. a hint waited for the solver's whole compile (18 s) whatever ``--solver-time`` said, and then said "0.41 s";
2. on an 80-column terminal the wait line was cut before its estimate (``... compiling for 15 s, ``);
3. a timed engine's first move waited for its compile (``mcts:time=0.5 is thinking: 6.6 s``) and its move
   line said 0.48 s.

Now a hint waits for the solver's code at most ``--solver-time`` seconds, then alpha-beta answers, saying so;
the wait line fits the terminal (shorter words, the estimate first); a timed engine keeps its limit, its
compiled code's loading counted in; and a time shown is the search's, with the wait for its code said apart.

The quick tests run the terminal's own code on a slow stand-in for a compile; the slow ones are ``zerosum
play`` in a pseudo-terminal on a cold numba cache (test_terminal_waits.py's helpers).
"""

from __future__ import annotations

import os
import re
import time
from typing import Any

import pytest

from zerosum import ConnectX
from zerosum.agents import prepare
from zerosum.agents.base import Limits, SearchAgent, SearchResult
from zerosum.ui.hints import LiveRow
from zerosum.ui.terminal import PlaySession
from zerosum.ui.terminal_view import Output

import pty_play
from test_terminal_waits import Screen, env_for, slow_step

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="a pseudo-terminal needs fork")

#: the audit's position: past the opening book, so a hint needs the solver's search
PAST_BOOK = "4444355564"


class Stand(SearchAgent):
    """An engine whose compiled code is a slow step (a compile's stand-in) and whose search keeps its time
    limit as the real ones do (:func:`zerosum.agents.prepare.settle_search`)."""

    name = "stand"
    LIMITS = ("time",)

    def __init__(self, steps: list[prepare.Step], **kw: Any) -> None:
        super().__init__(**kw)
        self.steps = steps

    def preparation(self, game: Any, state: Any = None) -> list[prepare.Step]:
        return self.steps

    def search(self, game: Any, state: Any, tracer: Any = None) -> SearchResult:
        start = time.perf_counter()
        deadline = None if self.limits.time is None else start + self.limits.time
        prepare.settle_search(self.steps, start, deadline)
        if deadline is not None:
            time.sleep(max(0.0, deadline - time.perf_counter()))
        return SearchResult(action=game.actions(state)[0], value=0.0, nodes=1, depth=1,
                            elapsed=time.perf_counter() - start)


def wait_lines(text: str) -> list[str]:
    """The wait lines in ``text`` as written (each draw a carriage return and the line, in plain text or
    colour), escape codes dropped."""
    pieces = re.split(r"[\r\n]", re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text))
    return [p.rstrip() for p in pieces if p.startswith(("preparing the engine", "alpha-beta is estimating"))
            or " is thinking: " in p]


def written(session: pty_play.Session, answer: int) -> str:
    """What ``zerosum play`` wrote after the ``answer``-th answer, until the next, as written."""
    sent = session.answers[answer][0]
    until = session.answers[answer + 1][0] if answer + 1 < len(session.answers) else float("inf")
    return b"".join(b for t, b in session.chunks if sent <= t < until).decode(errors="replace")


# ---- quick: the terminal's own code, a compile's stand-in ------------------------------------------------


def test_a_hint_waits_for_the_solvers_code_at_most_solver_time_then_alpha_beta_answers() -> None:
    """Defect 1: the solver's code still compiling (a 6 s stand-in), ``solver_time`` 0.6 s: alpha-beta answers
    after 0.6 s (it waited the whole compile), the hint says why, and its time says the wait apart."""
    step = slow_step(6.0, "the solver's search")
    prepare.start([step])
    game = ConnectX()
    screen = Screen()
    session = PlaySession(game, {1: None, 2: None}, lambda prompt: None, Output(screen, color=False),
                          game.parse_moves(PAST_BOOK), hint_time=0.3, solver_time=0.6,
                          hint_agent=Stand([step]))
    began = time.perf_counter()
    session.hint()
    took = time.perf_counter() - began
    shown = screen.getvalue()
    assert took < 3.5 and not step.ready, (took, shown)
    assert "Hint from alphabeta:time=0.3 (estimates)" in shown, shown
    # the time it waited, as waited: 0.6 s, or a little more on a loaded machine (0.7 s at load 6)
    waited = re.search(r"after (\d+\.\d) s preparing the engine", shown)
    assert waited is not None and 0.6 <= float(waited.group(1)) <= min(took, 1.0) + 0.05, shown
    assert "first run: the solver's search was still compiling after --solver-time 0.6 s, so alpha-beta " \
        "estimated" in shown, shown
    step.wait(10)


@pytest.mark.slow  # CI time: the slow cold-cache pty tests below cover it too
def test_the_wait_line_fits_the_terminal_with_its_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    """Defect 2: a compile that began before the wait, on an 80-column terminal: every wait line fits, with
    every figure (the estimate, the compile's time and the wait's); it was cut after ``compiling for 15 s, ``."""
    columns = 80
    monkeypatch.setenv("COLUMNS", str(columns))
    step = prepare.step(f"a long compile {time.perf_counter()}", "the solver's search", lambda: time.sleep(4.0),
                        cold=30.0)
    prepare.start([step])
    time.sleep(2.0)  # compiling (a first run) for 2 s before the wait begins
    screen = Screen()
    with LiveRow(Output(screen, color=False), idle="analysing", needs=[step]):
        time.sleep(1.2)
    lines = wait_lines(screen.getvalue())
    assert lines and all(len(line) < columns for line in lines), lines
    assert any(re.search(r"first run\): about \d+ s more; compiled [\d.]+ s, waited [\d.]+ s$", line)
               for line in lines), lines
    step.wait(10)


@pytest.mark.slow  # CI time: the slow cold-cache pty test below covers it too
def test_a_timed_engines_first_move_keeps_its_limit_while_its_code_compiles() -> None:
    """Defect 3: a timed engine (0.4 s) whose code compiles (a 4 s stand-in): it moves in its time, as its
    search does from Python (it waited the compile, calling it thinking, and said the search's 0.4 s)."""
    step = slow_step(4.0, "the stand-in's kernel")
    prepare.start([step])
    game = ConnectX()
    agent = Stand([step], limits=Limits(time=0.4))
    screen = Screen()
    session = PlaySession(game, {1: agent, 2: None}, lambda prompt: None, Output(screen, color=False))
    began = time.perf_counter()
    session.engine_turn(agent)
    took = time.perf_counter() - began
    shown = screen.getvalue()
    assert took < 1.5 and not step.ready, (took, shown)
    line = next(x for x in shown.splitlines() if "plays" in x)
    assert re.search(r", 0\.[3-6]\d s\.$", line), line  # its time, and no wait left out of it
    step.wait(10)


# ---- slow: zerosum play in a pseudo-terminal, numba's cache empty ---------------------------------------------


@pytest.mark.slow
def test_a_first_runs_hint_keeps_to_solver_time(tmp_path) -> None:
    """The audit's repro: ``--solver-time 2`` on a cold cache, ``h`` at the first prompt: alpha-beta answers
    within a few seconds (it took 18 s, the solver's whole compile), saying why and how long it waited."""
    session = pty_play.play(["--moves", PAST_BOOK, "--solver-time", "2"], env_for(str(tmp_path)), moves=0,
                            think=1.0, timeout=300, keys={0: "h"})
    turns = session.turns()
    assert turns and turns[0].answer == "h", session.text()[-2000:]
    print(f"\nthe first run's hint took {turns[0].seconds:.1f} s (--solver-time 2, --hint-time 1)")
    text = "".join(t for _, t in turns[0].chunks)
    assert turns[0].seconds < 2 + 1 + 4, (turns[0].seconds, text[-1500:])  # solver-time, hint-time, slack
    assert re.search(r"Hint from alphabeta:time=1 \(estimates\): .*, after 2\.\d s preparing the engine\.", text), text
    assert "so alpha-beta estimated" in text, text
    assert not turns[0].silent_pauses(limit=1.0), turns[0].silent_pauses(limit=1.0)


@pytest.mark.slow
@pytest.mark.parametrize("columns, color", [(80, False), (60, True)])
def test_a_first_runs_wait_line_fits_the_terminal(tmp_path, columns: int, color: bool) -> None:
    """The solver's compile waited for on a cold cache, the terminal 80 (plain) or 60 (colour) columns wide:
    every wait line fits, and the compile's estimate is on screen."""
    env = {**env_for(str(tmp_path)), "COLUMNS": str(columns)}
    args = ["--moves", PAST_BOOK, "--solver-time", "6"] + ([] if color else ["--no-color"])
    session = pty_play.play(args, env, moves=0, think=1.0, timeout=300, keys={0: "h"})
    assert session.answers and session.answers[0][1] == "h", session.text()[-2000:]
    lines = wait_lines(written(session, 0))
    assert lines and all(len(line) < columns for line in lines), [x for x in lines if len(x) >= columns]
    assert any(re.search(r"first run.*about \d+ s more", line) for line in lines), lines


@pytest.mark.slow
def test_a_first_runs_timed_engine_keeps_its_limit(tmp_path) -> None:
    """The audit's repro: ``--first mcts:time=0.5`` on a cold cache: the first move comes in about its half
    second (it took 6.6 s, the MCTS kernels' compile, called thinking), its line's time the search's."""
    session = pty_play.play(["--first", "mcts:time=0.5", "--second", "human"], env_for(str(tmp_path)), moves=0,
                            think=0.5, timeout=300)
    text = session.text()
    board = next(t for t, b in session.chunks if b"Moves:" in b)  # the game's first board
    played = next(t for t, b in session.chunks if b"plays " in b)
    print(f"\nthe first timed move came {played - board:.2f} s after the first board (cold cache)")
    line = next(x for x in text.splitlines() if "X (mcts:time=0.5) plays" in x)
    assert played - board < 2.5, (played - board, text[-2000:])
    assert re.search(r", 0\.[4-6]\d s\.$", line), line
