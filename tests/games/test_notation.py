"""Move strings of every game: game.parse_moves checks each move, game.format_moves inverts it (the
notation each game owns; formerly zerosum.ui.notation)."""

from __future__ import annotations

import random

import pytest

from zerosum import get_game
from zerosum.errors import IllegalMoveError, InvalidMoveError


@pytest.mark.parametrize("spec", ["connect4", "connectx:rows=4,cols=12,k=3", "tictactoe", "migration:n=5", "migration:n=8"])
def test_random_games_round_trip(spec: str) -> None:
    game = get_game(spec)
    rng = random.Random(7)
    for _ in range(20):
        state, actions = game.initial_state, []
        while not game.is_terminal(state) and len(actions) < 40:
            action = rng.choice(game.actions(state))
            actions.append(action)
            state = game.result(state, action)
        text = game.format_moves(actions)
        assert game.parse_moves(text) == actions
        assert game.states_of(actions)[-1] == state


def test_forms_per_game() -> None:
    c4, ttt, mig, wide = get_game("connect4"), get_game("tictactoe"), get_game("migration:n=4"), get_game("connectx:rows=6,cols=11,k=4")
    assert c4.parse_moves("4453") == [3, 3, 4, 2]
    assert wide.format_moves([9, 0, 10]) == "10,1,11" and wide.parse_moves("10,1,11") == [9, 0, 10]
    assert ttt.parse_moves("519") == [4, 0, 8] and ttt.format_moves([4, 0, 8]) == "519"
    # Migration(4): player 1 has stones at (1,0) and (2,0), player 2 at (3,1) and (3,2)
    assert mig.parse_moves("1,0;3,1") == [(1, 0, 1, 1), (3, 1, 2, 1)]
    assert mig.format_moves([(1, 0, 1, 1), (3, 1, 2, 1)]) == "1,0;3,1"
    assert mig.format_action((1, 0, 1, 1)) == "1,0"
    assert c4.parse_moves("") == [] and mig.parse_moves("  ") == []


@pytest.mark.parametrize(
    "spec,text,cls,words",
    [
        ("connect4", "448", IllegalMoveError, "move 3 of '448': column 8 is outside 1..7"),
        ("connect4", "1111111", IllegalMoveError, "move 7 of '1111111': column 1 is full"),
        ("connect4", "4a", InvalidMoveError, "not a column number"),
        ("tictactoe", "55", IllegalMoveError, "move 2 of '55': cell 5 is taken"),
        ("tictactoe", "5x", InvalidMoveError, "not a cell number"),
        ("tictactoe", "1425369", IllegalMoveError, "the game is over"),
        ("migration:n=4", "0,0", IllegalMoveError, "no stone at (0, 0)"),
        ("migration:n=4", "1,0;1,1", IllegalMoveError, "move 2 of"),
        ("migration:n=4", "one", InvalidMoveError, "not a Migration move"),
    ],
)
def test_bad_move_strings_name_the_move(spec: str, text: str, cls: type, words: str) -> None:
    with pytest.raises(cls) as info:
        get_game(spec).parse_moves(text)
    assert words in str(info.value)


@pytest.mark.parametrize("name", ["connect4", "connect4-8x8", "connectx", "tictactoe", "migration", "othello"])
def test_the_example_in_each_games_moves_help_is_a_legal_line_of_its_default_board(name: str) -> None:
    """The ``e.g.`` of ``MOVES_HELP`` (shown by ``--help`` and quoted in README and docs/games.md) is legal where
    a user tries it: Migration's ``3,0;7,3`` was legal on no board size (an occupied cell on 8 x 8)."""
    game = get_game(name)
    assert "e.g. " in game.MOVES_HELP, game.MOVES_HELP
    example = game.MOVES_HELP.rsplit("e.g. ", 1)[1]
    assert game.parse_moves(example), example


@pytest.mark.parametrize("spec, what", [("connect4", "column 9999999999999999999 is outside 1..7"),
                                        ("tictactoe", "cell 9999999999999999999 is outside 1..9")])
def test_a_typed_number_of_19_digits_is_a_number_and_a_long_one_says_its_length(spec: str, what: str) -> None:
    # the README's limit for any number a person types: at most 19 digits; 19 were refused as "not a number",
    # and a long text was cut at 40 characters with nothing to say it was cut
    game = get_game(spec)
    with pytest.raises(IllegalMoveError, match=f"^{what}$"):
        game.parse_action("9" * 19)
    with pytest.raises(InvalidMoveError, match=r"^'9{20}' is not a"):
        game.parse_action("9" * 20)
    with pytest.raises(InvalidMoveError) as info:
        game.parse_action("4" * 5000)
    assert str(info.value).startswith("'" + "4" * 40 + "'... (5,000 characters) is not a "), str(info.value)
