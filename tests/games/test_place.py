"""Free boards for exercises: ``game.place(state, where, player)`` puts a piece where the board physically
allows, apart from legal play (no turn, no rules but gravity), and never changes the state it is given."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zerosum.games.connectx
import zerosum.games.tictactoe
from zerosum import get_game
from zerosum.errors import GameError, IllegalMoveError, InvalidMoveError

SPECS = ["connect4", "connectx:rows=3,cols=4,k=3", "tictactoe", "migration:n=5", "othello:n=6"]


def _model_place(spec: str, cells: list[list[int]], where: object, player: int) -> None:
    """The simple model: the lowest empty cell of a column (Connect-X), else the named cell."""
    if spec.startswith("connect"):
        col = where
        row = max(r for r in range(len(cells)) if cells[r][col] == 0)  # rows top first
    else:
        row, col = where if isinstance(where, tuple) else divmod(where, len(cells[0]))
    cells[row][col] = player


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_sequence_of_places_matches_a_simple_model(spec: str, data: st.DataObject) -> None:
    game = get_game(spec)
    state = game.initial_state
    view = game.board_view(state)
    model = [list(r) for r in view.cells]
    for _ in range(data.draw(st.integers(0, 12))):
        if spec.startswith("connect"):
            free = [c for c in range(view.cols) if model[0][c] == 0]
        else:
            free = [(r, c) for r in range(view.rows) for c in range(view.cols) if model[r][c] == 0]
        if not free:
            break
        where = data.draw(st.sampled_from(free))
        if isinstance(where, tuple) and data.draw(st.booleans()):
            where = where[0] * view.cols + where[1]  # a cell's number works as well
        player = data.draw(st.sampled_from([1, 2]))
        before = game.board_view(state).cells
        new = game.place(state, where, player)
        assert game.board_view(state).cells == before  # the original state never changes
        _model_place(spec, model, where, player)
        state = new
        assert [list(r) for r in game.board_view(state).cells] == model
        if spec != "tictactoe":  # Tic-Tac-Toe derives the side to move from the counts
            assert game.player(state) == 3 - player
        assert game.moves_played(state) is None  # placing is not playing: no move history


def test_connectx_place_ignores_turn_and_an_existing_line() -> None:
    game = get_game("connect4")
    state = game.initial_state
    for _ in range(4):
        state = game.place(state, 0, 1)  # X four times in a row, never O's turn
    assert game.winner(state) == 1
    state = game.place(state, 1, 2)  # the line is there: placing goes on regardless
    assert game.cell(state, 0, 1, origin="bottom") == 2 and game.winner(state) == 1
    assert game.player(state) == 1


def test_place_a_line_makes_a_won_board_for_its_owner() -> None:
    game = get_game("tictactoe")
    state = game.initial_state
    for cell in (0, 4, 8):
        state = game.place(state, cell, 2)
    assert game.winner(state) == 2 and game.is_terminal(state)


def test_placed_boards_play_on_legally() -> None:
    game = get_game("connect4")
    state = game.place(game.place(game.initial_state, 3, 1), 3, 1)
    assert game.player(state) == 2
    after = game.result(state, 3)
    assert game.cell(after, 2, 3, origin="bottom") == 2


@pytest.mark.parametrize(
    ("spec", "where", "player", "error", "words"),
    [
        ("connect4", 7, 1, IllegalMoveError, "outside 0..6"),
        ("connect4", -1, 1, IllegalMoveError, "outside 0..6"),
        ("connect4", "4", 1, InvalidMoveError, "column"),
        ("connect4", 2, 3, InvalidMoveError, "a player is 1"),
        ("connect4", 2, True, InvalidMoveError, "a player is 1"),
        ("tictactoe", 9, 1, InvalidMoveError, "outside the board"),
        ("tictactoe", (3, 0), 1, InvalidMoveError, "outside the board"),
        ("tictactoe", 1.5, 1, InvalidMoveError, "a cell is"),
        ("migration:n=5", (0, 5), 2, InvalidMoveError, "outside the board"),
        ("othello:n=6", "c3", 1, InvalidMoveError, "a cell is"),
        ("othello:n=6", 0, 0, InvalidMoveError, "a player is 1"),
    ],
)
def test_bad_place_is_one_line(spec: str, where: object, player: object, error: type, words: str) -> None:
    game = get_game(spec)
    with pytest.raises(error, match=words) as info:
        game.place(game.initial_state, where, player)  # type: ignore[arg-type]
    assert "\n" not in str(info.value) and isinstance(info.value, GameError)


def test_full_column_and_taken_cell_are_refused() -> None:
    game = get_game("connectx:rows=2,cols=3,k=2")
    state = game.place(game.place(game.initial_state, 0, 1), 0, 1)
    with pytest.raises(IllegalMoveError, match="^column 1 is full$"):  # as result() says it (1-based)
        game.place(state, 0, 2)
    for spec, cell in (("tictactoe", 4), ("othello:n=6", 14), ("migration:n=5", (1, 0))):
        g = get_game(spec)
        s = g.place(g.initial_state, cell, 1) if spec == "tictactoe" else g.initial_state  # migration/othello: taken at the start
        with pytest.raises(IllegalMoveError, match="taken"):
            g.place(s, cell, 2)


def test_place_doctests() -> None:
    for module in (zerosum.games.connectx, zerosum.games.tictactoe):
        assert doctest.testmod(module).failed == 0
