"""Connect-X says its board's size in words that agree in number ("1 row", "5 columns"), and reads specs and
move strings as the README's Limits table and docs/games.md say: whole numbers in ASCII digits (no plus
sign), one comma between two moves (none at either end)."""

from __future__ import annotations

import re

import pytest

from zerosum import ConnectX, get_game, make_agent
from zerosum.errors import AgentError, InvalidMoveError, InvalidPositionError, InvalidSpecError
from zerosum.spec import integer


@pytest.mark.parametrize(("rows", "cols", "title"), [
    (1, 5, "Connect 2 on 1 row x 5 columns"),
    (5, 1, "Connect 2 on 5 rows x 1 column"),
    (6, 7, "Connect 2 on 6 rows x 7 columns"),
])
def test_a_title_says_one_row_and_one_column_in_the_singular(rows: int, cols: int, title: str) -> None:
    assert ConnectX(rows, cols, 2).title == title
    assert ConnectX(6, 7, 4).title == "Connect Four, 6 rows x 7 columns"


@pytest.mark.parametrize(("spec", "words"), [
    ("connectx:rows=65,cols=1,k=2", "a board of 65 rows and 1 column is not supported"),
    ("connectx:rows=1,cols=65,k=2", "a board of 1 row and 65 columns is not supported"),
    ("connectx:rows=1,cols=3,k=4", "k=4 does not fit a board of 1 row and 3 columns"),
    ("connectx:rows=1,cols=1,k=2", "a board of 1 row and 1 column has no room for a line (k, its length, is at least 2)"),
    ("connectx:rows=1,cols=1,k=1", "a board of 1 row and 1 column has no room for a line (k, its length, is at least 2)"),
])
def test_size_errors_agree_in_number(spec: str, words: str) -> None:
    with pytest.raises(InvalidSpecError, match=re.escape(words)):
        get_game(spec)


def test_grid_errors_agree_in_number() -> None:
    with pytest.raises(InvalidPositionError, match="has 2 cells; this board has 1 column$"):
        ConnectX(2, 1, 2).from_grid(".\n..")
    with pytest.raises(InvalidPositionError, match="the grid has 1 row; this board has 2"):
        ConnectX(2, 2, 2).from_grid("..")


@pytest.mark.parametrize("spec", ["connectx:rows=+6,cols=7", "connectx:rows=6,cols=+7", "connectx:k=+3",
                                  "migration:n=+5", "othello:n=+6"])
def test_a_plus_sign_is_not_a_digit_in_a_game_spec(spec: str) -> None:
    with pytest.raises(InvalidSpecError, match="is not a whole number"):
        get_game(spec)


def test_a_plus_sign_is_refused_in_agent_specs_and_typed_columns_too() -> None:
    with pytest.raises(ValueError):
        integer("+6")
    with pytest.raises(AgentError):
        make_agent("alphabeta:depth=+3")
    with pytest.raises(InvalidMoveError):
        ConnectX().parse_action("+4")
    assert make_agent("alphabeta:three=-5,two=-1").three == -5  # a minus where the range goes below 0


def test_what_stays_lenient_is_documented_behaviour() -> None:
    # spaces around a spec's parts and the case of its name are ignored (README Limits; docs/games.md)
    for spec in (" connect4", "Connect4", "CONNECTX:rows=6,cols=7", "connectx: rows = 6 , cols=7 "):
        assert get_game(spec).spec == "connectx:rows=6,cols=7,k=4"
    with pytest.raises(InvalidSpecError, match="has no option 'ROWS'"):
        get_game("connectx:ROWS=6")  # option names are not folded


@pytest.mark.parametrize("moves", [",1", "1,2,", "1,,2", "1, ,2", ",", "1,2, "])
@pytest.mark.parametrize("cols", [7, 10])
def test_a_connect_x_move_string_has_no_empty_move(moves: str, cols: int) -> None:
    game = ConnectX(2, cols, 3)
    with pytest.raises(InvalidMoveError, match="has an empty move") as caught:
        game.from_moves(moves)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("moves", "columns"), [("10,4,1", [9, 3, 0]), ("10 4 1", [9, 3, 0]),
                                                (" 1 , 2 ", [0, 1]), ("1, 2", [0, 1]), ("", [])])
def test_well_formed_wide_move_strings_still_read(moves: str, columns: list[int]) -> None:
    assert ConnectX(2, 10, 3).split_moves(moves) == columns
