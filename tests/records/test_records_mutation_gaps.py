"""Record checks mutation audits found untested: a result that contradicts the board, and First over White;
then (a second audit, of lexer, reading, writer, variations and notes) a byte-order mark, control characters
in a tag, the blank line before an appended game, a note's comment and its free comment in their order, the
order of a tree's lines, a note padded with spaces as python-chess writes comments, a win in 0 plies, and a
comment's whitespace.  Each fails on its mutant; hand-made records only, a few milliseconds each."""

import re

import pytest

from zerosum.cli import main
from zerosum.errors import InvalidFileError
from zerosum.records import Record, Variation, format, parse
from zerosum.records.notes import MoveNote
from zerosum.records.writer import Writer

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


# ---- the second audit: lexer, reading, writer, variations, notes ---------------------------------------------

GAME = '[Game "connect4"]\n[Result "*"]\n\n'


def test_a_byte_order_mark_before_the_first_tag_is_skipped():
    # Windows Notepad saves UTF-8 with U+FEFF first; the text is a record all the same
    with_mark = parse("\ufeff" + GAME + "1. 4 1... 3 *\n")
    assert [r.moves for r in with_mark] == [["4", "3"]] and with_mark == parse(GAME + "1. 4 1... 3 *\n")


@pytest.mark.parametrize("value", ["two\nlines", "a\ttab", "nul\x00", "bell\x07", "del\x7f", "cr\r"])
def test_a_tag_value_with_a_control_character_is_refused_and_writes_no_file(tmp_path, value):
    # PGN's tag values are printable text on one line: "two\nlines" written out would split its tag pair
    with pytest.raises(InvalidFileError, match="tag Event: its value is text on one line"):
        Record({"Game": "connect4", "Event": value}, ["4"]).check()
    with pytest.raises(InvalidFileError, match="tag Event"):
        format(Record({"Game": "connect4", "Event": value}, ["4"]))


@pytest.mark.parametrize("ending, lead", [("", "\n\n"), ("\n", "\n")])
def test_an_appended_game_follows_one_blank_line_whatever_the_file_ended_with(tmp_path, ending, lead):
    # PGN's export format: a blank line after each game's movetext, before the next game's tags
    path = tmp_path / "r.pgn"
    before = format(Record({"Game": "connect4", "Round": "1"}, ["4", "3"], result="*")).rstrip("\n") + ending
    path.write_text(before)
    second = Record({"Game": "connect4", "Round": "2"}, ["4"], result="*")
    with Writer(path) as writer:
        assert writer.held == 1
        writer.write(second)
    assert path.read_text() == before + lead + format(second)
    assert "*\n\n[Event" in path.read_text()


def test_the_note_comes_before_the_free_comment_after_the_moves_mark():
    record = Record({"Game": "connect4"}, ["4", "3", "4"], [MoveNote(time=0.1, nodes=12, mark="?", comment="hm")])
    assert "\n1. 4? {time=0.1s nodes=12} {hm} 1... 3 2. 4 *\n" in format(record)  # the documented order


def test_a_trees_lines_list_the_variations_of_later_moves_first():
    # variations of moves 2 and 4 (indices 1 and 3): a walk taking each main continuation first meets the leaf
    # of the variation of move 4 before that of move 2
    record = Record({"Game": "connect4"}, ["4", "3", "4", "3", "4"],
                    variations={1: [Variation(["5"])], 3: [Variation(["2", "2"])]})
    assert record.lines() == [["4", "3", "4", "3", "4"], ["4", "3", "4", "2", "2"], ["4", "5"]]


def test_a_note_padded_with_spaces_is_a_note_as_python_chess_writes_comments():
    # python-chess writes every comment as "{ text }": a zerosum record it has written out reads the same
    text = GAME + "1. 4 { time=0.5s nodes=7 value=+W3 } 1... 3 { a free one } *\n"
    first, second = parse(text)[0].notes
    assert (first.time, first.nodes, first.comment) == (0.5, 7, None) and first.exact
    assert second.comment == "a free one" and second.time is None


@pytest.mark.parametrize("value", ["+W0", "-L0"])
def test_a_win_or_loss_in_no_plies_is_not_a_value(value):
    # a position to move in is at least one ply from its end: +W0 / -L0 name no position
    with pytest.raises(InvalidFileError, match=re.escape(f"value='{value}' is not a number")):
        parse(GAME + f"1. 4 {{value={value}}} *\n")


def test_a_comments_whitespace_is_kept_as_single_spaces_on_one_line():
    note = MoveNote(comment="good\n  move\t here ")
    assert note.comment == "good move here"
    assert MoveNote(comment=" \n ").comment is None
    text = format(Record({"Game": "connect4"}, ["4"], [note]))
    assert "\n1. 4 {good move here} *\n" in text
