"""A traced search is bounded before it starts and while it runs (issue #20, item 6): ``zerosum explain``,
``zerosum.trace`` and the page's "why?" refuse a spec whose own budget is past ``max_nodes`` or ``max_time``,
and stop a search at the first node past either, each time with one error line.

Before: ``zerosum explain --agent mcts:sims=1000000000`` never finished, and ``sims=300000`` took 75 s to fail.
The CLI cases run ``zerosum explain`` as a real process, under a timeout, so a regression fails instead of hanging.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

import zerosum
from zerosum.errors import AgentError, GameError
from zerosum.trace import Recorder


def explain(*argv: str) -> tuple[int, str, float]:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "zerosum", "explain", *argv, "--depth", "0", "--no-boards"],
                          capture_output=True, text=True, timeout=300)
    return done.returncode, done.stderr, time.monotonic() - start


def test_explain_refuses_more_simulations_than_max_nodes_before_the_search_starts():
    code, err, seconds = explain("--agent", "mcts:sims=1000000000")
    assert code == 2 and err.count("\n") == 1 and seconds < 30, err
    assert "1,000,000,000 simulations" in err and "max_nodes allows (200,000, --max-nodes)" in err


def test_explain_node_budget_is_checked_during_the_search():
    code, err, seconds = explain("--agent", "alphabeta:depth=30", "--max-nodes", "3000")
    assert code == 2 and err.count("\n") == 1 and seconds < 30, err
    assert "more than 3,000 nodes (max_nodes, --max-nodes)" in err


def test_explain_time_bound_stops_a_search_that_runs_too_long():
    code, err, seconds = explain("--agent", "minimax:depth=12", "--max-nodes", "1000000", "--max-time", "1")
    assert code == 2 and err.count("\n") == 1 and seconds < 30, err
    assert "did not end within 1 s (max_time, --max-time)" in err


def test_explain_refuses_a_time_limit_above_max_time_before_the_search_starts():
    code, err, seconds = explain("--agent", "mcts:time=100", "--max-time", "5")
    assert code == 2 and "searches for 100 s, more than max_time allows (5 s, --max-time)" in err and seconds < 30


def test_explain_max_time_is_checked_as_usage():
    for bad in ("0", "-1", "nan", "3601", "x"):
        code, err, _ = explain("--max-time", bad)
        assert code == 2 and "--max-time" in err and err.count("\n") == 1, (bad, err)


def test_an_mcts_given_simulations_is_stopped_by_max_time_and_keeps_its_own_limits():
    agent = zerosum.make_agent("mcts:sims=150000")
    before = agent.limits
    start = time.perf_counter()
    with pytest.raises(AgentError, match=r"did not end within 1 s"):
        zerosum.trace(agent, "connect4", max_time=1)
    assert time.perf_counter() - start < 20
    assert agent.limits == before and agent.limits.time is None


def test_a_search_within_its_bounds_traces_the_same_tree_as_without_them():
    for spec in ("mcts:sims=300,seed=3", "alphabeta:depth=3", "minimax:depth=2"):
        bounded = zerosum.trace(spec, "connect4", "4453", max_time=60)
        agent = zerosum.make_agent(spec)
        free = Recorder(10**6, bounded.discounted)
        result = agent.search(bounded.game, bounded.state, tracer=free)
        assert (result.action, result.nodes, result.scores) == (bounded.result.action, bounded.result.nodes,
                                                                 bounded.result.scores), spec
        assert len(free.nodes) == len(bounded), spec


def test_the_pages_why_is_bounded_in_nodes_while_it_runs():
    from zerosum.ui.explain import check_explain, explain_job

    request = check_explain("connect4", "", "minimax:depth=6")
    with pytest.raises(AgentError, match=r"visits more than 1,000 nodes"):
        explain_job(request, max_nodes=1000)


def test_the_pages_why_is_bounded_in_time_while_it_runs():
    from zerosum.ui.explain import check_explain, explain_job

    request = check_explain("connect4", "", "mcts:sims=100000")
    start = time.perf_counter()
    with pytest.raises(AgentError, match=r"did not end within 1 s"):
        explain_job(request, max_time=1)
    assert time.perf_counter() - start < 20


@pytest.mark.parametrize("state", [5, 2.5, {3: 3}, b"44", zerosum.TicTacToe().initial_state,
                                   zerosum.ConnectX(cols=9).from_moves("99")])
def test_trace_answers_a_state_of_another_kind_with_one_game_error_line(state):
    with pytest.raises(GameError) as caught:
        zerosum.trace("alphabeta:depth=2", "connect4", state)
    assert "\n" not in str(caught.value) and "not a position of" in str(caught.value)
    # (a list of moves is a position: tests/agents/test_search_positions.py)


@pytest.mark.parametrize("kwargs", [{"max_time": 0}, {"max_time": -1.0}, {"max_time": float("nan")},
                                    {"max_time": True}, {"max_time": "5"}, {"max_time": 3601},
                                    {"max_nodes": "5"}, {"max_nodes": 2.0}])
def test_trace_answers_wrong_bounds_with_one_game_error_line(kwargs):
    with pytest.raises(GameError) as caught:
        zerosum.trace("alphabeta:depth=2", "tictactoe", **kwargs)
    assert "\n" not in str(caught.value) and next(iter(kwargs)) in str(caught.value)


@pytest.mark.parametrize("agent, game", [(5, "tictactoe"), (None, "tictactoe"), (object(), "tictactoe"),
                                         ("alphabeta:depth=2", 5), ("alphabeta:depth=2", None),
                                         ("alphabeta:depth=2", zerosum.TicTacToe)])
def test_trace_answers_a_wrong_agent_or_game_with_one_game_error_line(agent, game):
    with pytest.raises(GameError) as caught:
        zerosum.trace(agent, game)
    assert "\n" not in str(caught.value)
