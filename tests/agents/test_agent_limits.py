"""Hardening: every search stops at whichever limit comes first, trees and tables have memory bounds, every
numeric option has a documented range, the first timed move searches like the rest, and the agents work
without numba."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from zerosum import ConnectX, Limits, TicTacToe, make_agent
from zerosum.agents import mcts
from zerosum.agents.alphabeta import MAX_TT, AlphaBetaAgent
from zerosum.agents.base import MAX_DEPTH, MAX_NODES, MAX_SIMULATIONS, MAX_TIME
from zerosum.agents.mcts import MAX_C, MCTSAgent
from zerosum.agents.minimax import MAX_WEIGHT, MinimaxAgent
from zerosum.cli import main
from zerosum.errors import AgentError

from agent_helpers import immediate_wins, tactical_positions

#: the three MCTS paths: numba on bitboards, numba on cell arrays, the generic Game protocol
MCTS_PATHS = ["bitboards", "cells", "generic"]
#: the time-limit test's paths in CI: "cells" (5 s) in the slow run only
TIMED_PATHS = ["bitboards", pytest.param("cells", marks=pytest.mark.slow), "generic"]


def mcts_agent(path: str, **limits: float) -> MCTSAgent:
    agent = MCTSAgent(limits=Limits(**limits), seed=1, fast=path != "generic")  # type: ignore[arg-type]
    agent._cells = path == "cells"
    return agent


# ---- item 5: whichever limit comes first; a bounded tree ---------------------------------------------


@pytest.mark.parametrize("path", TIMED_PATHS)
def test_mcts_stops_at_the_time_limit_even_with_a_huge_simulation_budget(path: str) -> None:
    game = ConnectX()
    mcts_agent(path, simulations=10).search(game, game.initial_state)  # load the kernels
    agent = mcts_agent(path, simulations=100_000_000, time=0.3)
    result = agent.search(game, game.initial_state)
    assert 0 < result.nodes < 100_000_000
    # generous slack: before the fix the numba paths ran for minutes (a full suite beside two busy processes once
    # took 1.16 s on the generic path)
    assert result.elapsed < 0.3 + 1.5


@pytest.mark.parametrize("path", MCTS_PATHS)
def test_mcts_stops_at_the_simulation_budget_even_with_a_long_time_limit(path: str) -> None:
    game = ConnectX()
    result = mcts_agent(path, simulations=300, time=3600).search(game, game.initial_state)
    assert result.nodes == 300


@pytest.mark.parametrize("path", MCTS_PATHS)
def test_mcts_tree_stops_growing_at_its_memory_bound(path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = ConnectX()
    monkeypatch.setattr(mcts, "TREE_MEMORY", 40_000)
    if path == "generic":
        cap = 40_000 // (mcts.GENERIC_NODE_BYTES + mcts._state_bytes(game.initial_state))
    else:
        cap = 40_000 // mcts.FAST_NODE_BYTES
    agent = mcts_agent(path, simulations=5000)
    result = agent.search(game, game.initial_state)
    assert cap - game.cols < agent.tree_nodes <= cap  # it filled the tree, and went no further
    assert result.nodes == 5000  # the simulations went on from the leaves of the full tree
    assert result.action in game.actions(game.initial_state)
    # the same budget without the bound grows a larger tree
    monkeypatch.setattr(mcts, "TREE_MEMORY", 256 * 2**20)
    unbounded = mcts_agent(path, simulations=5000)
    unbounded.search(game, game.initial_state)
    assert unbounded.tree_nodes > cap


def test_mcts_documented_tree_bound() -> None:
    assert mcts.TREE_MEMORY == 256 * 2**20
    assert mcts.TREE_MEMORY // mcts.FAST_NODE_BYTES == 3_355_443
    assert "3,355,443" in (mcts.__doc__ or "")
    assert 500_000 < mcts.TREE_MEMORY // (mcts.GENERIC_NODE_BYTES + mcts._state_bytes(ConnectX().initial_state))


@pytest.mark.slow
def test_mcts_full_size_tree_stays_within_its_memory_bound() -> None:
    code = """
        import json, resource
        from zerosum import ConnectX, make_agent
        from zerosum.agents import mcts
        game = ConnectX()
        make_agent("mcts:sims=100").search(game, game.initial_state)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        agent = make_agent("mcts:sims=4000000,seed=3")
        result = agent.search(game, game.initial_state)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(json.dumps([agent.tree_nodes, mcts.TREE_MEMORY // mcts.FAST_NODE_BYTES, (after - before) * 1024]))
    """
    nodes, cap, grown = json.loads(run_fresh(code).strip().splitlines()[-1])
    assert cap - 7 < nodes <= cap
    assert grown < 1.2 * 256 * 2**20


def test_alphabeta_generic_table_stays_within_its_size() -> None:
    game = ConnectX()
    agent = make_agent("alphabeta:depth=6,tt=100,fast=0")
    assert isinstance(agent, AlphaBetaAgent)
    result = agent.search(game, game.initial_state)
    assert result.nodes > 1000 and 0 < len(agent._tt) <= 100
    agent.search(game, game.result(game.initial_state, 3))
    assert len(agent._tt) <= 100


# ---- item 8 (agents): documented ranges ------------------------------------------------------------


@pytest.mark.parametrize(
    "spec,words",
    [
        (f"alphabeta:depth={MAX_DEPTH + 1}", f"0..{MAX_DEPTH}"),
        ("alphabeta:nodes=0", f"1..{MAX_NODES}"),
        (f"alphabeta:nodes={MAX_NODES + 1}", f"1..{MAX_NODES}"),
        ("alphabeta:nodes=99999999999999999999", f"1..{MAX_NODES}"),  # above 2**63
        ("alphabeta:depth=٣", f"0..{MAX_DEPTH}"),  # Arabic-Indic three
        ("alphabeta:depth=4²", f"0..{MAX_DEPTH}"),
        (f"alphabeta:time={MAX_TIME + 1:g}", "at most 3600"),
        ("alphabeta:time=nan", "at most 3600"),
        ("alphabeta:time=inf", "at most 3600"),
        ("alphabeta:time=0", "above 0"),
        ("alphabeta:depth=1,tt=30000000", f"0..{MAX_TT}"),
        ("alphabeta:tt=-1", f"0..{MAX_TT}"),
        (f"alphabeta:three={MAX_WEIGHT + 1}", f"{-MAX_WEIGHT}..{MAX_WEIGHT}"),
        (f"minimax:two={-MAX_WEIGHT - 1}", f"{-MAX_WEIGHT}..{MAX_WEIGHT}"),
        (f"mcts:sims={MAX_SIMULATIONS + 1}", f"1..{MAX_SIMULATIONS}"),
        ("mcts:c=101", f"0..{MAX_C:g}"),
        ("mcts:c=-0.5", f"0..{MAX_C:g}"),
        ("random:seed=-1", "0..9223372036854775807"),
        ("mcts:seed=99999999999999999999", "0..9223372036854775807"),
    ],
)
def test_out_of_range_agent_options_are_one_agent_error_line(spec: str, words: str) -> None:
    with pytest.raises(AgentError) as info:
        make_agent(spec)
    message = str(info.value)
    assert "\n" not in message and spec.partition(":")[2].split(",")[-1].partition("=")[0] in message
    assert words in message


def test_every_numeric_option_names_its_range() -> None:
    from zerosum.agents.base import LIMIT_OPTIONS, SEED_OPTION, flag

    options = [opt for _, opt in LIMIT_OPTIONS.values()] + [SEED_OPTION]
    for cls in (AlphaBetaAgent, MCTSAgent, MinimaxAgent):  # yes/no flags (fast, plain, discount) have no range
        options += [opt for key, opt in cls.OPTIONS.items() if key not in ("eval", "playout") and opt.kind is not flag]
    for opt in options:
        assert opt.check is not None and ".." in opt.help + opt.expect or "at most" in opt.expect, opt


def test_out_of_range_agent_option_on_the_command_line_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "alphabeta:depth=1,tt=30000000", "random", "--games", "2"]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "tt=" in captured.err and str(MAX_TT) in captured.err


@pytest.mark.parametrize(
    "changes",
    [{"time": float("nan")}, {"time": float("inf")}, {"time": MAX_TIME + 1}, {"time": 0}, {"depth": 2**64},
     {"depth": -1}, {"nodes": MAX_NODES + 1}, {"simulations": 0}, {"simulations": 2**63}, {"depth": True}],
)
def test_limits_built_from_python_are_range_checked(changes: dict[str, float]) -> None:
    with pytest.raises(AgentError) as info:
        Limits(**changes)  # type: ignore[arg-type]
    assert "\n" not in str(info.value) and next(iter(changes)) in str(info.value)


def test_agent_constructors_check_their_ranges() -> None:
    with pytest.raises(AgentError, match="tt="):
        AlphaBetaAgent(tt=30_000_000)
    with pytest.raises(AgentError, match="c="):
        MCTSAgent(c=float("nan"))
    with pytest.raises(AgentError, match="three="):
        MinimaxAgent(three=10**9)
    assert AlphaBetaAgent(tt=MAX_TT).tt_size == MAX_TT and MCTSAgent(c=MAX_C).c == MAX_C


# ---- item 18: loading compiled code happens before the clock -----------------------------------------


def run_fresh(code: str, *, no_numba: bool = False) -> str:
    """Run ``code`` in a new Python process (optionally with numba made unimportable); its standard output."""
    prefix = "import sys; sys.modules['numba'] = None\n" if no_numba else ""
    done = subprocess.run([sys.executable, "-c", prefix + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_first_timed_move_in_a_new_process_searches_like_the_rest() -> None:
    code = """
        import json
        from zerosum import ConnectX, make_agent
        game = ConnectX()
        out = {}
        for spec in ("mcts:time=0.5", "alphabeta:time=1"):
            result = make_agent(spec).search(game, game.initial_state)
            out[spec] = [result.nodes, result.elapsed, result.depth]
        print(json.dumps(out))
    """
    out = json.loads(run_fresh(code).strip().splitlines()[-1])
    nodes, elapsed, _ = out["mcts:time=0.5"]
    assert nodes > 0 and elapsed < 2 * 0.5  # before: 0 simulations, the time spent loading the kernels
    nodes, elapsed, depth = out["alphabeta:time=1"]
    assert nodes > 0 and depth >= 4 and elapsed < 2 * 1.0  # before: 4.35 s on first use


def test_warm_up_is_a_method_every_agent_has() -> None:
    game = ConnectX()
    for spec in ("random", "first", "minimax:depth=1", "alphabeta:depth=1", "mcts:sims=1", "mcts:playout=alphabeta"):
        make_agent(spec).warm_up(game)  # loads once per process; a no-op afterwards
        make_agent(spec).warm_up(TicTacToe())


# ---- item 17 (agents part): usable without numba ------------------------------------------------------


def test_agents_import_and_search_without_numba() -> None:
    code = """
        import json, sys
        import zerosum
        import zerosum.agents.base, zerosum.agents.simple, zerosum.agents.minimax
        import zerosum.agents.alphabeta, zerosum.agents.mcts, zerosum.agents.heuristics
        from zerosum import ConnectX, make_agent
        from zerosum.agents.base import kernels
        assert kernels() is None and sys.modules["numba"] is None
        game = ConnectX()
        state = game.from_moves("44")
        out = {}
        for spec in ("alphabeta:depth=4", "alphabeta:time=0.3", "mcts:sims=300", "mcts:time=0.3,playout=greedy",
                     "minimax:depth=2"):
            agent = make_agent(spec)
            agent.warm_up(game)
            result = agent.search(game, state)
            out[spec] = [result.action, result.nodes, agent._uses_fast_path(game, "window")
                         if spec.startswith("alphabeta") else getattr(agent, "_uses_fast_path", lambda g: False)(game)]
        print(json.dumps(out))
    """
    out = json.loads(run_fresh(code, no_numba=True).strip().splitlines()[-1])
    game = ConnectX()
    state = game.from_moves("44")
    for spec, (action, nodes, fast) in out.items():
        assert not fast, spec
        assert nodes > 0 and action in game.actions(state), spec


def test_agents_without_numba_take_wins_and_block() -> None:
    game = ConnectX()
    states = tactical_positions(game, "win", 3, seed=8)
    code = f"""
        import json
        from zerosum import ConnectX, make_agent
        game = ConnectX()
        moves = {json.dumps([game.to_moves(s) for s in states])}
        print(json.dumps([[make_agent(spec)(game, game.from_moves(m)) for spec in ("alphabeta:time=0.2", "mcts:sims=50")]
                          for m in moves]))
    """
    answers = json.loads(run_fresh(code, no_numba=True).strip().splitlines()[-1])
    for state, actions in zip(states, answers):
        assert all(a in immediate_wins(game, state) for a in actions)
