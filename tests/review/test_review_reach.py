"""A review past the solver's reach (8 x 8 before ply 25, where it would take hours to prove a position): the
heading streamed before the first mark claims no proof it cannot know of, alpha-beta's estimates there take
about the review's ``seconds`` a position, and the line after the rows says how many moves estimates judged.
A solver with a time a position (a board without an opening book) cannot promise proofs before the marks
say either."""

from __future__ import annotations

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
    assert "from ply 25, at most 10 s a position" in first and "before ply 25, alpha-beta's estimates" in first
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
