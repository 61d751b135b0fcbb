"""A traced ``alphabeta:plain=1`` is the textbook's tree: an AIMA-style alpha-beta (max/min form, written here
from the textbook, sharing nothing with zerosum's searches) visits the same nodes per depth, cuts at the same
nodes, and returns the same value at every node, on fixed Tic-Tac-Toe and small Connect-X positions."""

from __future__ import annotations

from typing import Any

import pytest

import zerosum
from zerosum import ConnectX, Limits, TicTacToe
from zerosum.agents.alphabeta import AlphaBetaAgent

from trace_helpers import position

BIG = 10**9  # the textbook's utility scale, the documented value of a win in zerosum (values.WIN)


def centre(game: Any, state: Any, player: int) -> int:
    """A small evaluation for ``player``: stones nearer the centre column count more (antisymmetric)."""
    view = game.board_view(state)
    total = 0
    for row in view.cells:
        for c, who in enumerate(row):
            if who:
                weight = min(c, view.cols - 1 - c) + 1
                total += weight if who == player else -weight
    return total


def textbook(game: Any, state: Any, limit: int | None, evaluate: Any = None) -> dict[str, Any]:
    """AIMA's ALPHA-BETA-SEARCH, recording per node (a path of moves) its depth, value and whether it cut."""
    me = game.player(state)
    seen: dict[tuple[Any, ...], int] = {}
    values: dict[tuple[Any, ...], Any] = {}
    cuts: set[tuple[Any, ...]] = set()

    def leaf(s: Any, path: tuple[Any, ...]) -> Any:
        if game.is_terminal(s):
            return game.utility(s, me) * BIG
        if limit is not None and len(path) == limit:
            return evaluate(game, s, me)
        return None

    def max_value(s: Any, a: Any, b: Any, path: tuple[Any, ...]) -> Any:
        seen[path] = len(path)
        v = leaf(s, path)
        if v is None:
            v = -float("inf")
            for act in game.actions(s):
                v = max(v, min_value(game.result(s, act), a, b, path + (act,)))
                if v >= b:
                    cuts.add(path)
                    break
                a = max(a, v)
        values[path] = v
        return v

    def min_value(s: Any, a: Any, b: Any, path: tuple[Any, ...]) -> Any:
        seen[path] = len(path)
        v = leaf(s, path)
        if v is None:
            v = float("inf")
            for act in game.actions(s):
                v = min(v, max_value(game.result(s, act), a, b, path + (act,)))
                if v <= a:
                    cuts.add(path)
                    break
                b = min(b, v)
        values[path] = v
        return v

    value = max_value(state, -float("inf"), float("inf"), ())
    counts = [0] * (max(seen.values()) + 1)
    for depth in seen.values():
        counts[depth] += 1
    return {"value": value, "counts": counts, "cuts": cuts, "values": values}


CASES = [
    (TicTacToe(), 0, 0, None),
    (TicTacToe(), 2, 1, None),
    (TicTacToe(), 3, 2, None),
    (TicTacToe(), 4, 3, None),
    (ConnectX(rows=4, cols=4, k=3), 4, 4, None),
    (ConnectX(rows=4, cols=4, k=3), 6, 5, None),
    (ConnectX(rows=4, cols=5, k=4), 8, 6, None),
    (ConnectX(), 6, 7, 3),
    (ConnectX(), 10, 8, 4),
    (ConnectX(rows=5, cols=6, k=4), 5, 9, 3),
]


@pytest.mark.parametrize("game, plies, seed, depth", CASES)
def test_plain_alphabeta_traces_the_textbook_tree(game: Any, plies: int, seed: int, depth: int | None) -> None:
    state = position(game, plies, seed)
    agent = AlphaBetaAgent(plain=True, limits=Limits(depth=depth), eval=centre)
    tree = zerosum.trace(agent, game, state, max_nodes=500_000)
    truth = textbook(game, state, depth, centre)
    assert tree.counts_per_depth() == truth["counts"]
    assert len(tree) == tree.result.nodes == sum(truth["counts"])
    assert {node.path() for node in tree.cutoffs} == truth["cuts"]
    assert {node.path(): node.score for node in tree} == truth["values"]  # every node, from MAX's view
    assert tree.root.score == tree.result.value == truth["value"]
    for node in tree.cutoffs:  # what cut it: the last child searched, whose value reached beta
        assert node.cut_by is node.children[-1] and node.cut_by.value is not None
        assert -node.cut_by.value >= node.beta
        assert [c.action for c in node.children] + node.skipped(game) == list(game.actions(node.state))


def test_textbook_tree_has_cutoffs_to_compare() -> None:
    """The cases above are not trivially cut-free: the comparison of cut-offs has something to compare."""
    game = TicTacToe()
    truth = textbook(game, game.initial_state, None)
    assert len(truth["cuts"]) > 100 and sum(truth["counts"]) < 549_946  # fewer than minimax's nodes
