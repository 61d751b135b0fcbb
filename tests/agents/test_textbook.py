"""The textbook variants against an independent textbook implementation written here (AIMA-style max/min
recursion over the Game protocol, counting every state visited, the root included)."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from zerosum import ConnectX, TicTacToe, make_agent
from zerosum.values import WIN

from agent_helpers import random_position


class Textbook:
    """AIMA's minimax and alpha-beta (max/min form), utilities scaled by WIN, an optional depth cut-off."""

    def __init__(self, game: Any, evaluation: Callable[..., Any] | None = None, depth: int | None = None):
        self.game, self.evaluation, self.depth = game, evaluation, depth
        self.visited = 0

    def _leaf(self, state: Any, depth: int, me: int) -> Any:
        g = self.game
        if g.is_terminal(state):
            return g.utility(state, me) * WIN
        if self.depth is not None and depth == self.depth:
            return self.evaluation(g, state, me)
        return None

    def minimax(self, state: Any) -> tuple[Any, Any]:
        g, me = self.game, self.game.player(state)

        def max_value(s: Any, d: int) -> Any:
            self.visited += 1
            leaf = self._leaf(s, d, me)
            if leaf is not None:
                return leaf
            return max(min_value(g.result(s, a), d + 1) for a in g.actions(s))

        def min_value(s: Any, d: int) -> Any:
            self.visited += 1
            leaf = self._leaf(s, d, me)
            if leaf is not None:
                return leaf
            return min(max_value(g.result(s, a), d + 1) for a in g.actions(s))

        self.visited += 1  # the root
        best_action, best = None, -float("inf")
        for a in g.actions(state):
            v = min_value(g.result(state, a), 1)
            if v > best:
                best_action, best = a, v
        return best_action, best

    def alphabeta(self, state: Any) -> tuple[Any, Any]:
        g, me = self.game, self.game.player(state)
        inf = float("inf")

        def max_value(s: Any, alpha: Any, beta: Any, d: int) -> Any:
            self.visited += 1
            leaf = self._leaf(s, d, me)
            if leaf is not None:
                return leaf
            v = -inf
            for a in g.actions(s):
                v = max(v, min_value(g.result(s, a), alpha, beta, d + 1))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v

        def min_value(s: Any, alpha: Any, beta: Any, d: int) -> Any:
            self.visited += 1
            leaf = self._leaf(s, d, me)
            if leaf is not None:
                return leaf
            v = inf
            for a in g.actions(s):
                v = min(v, max_value(g.result(s, a), alpha, beta, d + 1))
                if v <= alpha:
                    return v
                beta = min(beta, v)
            return v

        self.visited += 1  # the root
        best_action, best = None, -inf
        for a in g.actions(state):
            v = min_value(g.result(state, a), best, inf, 1)
            if v > best:
                best_action, best = a, v
        return best_action, best


def _positions() -> list[tuple[Any, Any]]:
    ttt = TicTacToe()
    small = ConnectX(rows=4, cols=4, k=3)
    out = [(ttt, ttt.initial_state)] + [(ttt, random_position(ttt, plies, seed)) for plies, seed in
                                         ((1, 1), (2, 2), (3, 3), (4, 4), (5, 5))]
    out += [(small, random_position(small, plies, 10 + plies)) for plies in (4, 5, 6, 7)]
    return out


POSITIONS = _positions()


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_plain_alphabeta_counts_and_values_equal_the_textbook(index: int) -> None:
    game, state = POSITIONS[index]
    book = Textbook(game)
    action, value = book.alphabeta(state)
    found = make_agent("alphabeta:plain=1").search(game, state)
    assert (found.nodes, found.value, found.action) == (book.visited, value, action)
    assert found.exact


#: the whole Tic-Tac-Toe tree (index 0: 6 s) in the slow run only: CI counts minimax over it against the
#: published 549,946 nodes (tests/games/test_course_games.py)
@pytest.mark.parametrize("index", [pytest.param(0, marks=pytest.mark.slow), *range(1, len(POSITIONS))])
def test_minimax_without_discount_counts_and_values_equal_the_textbook(index: int) -> None:
    game, state = POSITIONS[index]
    book = Textbook(game)
    action, value = book.minimax(state)
    found = make_agent("minimax:discount=0").search(game, state)
    assert (found.nodes, found.value, found.action) == (book.visited, value, action)
    discounted = make_agent("minimax").search(game, state)
    assert discounted.nodes == book.visited  # the discount changes values, never which states are visited


@pytest.mark.parametrize("seed", range(4))
def test_plain_alphabeta_at_fixed_depth_with_an_evaluation_equals_the_textbook(seed: int) -> None:
    game = ConnectX(rows=5, cols=4, k=4)
    state = random_position(game, 3 + seed, 40 + seed)
    window = game.evaluations()["window"]
    for depth in (2, 3, 4):
        book = Textbook(game, window, depth)
        action, value = book.alphabeta(state)
        found = make_agent(f"alphabeta:plain=1,depth={depth},eval=window").search(game, state)
        assert (found.nodes, found.value, found.action) == (book.visited, value, action), depth
        mini = Textbook(game, window, depth)
        m_action, m_value = mini.minimax(state)
        m_found = make_agent(f"minimax:discount=0,depth={depth},eval=window").search(game, state)
        assert (m_found.nodes, m_found.value, m_found.action) == (mini.visited, m_value, m_action)
        assert (m_value, m_action) == (value, action)  # alpha-beta plays move for move like minimax


def test_plain_alphabeta_takes_the_generic_path_and_a_node_budget_stops_it() -> None:
    game = ConnectX(rows=4, cols=4, k=3)
    state = random_position(game, 5, 15)
    plain = make_agent("alphabeta:plain=1").search(game, state)
    assert plain.nodes == make_agent("alphabeta:plain=1,fast=0").search(game, state).nodes
    # the homework's rule (tests/arena/test_node_counting.py checks it against a textbook search)
    stopped = make_agent(f"alphabeta:plain=1,depth=99,nodes={plain.nodes - 1}").search(game, state)
    assert stopped.nodes == plain.nodes - 1
    assert make_agent(f"alphabeta:plain=1,depth=99,nodes={plain.nodes}").search(game, state).nodes == plain.nodes


def test_minimax_discount_takes_the_fastest_win_and_discount_0_the_first_in_game_order() -> None:
    game = TicTacToe()
    state = game.from_board([[2, 2, 1], [0, 1, 0], [0, 0, 0]], to_move=1)
    me = game.player(state)
    fastest = make_agent("minimax").search(game, state)
    plain = make_agent("minimax:discount=0").search(game, state)
    assert game.winner(game.result(state, fastest.action)) == me  # a win at once
    # without a discount every win is as good: the first action in game order that wins at all
    book = Textbook(game)
    wins = [a for a in game.actions(state) if Textbook(game).minimax(game.result(state, a))[1] == -WIN]
    assert plain.action == wins[0] and plain.action != fastest.action
    assert plain.value == book.minimax(state)[1] == WIN
    assert fastest.value > plain.scores[plain.action] - WIN  # discounted: the faster win scores more
    assert fastest.scores[fastest.action] > fastest.scores[plain.action]


def test_plain_mcts_is_uct_without_root_tactics_or_proofs() -> None:
    game = TicTacToe()
    state = game.from_board([[2, 2, 1], [0, 1, 0], [0, 0, 0]], to_move=1)  # X wins at once on 6
    full = make_agent("mcts:sims=200,seed=1").search(game, state)
    assert full.nodes == 0  # the root check plays the win without searching
    plain = make_agent("mcts:plain=1,sims=200,seed=1").search(game, state)
    assert plain.nodes == 200 and not plain.proven  # no proofs: a mean reward
    assert set(plain.scores) == set(game.actions(state))
    again = make_agent("mcts:plain=1,sims=200,seed=1").search(game, state)
    assert (again.action, again.value, again.scores) == (plain.action, plain.value, plain.scores)
    c4 = ConnectX()
    assert make_agent("mcts:plain=1,sims=50,seed=2").search(c4, c4.initial_state).nodes == 50  # never numba


def test_plain_mcts_refuses_another_playout() -> None:
    from zerosum.errors import AgentError

    with pytest.raises(AgentError, match="random playouts only"):
        make_agent("mcts:plain=1,playout=greedy")
