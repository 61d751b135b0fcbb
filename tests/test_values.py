"""The value algebra: one module, read by the Python searches and compiled by the numba kernels."""

from __future__ import annotations

import pytest

from zerosum import values as V


def test_win_and_loss_values_order_by_plies() -> None:
    assert V.win_value(1) > V.win_value(3) > V.HEURISTIC_BOUND > 0 > -V.HEURISTIC_BOUND > V.loss_value(2)
    assert V.loss_value(4) > V.loss_value(2) and V.INF > V.WIN
    assert V.is_proven(V.win_value(7)) and not V.is_proven(V.HEURISTIC_BOUND)
    assert V.plies_to_end(V.loss_value(6)) == 6


def test_to_child_inverts_to_parent_on_proven_and_heuristic_values() -> None:
    for v in (V.win_value(3), V.loss_value(5), 17, -V.HEURISTIC_BOUND, 0):
        assert V.to_child(V.to_parent(v)) == v
        assert V.to_parent(V.to_child(v)) == v
    assert V.to_parent(V.win_value(3)) == V.loss_value(4)  # one ply further away
    assert V.to_child(V.INF) == -V.INF and V.to_child(-V.INF) == V.INF


def test_clamp_keeps_heuristics_below_proven_values() -> None:
    assert V.clamp(10**12) == V.HEURISTIC_BOUND and V.clamp(-10**12) == -V.HEURISTIC_BOUND
    # fractions are kept (a student's evaluation may return any real number; #14)
    assert V.clamp(12.7) == 12.7 and V.clamp(-3) == -3
    assert V.clamp(V.HEURISTIC_BOUND + 0.5) == V.HEURISTIC_BOUND
    assert V.clamp(float("inf")) == V.HEURISTIC_BOUND and V.clamp(float("-inf")) == -V.HEURISTIC_BOUND


def test_clamp_refuses_nan_rather_than_scoring_it_the_upper_bound() -> None:
    # NaN once became +HEURISTIC_BOUND silently: the best value a heuristic can have, for no reason
    with pytest.raises(ValueError, match="NaN"):
        V.clamp(float("nan"))


@pytest.mark.parametrize("cells", [16, 42, 64])
def test_solver_scores_and_agent_values_convert_both_ways(cells: int) -> None:
    for ply in range(cells - 1):
        win_most = (cells + 2 - (ply + 1)) // 2  # winning with the very next stone
        loss_most = (cells + 2 - (ply + 2)) // 2  # losing to the stone after it
        assert V.plies_to_end(V.score_to_value(win_most, ply, cells)) == 1
        assert V.plies_to_end(V.score_to_value(-loss_most, ply, cells)) == 2
        for score in range(-loss_most, win_most + 1):
            value = V.score_to_value(score, ply, cells)
            assert V.value_to_score(value, ply, cells) == score
            assert (value > 0) == (score > 0) and (value == 0) == (score == 0)
            # the winner's stone falls on the winner's ply
            if score:
                assert (V.plies_to_end(value) % 2 == 1) == (score > 0)
    with pytest.raises(ValueError):
        V.value_to_score(5, 0, cells)


def test_numba_kernels_compile_the_same_value_rules() -> None:
    pytest.importorskip("numba")
    from zerosum.agents.kernels import alphabeta as kernel

    for v in (V.win_value(3), V.loss_value(5), 17, -V.HEURISTIC_BOUND - 1, V.INF, 10**12):
        assert kernel.to_parent(v) == V.to_parent(v) and kernel.to_child(v) == V.to_child(v)
        assert kernel.clamp(v) == V.clamp(v)
    assert kernel.clamp.py_func is V.clamp and kernel.to_parent.py_func is V.to_parent


def test_search_results_say_whether_their_value_is_exact() -> None:
    from zerosum import make_agent
    from zerosum.agents.base import WIN, SearchResult, win_value
    from zerosum.games.connectx import ConnectX
    from zerosum.games.tictactoe import TicTacToe

    assert WIN == V.WIN and win_value is V.win_value  # the agents' names are the algebra's
    assert SearchResult(action=0, value=V.loss_value(2)).exact  # a proven value is exact
    assert not SearchResult(action=0, value=0).exact
    game = TicTacToe()
    full = make_agent("alphabeta").search(game, game.initial_state)
    assert full.value == 0 and full.exact  # a draw found by searching every end
    cx = ConnectX()
    shallow = make_agent("alphabeta:depth=2").search(cx, cx.initial_state)
    assert not shallow.exact  # it rests on the evaluation
    three_in = game.result(game.result(game.result(game.initial_state, 0), 4), 1)
    assert make_agent("minimax").search(game, three_in).exact  # minimax to every end
    assert not make_agent("minimax:depth=1").search(game, three_in).exact
