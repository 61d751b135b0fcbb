"""PettingZoo adapter: what it is handed is checked (audit defects 4, 5, 7, 8/9 and 10).

No guessed game beyond PettingZoo's own layouts, an observation of another game refused rather than
answered by the fallback, PettingZoo's render contract, wrong types refused in one GameError line.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from pettingzoo.test import api_test, render_test  # noqa: E402

from zerosum.errors import AgentError, GameError, InvalidMoveError, InvalidPositionError  # noqa: E402
from zerosum.interop import pettingzoo as zp  # noqa: E402

from test_pettingzoo import classic  # noqa: E402  (the one helper for PettingZoo's own envs)


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore", UserWarning)


def _k3_win_in_one() -> tuple[object, dict]:
    """zerosum's 5 x 9 Connect-3: X on columns 8 and 7 (0-based), O on top; X to move wins at column 6."""
    env = zp.env("connectx:rows=5,cols=9,k=3")
    env.reset()
    for col in (8, 8, 7, 7):
        env.step(col)
    return env, env.last()[0]


# ---- 4: no guess beyond PettingZoo's own layouts -------------------------------------------------------


def test_a_policy_without_game_refuses_a_layout_pettingzoo_does_not_have() -> None:
    env, obs = _k3_win_in_one()
    with pytest.raises(AgentError, match=r"shape \(5, 9, 2\).*pass game="):
        zp.agent("alphabeta:depth=1")(obs)
    assert zp.agent("alphabeta:depth=1", game=env)(obs) == 6  # told its game, it takes the win
    for shape in [(4, 4, 2), (6, 8, 2), (7, 6, 2)]:  # once guessed as four in a row on any board
        with pytest.raises(AgentError, match="pass game="):
            zp.agent("first")(np.zeros(shape, np.int8))


def test_a_policy_without_game_still_knows_pettingzoos_own_games() -> None:
    for name in ("connect_four", "tictactoe"):
        env = classic(name)
        env.reset(seed=1)
        policy = zp.agent("alphabeta:depth=2")
        policy(env.last()[0])
        assert policy.codec is not None and policy.codec.name == f"{name}_v3"


# ---- 5: another game's observation is refused ----------------------------------------------------------


def test_an_observation_of_another_game_is_refused_not_answered_by_the_fallback() -> None:
    env = classic("connect_four")
    env.reset(seed=0)
    obs = env.last()[0]
    policy = zp.agent("alphabeta:depth=2", game="tictactoe_v3")
    with pytest.raises(InvalidPositionError, match=r"shape \(6, 7, 2\) is not one of tictactoe_v3"):
        policy(obs)
    c4 = zp.agent("alphabeta:depth=2", game="connect_four_v3")
    short = {"observation": obs["observation"], "action_mask": np.ones(3, np.int8)}
    with pytest.raises(InvalidPositionError, match="action mask of shape"):
        c4(short)
    with pytest.raises(InvalidPositionError):  # planes that are no position: refused, not the fallback
        c4({"observation": np.full((6, 7, 2), 7, np.int8), "action_mask": np.ones(7, np.int8)})
    assert c4(obs) in range(7) and not c4.last["fallback"]


def test_a_mask_narrower_than_the_legal_actions_is_still_obeyed() -> None:
    policy = zp.agent("alphabeta:depth=2", game="connect_four_v3")
    mask = np.array([0, 0, 0, 0, 0, 0, 1], np.int8)
    assert policy({"observation": np.zeros((6, 7, 2), np.int8), "action_mask": mask}) == 6
    assert policy.last["fallback"]


# ---- 7: PettingZoo's render contract ------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["connect4", "tictactoe", "othello:n=4"])
def test_render_test_passes(spec: str, capsys: pytest.CaptureFixture[str]) -> None:
    render_test(lambda render_mode=None: zp.env(spec, render_mode=render_mode))


def test_human_render_prints_and_returns_none(capsys: pytest.CaptureFixture[str]) -> None:
    env = zp.env("tictactoe", render_mode="human")
    env.reset()
    env.step(4)  # a move prints the board
    assert capsys.readouterr().out.strip() == "...\n.X.\n..."
    assert env.render() is None
    assert capsys.readouterr().out.strip() == "...\n.X.\n..."
    ansi = zp.env("tictactoe", render_mode="ansi")
    ansi.reset()
    ansi.step(4)
    assert ansi.render() == "...\n.X.\n..." and capsys.readouterr().out == ""


# ---- 8/9: wrong types, one GameError line --------------------------------------------------------------


@pytest.mark.parametrize("action", ["a", 1.5, True, np.bool_(True), None, 3.0, "3", [3]])
def test_an_action_that_is_not_a_whole_number_is_refused(action: object) -> None:
    for make in (zp.raw_env, zp.env):
        env = make("connect4")
        env.reset()
        with pytest.raises(InvalidMoveError, match="whole number"):
            env.step(action)
        assert env.unwrapped.state_ == env.unwrapped.game.initial_state  # nothing was played


@pytest.mark.parametrize("action", [3, np.int64(3), np.int8(3), np.uint16(3), np.array(3)])
def test_numpy_integers_are_whole_numbers(action: object) -> None:
    for make in (zp.raw_env, zp.env):
        env = make("connect4")
        env.reset()
        env.step(action)
        assert env.unwrapped.game.to_moves(env.unwrapped.state_) == "4"


def test_step_none_is_still_the_dead_agents_step() -> None:
    api_test(zp.env("tictactoe"), num_cycles=20)
    env = zp.env("tictactoe")
    env.reset()
    for cell in (0, 3, 1, 4, 2):
        env.step(cell)
    for _ in env.agent_iter():
        env.step(None)


def test_an_unknown_agent_name_is_refused() -> None:
    env = zp.raw_env("connect4")
    env.reset()
    for call in (env.observe, env.observation_space, env.action_space):
        with pytest.raises(AgentError, match="player_7"):
            call("player_7")


@pytest.mark.parametrize("observation", [{}, {"mask": 1}, None, "abc", {"observation": "abc"},
                                         {"observation": np.zeros((6, 7, 2)), "action_mask": "x"}])
def test_a_policy_refuses_what_is_not_an_observation(observation: object) -> None:
    for policy in (zp.agent("first"), zp.agent("first", game="connect_four_v3")):
        with pytest.raises(GameError):
            policy(observation)


# ---- 10: a person cannot answer a policy ---------------------------------------------------------------


def test_a_human_policy_is_refused() -> None:
    with pytest.raises(AgentError, match="person"):
        zp.agent("human")
    with pytest.raises(AgentError, match="person"):
        zp.agent("human", game="connect_four_v3")


# ---- later audits: planes of 0 and 1 only; a registry id plays its own game only --------------------------

@pytest.mark.parametrize("value", [0.5, 2, -1])
def test_planes_holding_anything_but_0_and_1_are_no_position(value: float) -> None:
    # a 0.5 in every cell was "a cell holds stones of both players"; a 2 was read as a stone
    env = classic("connect_four")
    env.reset(seed=0)
    obs = env.last()[0]
    planes = obs["observation"].astype(float)
    planes[5, 3, 0] = value
    with pytest.raises(InvalidPositionError) as caught:
        zp.agent("random")({"observation": planes, "action_mask": obs["action_mask"]})
    assert str(caught.value) == f"observation planes hold 0 and 1 only, not {float(value)!r}"
    planes[5, 3, 0], planes[5, 3, 1] = 0, 1  # the other player's stone: played on
    assert zp.agent("random", seed=1)({"observation": planes, "action_mask": obs["action_mask"]}) in range(7)


def test_a_registry_id_plays_its_own_game_only() -> None:
    import pettingzoo

    if not hasattr(pettingzoo, "register"):
        pytest.skip("this PettingZoo has no registry")
    zp.register_envs()
    made = pettingzoo.make("aec", "zerosum/connectx-v0", spec="connectx:rows=5,cols=9,k=4")
    made.reset()
    assert made.unwrapped.game.cols == 9
    with pytest.raises(GameError) as caught:  # it was a Tic-Tac-Toe environment under Connect-X's name
        pettingzoo.make("aec", "zerosum/connectx-v0", spec="tictactoe")
    assert str(caught.value) == ("zerosum/connectx-v0 plays connectx, not tictactoe ('tictactoe'): make "
                                 "zerosum/tictactoe-v0, or zerosum.interop.pettingzoo.env('tictactoe')")


@pytest.mark.parametrize("fill", [None, "x"])
def test_codec_planes_of_objects_are_no_position_in_one_line(fill: object) -> None:
    # zp.codec is public: planes of None or of strings were an AttributeError traceback ('.item()')
    with pytest.raises(InvalidPositionError, match=r"^observation planes hold 0 and 1 only, not "):
        zp.codec("tictactoe").state(np.full((3, 3, 2), fill, dtype=object))
