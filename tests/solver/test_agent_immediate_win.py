"""The solver agent answers at once, exact, with a column no other can beat (audit: a move that wins at once was
played as ``win (distance not yet proven)`` after 1 s and 0.5-3.4 M nodes, the agent waiting for the exact
distance of every other winning column).  A proven score at the ceiling of every column not yet scored ends the
search (:meth:`~zerosum.solver.progressive_state.ProgressiveState.settled`): a win at once, at once; a win with
the mover's next move but one once the columns ahead of it are proven not to win."""

from __future__ import annotations

import time

import pytest

from zerosum import get_game, make_agent
from zerosum.solver.progressive import WDL, Progressive
from zerosum.solver.solver import Solver

from process_helpers import zerosum_run
from solver_truth import random_positions  # type: ignore[import-not-found]

#: 8 x 8, O to move: column 1 wins at once (``zerosum analyze``: best column 1, score +20, win in 1 move)
WIDE, WINS_AT_ONCE = "4444562336737377433446628", 0


def test_play_says_a_win_at_once_in_words() -> None:
    """The audit's command: the solver's move line said ``win (distance not yet proven) (exact win/draw/loss),
    484,020 nodes, 1.01 s``."""
    done = zerosum_run(["play", "--game", "connect4-8x8", "--moves", WIDE], stdin="q\n")
    assert "O (solver) plays 1: win in 1 move (exact)" in done.stdout, done.stdout[-1500:] + done.stderr[-800:]


@pytest.mark.parametrize("how", ["face", "report", "time control"])
def test_a_win_at_once_is_answered_at_once_and_exact(how: str) -> None:
    """Where a person waits (``search_within``, as the faces and the page's ``/api/move`` call it), with a report
    of each result, and under a time control (``search``, as the arena calls it)."""
    game = get_game("connect4-8x8")
    state = game.from_moves(WIDE)
    agent = make_agent("solver:time=1" if how == "time control" else "solver")
    agent.warm_up(game)
    seen: list = []
    began = time.perf_counter()
    if how == "time control":
        found = agent.search(game, state)
    else:
        found = agent.search_within(game, state, 1.0, seen.append if how == "report" else None)
    took = time.perf_counter() - began
    assert found.exact and found.action == WINS_AT_ONCE and found.describe() == "win in 1 move", found
    assert agent.last_proof is None and agent.last_fallback is None
    assert found.nodes == 0 and took < 0.5, (found.nodes, took)  # nothing searched: the move ends the game


def test_a_win_with_the_next_move_but_one_leaves_the_slower_wins_unscored() -> None:
    """7 x 6: the centre (column 4) wins with the mover's second move (score 15, the most a move that does not
    win at once can score); 5, 2 and 3 win too, slower (14, 9, 9).  Their exact distances are not needed: the
    answer is the one the full analysis gives, without them (the agent used to score every winning column)."""
    game = get_game("connect4")
    state = game.from_moves("2677535435")
    agent = make_agent("solver")
    agent.warm_up(game)
    full = agent.search(game, state)  # no time: every column scored
    assert full.scores == {0: -2, 1: 9, 2: 9, 3: 15, 4: 14, 5: -4, 6: -4}
    found = agent.search_within(game, state, 10.0)
    assert found.exact and (found.action, found.value) == (full.action, full.value) == (3, full.value)
    assert found.scores == {3: 15}, found.scores


def test_the_early_answer_is_the_full_analysis_move() -> None:
    """On random 7 x 6 positions (from ply 10) the answer that stops early is the move and value the untimed
    search finds scoring every column (centre-most among the best), and every ceiling bounds the true score."""
    game = get_game("connect4")
    agent = make_agent("solver")
    agent.warm_up(game)
    solver = Solver(game)
    for state in random_positions(game, 24, seed=11, min_ply=10):
        full = agent.search(game, state)
        found = agent.search_within(game, state, 60.0)
        assert found.exact and (found.action, found.value) == (full.action, full.value), game.to_moves(state)
        run = Progressive(solver, state)
        before = {c: run.ceiling(c) for c in run.order}  # nothing searched yet
        list(run.events(kinds=(WDL,)))
        after = {c: run.ceiling(c) for c in run.order}  # win/draw/loss known
        for c, score in full.scores.items():
            assert before[c] >= after[c] >= score, (game.to_moves(state), c, before[c], after[c], score)
