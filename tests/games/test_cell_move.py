"""``Game.cell_move(row, col)``: the move a click on a cell names, legal or not, as typed (the page asks the
game why a click that plays nothing is refused).  Where a click plays, it names exactly the move it plays; where
it plays nothing, the game refuses what it names with its own reason."""

from __future__ import annotations

import random

import pytest

import zerosum
from zerosum.errors import IllegalMoveError, InvalidMoveError
from zerosum.ui.position import describe_state


@pytest.mark.parametrize("spec", ["tictactoe", "othello", "othello:n=6", "migration", "migration:n=6", "connect4"])
def test_a_cell_names_the_move_a_click_plays_and_the_others_are_refused_with_a_reason(spec: str) -> None:
    game = zerosum.get_game(spec)
    rng = random.Random(0)
    state, seen = game.states_of(game.parse_moves("444444"))[-1] if spec == "connect4" else game.initial_state, 0
    while not game.is_terminal(state):
        view = game.board_view(state)
        for r in range(view.rows):
            for c in range(view.cols):
                named, action = game.cell_move(r, c), game.action_at(state, r, c)
                assert named is not None, (spec, r, c)
                if action is not None:
                    assert game.parse_action(named, state) == action  # the move the click plays
                    continue
                try:
                    parsed = game.parse_action(named, state)
                except (IllegalMoveError, InvalidMoveError) as exc:
                    assert str(exc) and "\n" not in str(exc)
                    seen += 1
                else:  # a column's cell on a board whose moves are columns plays it from any of its cells
                    assert spec == "connect4" and parsed in game.actions(state)
        state = game.result(state, rng.choice(game.actions(state)))
    assert seen > 0


def test_a_cell_outside_the_board_names_no_move() -> None:
    for spec in ("tictactoe", "othello", "migration", "connect4"):
        game = zerosum.get_game(spec)
        view = game.board_view(game.initial_state)
        for r, c in ((-1, 0), (0, -1), (view.rows, 0), (0, view.cols), ("0", 0), (0, 1.0)):
            assert game.cell_move(r, c) is None, (spec, r, c)  # type: ignore[arg-type]


def test_the_page_gets_each_cell_s_move() -> None:
    game = zerosum.get_game("tictactoe")
    said = describe_state(game, game.parse_moves("5"), catalogue=False)
    assert said["cell_moves"] == [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]
    assert said["targets"][1][1] is None  # taken: a click plays nothing, and the page asks why "5" is refused
