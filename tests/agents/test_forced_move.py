"""A move with no choice (one legal action) is made at once: alpha-beta and MCTS under a time limit search it for
a tenth of their time (``agents.budget.FORCED_SHARE``), still giving its score, rather than the whole time (a course
game of mostly forced moves took its full second a move).  Given depth, nodes or simulations, nothing changes."""

from __future__ import annotations

import time
from typing import Any

import pytest

import zerosum
from zerosum.agents.budget import FORCED_LEAST, FORCED_SHARE, deadline_of


class Corridor:
    """A course game whose first move has no choice (``0``); after it, three moves a turn for 40 plies, the
    sum of the moves decides: a tree no second searches through."""

    initial = ((), "MAX")

    def actions(self, s: Any) -> list[int]:
        return [0] if not s[0] else [1, 2, 3]

    def result(self, s: Any, a: int) -> Any:
        return (s[0] + (a,), "MIN" if s[1] == "MAX" else "MAX")

    def terminal_test(self, s: Any) -> bool:
        return len(s[0]) == 41

    def utility(self, s: Any, p: Any) -> int:
        won = sum(s[0]) % 2 == 0
        return (1 if won else -1) if p == "MAX" else (-1 if won else 1)

    def to_move(self, s: Any) -> Any:
        return s[1]


def test_the_deadline_of_a_forced_move_is_a_tenth_of_the_time() -> None:
    assert deadline_of(100.0, None) is None and deadline_of(100.0, None, True) is None
    assert deadline_of(100.0, 1.0) == pytest.approx(100.0 + 0.97 - 0.005)
    assert deadline_of(100.0, 2.0, True) == pytest.approx(100.0 + 2 * FORCED_SHARE * 0.97 - 0.005)
    assert deadline_of(100.0, 0.5, True) == pytest.approx(100.0 + FORCED_LEAST * 0.97 - 0.005)  # its least
    assert deadline_of(100.0, 0.05, True) == deadline_of(100.0, 0.05)  # a limit under it: all of it
    assert deadline_of(100.0, 0.001, True) == 100.0  # never before the start


@pytest.mark.parametrize("spec", ["mcts:time=0.05", "mcts:time=0.03", "alphabeta:time=0.05"])
def test_a_forced_move_under_a_short_time_is_still_scored(spec: str) -> None:
    # a tenth of 0.05 s left MCTS's root check no time: the forced move came back unscored (scores {})
    game = zerosum.get_game("connect4")
    state = game.states_of(game.parse_moves("446157447627521267226626417455511175"))[-1]
    found = zerosum.make_agent(spec).search(game, state)
    assert game.actions(state) == [found.action] and found.action in found.scores, found


@pytest.mark.parametrize("spec", ["alphabeta:time=2", "mcts:time=2"])
def test_a_forced_move_is_made_at_once_and_scored(spec: str) -> None:
    game = Corridor()
    agent = zerosum.make_agent(spec)
    began = time.perf_counter()
    found = agent.search(game, game.initial)
    took = time.perf_counter() - began
    assert found.action == 0 and 0 in found.scores
    assert took < 1.2, f"{spec} took {took:.2f} s on a forced move (its time: 2 s; a tenth is 0.2 s)"
    # the move after it has a choice: the whole time is used (the tree is too big to finish)
    began = time.perf_counter()
    agent.search(game, game.result(game.initial, 0))
    assert time.perf_counter() - began > 1.5


def test_a_forced_move_under_a_depth_is_searched_as_before() -> None:
    game = Corridor()
    found = zerosum.make_agent("alphabeta:depth=3").search(game, game.initial)
    assert found.action == 0 and found.depth == 3
