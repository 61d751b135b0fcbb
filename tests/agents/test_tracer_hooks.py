"""The tracing hooks: a recording tracer sees every node the search counts, nested, with the search's values."""

from __future__ import annotations

from typing import Any

import pytest

from zerosum import ConnectX, TicTacToe, make_agent

from agent_helpers import random_position


class Recorder:
    def __init__(self) -> None:
        self.enters: list[tuple[Any, Any, int, Any, Any]] = []
        self.stack: list[int] = []
        self.left: list[tuple[int, Any, Any, int]] = []  # (depth of the node, value, cutoff, evals)
        self.tree: list[tuple[Any, Any, int, float]] = []

    def enter(self, state: Any, action: Any, depth: int, alpha: Any, beta: Any) -> None:
        assert depth == (self.stack[-1] + 1 if self.stack else 0)  # a child one ply below its parent
        self.enters.append((state, action, depth, alpha, beta))
        self.stack.append(depth)

    def leave(self, value: Any, cutoff: Any = None, evals: int = 0) -> None:
        assert self.stack, "a leave without an enter"
        assert cutoff in (None, "beta", "table", "depth", "terminal")
        self.left.append((self.stack.pop(), value, cutoff, evals))

    def mcts(self, parent: Any, action: Any, state: Any, visits: int, total: float) -> Any:
        handle = len(self.tree)
        assert parent is None or parent < handle  # parents before children
        self.tree.append((parent, action, visits, total))
        return handle

    def root_value(self) -> Any:
        return [value for depth, value, _, _ in self.left if depth == 0][-1]


CASES = [
    ("minimax", TicTacToe(), 3, 1),
    ("minimax:depth=3,eval=window", ConnectX(), 6, 2),
    ("minimax:discount=0,depth=2", ConnectX(rows=5, cols=4, k=4), 4, 3),
    ("alphabeta:plain=1", ConnectX(rows=4, cols=4, k=3), 6, 4),
    ("alphabeta:plain=1,depth=4,eval=window", ConnectX(), 8, 5),
    ("alphabeta:depth=4,eval=window", ConnectX(), 8, 6),  # full alpha-beta: its generic path when traced
    ("alphabeta:depth=4,tt=0", ConnectX(), 9, 7),
    ("alphabeta:depth=9", TicTacToe(), 2, 8),
]


@pytest.mark.parametrize("spec, game, plies, seed", CASES)
def test_traced_search_enters_every_counted_node_and_leaves_it_with_the_value(spec: str, game: Any, plies: int,
                                                                           seed: int) -> None:
    state = random_position(game, plies, seed)
    tracer = Recorder()
    traced = make_agent(spec).search(game, state, tracer=tracer)
    assert len(tracer.enters) == traced.nodes
    assert not tracer.stack and len(tracer.left) == len(tracer.enters)  # every enter left once
    assert tracer.root_value() == traced.value
    assert sum(evals for _, _, _, evals in tracer.left) == traced.evals
    assert tracer.enters[0][:3] == (state, None, 0)
    windowless = spec.startswith("minimax")
    assert all((alpha is None) == windowless for _, _, _, alpha, _ in tracer.enters)
    if ",eval=" in spec or "depth=3" in spec or "depth=2" in spec:
        assert traced.evals > 0 and any(cut == "depth" for _, _, cut, _ in tracer.left)
    # the same search without a tracer: the same answer (a traced search takes the generic path)
    generic = make_agent(spec + ("" if spec.startswith(("minimax", "alphabeta:plain")) else ",fast=0")).search(game, state)
    assert (generic.action, generic.value, generic.nodes, generic.evals) == (traced.action, traced.value,
                                                                            traced.nodes, traced.evals)
    assert set(traced.scores) == set(game.actions(state))
    assert traced.scores[traced.action] == traced.value


def test_traced_alphabeta_reports_fail_highs_and_table_answers() -> None:
    game = ConnectX()
    state = random_position(game, 8, 12)  # seed 11 ends in a proven loss before the table is of any use
    tracer = Recorder()
    make_agent("alphabeta:depth=5,eval=window").search(game, state, tracer=tracer)
    cutoffs = {cut for _, _, cut, _ in tracer.left}
    assert {"beta", "table", "depth"} <= cutoffs
    plain = Recorder()
    make_agent("alphabeta:plain=1,depth=4,eval=window").search(game, state, tracer=plain)
    assert "table" not in {cut for _, _, cut, _ in plain.left}


@pytest.mark.parametrize("spec", ["mcts:sims=300,seed=3", "mcts:plain=1,sims=300,seed=3",
                                  "mcts:sims=300,seed=3,playout=greedy"])
def test_traced_mcts_reports_its_final_tree(spec: str) -> None:
    game = ConnectX()
    state = random_position(game, 4, 21)
    tracer = Recorder()
    result = make_agent(spec).search(game, state, tracer=tracer)
    root = tracer.tree[0]
    assert root[0] is None and root[1] is None and root[2] == result.nodes == 300
    children = [node for node in tracer.tree if node[0] == 0]
    assert {action for _, action, _, _ in children} <= set(game.actions(state))
    for action, score in result.scores.items():
        visits, total = next((v, t) for _, a, v, t in children if a == action)
        assert score == (total / visits if visits else 0.0)
    # every node's visits are at least the sum of its children's
    for index, (_, _, visits, _) in enumerate(tracer.tree):
        assert visits >= sum(v for parent, _, v, _ in tracer.tree if parent == index)
