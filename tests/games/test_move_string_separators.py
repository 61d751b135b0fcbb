"""Tic-Tac-Toe, Othello and Migration move strings have no empty move, as Connect-X's (see
test_board_words_and_strict_input.py): one separator between two moves or numbers, none at either end.
``5,`` or ``1,0;;3,1`` is refused in one line saying where, never read as if the empty piece were not there;
the forms docs/games.md and the games' docstrings promise (spaces, commas, capitals) still read."""

from __future__ import annotations

import doctest
import io
import random
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import Migration, Othello, TicTacToe, get_game
from zerosum.cli import main
from zerosum.errors import InvalidMoveError
from zerosum.games import move_text

SPECS = ["tictactoe", "othello:n=4", "othello:n=6", "othello", "migration:n=4", "migration:n=5", "migration:n=8"]
#: what stands between two moves (each valid), and the separator an empty move needs on either side of it
JOINS = {"tictactoe": ["", " ", ",", ", ", " , ", "\t"], "othello": ["", " ", ",", ", ", " , ", "\n"],
         "migration": [";", "; ", " ;", " ", "\t"]}
SEP = {"tictactoe": ",", "othello": ",", "migration": ";"}


def one_line_refusal(call: Any, *args: Any, words: str) -> str:
    with pytest.raises(InvalidMoveError) as caught:
        call(*args)
    message = str(caught.value)
    assert words in message and "\n" not in message and len(message) < 300, message
    return message


@pytest.mark.parametrize(("spec", "moves", "where"), [
    ("tictactoe", "5,", "at its end"), ("tictactoe", ",5", "at its start"), ("tictactoe", "5,,1", "after move 1"),
    ("tictactoe", "5, ,1", "after move 1"), ("tictactoe", "51,,9", "after move 2"), ("tictactoe", ",", "at its start"),
    ("tictactoe", "5,1,9, ", "at its end"),
    ("othello", "f5,", "at its end"), ("othello", ",f5", "at its start"), ("othello", "f5,,d6", "after move 1"),
    ("othello", "f5d6 , , c3", "after move 2"), ("othello", "f5d6,c3,", "at its end"), ("othello", ",", "at its start"),
    ("migration:n=4", "1,0;;3,1", "after move 1"), ("migration:n=4", ";1,0", "at its start"),
    ("migration:n=4", "1,0;", "at its end"), ("migration:n=4", "1,0; ;3,1", "after move 1"),
    ("migration:n=4", "1,0;3,1;", "at its end"), ("migration:n=4", ";", "at its start"),
])
def test_an_empty_move_is_refused_in_one_line_saying_where(spec: str, moves: str, where: str) -> None:
    game = get_game(spec)
    message = one_line_refusal(game.parse_moves, moves, words=f"has an empty move {where}")
    assert message.startswith(repr(moves))
    one_line_refusal(game.move_tokens, moves, words=f"has an empty move {where}")
    if isinstance(game, TicTacToe):
        one_line_refusal(game.from_moves, moves, words=f"has an empty move {where}")


@pytest.mark.parametrize(("moves", "words"), [
    ("1,,0;3,1", "move 1 of '1,,0;3,1': '1,,0' has an empty number after number 1"),
    ("1,0;3,1,", "move 2 of '1,0;3,1,': '3,1,' has an empty number at its end"),
    (",1,0", "',1,0' has an empty number at its start"),
    ("1,0>;3,1", "'1,0>' has an empty number at its end"),
    ("1,0>>1,1", "'1,0>>1,1' has an empty number after number 2"),
    ("1,0,,1,1", "has an empty number after number 2"),
    ("(1,,0)", "'(1,,0)' has an empty number after number 1"),
])
def test_a_migration_move_has_no_empty_number(moves: str, words: str) -> None:
    game = Migration(4)
    one_line_refusal(game.parse_moves, moves, words=words)


@pytest.mark.parametrize("typed", ["1,,0", "1,0,", ",1,0", "1,0>", ">1,0", " 1 , , 0 ", "[1,0,]"])
def test_a_typed_migration_move_has_no_empty_number_and_changes_nothing(typed: str) -> None:
    game = Migration(4)
    state = game.initial_state
    one_line_refusal(game.parse_action, typed, state, words="has an empty number")
    assert state == game.initial_state and game.parse_action("1,0", state) == (1, 0, 1, 1)


@pytest.mark.parametrize(("spec", "moves", "actions"), [
    ("tictactoe", "519", [4, 0, 8]), ("tictactoe", "5 1 9", [4, 0, 8]), ("tictactoe", "5,1,9", [4, 0, 8]),
    ("tictactoe", " 5, 1 ,9 ", [4, 0, 8]), ("tictactoe", "51,9", [4, 0, 8]), ("tictactoe", "\t5\n1", [4, 0]),
    ("tictactoe", "", []), ("tictactoe", "   ", []),
    ("othello", "f5d6c3", [37, 43, 18]), ("othello", "F5 D6 C3", [37, 43, 18]), ("othello", "f5,d6,c3", [37, 43, 18]),
    ("othello", " f5, d6 ,c3 ", [37, 43, 18]), ("othello", "f5d6, c3", [37, 43, 18]), ("othello", "", []),
    ("migration:n=4", "1,0;3,1", [(1, 0, 1, 1), (3, 1, 2, 1)]), ("migration:n=4", "1,0; 3,1", [(1, 0, 1, 1), (3, 1, 2, 1)]),
    ("migration:n=4", " 1,0 ; 3,1 ", [(1, 0, 1, 1), (3, 1, 2, 1)]),
    ("migration:n=4", "1,0 3,1", [(1, 0, 1, 1), (3, 1, 2, 1)]),
    ("migration:n=4", "1,0;\n3,1", [(1, 0, 1, 1), (3, 1, 2, 1)]),
    ("migration:n=4", "1,0>1,1;3,1,2,1", [(1, 0, 1, 1), (3, 1, 2, 1)]),
    ("migration:n=4", "(1,0);[3,1]", [(1, 0, 1, 1), (3, 1, 2, 1)]), ("migration:n=4", "  ", []),
])
def test_the_promised_forms_still_read(spec: str, moves: str, actions: list[Any]) -> None:
    game = get_game(spec)
    assert game.parse_moves(moves) == actions
    if isinstance(game, TicTacToe):
        assert game.from_moves(moves) == game.states_of(actions)[-1]


@pytest.mark.parametrize("typed", ["1,0", " 1,0 ", "1, 0", "1 0", "(1, 0)", "[1,0]", "1,0>1,1", "(1, 0) > (1, 1)",
                                   "1,0,1,1", "(1, 0, 1, 1)"])
def test_typed_migration_moves_still_read(typed: str) -> None:
    game = Migration(4)
    assert game.parse_action(typed, game.initial_state) == (1, 0, 1, 1)


def test_other_mistakes_keep_their_words() -> None:
    one_line_refusal(TicTacToe().parse_moves, "5;1", words="move 2 of '5;1': ';' is not a cell number")
    one_line_refusal(Othello().parse_moves, "f5d6x3", words="move 3 of 'f5d6x3': 'x3' is not an Othello move")
    one_line_refusal(Othello().parse_moves, "f5, d6x3", words="move 3 of 'f5, d6x3': 'x3' is not an Othello move")
    one_line_refusal(Migration(4).parse_moves, "one", words="'one' is not a Migration move")
    one_line_refusal(Migration(4).parse_action, "1,2,3", Migration(4).initial_state, words="not a Migration move")


def test_the_shared_reader_documents_itself() -> None:
    assert doctest.testmod(move_text).failed == 0


def _random_game(game: Any, seed: int, longest: int = 30) -> list[Any]:
    rng, state, actions = random.Random(seed), game.initial_state, []
    while not game.is_terminal(state) and len(actions) < longest:
        actions.append(rng.choice(game.actions(state)))
        state = game.result(state, actions[-1])
    return actions


def _family(spec: str) -> str:
    return spec.split(":")[0]


@settings(max_examples=120, deadline=None)
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 2**32), data=st.data())
def test_move_strings_round_trip_with_any_valid_joins(spec: str, seed: int, data: st.DataObject) -> None:
    game = get_game(spec)
    actions = _random_game(game, seed)
    assert game.parse_moves(game.format_moves(actions)) == actions
    tokens = [game.format_action(a) for a in actions]
    between = max(len(tokens) - 1, 0)
    joins = data.draw(st.lists(st.sampled_from(JOINS[_family(spec)]), min_size=between, max_size=between))
    text = "".join(join + token for join, token in zip(["", *joins], tokens)).upper()
    assert game.parse_moves(data.draw(st.sampled_from(["", " ", "\n"])) + text) == actions


@settings(max_examples=150, deadline=None)
@given(spec=st.sampled_from(SPECS), seed=st.integers(0, 2**32), data=st.data())
def test_an_empty_move_inserted_anywhere_is_refused(spec: str, seed: int, data: st.DataObject) -> None:
    game, family = get_game(spec), _family(spec)
    tokens = [game.format_action(a) for a in _random_game(game, seed)]
    between = max(len(tokens) - 1, 0)
    joins = data.draw(st.lists(st.sampled_from(JOINS[family]), min_size=between, max_size=between))
    gaps = ["", *joins, ""][:len(tokens) + 1]  # before the first move, between two, after the last
    at = data.draw(st.integers(0, len(tokens)))
    blank = data.draw(st.sampled_from(["", " ", "  "]))
    sep = SEP[family]
    gaps[at] = sep + blank if at == 0 else blank + sep if at == len(tokens) else gaps[at] + sep + blank + sep
    text = gaps[0] + "".join(token + gap for token, gap in zip(tokens, gaps[1:]))
    where = "at its start" if at == 0 else "at its end" if at == len(tokens) else f"after move {at}"
    message = one_line_refusal(game.parse_moves, text, words=f"has an empty move {where}")
    assert message.startswith(repr(text)[:40])


@settings(max_examples=80, deadline=None)
@given(n=st.integers(4, 8), seed=st.integers(0, 2**32), data=st.data())
def test_an_empty_number_inserted_in_a_migration_move_is_refused(n: int, seed: int, data: st.DataObject) -> None:
    game = Migration(n)
    actions = _random_game(game, seed)
    if not actions:
        return
    tokens = [game.format_action(a) for a in actions]
    j = data.draw(st.integers(0, len(tokens) - 1))
    x, y = tokens[j].split(",")
    tokens[j], where = data.draw(st.sampled_from([(f",{x},{y}", "at its start"), (f"{x},,{y}", "after number 1"),
                                                  (f"{x},{y},", "at its end"), (f"{x},{y}>", "at its end")]))
    text = ";".join(tokens)
    one_line_refusal(game.parse_moves, text, words=f"move {j + 1} of ")
    one_line_refusal(game.parse_moves, text, words=f"{tokens[j]!r} has an empty number {where}")


def _run(argv: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
         ) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(("spec", "moves"), [("tictactoe", "5,"), ("othello", "f5,,d6"), ("migration:n=4", "1,0;;3,1"),
                                             ("migration:n=4", "1,,0")])
def test_play_refuses_a_starting_move_string_with_an_empty_piece(spec: str, moves: str, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(["play", "--game", spec, "--first", "human", "--second", "first", "--moves", moves], "q\n",
                          monkeypatch, capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "has an empty" in err


def test_play_refuses_a_typed_migration_move_with_an_empty_number(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["play", "--game", "migration:n=4", "--first", "human", "--second", "first"], "1,,0\nq\n",
                        monkeypatch, capsys)
    assert code == 0 and "'1,,0' has an empty number after number 1" in out
    assert "Game abandoned." in out and "1,0" not in out.split("Game abandoned.")[1]  # nothing was played
