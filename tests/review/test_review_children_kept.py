"""A move's value and the next row agree (audit: on 8 x 8, ply 24 of 38841768642244713663132123, the solver
ran out of its time a position before it had proven every move's position; all it had proven was dropped and
alpha-beta estimated every move, so the move 1 was ``mistake (not proven): win in 2 moves -> -36 est.`` while the
next row proved the position it leads to, ``loss in 20 moves``).  Now the moves the solver proved keep their
exact values, and a move's position, valued anyway for the next row, is valued before the move is classified:
where it is proven, the move's value is that value seen from the mover.

The positions here are 8 x 8 ones with 41 empty cells (ply 24, one ply out of the solver's reach: each move's
position is proven, within the solver's time a position in all) in which one or more moves' positions take
the solver millions of nodes (seconds) and the others a few thousand at most: with a small time a position
the solver cannot prove them all, and proves the rest at once."""

from __future__ import annotations

import pytest

import zerosum
from zerosum import get_game, records
from zerosum.values import to_parent

#: 23 plies of 8 x 8: X to move; 3 to 8 win, 1 and 2 lose.  Proving every move's win/draw/loss takes about
#: 1.4 M nodes (7 takes 785 k), so the solver has no exact score in 0.1 s; 2's position (O to move, wins in 7
#: moves) is proven whole in under 10 k nodes
LOST_IN_TIME = "21287381824111655418381"
#: 23 plies of 8 x 8: X to move, every move loses.  Every move's win/draw/loss takes under 0.5 M nodes, and
#: every exact score but 6's (1.4 M nodes) and 8's (7.2 M) under 3 k: in 1 s the solver proves 1, 2, 3, 4, 5
#: and 7, not 8
SOME_PROVEN = "66845744474122258113447"


def _late(opening: str, *moves: str, **options: object) -> list[zerosum.reviewer.Mark]:
    """The marks of ``moves`` played after the 8 x 8 ``opening`` (played, not judged)."""
    text = f'[Game "connect4-8x8"]\n[Opening "{opening}"]\n\n{" ".join(moves)} *\n'
    options = {"seconds": 0.05, "line": 0, "threads": 1, **options}
    return zerosum.review(records.parse(text)[0], **options).marks  # type: ignore[arg-type]


def _solver_words(opening: str, move: str) -> str:
    """The value of ``move`` after ``opening`` in words, from the solver's score of the position it leads to."""
    from zerosum.analysis import service
    from zerosum.core.words import score_words

    game = get_game("connect4-8x8")
    state = game.from_moves(opening)
    child = game.result(state, game.parse_action(move))
    return score_words(-service(game).solver.solve(child), state.ply, game.cells)


def _agree(marks: list[zerosum.reviewer.Mark]) -> None:
    """Every row whose ``before`` is exact: the row before it has that value, seen from its mover, as ``after``."""
    for mark, after in zip(marks, marks[1:]):
        if after.exact:
            assert mark.after == to_parent(int(after.before)), (mark.verdict(), after.verdict())


def test_where_the_solver_runs_out_of_time_the_move_is_valued_by_its_proven_position() -> None:
    pytest.importorskip("zerosum.solver.solver")
    first, second = _late(LOST_IN_TIME, "2", "1", solver_time=0.1)
    assert not first.exact  # the solver did not prove every move's position in 0.1 s (1.4 M nodes)
    assert second.exact and second.words(second.before) == "win in 7 moves"
    # before: "good: +100000 est. -> 0 est.", the next row proving the win for O
    assert first.after == to_parent(int(second.before)) and first.words(first.after) == "loss in 7 moves"
    assert first.kind in ("mistake", "blunder") and not first.kept, first.verdict()
    assert first.words(first.after) == _solver_words(LOST_IN_TIME, "2")


def test_the_moves_the_solver_proved_before_its_time_ran_out_keep_their_exact_values() -> None:
    pytest.importorskip("zerosum.solver.solver")
    played = _solver_words(SOME_PROVEN, "7")  # the solver's code loaded before the review's 1 s starts
    first, second = _late(SOME_PROVEN, "7", "1", solver_time=1.0)
    assert not first.exact  # 8's exact score takes 7 M nodes: not proven in 1 s
    exact = [(move, first.words(v)) for move, v in first.alternatives if not first.words(v).endswith("est.")]
    assert exact, first.alternatives  # before: every alternative estimated ("-390 est." for 5, a loss in 7)
    assert all(words == _solver_words(SOME_PROVEN, move) for move, words in exact), exact
    assert first.words(first.after) == played == "loss in 6 moves"
    _agree([first, second])


#: a 5 x 5 game judged by alpha-beta to depth 3 (no clock: the same values every run).  Row 17's move 1 was
#: "best: +100000 est." where row 18, every move of its position proven, says the position after it is a loss
#: in 2 moves for O
DEPTH_3 = "135535332445532114242"
#: games whose rows must agree, by three judges: the solver (4 x 5, no book: within its time a position; 7 x 6:
#: its book), alpha-beta to a depth, and alpha-beta with a time (Tic-Tac-Toe: it proves every position)
GAMES = [
    (DEPTH_3, "connectx:rows=5,cols=5,k=4", "alphabeta:depth=3"),
    ("3334425215512414", "connectx:rows=5,cols=5,k=4", "alphabeta:depth=2"),
    ("1355523544424345213322111", "connectx:rows=5,cols=5,k=4", "alphabeta:depth=3"),
    # row 17's position is exact once its own move is valued by row 18's: row 16 waits for both (a chain)
    ("55542252124413433311", "connectx:rows=4,cols=5,k=4", "alphabeta:depth=2"),
    ("3 3 4 4 2 1 5", "connectx:rows=4,cols=5,k=4", None),
    ("4453321", "connect4", None),
    ("5 1 9 2 3 7 4 6 8", "tictactoe", "alphabeta:depth=1"),
    ("1 5 9 3 7 4 6 2 8", "tictactoe", "alphabeta:time=0.05"),
]


@pytest.mark.parametrize("moves, spec, agent", GAMES)
def test_a_rows_after_is_the_next_rows_before_whenever_that_is_exact(moves: str, spec: str,
                                                                      agent: str | None) -> None:
    """The property: for every row i whose next row's ``before`` is exact, row i's ``after`` is that value seen
    from the other side (so where both are exact they are the same value)."""
    if agent is None:
        pytest.importorskip("zerosum.solver.solver")
    found = zerosum.review(moves, game=spec, agent=agent, line=2)
    assert len(found.marks) == len(get_game(spec).parse_moves(moves))
    assert any(m.exact for m in found.marks)
    _agree(found.marks)


def test_a_review_without_refutation_lines_of_a_game_the_solver_does_not_take() -> None:
    """``line=0`` (``--line 0``) on Tic-Tac-Toe: a move that is not the best has no line to search, and no solver
    is borrowed for it (before: 'the solver does not take tictactoe')."""
    found = zerosum.review("5 1 9 2", game="tictactoe", agent="alphabeta", line=0)
    assert [(m.kind, m.line) for m in found.marks][-1] == ("mistake", [])
