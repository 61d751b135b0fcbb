"""Every game's states draw as SVG from the game's board view: valid XML, one stone element per piece."""

from __future__ import annotations

import doctest
import xml.etree.ElementTree as ET

import pytest

import zerosum.core.svg
from zerosum import get_game
from zerosum.errors import GameError

SVG = "{http://www.w3.org/2000/svg}"

# (game spec, move strings in the game's notation)
POSITIONS = [
    ("connect4", ["", "4", "4453", "4455667", "12345671234567"]),
    ("connectx:rows=3,cols=9,k=3", ["", "919", "11"]),
    ("tictactoe", ["", "5", "15293", "123456879"]),
    ("migration:n=5", ["", "1,0", "1,0;3,2;3,0"]),
    ("migration:n=8", [""]),
    ("othello", ["", "f5", "f5d6c3d3c4"]),
    ("othello:n=6", ["", "c2"]),
]


def _stones(svg: str) -> dict[int, int]:
    root = ET.fromstring(svg)  # parses as XML, or the test fails
    counts = {1: 0, 2: 0}
    for el in root.iter():
        classes = el.get("class", "").split()
        if "stone" in classes:
            counts[1 if "p1" in classes else 2] += 1
    return counts


def _pieces(game, state) -> dict[int, int]:
    cells = [v for row in game.board_view(state).cells for v in row]
    return {1: cells.count(1), 2: cells.count(2)}


@pytest.mark.parametrize(("spec", "moves"), [(s, m) for s, ms in POSITIONS for m in ms])
def test_state_svg_parses_and_shows_every_stone(spec: str, moves: str) -> None:
    game = get_game(spec)
    state = game.parse_position(moves)[1]
    svg = state._repr_svg_()
    assert svg is not None
    assert _stones(svg) == _pieces(game, state)
    assert _stones(game.svg(state)) == _pieces(game, state)


@pytest.mark.parametrize("spec", ["connect4", "connectx:rows=5,cols=4,k=3", "tictactoe", "migration:n=6", "othello:n=6"])
def test_placed_and_grid_states_still_draw_with_their_own_game(spec: str) -> None:
    game = get_game(spec)
    state = game.initial_state
    where = 1 if spec.startswith("connect") else (0, 1)
    placed = game.place(state, where, 1)
    assert _stones(placed._repr_svg_()) == _pieces(game, placed)
    built = game.from_board(game.board_view(placed).cells, game.player(placed))
    assert _stones(built._repr_svg_()) == _pieces(game, built)


def test_connectx_state_draws_the_size_of_its_own_game() -> None:
    # the bitboards do not say the board's size: the state finds its game through its history's root
    wide = get_game("connectx:rows=4,cols=9,k=4")
    svg = wide.result(wide.initial_state, 8)._repr_svg_()
    root = ET.fromstring(svg)
    holes = [el for el in root.iter(f"{SVG}circle") if "stone" not in el.get("class", "")]
    assert len(holes) == 4 * 9


def test_last_move_and_winning_line_are_outlined() -> None:
    game = get_game("connect4")
    won = game.from_moves("4455667")
    assert won._repr_svg_().count('stroke="#22c55e"') == 4  # the four stones of the line
    svg = game.svg(game.from_moves("44"))
    assert svg.count('stroke="#ffffff"') == 1  # the last stone only


def test_labels_are_escaped_xml() -> None:
    from zerosum.game import BoardView

    view = BoardView(1, 2, ((1, 0),), col_labels=("<a>", "&"), glyphs=("<", ">"), colors=('"red', "blue"))
    assert _stones(zerosum.core.svg.board_svg(view)) == {1: 1, 2: 0}


def test_bad_cell_size_is_one_line() -> None:
    game = get_game("tictactoe")
    with pytest.raises(GameError, match="8..200"):
        game.svg(game.initial_state, cell=5000)


def test_svg_module_doctests() -> None:
    assert doctest.testmod(zerosum.core.svg).failed == 0
