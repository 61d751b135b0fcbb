"""Othello through the OpenSpiel adapter: the game, states at random points both ways, bots both ways.

Nothing here is special-cased in the adapter: Othello goes through the one name-mapping table.
"""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from zerosum import get_game, make_agent  # noqa: E402
from zerosum.errors import AgentError, InvalidPositionError  # noqa: E402
from zerosum.interop import openspiel as zo  # noqa: E402

GAME = get_game("othello")


def ps_cells(ps_state) -> tuple[tuple[int, ...], ...]:
    """OpenSpiel's othello board text as cells (1 black 'x', 2 white 'o', top row first)."""
    rows = str(ps_state).splitlines()[2:10]
    return tuple(tuple({"x": 1, "o": 2, "-": 0}[ch] for ch in row[2:17:2]) for row in rows)


def random_game(rng: random.Random) -> list[int]:
    state, moves = GAME.initial_state, []
    while not GAME.is_terminal(state):
        moves.append(rng.choice(GAME.actions(state)))
        state = GAME.result(state, moves[-1])
    return moves


def test_othello_games_both_ways() -> None:
    ps_game = zo.to_pyspiel_game(GAME)
    assert ps_game.get_type().short_name == "othello" and ps_game.num_distinct_actions() == GAME.action_space_size
    assert zo.from_pyspiel_game(ps_game) == GAME
    assert zo.from_pyspiel_game(pyspiel.load_game("othello")) == get_game("othello:n=8")
    with pytest.raises(AgentError, match="n=8 only"):
        zo.to_pyspiel_game(get_game("othello:n=6"))


def test_othello_states_both_ways_at_random_points() -> None:
    rng = random.Random(12)
    ps_game = zo.to_pyspiel_game(GAME)
    passes = 0
    for _ in range(300):
        moves = random_game(rng)
        cut = rng.randrange(len(moves) + 1)
        state = GAME.states_of(moves[:cut])[-1]
        passes += GAME.pass_action in moves[:cut]
        # ours -> OpenSpiel: the same board, the same side to move, the same legal actions
        ps_state = zo.to_pyspiel_state(GAME, state, ps_game)
        assert ps_state.history() == moves[:cut]
        assert ps_cells(ps_state) == GAME.board_view(state).cells
        assert ps_state.is_terminal() == GAME.is_terminal(state)
        if not ps_state.is_terminal():
            assert ps_state.current_player() == GAME.player(state) - 1
            assert ps_state.legal_actions() == GAME.actions(state)
        # play on in OpenSpiel to a second random point, then OpenSpiel -> ours
        for number in moves[cut:cut + rng.randrange(len(moves) - cut + 1)]:
            ps_state.apply_action(number)
        back = zo.from_pyspiel_state(ps_state)
        assert back == GAME.states_of(ps_state.history())[-1]
        assert GAME.moves_played(back) == ps_state.history()
        assert ps_cells(ps_state) == GAME.board_view(back).cells
        assert ps_state.returns() == [GAME.utility(back, 1), GAME.utility(back, 2)]
    assert passes > 0  # positions after a pass were converted too


def test_othello_position_without_history_is_refused_in_one_error() -> None:
    state = GAME.states_of(GAME.parse_moves("f5d6c3"))[-1]
    built = GAME.from_board(GAME.board_view(state).cells, GAME.player(state))
    assert built == state
    with pytest.raises(InvalidPositionError, match="no move history"):
        zo.to_pyspiel_state(GAME, built)
    assert zo.to_pyspiel_state(GAME, GAME.from_board(GAME.board_view(GAME.initial_state).cells, 1)).history() == []


def test_zerosum_agents_as_openspiel_bots_on_othello() -> None:
    ps_game = pyspiel.load_game("othello")
    for seed in range(3):
        returns = pyspiel.evaluate_bots(ps_game.new_initial_state(), [zo.bot("random", seed=seed),
                                                                      zo.bot("alphabeta:depth=1")], seed)
        assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_openspiel_bots_as_zerosum_agents_on_othello_including_a_pass() -> None:
    # OpenSpiel's uniform random bot plays one seat (player 0 here: black); asked for the other it crashes
    uniform = zo.BotAgent(lambda ps_game: pyspiel.make_uniform_random_bot(0, 5))
    rng = random.Random(4)
    passed = False
    for _ in range(200):
        state = GAME.initial_state
        while not GAME.is_terminal(state):
            legal = GAME.actions(state)
            if GAME.player(state) == 1 and (legal == [GAME.pass_action] or rng.random() < 0.1):
                action = uniform(GAME, state)
                assert action in legal
                passed |= action == GAME.pass_action
            else:
                action = rng.choice(legal)
            state = GAME.result(state, action)
        if passed:
            break
    assert passed
    agent = make_agent("openspiel-mcts:sims=50,seed=1")
    assert agent(GAME, GAME.initial_state) in GAME.actions(GAME.initial_state)
