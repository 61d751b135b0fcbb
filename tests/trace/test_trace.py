"""zerosum.trace: traced trees agree with the search's own nodes, value, evaluations and scores."""

from __future__ import annotations

from typing import Any

import pytest

import zerosum
from zerosum import ConnectX, TicTacToe, make_agent
from zerosum.errors import AgentError, GameError

from trace_helpers import position


def paths_below(game: Any, state: Any, depth: int | None) -> list[int]:
    """Every state minimax visits, counted per depth by enumerating move sequences (no search at all)."""
    counts: list[int] = []
    frontier = [state]
    d = 0
    while frontier:
        counts.append(len(frontier))
        if depth is not None and d == depth:
            break
        frontier = [game.result(s, a) for s in frontier if not game.is_terminal(s) for a in game.actions(s)]
        d += 1
    return counts


SEARCHES = [
    ("minimax", TicTacToe(), 3, 1),
    ("minimax:discount=0", TicTacToe(), 2, 2),
    ("minimax:depth=3,eval=window", ConnectX(), 6, 3),
    ("minimax:discount=0,depth=2", ConnectX(rows=5, cols=4, k=4), 4, 4),
    ("alphabeta:plain=1", ConnectX(rows=4, cols=4, k=3), 6, 5),
    ("alphabeta:plain=1,depth=4,eval=window", ConnectX(), 8, 6),
    ("alphabeta:depth=4,eval=window", ConnectX(), 8, 7),  # the full alpha-beta, on its generic path
    ("alphabeta:depth=5,tt=0", ConnectX(rows=4, cols=5, k=4), 6, 8),
    ("alphabeta:depth=9", TicTacToe(), 2, 9),
]


@pytest.mark.parametrize("spec, game, plies, seed", SEARCHES)
def test_traced_tree_agrees_with_the_search(spec: str, game: Any, plies: int, seed: int) -> None:
    state = position(game, plies, seed)
    tree = zerosum.trace(spec, game, state)
    result = tree.result
    assert len(tree) == result.nodes == sum(tree.counts_per_depth())
    assert tree.root.value == result.value and tree.root.state == state and tree.root.action is None
    assert tree.evals == result.evals
    assert all(node.value is not None for node in tree)  # a finished search leaves every node it entered
    for action, score in result.scores.items():  # a root move's score in the tree is the search's
        assert tree.child(action) is not None and tree.child(action).score == score
    assert tree.pv[0] == result.action
    if spec.startswith("minimax"):
        depth = make_agent(spec).limits.depth
        assert tree.counts_per_depth() == paths_below(game, state, depth)
        assert tree.pv == result.pv
    # the same search untraced (the generic path) counts the same nodes and finds the same value
    again = make_agent(spec + ("" if spec.startswith(("minimax", "alphabeta:plain")) else ",fast=0")).search(game, state)
    assert (again.nodes, again.value, again.action) == (result.nodes, result.value, result.action)


def test_iterative_deepening_records_each_iteration_and_draws_the_last() -> None:
    game = ConnectX()
    tree = zerosum.trace("alphabeta:depth=4,eval=window", game, position(game, 8, 7))
    assert len(tree.iterations) == tree.result.depth == 4
    assert tree.root is tree.iterations[-1]
    assert sum(root.size() for root in tree.iterations) == len(tree)
    assert tree.counts_per_depth(root_only=True) == [sum(1 for n in tree.root.walk() if n.depth == d)
                                                    for d in range(5)]
    assert {"beta", "depth"} <= {node.cutoff for node in tree}


@pytest.mark.parametrize("spec", ["mcts:sims=300,seed=3", "mcts:plain=1,sims=200,seed=4"])
def test_traced_mcts_root_visits_are_the_simulations(spec: str) -> None:
    game = ConnectX()
    tree = zerosum.trace(spec, game, position(game, 4, 21))
    sims = make_agent(spec).limits.simulations
    assert tree.root.visits == tree.result.nodes == sims
    for action, score in tree.result.scores.items():
        assert tree.child(action).mean == score == tree.child(action).score
    for node in tree:
        assert node.visits >= sum(child.visits for child in node.children)
    assert tree.pv == tree.result.pv  # the most visited line


def test_trace_takes_a_game_spec_and_a_move_string() -> None:
    by_spec = zerosum.trace("alphabeta:plain=1", "tictactoe", "1 4 2 5 9 7")
    game = TicTacToe()
    by_state = zerosum.trace(make_agent("alphabeta:plain=1"), game, game.parse_position("1 4 2 5 9 7")[1])
    assert by_spec.counts_per_depth() == by_state.counts_per_depth()
    assert by_spec.result.action == by_state.result.action == 2  # cell 3 completes X's top row


def test_zerosum_trace_is_the_function_and_the_module() -> None:
    import zerosum.trace as module

    assert zerosum.trace is module and module.Tree is zerosum.trace.Tree
    assert isinstance(zerosum.trace("minimax:depth=1", "tictactoe"), module.Tree)


def test_a_trace_past_max_nodes_stops_with_one_line() -> None:
    with pytest.raises(AgentError, match="more than 1,000 nodes") as caught:
        zerosum.trace("alphabeta:plain=1", "tictactoe", max_nodes=1000)
    assert "\n" not in str(caught.value) and "depth" in str(caught.value)
    with pytest.raises(AgentError, match="max_nodes"):
        zerosum.trace("minimax:depth=1", "tictactoe", max_nodes=0)
    with pytest.raises(AgentError, match="max_nodes"):
        zerosum.trace("minimax:depth=1", "tictactoe", max_nodes=10**9)


@pytest.mark.parametrize("agent", ["random", lambda game, state: game.actions(state)[0]])
def test_what_does_not_search_has_no_tree(agent: Any) -> None:
    with pytest.raises(AgentError, match="does not search") as caught:
        zerosum.trace(agent, "tictactoe")
    assert "\n" not in str(caught.value)


def test_a_finished_game_has_nothing_to_trace() -> None:
    with pytest.raises(GameError, match="game is over"):
        zerosum.trace("minimax", "tictactoe", "1 4 2 5 3")


@pytest.mark.slow
def test_the_solver_is_traced_at_the_root_alone() -> None:
    game = ConnectX(rows=4, cols=5, k=4)
    tree = zerosum.trace("solver", game, position(game, 4, 1))
    assert len(tree) == 1 and tree.root.value == tree.result.value and "not traced" in tree.note


def test_a_search_stopped_by_its_node_budget_draws_its_last_finished_iteration() -> None:
    game = ConnectX()
    tree = zerosum.trace("alphabeta:nodes=500,eval=window", game, position(game, 4, 3))
    assert len(tree) == tree.result.nodes == 500
    unfinished = [node for node in tree if node.value is None]
    assert unfinished and tree.iterations[-1].value is None  # the abandoned iteration's open nodes
    assert tree.root is tree.iterations[-2] and tree.root.value == tree.result.value
    assert tree.root.size() + sum(root.size() for root in tree.iterations if root is not tree.root) == 500
    import xml.etree.ElementTree as ET

    ET.fromstring(tree.svg(None))
    assert tree.text(depth=1) and tree.dot()
