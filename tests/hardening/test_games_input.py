"""Hardening, the games floor: what a caller passes never escapes the error tree or builds a huge game."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import ConnectX, Migration, TicTacToe, get_game
from zerosum.errors import GameError, IllegalMoveError, InvalidMoveError, InvalidPositionError, InvalidSpecError
from zerosum.spec import integer, real

NON_ASCII_DIGITS = ["4²", "٣", "४", "４", "⑦", "𝟒", "¹"]


@pytest.mark.parametrize("text", NON_ASCII_DIGITS)
def test_move_strings_accept_only_ascii_digits(text: str) -> None:
    for game in (ConnectX(), ConnectX(6, 12, 4), TicTacToe()):
        with pytest.raises(InvalidMoveError):
            game.from_moves(text)
    with pytest.raises(InvalidMoveError):
        ConnectX().parse_action(text)
    migration = Migration(5)
    with pytest.raises(InvalidMoveError):
        migration.parse_action(f"{text},0", migration.initial_state)


@pytest.mark.parametrize("text", [*NON_ASCII_DIGITS, "nan", "inf", "-inf", "1e999", "1" * 20, "0x10", "", " "])
def test_numbers_are_ascii_finite_and_bounded(text: str) -> None:
    with pytest.raises(ValueError):
        integer(text)
    with pytest.raises(ValueError):
        real(text)


def test_numbers_read_what_people_type() -> None:
    assert integer(" 42 ") == 42 and integer("-3") == -3 and integer("9" * 19) == 10**19 - 1
    assert real("1.5") == 1.5 and real(".25") == 0.25 and real("2e-3") == 0.002 and real("3") == 3.0


@pytest.mark.parametrize("moves", [None, 5, 3.5, object(), b"44", {"a": 1}])
def test_from_moves_refuses_what_is_not_a_move_list(moves: object) -> None:
    with pytest.raises(InvalidMoveError):
        ConnectX().from_moves(moves)  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        TicTacToe().from_moves(moves)  # type: ignore[arg-type]


class _HostileInt(int):
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("hostile __eq__")

    def __lt__(self, other: object) -> bool:
        raise RuntimeError("hostile __lt__")

    __hash__ = int.__hash__


class _HostileRepr:
    def __repr__(self) -> str:
        raise RuntimeError("hostile __repr__")


class _HostileIndex:
    def __index__(self) -> int:
        raise RuntimeError("hostile __index__")


@pytest.mark.parametrize("action", [3.0, "3", True, None, _HostileRepr(), _HostileIndex(), (1, 2)])
def test_actions_of_any_type_are_refused_within_the_error_tree(action: object) -> None:
    for game in (ConnectX(), TicTacToe()):
        with pytest.raises(InvalidMoveError):
            game.result(game.initial_state, action)
    migration = Migration(5)
    with pytest.raises(InvalidMoveError):
        migration.result(migration.initial_state, action)  # type: ignore[arg-type]


def test_int_like_actions_become_plain_columns() -> None:
    game = ConnectX()
    expected = game.result(game.initial_state, 3)
    assert game.result(game.initial_state, np.int64(3)) == expected
    assert game.result(game.initial_state, _HostileInt(3)) == expected
    assert TicTacToe().result(TicTacToe().initial_state, np.int8(4)).cells[4] == 1


@pytest.mark.parametrize("row,col", [(5, 0), (0, -1), (0, 7), (-1, 0), (True, 0), (0, 1.0)])
def test_cell_is_bounds_checked(row: object, col: object) -> None:
    game = ConnectX(5, 7, 4)  # row 5 of a 5-row board used to wrap into the next column's bits
    state = game.from_moves("12")
    with pytest.raises(InvalidPositionError):
        game.cell(state, row, col)  # type: ignore[arg-type]
    assert game.cell(state, 4, 1) == 2 and game.cell(state, 0, 6) == 0


@pytest.mark.parametrize("spec", ["migration:n=20000", "migration:n=100000", "connectx:rows=99999,cols=7",
                                  "connectx:rows=6,cols=65", "migration:n=999999999999999999"])
def test_game_sizes_are_checked_before_building(spec: str) -> None:
    # migration:n=20000 used to build a 400-million-cell board (5.9 GB) before any check
    with pytest.raises(InvalidSpecError) as info:
        get_game(spec)
    assert "\n" not in str(info.value) and ("3..64" in str(info.value) or "1..64" in str(info.value))


def test_a_caller_may_allow_fewer_cells_than_the_game() -> None:
    assert get_game("connect4", max_cells=42).cols == 7
    for spec in ("connectx:rows=16,cols=16", "migration:n=20", get_game("connect4-8x8")):
        with pytest.raises(InvalidSpecError, match="cells"):
            get_game(spec, max_cells=50)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_any_text_is_a_position_or_one_error(text: str) -> None:
    for game in (ConnectX(), ConnectX(5, 12, 4), TicTacToe(), Migration(5)):
        try:
            if isinstance(game, Migration):
                game.parse_action(text, game.initial_state)
            else:
                game.from_moves(text)
        except GameError as exc:
            assert isinstance(exc, (IllegalMoveError, InvalidPositionError)) and "\n" not in str(exc)
