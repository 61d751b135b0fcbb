"""Alpha-beta's estimates compare every move at one depth (zerosum.analysis.estimate): the moves' searches go
deeper in lockstep, so a position symmetric by the rules gets a symmetric estimate, whatever the budget."""

from __future__ import annotations

from typing import Any

import pytest

from zerosum import get_game, make_agent
from zerosum.analysis.estimate import child_values, estimated, lockstep_values


def _mirror(game: Any, values: dict[int, float]) -> dict[int, float]:
    """Connect-X values with each column's value moved to its mirror column."""
    return {game.cols - 1 - c: v for c, v in values.items()}


@pytest.mark.parametrize("spec", ["connect4-8x8", "connect4", "connectx:rows=4,cols=6,k=3"])
@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_an_empty_board_at_a_fixed_depth_is_valued_mirror_symmetric(spec: str, depth: int) -> None:
    game = get_game(spec)
    state = game.initial_state
    found = estimated(game, state, game.actions(state), 1.0, depth=depth)
    assert found.depth == depth and found.engine == f"alphabeta:depth={depth}"
    assert set(found.values) == set(game.actions(state))
    assert found.values == _mirror(game, found.values), found.values


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_othello_s_four_symmetric_openings_are_valued_alike(depth: int) -> None:
    game = get_game("othello")  # the four first moves are images of each other under the board's symmetries
    state = game.initial_state
    found = estimated(game, state, game.actions(state), 1.0, depth=depth)
    assert len(found.values) == 4 and len(set(found.values.values())) == 1, found.values


@pytest.mark.parametrize("spec", ["connect4-8x8", "connect4"])
def test_a_timed_estimate_is_the_fixed_depth_estimate_of_the_depth_every_move_completed(spec: str) -> None:
    game = get_game(spec)
    state = game.initial_state
    actions = game.actions(state)
    found = estimated(game, state, actions, 0.3)
    assert found.engine == "alphabeta:time=0.3" and found.depth is not None and found.depth >= 1
    assert found.values == _mirror(game, found.values), (found.depth, found.values)
    again = estimated(game, state, actions, 1.0, depth=found.depth)
    assert again.values == found.values


@pytest.mark.parametrize(("board", "spec"), [pytest.param("connect4-8x8", "alphabeta:nodes=10000,fast=0",
                                                           marks=pytest.mark.slow),  # 8 s on the generic path
                                              ("connect4-8x8", "alphabeta:nodes=10000"),
                                              ("connect4", "alphabeta:nodes=1000")])
def test_a_node_budget_is_shared_in_lockstep_and_the_agent_keeps_its_own(board: str, spec: str) -> None:
    # these budgets, a move's own, once valued the columns at different depths (8 x 8: 10, 14, 34, -14, ...)
    game = get_game(board)
    state = game.initial_state
    agent = make_agent(spec)
    limits, fast = agent.limits, agent.fast
    values, exact, nodes = child_values(game, state, game.actions(state), agent)
    assert values == _mirror(game, values), values
    assert not exact and 0 < nodes <= limits.nodes * len(values)
    assert agent.limits is limits and agent.fast is fast and agent.first_depth == 1  # the caller's agent is left as it was
    assert child_values(game, state, game.actions(state), make_agent(spec)) == (values, exact, nodes)
    again, _, _ = child_values(game, state, game.actions(state), agent)  # its table kept: deeper, still one depth
    assert again == _mirror(game, again), again


def test_moves_that_end_the_game_and_other_agents_keep_their_values() -> None:
    game = get_game("connectx:rows=2,cols=3,k=2")
    state = game.from_moves("12")  # X to move: 1 or 2 wins at once (vertically or on the diagonal)
    found = estimated(game, state, game.actions(state), 0.2)
    assert found.values[0] > 0 and found.best in (0, 1) and found.exact
    values, _, _ = child_values(game, state, game.actions(state), make_agent("mcts:sims=50,seed=1"))
    assert set(values) == set(game.actions(state))


def test_a_round_searches_its_own_depth_at_once_so_tictactoe_is_proven_for_one_deepening_s_nodes() -> None:
    # every first move of Tic-Tac-Toe draws; the rounds once deepened from 1 in each of them (47 k nodes, three
    # times one deepening's), so a review under load ran out of time and judged the empty board by estimates
    game = get_game("tictactoe")
    state = game.initial_state
    actions = game.actions(state)
    values, exact, nodes = child_values(game, state, actions, make_agent("alphabeta:nodes=1000000"))
    assert exact and values == {a: 0 for a in actions}
    once = make_agent("alphabeta:depth=9")
    deepening = sum(once.search(game, game.result(state, a)).nodes for a in actions)
    assert nodes <= deepening, (nodes, deepening)


@pytest.mark.parametrize(("spec", "moves", "nodes", "fast"), [
    ("othello", "", 4000, 0), ("othello", "", 9000, 0),  # the generic path (Othello has no other)
    ("connect4-8x8", "4455", 3000, 0), ("connect4-8x8", "4455", 20000, 1), ("connect4", "445", 3000, 1)])
def test_rounds_that_start_at_their_own_depth_give_the_fixed_depth_values(spec: str, moves: str, nodes: int,
                                                                          fast: int) -> None:
    game = get_game(spec)
    state = game.from_moves(moves) if moves else game.initial_state
    if spec == "othello":
        for _ in range(3):
            state = game.result(state, game.actions(state)[0])
    actions = game.actions(state)
    values, _, _, reached = lockstep_values(game, state, actions, make_agent(f"alphabeta:nodes={nodes},fast={fast}"))
    assert reached is not None and reached >= 2
    assert values == estimated(game, state, actions, 1.0, depth=reached).values, reached
