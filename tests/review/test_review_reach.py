"""A review past the solver's reach (8 x 8 before ply 24, where it would take hours to prove a position): the
heading streamed before the first mark claims no proof it cannot know of, alpha-beta's estimates there take
about the review's ``seconds`` a position, and the line after the rows says how many moves estimates judged.
A solver with a time a position (a board without an opening book) cannot promise proofs before the marks
say either.  One ply out of reach (41 empty cells, 8 x 8 ply 24) every move's position is within it, so the
solver judges that position too, by its moves' positions, and the mark agrees with the next row's."""

from __future__ import annotations

import json
import time

import pytest

import zerosum
from zerosum.reviewer import start_review
from zerosum.reviewer.text import heading, judged_line, table


def test_past_the_reach_the_streamed_heading_claims_no_proof_and_says_where_the_solver_judges() -> None:
    pytest.importorskip("zerosum.solver.solver")
    found, marks = start_review("4453", "connect4-8x8", seconds=0.05, line=0)
    first = heading(found)[0]  # what the command prints before the first mark
    assert "(exact)" not in first and not found.exact
    assert "(estimates unless proven: each value says which)" in first
    assert "from ply 24, at most 10 s a position" in first and "before ply 24, alpha-beta's estimates" in first
    list(marks)
    assert not any(m.exact for m in found.marks) and not found.exact
    assert judged_line(found).endswith("; 4 of them by estimates, not proofs)")
    assert "(exact)" not in table(found)


def test_a_solver_with_a_time_a_position_says_so_before_and_every_value_a_proof_after() -> None:
    pytest.importorskip("zerosum.solver.solver")
    found, marks = start_review("3344", "connectx:rows=4,cols=5,k=4", line=2)  # no book: 10 s a position
    assert "(estimates unless proven: each value says which)" in heading(found)[0] and not found.exact
    list(marks)
    assert found.exact and all(m.exact for m in found.marks)  # a small board: every position proven in time
    assert "(exact)" in table(found).splitlines()[0] and judged_line(found).endswith("; every value a proof)")


def test_past_the_reach_the_estimates_take_about_seconds_a_position() -> None:
    zerosum.review("4", game="connect4-8x8", seconds=0.05, line=0)  # compiled and warm
    began = time.perf_counter()
    found = zerosum.review("44531", game="connect4-8x8", seconds=0.05, line=0)
    took = time.perf_counter() - began
    assert len(found.marks) == 5 and not any(m.exact for m in found.marks)
    # 0.05 s a position (0.01 s a move at least: 0.08 s) is well under 1 s a position, the estimate's default
    assert took < 2.5, took


#: 23 plies of an 8 x 8 game: 41 empty cells, one ply out of the solver's reach; then 1 (ply 24), 2 and 3
LATE = "38841768642244713663132"


def test_one_ply_out_of_reach_every_moves_position_is_proven_and_the_mark_agrees_with_the_next_row(tmp_path,
                                                                                                   capsys):
    """The audit's game: ply 24's move 1 was a ``mistake (not proven)`` by alpha-beta's estimates (win in 2
    moves -> -8 est.), while the next row proved it kept the win; each move's position is within the solver's
    reach, so the mark is exact, and each move's value is the score the solver gives its position."""
    pytest.importorskip("zerosum.solver.solver")
    from zerosum import get_game, records
    from zerosum.analysis import service
    from zerosum.cli import main
    from zerosum.core.words import score_words

    game = get_game("connect4-8x8")
    path = tmp_path / "late.pgn"
    path.write_text(f'[Game "{game.spec}"]\n[Opening "{LATE}"]\n[Termination "unterminated"]\n\n'
                    '12... 1 13. 2 13... 3 *\n')
    assert records.read(path)[0].moves == ["1", "2", "3"]
    # --solver-time 60: the proof takes 4 to 8 s alone, more beside other tests on two cores
    assert main(["review", str(path), "--time", "0.05", "--line", "2", "--json", "--solver-time", "60"]) == 0
    marks = json.loads(capsys.readouterr().out)
    assert [m["ply"] for m in marks] == [24, 25, 26] and all(m["exact"] for m in marks), marks
    first, second = marks[0], marks[1]
    assert (first["move"], first["class"], first["before"], first["after"]) == \
        ("1", "good", "win in 2 moves", "win in 21 moves"), first
    assert first["slower"] == 19 and first["best"] == ["2"]
    assert second["before"] == "loss in 20 moves"  # the next row: the same result, one move nearer its end
    # every move's value is the solver's score of its position (zerosum analyze's best there), negated
    state = game.from_moves(LATE)
    solver = service(game).solver
    words = {game.format_action(c): score_words(-solver.solve(game.result(state, c)), state.ply, game.cells)
             for c in game.actions(state)}
    assert words["1"] == first["after"] and words["2"] == first["before"]
    said = {a["move"]: a["value"] for a in first["alternatives"]}
    assert all(words[m] == v for m, v in said.items()) and len(said) == 3
