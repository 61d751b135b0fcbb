"""Record checks a mutation audit found untested: a result that contradicts the board, and First over White."""

import pytest

from zerosum.cli import main
from zerosum.errors import InvalidFileError
from zerosum.records import Record, format, parse

# X takes 1, 2, 3 (the top row) while O takes 4 and 5: X has won on its third move, so the result is 1-0
WON = ["1", "4", "2", "5", "3"]


def _text(result: str) -> str:
    return f'[Game "tictactoe"]\n[Result "{result}"]\n\n1. 1 4 2. 2 5 3. 3 {result}\n'


@pytest.mark.parametrize("claim", ["1/2-1/2", "0-1"])
def test_a_result_the_board_contradicts_is_refused(claim):
    with pytest.raises(InvalidFileError, match=r"end the game 1-0 \(three in a row\), but the result is " + claim):
        Record({"Game": "tictactoe"}, WON, result=claim).check()
    with pytest.raises(InvalidFileError, match="but the result is " + claim):
        parse(_text(claim))


@pytest.mark.parametrize("claim", ["1-0", "*"])
def test_the_boards_own_result_or_none_is_accepted(claim):
    assert len(Record({"Game": "tictactoe"}, WON, result=claim).check()) == 6  # the start and five moves
    assert parse(_text(claim))[0].result == claim


def test_replay_refuses_a_draw_claimed_on_a_won_board(tmp_path, capsys):
    path = tmp_path / "draw.pgn"
    path.write_text(_text("1/2-1/2"))
    assert main(["replay", str(path), "--no-color"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "but the result is 1/2-1/2" in err[0]


def test_first_rules_over_white_when_both_are_given_and_differ():
    tags = {"Game": "tictactoe", "First": "ann", "White": "bob", "Second": "cy", "Black": "dee"}
    record = Record(tags, ["5"])
    assert (record.tags["First"], record.tags["White"]) == ("ann", "ann")
    assert (record.tags["Second"], record.tags["Black"]) == ("cy", "cy")
    text = format(record)
    assert '[White "ann"]' in text and '[Black "cy"]' in text and "bob" not in text and "dee" not in text
    # a file that says both, differently, is refused (one line naming both tags)
    with pytest.raises(InvalidFileError, match="the White tag says 'bob' but the First tag says 'ann'"):
        parse('[Game "tictactoe"]\n[White "bob"]\n[First "ann"]\n[Result "*"]\n\n1. 5 *\n')


def test_white_alone_names_the_first_player():
    record = Record({"Game": "tictactoe", "White": "bob"}, ["5"])
    assert (record.tags["First"], record.tags["White"]) == ("bob", "bob")
