"""Kaggle ConnectX bridge: what it refuses (a user's own file in a submission, minimax bounded by nodes alone,
a node budget too large for a move, ``human``), wrong types and values as one GameError line or a fallback move with its reason, the first move
counting the submission file's loading, and the solver's table mapped before its first search in a game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import pytest

from zerosum import ConnectX
from zerosum.cli import main
from zerosum.errors import AgentError, GameError, InvalidPositionError, InvalidSpecError
from zerosum.interop import kaggle

CONFIG = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1, captured
    return lines[0]


# ---- a user's own file never goes into a submission (it is not on Kaggle's servers) ----------------------


@pytest.mark.parametrize("args", [["myagent.py"], ["sub/x.py"], ["myagent.py:player"], ["alphabeta:eval=e.py:f"],
                                  ["solver", "--opening", "myagent.py"]])
def test_a_submission_of_a_users_own_file_is_refused_before_anything_is_written(tmp_path, capsys, monkeypatch,
                                                                               args) -> None:
    """`zerosum kaggle-agent myagent.py` exited 0 and wrote SPEC = 'myagent.py', which failed on Kaggle."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "myagent.py").write_text("def player(game, state):\n    return game.actions(state)[0]\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.py").write_text("def player(game, state):\n    return game.actions(state)[0]\n")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    assert main(["kaggle-agent", *args, "-o", "my_sub.py"]) == 2
    line = one_error_line(capsys)
    assert repr(args[-1]) in line and "file of your own" in line and "docs/interop.md" in line, line
    assert sorted(p.name for p in tmp_path.rglob("*")) == before  # nothing written
    with pytest.raises(AgentError, match="file of your own"):
        kaggle.submission_source(args[0], **({"opening": args[-1]} if len(args) > 1 else {}))


# ---- agents the adapter refuses -----------------------------------------------------------------------


def test_minimax_bounded_by_nodes_alone_is_refused_and_with_a_depth_plays_its_own_moves(tmp_path, capsys) -> None:
    """minimax raises past its node budget: minimax:nodes=N played only the centre-most column."""
    kaggle_environments = pytest.importorskip("kaggle_environments")
    for spec, limits in (("minimax:nodes=20000", {}), ("minimax", {"nodes": 20000})):
        with pytest.raises(AgentError, match="give it a depth"):
            kaggle.agent(spec, **limits)
    assert main(["kaggle-agent", "minimax:nodes=20000", "-o", str(tmp_path / "m.py")]) == 2
    assert "give it a depth" in one_error_line(capsys) and not (tmp_path / "m.py").exists()
    play = kaggle.agent("minimax:depth=2,nodes=5000")
    seen: list[dict] = []

    def recorded(obs, conf):  # type: ignore[no-untyped-def]
        column = play(obs, conf)
        seen.append(dict(play.last))
        return column

    env = kaggle_environments.make("connectx", configuration={"rows": 5, "columns": 6, "inarow": 4})
    env.run([recorded, "random"])
    assert [s.status for s in env.state] == ["DONE", "DONE"]
    assert seen and not [r for r in seen if r["fallback"]], seen


@pytest.mark.parametrize("spec,limits", [("minimax:depth=7,nodes=1000000000", {}),
                                         ("minimax:depth=3", {"nodes": 10**6}),
                                         ("alphabeta:plain=1,nodes=20000", {}),
                                         ("alphabeta:plain=1,depth=9,nodes=6000", {})])
def test_a_node_budget_too_large_for_a_kaggle_move_is_refused(spec, limits, tmp_path, capsys) -> None:
    """minimax:depth=7,nodes=1000000000 passed for bounded, and one of its moves took 56 s against Kaggle's 2 (a node
    costs 50-270 us): past MAX_NODES, one line saying why and what to play instead; MAX_NODES itself plays."""
    from zerosum.interop.kaggle_agents import MAX_NODES

    with pytest.raises(AgentError, match=f"nodes={MAX_NODES} or fewer, or play alphabeta"):
        kaggle.agent(spec, **limits)
    if not limits:
        assert main(["kaggle-agent", spec, "-o", str(tmp_path / "m.py")]) == 2
        assert f"nodes={MAX_NODES} or fewer" in one_error_line(capsys) and not (tmp_path / "m.py").exists()



def test_a_node_budget_that_fits_a_kaggle_move_plays() -> None:
    from zerosum.interop.kaggle_agents import MAX_NODES

    for spec in ("minimax:depth=3", "alphabeta:plain=1"):
        bounded = kaggle.agent(spec, nodes=MAX_NODES)
        assert bounded({"board": [0] * 42, "mark": 1}, CONFIG) in range(7) and not bounded.last["fallback"]


def test_human_is_refused_by_the_adapter_as_by_the_submission_writer(capsys) -> None:
    """kaggle.agent('human') printed a prompt to stdout (captured by Kaggle) and played the centre column."""
    with pytest.raises(AgentError, match="person at the keyboard"):
        kaggle.agent("human")
    with pytest.raises(AgentError, match="opening agent 'human'"):
        kaggle.KaggleAgent("solver", opening="human")
    assert capsys.readouterr().out == ""


# ---- wrong types and values -------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: kaggle.KaggleAgent("first", safety="x"),
    lambda: kaggle.KaggleAgent("first", reserve=-1),
    lambda: kaggle.KaggleAgent("solver", solver_empty=2.5),
    lambda: kaggle.KaggleAgent("first", loaded="now"),
    lambda: kaggle.agent("mcts", sims=10, simulations=20),
])
def test_the_users_own_bad_arguments_are_one_agent_error_line(call) -> None:
    with pytest.raises(AgentError) as info:
        call()
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("game,board,mark,error,words", [
    (ConnectX(), None, 1, InvalidPositionError, "flat list"),
    ("connect4", [0] * 42, 1, InvalidSpecError, "ConnectX game"),
    (ConnectX(), [0] * 41 + ["x"], 2, InvalidPositionError, "holds 0, 1 and 2"),
    (ConnectX(), [0] * 41 + [1.5], 2, InvalidPositionError, "holds 0, 1 and 2"),
    (ConnectX(), [0] * 41 + [1], 1.7, InvalidPositionError, "mark"),
])
def test_board_to_state_checks_types_and_values_before_counting_stones(game, board, mark, error, words) -> None:
    with pytest.raises(error) as info:
        kaggle.board_to_state(game, board, mark)
    assert words in str(info.value) and "stone counts" not in str(info.value)
    assert kaggle.board_to_state(ConnectX(), [0] * 41 + [1.0], 2) == ConnectX().from_moves([6])  # 1.0 is 1


@pytest.mark.parametrize("observation,configuration,words", [
    ({"board": [0] * 42, "mark": "x"}, CONFIG, "mark"),
    ({"board": [0] * 42, "mark": 1.7}, CONFIG, "mark"),
    ({"board": [0] * 42}, CONFIG, "not None"),  # no mark: it was read as 1
    ({"board": [0] * 42, "mark": None}, CONFIG, "not None"),
    ({"board": [0] * 35 + [1.5] + [0] * 6, "mark": 2}, CONFIG, "holds 0, 1 and 2"),
    ({"board": [0] * 42, "mark": 1}, {**CONFIG, "actTimeout": "x"}, "actTimeout"),
    ({"board": [0] * 42, "mark": 1, "remainingOverageTime": float("nan")}, CONFIG, "remainingOverageTime"),
])
def test_bad_input_from_kaggle_is_a_fallback_move_with_its_reason(observation, configuration, words) -> None:
    """Kaggle calls the agent mid-game: a bad value plays the centre-most column, the reason in `last`
    (mark='x' and actTimeout='x' raised ValueError; a cell 1.5 and mark=1.7 were read as 1)."""
    play = kaggle.agent("first")
    assert play(observation, configuration) == 3
    assert play.last["fallback"] and words in play.last["reason"], play.last


@pytest.mark.parametrize("observation", [{"board": None, "mark": 1}, {"mark": 1}, {}, None])
def test_an_observation_without_a_board_is_one_line(observation) -> None:
    """It was read as the empty board (and played), no reason given."""
    play = kaggle.agent("first")
    with pytest.raises(InvalidPositionError, match="^Kaggle's observation has no board") as info:
        play(observation, CONFIG)
    assert "\n" not in str(info.value)


def test_every_observation_kaggle_hands_over_is_read_from_the_first_move() -> None:
    """What kaggle_environments passes from the first call of each seat on is never refused nor a fallback, in
    either seat (the board and mark are always there: a missing one is no longer read as the start, or as 1)."""
    kaggle_environments = pytest.importorskip("kaggle_environments")
    play = kaggle.agent("first")
    seen: list[tuple[list, int, dict]] = []

    def recorded(obs, conf):  # type: ignore[no-untyped-def]
        column = play(obs, conf)
        seen.append((list(obs.board), obs.mark, dict(play.last)))
        return column

    for seats in ([recorded, "random"], ["random", recorded]):
        env = kaggle_environments.make("connectx", configuration={"rows": 5, "columns": 6, "inarow": 4})
        env.run(seats)
        assert [s.status for s in env.state] == ["DONE", "DONE"]
    firsts = [move for move in seen if sum(1 for v in move[0] if v) < 2]
    assert [mark for _, mark, _ in firsts] == [1, 2], firsts
    assert not [last for _, _, last in seen if last["fallback"]], seen


def test_bad_rows_or_columns_are_one_game_error_line() -> None:
    play = kaggle.agent("first")
    for bad in ("7", 7.9):
        with pytest.raises(GameError, match="columns must be a whole number"):
            play({"board": [0] * 42, "mark": 1}, {**CONFIG, "columns": bad})


# ---- the first move counts the submission file's loading ------------------------------------------------


def test_the_first_move_counts_the_time_since_loading_began() -> None:
    """Kaggle's clock counts a submission's loading (0.17-0.22 s measured) in its first move."""
    need = pytest.importorskip
    need("zerosum.agents.alphabeta")
    play = kaggle.KaggleAgent("alphabeta")
    play.warm_up()
    play.loaded = time.perf_counter() - 0.5  # as if the file had begun loading half a second ago
    play({"board": [0] * 42, "mark": 1, "remainingOverageTime": 0}, {**CONFIG, "actTimeout": 1.0})
    first = dict(play.last)
    assert first["loading"] >= 0.5 and first["seconds"] >= first["loading"]
    assert first["seconds"] < first["budget"] + 0.35, first  # 0.75 s in all (before: 0.5 s more)
    board = [0] * 42
    board[38], board[31] = 1, 2
    play({"board": board, "mark": 1, "remainingOverageTime": 0}, CONFIG)
    assert play.last["loading"] == 0.0
    late = kaggle.KaggleAgent("first", loaded=time.perf_counter() - 3600)  # imported long before: not Kaggle's
    late({"board": [0] * 42, "mark": 1}, CONFIG)
    assert late.last["loading"] == 0.0


LOADED_AS_KAGGLE_DOES = textwrap.dedent(
    """
    import json, sys
    import kaggle_environments
    from kaggle_environments.agent import get_last_callable
    path = sys.argv[1]
    source, built, seen = open(path).read(), [], []

    def agent(observation, configuration):  # Kaggle's loader: the file is executed within the first move
        if not built:
            built.append(get_last_callable(source, path=path))
        column = built[0](observation, configuration)
        seen.append(dict(built[0].__globals__["_AGENT"].last))
        return column

    env = kaggle_environments.make("connectx", configuration={"rows": 5, "columns": 6, "inarow": 4})
    env.run([agent, "random"])
    played = type(built[0].__globals__["_AGENT"]).__module__  # the file's own copy of zerosum
    print(json.dumps({"seen": seen, "zerosum": sys.modules[played].__file__, "end": [s.status for s in env.state]}))
    """
)


def test_a_submission_file_counts_its_own_loading_in_its_first_move(tmp_path) -> None:
    pytest.importorskip("kaggle_environments")
    path = tmp_path / "main.py"
    assert main(["kaggle-agent", "first", "-o", str(path)]) == 0
    proc = subprocess.run([sys.executable, "-c", LOADED_AS_KAGGLE_DOES, str(path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["zerosum"].startswith(str(tmp_path / "zerosum-kaggle-")) and out["end"] == ["DONE", "DONE"]
    first, *rest = out["seen"]
    assert first["loading"] > 0 and first["seconds"] >= first["loading"]  # unpacking and importing zerosum
    assert rest and all(r["loading"] == 0 for r in rest)


# ---- the solver's table is mapped in the background before its first search in a game -------------------

BOARD_28_EMPTY = [0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1, 2, 0, 0, 0, 0, 2, 2, 1, 1, 0, 0,
                  0, 1, 1, 1, 2, 2, 0, 0, 0, 2, 2, 2, 1, 1, 0, 0, 0, 1, 1, 1, 2, 2, 0, 2, 1, 2, 1, 1, 2, 2, 2, 2]

FIRST_SOLVER_MOVE = textwrap.dedent(
    """
    import json, sys
    import kaggle_environments
    from zerosum.agents.prepare import warm
    from zerosum.analysis import service
    from zerosum.interop import kaggle
    board = json.loads(sys.argv[1])
    env = kaggle_environments.make("connectx", configuration={"rows": 8, "columns": 8, "inarow": 5,
                                                              "actTimeout": 0.5}, debug=False)
    env.reset(2)
    play = kaggle.agent("solver")
    runner = env._Environment__agent_runner([play, "random"])
    env.step(*runner.act())  # the first move of a game: its preparation starts in the background
    game = play._board_game(8, 8, 5)
    warm(play._steps[game])  # what the game prepares by itself, done (never KaggleAgent.warm_up)
    solver = service(game).solver
    touched = bool(solver is not None and solver._touched)
    env.reset(2)
    for s in env.state:
        s.observation.board, s.observation.remainingOverageTime = list(board), 0
    actions, logs = runner.act()
    print(json.dumps({"touched": touched, "last": play.last, "action": actions[0]}))
    """
)


@pytest.mark.slow  # 22 s of a fresh process compiling the 128-bit kernels; a timing check (CI time)
def test_the_solvers_first_search_in_a_game_does_not_pay_for_its_table() -> None:
    """On 8 x 8 (128-bit boards, a 256 MB table) the solver's first move at 28 empty cells took 0.6-0.95 s
    against 0.25 s, mapping fresh memory: the game's own background preparation now maps it first."""
    pytest.importorskip("kaggle_environments")
    pytest.importorskip("numba")
    proc = subprocess.run([sys.executable, "-c", FIRST_SOLVER_MOVE, json.dumps(BOARD_28_EMPTY)], capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["touched"], out
    last = out["last"]
    assert last["agent"].startswith(("solver", "alphabeta for solver")) and not last["reason"], last
    assert last["seconds"] < last["budget"] + 0.2, last  # measured 0.25 s for 0.25 (0.6-0.95 s before)
