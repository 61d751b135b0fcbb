"""PettingZoo adapter: zerosum agents in connect_four_v3 / tictactoe_v3, zerosum games as AEC environments."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import pettingzoo  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from zerosum import ConnectX, TicTacToe, get_game  # noqa: E402
from zerosum.games import registered_games  # noqa: E402
from zerosum.errors import AgentError, IllegalMoveError, InvalidPositionError  # noqa: E402
from zerosum.interop import pettingzoo as zp  # noqa: E402



def classic(name: str):
    """A PettingZoo classic env by its registry id (1.27+), else by its module (older releases)."""
    if hasattr(pettingzoo, "make"):
        return pettingzoo.make("aec", f"classic/{name}-v3")
    import importlib

    return importlib.import_module(f"pettingzoo.classic.{name}_v3").env()


GAMES = ["connect4", "connectx:rows=5,cols=9,k=4", "connectx:rows=3,cols=4,k=3", "tictactoe", "migration:n=5",
         "migration:n=4", "othello", "othello:n=6", "othello:n=4"]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore", UserWarning)


def lockstep(pz_env, codec: zp.Codec, rng: random.Random) -> None:
    """Random game in a PettingZoo env and in zerosum side by side: boards, masks and rewards agree."""
    pz_env.reset(seed=rng.randrange(1000))
    game, state = codec.game, codec.game.initial_state
    for name in pz_env.agent_iter():
        obs, reward, termination, truncation, _ = pz_env.last()
        if termination or truncation:
            assert game.is_terminal(state)
            player = pz_env.possible_agents.index(name) + 1
            assert reward == game.utility(state, player)
            pz_env.step(None)
            continue
        assert not game.is_terminal(state)
        assert codec.state(obs["observation"]) == state
        allowed = sorted(int(i) for i in obs["action_mask"].nonzero()[0])
        assert allowed == sorted(codec.encode_action(a) for a in game.actions(state))
        number = rng.choice(allowed)
        state = game.result(state, codec.decode_action(state, number))
        pz_env.step(number)
    assert game.is_terminal(state)


def test_connect_four_v3_agrees_with_connectx() -> None:
    rng = random.Random(1)
    env = classic("connect_four")
    for _ in range(60):
        lockstep(env, zp.codec("connect_four_v3"), rng)


def test_tictactoe_v3_agrees_with_tictactoe() -> None:
    rng = random.Random(2)
    env = classic("tictactoe")
    for _ in range(150):
        lockstep(env, zp.codec("tictactoe_v3"), rng)


def test_tictactoe_v3_cells_go_down_the_columns() -> None:
    env = classic("tictactoe")
    env.reset()
    env.step(1)  # PettingZoo's cell 1: column 0, row 1
    obs, *_ = env.last()
    state = zp.codec("tictactoe_v3").state(obs["observation"])
    assert TicTacToe().render(state) == "...\nX..\n..."


@pytest.mark.parametrize("spec", GAMES)
def test_our_envs_pass_the_pettingzoo_api_test(spec: str) -> None:
    api_test(zp.env(spec), num_cycles=300)


@pytest.mark.parametrize("spec", GAMES)
def test_our_envs_play_like_our_games(spec: str) -> None:
    rng = random.Random(spec)
    env = zp.env(spec)
    codec = env.unwrapped.codec
    for _ in range(20):
        lockstep(env, codec, rng)


def test_illegal_action_ends_the_game_the_pettingzoo_way() -> None:
    env = zp.env("connectx:rows=2,cols=3,k=2")
    env.reset()
    env.step(0)
    env.step(0)  # column 0 is now full
    env.step(0)  # illegal for player_0
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1, "player_1": 0}
    # and the bare env raises instead, leaving the state unchanged
    raw = zp.raw_env("connectx:rows=2,cols=3,k=2")
    raw.reset()
    raw.step(0)
    raw.step(0)
    before = raw.state_
    with pytest.raises(IllegalMoveError, match="full"):
        raw.step(0)
    assert raw.state_ == before


def test_bad_arguments() -> None:
    with pytest.raises(AgentError, match="render_mode"):
        zp.env("connect4", render_mode="rgb_array")
    with pytest.raises(Exception, match="unknown game"):
        zp.env("chess")
    codec = zp.codec("connect4")
    import numpy as np

    with pytest.raises(InvalidPositionError, match="shape"):
        codec.state(np.zeros((6, 6, 2)))
    both = np.zeros((6, 7, 2))
    both[5, 0] = 1
    with pytest.raises(InvalidPositionError, match="both"):
        codec.state(both)
    too_many = np.zeros((6, 7, 2))
    too_many[5, 0:3, 0] = 1
    with pytest.raises(InvalidPositionError, match="counts"):
        codec.state(too_many)


def test_render_ansi() -> None:
    env = zp.env("tictactoe", render_mode="ansi")
    env.reset()
    env.step(4)
    assert env.render() == "...\n.X.\n..."


# ---- zerosum agents acting in PettingZoo envs --------------------------------------------------------------


@pytest.mark.parametrize("name", ["connect_four", "tictactoe"])
def test_agents_act_legally_in_pettingzoo_classic(name: str) -> None:
    env = classic(name)
    for seed in range(10):
        seats = [zp.agent("random", seed=seed), zp.agent("first")]
        if seed % 2:
            seats.reverse()
        policies = dict(zip(env.possible_agents, seats))
        totals = zp.play_episode(env, policies, seed=seed)
        assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])  # never -1/0: no illegal move
        for p in policies.values():
            assert not p.last.get("fallback")


def test_first_agent_plays_the_first_column_and_cell() -> None:
    env = classic("connect_four")
    env.reset()
    env.step(3)
    obs, *_ = env.last()
    assert zp.agent("first")(obs) == 0
    env = classic("tictactoe")
    env.reset()
    env.step(0)  # zerosum's cell 0 is PettingZoo's cell 0 too; next free in zerosum order is cell 1 (row 0)
    obs, *_ = env.last()
    assert zp.agent("first")(obs) == 3  # row 0, column 1 is PettingZoo's cell 3


def test_agent_in_our_env_uses_its_game() -> None:
    env = zp.env("migration:n=5")
    totals = zp.play_episode(env, {"player_0": zp.agent("random", env, seed=1), "player_1": zp.agent("first", env)})
    assert sorted(totals.values()) == [-1.0, 1.0]  # Migration has no draws
    # a 3 x 3 Connect-X board looks like Tic-Tac-Toe, so its policy must be told the game
    env = zp.env("connectx:rows=3,cols=3,k=3")
    totals = zp.play_episode(env, {"player_0": zp.agent("first", env), "player_1": zp.agent("first", env)})
    assert totals == {"player_0": 1.0, "player_1": -1.0}  # stacking column 0 wins vertically


def test_policy_falls_back_to_an_allowed_action() -> None:
    env = classic("connect_four")
    env.reset()
    for _ in range(6):
        env.step(3)  # fill the centre column
    obs, *_ = env.last()
    policy = zp.agent(lambda game, state: 3)
    assert policy(obs) == 0 and policy.last["fallback"]
    broken = zp.agent(lambda game, state: 1 / 0)
    assert broken(obs) == 0 and "ZeroDivisionError" in broken.last["reason"]
    with pytest.raises(AgentError, match="mask"):
        policy({"observation": obs["observation"], "action_mask": obs["action_mask"] * 0})


def test_codec_round_trip_on_every_game() -> None:
    rng = random.Random(5)
    for spec in GAMES:
        codec = zp.codec(spec)
        game = get_game(spec)
        for _ in range(30):
            state = game.initial_state
            for _ in range(rng.randrange(12)):
                if game.is_terminal(state):
                    break
                state = game.result(state, rng.choice(game.actions(state)))
            if game.is_terminal(state):
                continue
            player = game.player(state)
            assert codec.state(codec.planes(state, player)) == state
            for a in game.actions(state):
                assert codec.decode_action(state, codec.encode_action(a)) == a
    assert isinstance(zp.codec("connect_four_v3").game, ConnectX)


def test_registered_in_pettingzoos_registry() -> None:
    if not hasattr(pettingzoo, "register"):
        pytest.skip("PettingZoo before 1.27 has no registry")
    ids = zp.register_envs()
    assert zp.register_envs() == ids  # idempotent
    env = pettingzoo.make("aec", "zerosum/connectx-v0", spec="connectx:rows=5,cols=9,k=4")
    env.reset()
    assert env.unwrapped.game == get_game("connectx:rows=5,cols=9,k=4")
    assert env.action_space("player_0").n == 9
    env = pettingzoo.make("aec", "zerosum/tictactoe-v0")
    env.reset()
    assert env.unwrapped.game == TicTacToe()
    assert set(ids) == {f"zerosum/{cls.name}-v0" for cls in registered_games()}
    env = pettingzoo.make("aec", "zerosum/othello-v0", spec="othello:n=6")
    env.reset()
    assert env.action_space("player_0").n == 37


def test_every_registered_game_is_an_environment() -> None:
    """A game registered today or tomorrow plays in PettingZoo with no code of its own in the adapter."""
    for cls in registered_games():
        env = zp.env(cls.name)
        api_test(env, num_cycles=50)
        game = env.unwrapped.game
        assert env.action_space("player_0").n == game.action_space_size
        view = game.board_view(game.initial_state)
        assert env.observation_space("player_0")["observation"].shape[:2] == (view.rows, view.cols)


def test_observations_come_from_the_board_view() -> None:
    rng = random.Random(8)
    for spec in GAMES:
        env = zp.raw_env(spec)
        env.reset()
        game = env.game
        for _ in range(rng.randrange(1, 10)):
            if game.is_terminal(env.state_):
                break
            env.step(env.codec.encode_action(rng.choice(game.actions(env.state_))))
        cells = game.board_view(env.state_).cells
        for i, name in enumerate(zp.AGENTS):
            planes = env.observe(name)["observation"]
            own, opp = planes[..., 0].tolist(), planes[..., 1].tolist()
            assert own == [[int(v == i + 1) for v in row] for row in cells]
            assert opp == [[int(v == 2 - i) for v in row] for row in cells]


def test_a_turn_plane_only_where_the_pieces_do_not_tell_the_turn() -> None:
    assert zp.env("connect4").observation_space("player_0")["observation"].shape == (6, 7, 2)
    assert zp.env("tictactoe").observation_space("player_0")["observation"].shape == (3, 3, 2)
    env = zp.env("othello:n=6")
    assert env.observation_space("player_0")["observation"].shape == (6, 6, 3)
    env.reset()
    assert env.observe("player_0")["observation"][..., 2].all()
    assert not env.observe("player_1")["observation"][..., 2].any()


def test_othello_pass_is_the_last_action_number() -> None:
    game = get_game("othello:n=4")
    # random 4 x 4 games reach positions where the side to move has no placement and must pass
    rng = random.Random(0)
    codec = zp.codec("othello:n=4")
    found = 0
    for _ in range(300):
        state = game.initial_state
        while not game.is_terminal(state):
            if game.actions(state) == [16]:
                mask = codec.mask(state)
                assert mask.tolist() == [0] * 16 + [1] and codec.decode_action(state, 16) == 16
                found += 1
            state = game.result(state, rng.choice(game.actions(state)))
    assert found > 0
    assert codec.num_actions == 17


def test_agent_plays_othello_in_our_env() -> None:
    env = zp.env("othello:n=6")
    policies = {"player_0": zp.agent("alphabeta:depth=1", env), "player_1": zp.agent("random", env, seed=3)}
    totals = zp.play_episode(env, policies, seed=1)
    assert sorted(totals.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert not any(p.last.get("fallback") for p in policies.values())


def test_a_shape_of_none_of_pettingzoos_own_games_needs_game() -> None:
    env = zp.env("othello")
    env.reset()
    obs, *_ = env.last()
    with pytest.raises(AgentError, match="pass game="):
        zp.agent("random")(obs)
    assert zp.agent("random", "othello")(obs) in (19, 26, 37, 44)
