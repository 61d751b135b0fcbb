"""Agent specs, Limits, and the simple agents."""

from __future__ import annotations

import pytest

from zerosum import ConnectX, Limits, SearchResult, TicTacToe, get_game, make_agent
from zerosum.agents.base import describe_value, loss_value, win_value
from zerosum.agents.simple import FirstAgent, HumanAgent, QuitGame, RandomAgent, UndoMove
from zerosum.errors import AgentError


def play_out(game, agents, seed_state=None):
    state = seed_state or game.initial_state
    moves = []
    while not game.is_terminal(state):
        action = agents[game.player(state)](game, state)
        moves.append(action)
        state = game.result(state, action)
    return moves, state


@pytest.mark.parametrize("spec", ["connect4", "tictactoe", "migration:n=5", "connectx:rows=4,cols=9,k=3"])
def test_random_agent_is_reproducible_and_legal(spec: str) -> None:
    game = get_game(spec)
    a = play_out(game, {1: make_agent("random:seed=4"), 2: make_agent("random", seed=5)})[0]
    b = play_out(game, {1: make_agent("random:seed=4"), 2: make_agent("random", seed=5)})[0]
    c = play_out(game, {1: make_agent("random:seed=6"), 2: make_agent("random", seed=5)})[0]
    assert a == b
    assert a != c or len(a) < 3


def test_first_agent_plays_the_first_legal_action() -> None:
    game = ConnectX()
    moves, final = play_out(game, {1: FirstAgent(), 2: FirstAgent()})
    assert moves[:7] == [0, 0, 0, 0, 0, 0, 1]
    assert game.is_terminal(final)
    ttt = TicTacToe()
    moves, final = play_out(ttt, {1: make_agent("first"), 2: make_agent("first")})
    assert moves == [0, 1, 2, 3, 4, 5, 6] and ttt.winner(final) == 1


def test_human_agent_asks_again_on_bad_input() -> None:
    game = ConnectX()
    state = game.from_moves("444444")
    lines = iter(["", "x", "9", "4", "3"])
    printed: list[str] = []

    class Out:
        def write(self, text: str) -> None:
            printed.append(text)

        def flush(self) -> None:
            pass

    agent = HumanAgent(read=lambda prompt: next(lines), out=Out())  # type: ignore[arg-type]
    assert agent(game, state) == 2
    text = "".join(printed)
    assert "not a column number" in text and "outside 1..7" in text and "column 4 is full" in text
    with pytest.raises(QuitGame):
        HumanAgent(read=lambda p: "q")(game, state)
    with pytest.raises(UndoMove):
        HumanAgent(read=lambda p: "u")(game, state)


@pytest.mark.parametrize(
    "spec,words",
    [
        ("nosuch", "unknown agent 'nosuch'"),
        ("random:depth=3", "no option 'depth'"),
        ("random:seed=abc", "seed='abc'"),
        ("random:seed", "expected key=value"),
        ("random:seed=1,seed=2", "twice"),
        ("", "malformed spec"),
        ("9lives", "malformed spec"),
        ("missing_file.py:agent", "not found"),
        ("agent.py", "path/to/file.py:name"),
    ],
)
def test_bad_agent_specs(spec: str, words: str) -> None:
    with pytest.raises(AgentError, match=words):
        make_agent(spec)


def test_file_agents(tmp_path) -> None:
    path = tmp_path / "player.py"
    path.write_text("def leftmost(game, state):\n    return game.actions(state)[0]\nbroken = 3\n")
    agent = make_agent(f"{path}:leftmost")
    game = ConnectX()
    assert agent(game, game.initial_state) == 0
    with pytest.raises(AgentError, match="not callable"):
        make_agent(f"{path}:broken")
    with pytest.raises(AgentError, match="has no"):
        make_agent(f"{path}:absent")
    bad = tmp_path / "bad.py"
    bad.write_text("def oops(:\n")
    with pytest.raises(AgentError, match="SyntaxError"):
        make_agent(f"{bad}:oops")


def test_limits_and_results() -> None:
    limits = Limits(depth=4, time=1.5)
    assert repr(limits) == "Limits(depth=4, time=1.5)"
    assert limits.replace(nodes=10) == Limits(depth=4, time=1.5, nodes=10)
    with pytest.raises(TypeError):
        Limits(4)  # type: ignore[misc]  # keyword-only
    for bad in ({"nodes": 0}, {"time": -1}, {"depth": 2.5}, {"simulations": "many"}, {"nodes": True}):
        with pytest.raises(AgentError):
            Limits(**bad)
    with pytest.raises(Exception):
        limits.depth = 3  # type: ignore[misc]  # frozen
    assert win_value(3) > win_value(5) > 10**6 and loss_value(5) > loss_value(3)
    # the one vocabulary (zerosum.core.words): distances in moves of the side concerned, estimates marked
    assert describe_value(win_value(7)) == "win in 4 moves" and describe_value(loss_value(4)) == "loss in 2 moves"
    assert describe_value(0.35) == "+0.35 est." and describe_value(0, exact=True) == "draw"
    assert SearchResult(action=3, value=win_value(1)).proven


def test_register_agent_takes_a_class_a_loader_or_a_module_string() -> None:
    from zerosum.agents.registry import _REGISTRY, agent_names, register_agent

    saved = dict(_REGISTRY)
    try:
        register_agent("always-first", FirstAgent)
        register_agent("lazy-random", lambda: RandomAgent)
        register_agent("named-first", "zerosum.agents.simple:FirstAgent")
        register_agent("not-installed", "zerosum_no_such_module:Agent")  # a missing extra: not listed
        register_agent("absent", lambda: None)
        names = agent_names()
        assert {"always-first", "lazy-random", "named-first"} <= set(names)
        assert "not-installed" not in names and "absent" not in names
        assert isinstance(make_agent("always-first"), FirstAgent)
        assert isinstance(make_agent("lazy-random:seed=3"), RandomAgent)
        assert make_agent("named-first").spec == "named-first"
        with pytest.raises(AgentError, match="agent 'absent' is not available here"):  # registered, not had
            make_agent("absent")
        with pytest.raises(AgentError, match="agent 'not-installed' is not available here"):
            make_agent("not-installed")
        with pytest.raises(AgentError, match="module:Class"):
            register_agent("bad", "no-colon-here")
    finally:
        _REGISTRY.clear()
        _REGISTRY.update(saved)


def test_naming_a_simple_agent_loads_no_search_engine() -> None:
    """The registry imports an engine only when its name is used: ``random`` never loads numba or the solver."""
    import subprocess
    import sys

    code = ("import sys; from zerosum import make_agent; make_agent('random'); "
            "print(sorted(m for m in sys.modules if m.startswith(('numba', 'zerosum.solver.', 'zerosum.agents.mcts'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
