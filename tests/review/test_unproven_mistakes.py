"""A mistake judged by estimates is not proven (audit: on 9 x 7 before the solver's reach, a move that kept a
win -- the solver proves the position after it won -- was marked '7?' mistake and became the player's first
decisive error, because the win proven before the move was not proven after it): it says so, takes PGN's '?!'
and is nobody's first decisive error.  An exact review's mistakes keep '?'."""

from __future__ import annotations

import zerosum
from zerosum import records
from zerosum.reviewer import Mark


def test_a_missed_win_judged_by_estimates_is_a_mistake_not_proven() -> None:
    # X has 1 2 3 on the bottom row and wins at 4 at once; it plays 7: alpha-beta (depth 2) proves the win in
    # 1 before the move, and after it sees only an estimate (O blocks at 4)
    found = zerosum.review("1122337", agent="alphabeta:depth=2")
    mark = found.marks[-1]
    assert (mark.kind, mark.exact, mark.proven, mark.suffix) == ("mistake", False, False, "?!")
    assert mark.verdict().startswith("mistake (not proven): win in 1 move -> ")
    assert found.summary()[1]["mistake"] == 1 and found.summary()[1]["first_error"] is None
    assert "7?!" in found.table() and "mistake (not proven)" in found.table()
    text = records.format(found.record())
    assert "7?! {mistake (not proven)" in text
    (record,) = records.parse(text)
    assert record.notes[6].mark == "?!" and record.notes[6].comment.startswith("mistake (not proven)")


def test_an_exact_review_keeps_its_proven_marks() -> None:
    """The solver on the same game: 7 threw the win away for good (a loss in 16), a blunder, proven."""
    found = zerosum.review("1122337")
    mark = found.marks[-1]
    assert (mark.kind, mark.exact, mark.proven, mark.suffix) == ("blunder", True, True, "??")
    assert [m.suffix for m in found.marks] == ["??", "??", "?", "", "?", "??", "??"]
    assert found.summary()[1]["first_error"] == {"ply": 1, "move": "1", "class": "blunder"}


def test_a_blunder_by_estimates_is_proven() -> None:
    mark = Mark(3, 1, "4", 3, 1e9 - 5, -1e9 + 5, "blunder", exact=False)
    assert mark.proven and mark.suffix == "??"
    assert Mark(3, 1, "4", 3, 50, -1e9 + 5, "mistake", exact=False).suffix == "?!"
