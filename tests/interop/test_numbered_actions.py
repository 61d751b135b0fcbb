"""The game protocol's machine face (numbered actions, positions from cells, move histories), for every game.

The PettingZoo and OpenSpiel adapters use only these, so every registered game must keep them consistent.
"""

from __future__ import annotations

import random

import pytest

from zerosum import get_game
from zerosum.errors import InvalidPositionError
from zerosum.game import board_cells
from zerosum.games import registered_games

SPECS = ["connect4", "connectx:rows=3,cols=4,k=3", "tictactoe", "migration:n=5", "othello", "othello:n=6"]


def random_states(game, rng: random.Random, n: int):
    for _ in range(n):
        state = game.initial_state
        for _ in range(rng.randrange(40)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        yield state


@pytest.mark.parametrize("spec", SPECS)
def test_action_numbers_are_distinct_in_range_and_invertible(spec: str) -> None:
    game = get_game(spec)
    for state in random_states(game, random.Random(spec), 60):
        actions = game.actions(state)
        numbers = [game.action_index(a) for a in actions]
        assert len(set(numbers)) == len(numbers)
        assert all(0 <= i < game.action_space_size for i in numbers)
        assert [game.index_action(i, state) for i in numbers] == actions


@pytest.mark.parametrize("spec", SPECS)
def test_from_board_rebuilds_the_position_the_view_shows(spec: str) -> None:
    game = get_game(spec)
    for state in random_states(game, random.Random(spec + "!"), 60):
        cells = game.board_view(state).cells
        rebuilt = game.from_board(cells, game.player(state))
        assert rebuilt == state
        assert game.actions(rebuilt) == game.actions(state)


@pytest.mark.parametrize("spec", SPECS)
def test_moves_played_replay_to_the_state_or_are_unknown(spec: str) -> None:
    game = get_game(spec)
    for state in random_states(game, random.Random(spec + "?"), 30):
        moves = game.moves_played(state)
        if moves is not None:
            assert game.states_of(moves)[-1] == state
        built = game.from_board(game.board_view(state).cells, game.player(state))
        moves = game.moves_played(built)
        assert moves is None or game.states_of(moves)[-1] == built


def test_every_registered_game_numbers_its_actions_and_builds_from_cells() -> None:
    for cls in registered_games():
        game = get_game(cls.name)
        assert game.action_space_size > 0
        state = game.initial_state
        assert game.from_board(game.board_view(state).cells, game.player(state)) == state


@pytest.mark.parametrize("cells,to_move,match", [
    ([[0, 0], [0, 0]], 3, "1 or 2"),
    ([[0, 0], [0]], 1, "2 rows of 2"),
    ([[0, 0], [0, 0], [0, 0]], 1, "2 rows of 2"),
    ([[0, 3], [0, 0]], 1, "0 \\(empty\\), 1 or 2"),
    ([[0, 1.5], [0, 0]], 1, "whole numbers"),
    ([[0, "x"], [0, 0]], 2, "whole numbers"),
])
def test_bad_cells_are_one_invalid_position_error(cells, to_move, match) -> None:
    with pytest.raises(InvalidPositionError, match=match):
        board_cells(cells, 2, 2, to_move)


def test_positions_that_cannot_be_are_refused() -> None:
    with pytest.raises(InvalidPositionError, match="floating"):
        get_game("connectx:rows=3,cols=3,k=3").from_board([[1, 0, 0], [0, 0, 0], [0, 0, 0]], 2)
    with pytest.raises(InvalidPositionError, match="turn"):
        get_game("tictactoe").from_board([[1, 0, 0], [0, 0, 0], [0, 0, 0]], 1)
