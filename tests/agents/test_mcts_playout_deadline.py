"""MCTS's greedy and alpha-beta playouts keep a time limit on wide games: a playout the deadline interrupts (even
in the middle of choosing one move) is dropped, not counted; searches by simulations are as they were."""

from __future__ import annotations

import importlib
import random
import time
from typing import Any

import pytest

from zerosum import get_game, make_agent

importlib.import_module("zerosum.agents.alphabeta")  # the alpha-beta playout's code, imported before a clock starts


class Ladder:
    """Course-style: MAX picks 0 or 1, then MIN, MAX and MIN each pick a number below ``width``; an even total wins
    for MAX (so MIN always wins).  The root is narrow, so the root check is quick; from the second ply on, one
    greedy playout move at MAX's second turn tries every move and every reply (``width**2`` moves), one alpha-beta
    playout move sorts ``width`` lists of ``width`` moves."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.initial = (0, 0, "MAX")

    def actions(self, state: Any) -> list[int]:
        if self.is_terminal(state):
            return []
        return [0, 1] if state[0] == 0 else list(range(self.width))

    def result(self, state: Any, action: int) -> Any:
        return (state[0] + 1, state[1] + action, "MIN" if state[2] == "MAX" else "MAX")

    def is_terminal(self, state: Any) -> bool:
        return bool(state[0] >= 4)

    def utility(self, state: Any, player: Any) -> int:
        return 1 if (state[1] % 2 == 0) == (player == "MAX") else -1

    def to_move(self, state: Any) -> Any:
        return state[2]


@pytest.mark.parametrize("playout, width", [("greedy", 2000), ("alphabeta", 6000)])
def test_a_wide_playout_keeps_the_time_limit(playout: str, width: int) -> None:
    agent: Any = make_agent(f"mcts:playout={playout},time=0.5,seed=1")
    start = time.perf_counter()
    found = agent.search(Ladder(width), None)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.5 + 4.5  # generous: it took 29 s (greedy), 15 s (alpha-beta)
    assert found.action in (0, 1)
    # one playout takes millions of moves here: none ends in time, none is counted, no value is claimed
    assert found.nodes == 0 and "value" in found.unknown and not found.scores
    assert found.describe() == "no value"


@pytest.mark.parametrize("playout", ["greedy", "alphabeta"])
def test_playouts_that_end_in_time_are_counted(playout: str) -> None:
    agent: Any = make_agent(f"mcts:playout={playout},time=1,seed=2")
    found = agent.search(Ladder(20), None)
    assert found.nodes > 0 and "value" not in found.unknown


@pytest.mark.parametrize("playout", ["greedy", "alphabeta"])
def test_a_policy_stops_at_its_deadline(playout: str) -> None:
    from zerosum.agents.mcts_playouts import depth_searcher, play_out, playout_policy
    from zerosum.agents.tactics import OutOfTime
    from zerosum.games.course_objects import course_game

    game = course_game(Ladder(3000))
    state = game.result(game.result(game.initial_state, 0), 0)  # MAX to move: every move lets MIN win at once
    policy = playout_policy(game, playout, random.Random(0), time.perf_counter() + 0.01, depth_searcher())
    start = time.perf_counter()
    with pytest.raises(OutOfTime):
        policy(state, game.actions(state))  # about 9 million moves (greedy) or 3,000 sorts (alpha-beta) to finish
    assert time.perf_counter() - start < 3
    with pytest.raises(OutOfTime):
        play_out(game, state, policy, time.perf_counter() - 1)


def test_a_timed_alpha_beta_playout_plays_the_moves_of_the_untimed_one() -> None:
    from zerosum.agents.mcts_playouts import depth_searcher, playout_policy

    game: Any = get_game("tictactoe")
    untimed = playout_policy(game, "alphabeta", random.Random(0), None, depth_searcher())
    timed = playout_policy(game, "alphabeta", random.Random(0), time.perf_counter() + 600, depth_searcher())
    for moves in ("", "5", "51", "513", "5137", "12", "1235"):
        state = game.from_moves(moves)
        assert timed(state, game.actions(state)) == untimed(state, game.actions(state)), moves


def test_alphabeta_reads_the_clock_at_a_wide_node(monkeypatch: pytest.MonkeyPatch) -> None:
    # a node of CHECK_EVERY moves or more reads the clock before sorting them: on 20,000 moves, reading it every
    # CHECK_EVERY nodes alone overran `time=0.3` by 0.47 s (and MCTS's alpha-beta playouts `time=0.5` by 0.44 s)
    import types

    from zerosum.agents import alphabeta
    from zerosum.games.course_objects import course_game

    readings = iter([0.0])  # the search starts at 0; every later reading is past the deadline
    monkeypatch.setattr(alphabeta, "time", types.SimpleNamespace(perf_counter=lambda: next(readings, 100.0)))
    game = course_game(Ladder(alphabeta.CHECK_EVERY))  # the root: 2 moves; every child: CHECK_EVERY moves
    found = make_agent("alphabeta:time=1").search(game, game.initial_state)
    assert found.depth == 1 and found.nodes < alphabeta.CHECK_EVERY  # depth 2 stopped at its first wide node
    monkeypatch.undo()
    narrow = course_game(Ladder(alphabeta.CHECK_EVERY - 1))  # a narrower node does not read the clock itself
    readings = iter([0.0])
    monkeypatch.setattr(alphabeta, "time", types.SimpleNamespace(perf_counter=lambda: next(readings, 100.0)))
    assert make_agent("alphabeta:time=1").search(narrow, narrow.initial_state).nodes >= alphabeta.CHECK_EVERY
