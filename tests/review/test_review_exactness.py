"""Whether a review says its values are proofs (the player audit): the solver named as the judge proves, and
gives the default judge's full refutation lines; a judge that estimates cannot say before it has judged, and
says so, then says every value was a proof when it was."""

from __future__ import annotations

import pytest

import zerosum
from zerosum.reviewer import start_review
from zerosum.reviewer.text import heading, judged_line, table


@pytest.mark.parametrize("agent", ["solver", "solver:time=5"])
def test_the_solver_named_as_judge_proves_and_refutes_with_full_lines(agent) -> None:
    pytest.importorskip("zerosum.solver.solver")
    found, marks = start_review("44444413", "connect4", agent, line=8)
    first = heading(found)[0]  # what the command prints before the first mark
    assert "(exact)" in first and "estimates" not in first and found.engine == agent
    list(marks)
    default = zerosum.review("44444413", game="connect4", line=8)
    assert all(m.exact for m in found.marks) and found.exact
    assert [m.line for m in found.marks] == [m.line for m in default.marks]
    assert found.marks[6].line == "2 3 5 5 5 5 5 6".split()
    assert "estimates" not in table(found) and "every value a proof" in judged_line(found)


def test_a_judge_that_estimates_says_each_value_says_which_then_that_all_were_proofs() -> None:
    # time enough to prove every position under load (the empty board in pure Python): a judge that finishes stops early
    found, marks = start_review("5192", "tictactoe", seconds=30.0)
    before = heading(found)[0]
    assert "(estimates unless proven" in before and "(estimates)" not in before
    list(marks)
    assert all(m.exact for m in found.marks) and found.exact
    after = table(found).splitlines()[0]
    assert "(exact)" in after and "estimates)" not in after.replace("estimates unless", "")
    assert judged_line(found).endswith("; every value a proof)")


def test_a_review_with_estimates_says_so_when_done() -> None:
    found = zerosum.review("4444", game="connect4", agent="alphabeta:depth=1")
    assert not found.exact and heading(found)[0].count("(estimates)") == 1
    assert "every value" not in judged_line(found)
