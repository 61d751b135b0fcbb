"""The review's marks against a fresh exact solve (zerosum.Solver, a new instance with its book) of the
positions before and after every move of the recorded benchmark games (benchmarks/review_games.pgn: the
solver against alpha-beta and MCTS on 7 x 6).  The classes are worked out here from the solver's scores by
the stated rules: the mover's score before (the best) and after (the move played), best when equal, good when
the sign is kept (slower by the difference of the scores, a move of the winner a point), mistake from +
to 0 or 0 to -, blunder from + to -.  Three games in CI; all 21 (the last a 42-ply full-board draw) in a slow test."""

from __future__ import annotations

import pathlib

import pytest

import zerosum
from zerosum import records
from zerosum.core.words import score_words

GAMES = records.read(pathlib.Path(__file__).parents[2] / "benchmarks" / "review_games.pgn")


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def expected_class(before: int, after: int) -> str:
    if after == before:
        return "best"
    if sign(after) == sign(before):
        return "good"
    return "blunder" if (sign(before), sign(after)) == (1, -1) else "mistake"


def mover_score(solver, state, child) -> int:
    """The mover's score of the move into ``child``, from the solver's score of ``child`` (negamax), or from
    the board when the move ends the game (Pons' convention: a win on ply p scores (cells + 2 - p) // 2)."""
    out = solver.game.outcome(child)
    if out is not None:
        return 0 if out.winner is None else (solver.game.cells + 2 - child.ply) // 2
    return -solver.solve(child)


def check_game(record) -> None:
    review = zerosum.review(record)
    game = record.game
    states = record.states()
    assert len(review.marks) == len(record.moves) == len(states) - 1  # every move marked
    solver = zerosum.Solver(game)  # fresh: no table shared with the review's
    kinds = set()
    for mark, state, after_state, move in zip(review.marks, states, states[1:], record.moves):
        assert mark.move == move and mark.exact
        before = solver.solve(state)
        after = mover_score(solver, state, after_state)
        want = expected_class(before, after)
        assert mark.kind == want, (record.tags["Round"], mark.ply, move, before, after)
        kinds.add(want)
        assert mark.words(mark.before) == score_words(before, state.ply, game.cells)
        assert mark.slower == (before - after if want == "good" else 0)
        scores = {a: mover_score(solver, state, game.result(state, a)) for a in game.actions(state)}
        assert max(scores.values()) == before
        assert sorted(mark.best) == sorted(game.format_action(a) for a, s in scores.items() if s == before)
        keep = [a for a, s in scores.items() if sign(s) == sign(before)]
        assert mark.only == (want in ("best", "good") and len(scores) > 1 and keep == [mark.action])
        if want != "best" and mark.line:  # the refutation starts with a best reply to the move played
            reply = game.parse_action(mark.line[0], after_state)
            assert mover_score(solver, after_state, game.result(after_state, reply)) == -after
    return kinds


@pytest.mark.parametrize("index", [6, 12, 13])  # 23, 23 and 24 plies: solver first, then MCTS first
def test_marks_agree_with_a_fresh_exact_solve(index):
    check_game(GAMES[index])


@pytest.mark.slow
def test_all_twenty_recorded_games_agree_with_a_fresh_exact_solve():
    kinds = set()
    for record in GAMES:
        kinds |= check_game(record)
    assert kinds == {"best", "good", "mistake", "blunder"}  # the games exercise every class


def test_a_board_without_an_opening_book_is_judged_exactly_too():
    """4 x 5, no book: the solver proves every position within its time a position."""
    record = records.parse('[Game "connectx:rows=4,cols=5,k=4"]\n\n3 3 4 4 2 1 5 *\n')[0]
    kinds = check_game(record)
    assert "best" in kinds


def test_where_the_solver_runs_out_of_time_alpha_beta_estimates_and_the_marks_say_so():
    found = zerosum.review("4455", game="connectx:rows=7,cols=8,k=4", solver_time=0.3, seconds=0.3, line=2)
    assert "at most 0.3 s a position" in found.engine and len(found.marks) == 4
    assert not found.marks[0].exact and not found.exact  # 2 stones on 7 x 8: not proven in 0.3 s
    assert found.marks[0].words(found.marks[0].before).endswith(" est.")
