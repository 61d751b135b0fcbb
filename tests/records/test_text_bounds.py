"""The record reader's bounds (memory proportional to the text: bounded lines, tags, moves and comments),
tags on one line with the right line numbers after them, and text no UTF-8 file can hold refused as bad
input, each in one line naming the line."""

import re
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.errors import GameError, InvalidFileError
from zerosum.records import (
    MAX_COMMENT,
    MAX_LINE,
    MAX_LINE_MOVES,
    MAX_MOVE,
    MAX_TAG,
    MAX_TAG_NAME,
    MAX_TAGS,
    MoveNote,
    Record,
    format,
    parse,
    read,
    write,
)

GAME = '[Game "tictactoe"]\n'


def refused(text: str) -> str:
    with pytest.raises(InvalidFileError) as info:
        parse(text)
    message = str(info.value)
    assert "\n" not in message and len(message) < 400, message
    return message


MEMORY = textwrap.dedent("""
    import resource, sys
    import zerosum.records as records
    from zerosum.errors import InvalidFileError
    text = open(sys.argv[1]).read()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        records.parse(text)
    except InvalidFileError as exc:
        print(exc)
    print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
""")


def test_a_five_megabyte_tag_is_refused_in_one_line_in_little_memory(tmp_path):
    path = tmp_path / "big.pgn"
    path.write_text(GAME + '[Event "' + "a" * 5 * 2**20 + '"]\n\n5 1 9 *\n')
    done = subprocess.run([sys.executable, "-c", MEMORY, str(path)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    message, grown = done.stdout.splitlines()
    assert message == f"game 1, line 2: a line of {5 * 2**20 + 10:,} characters; the longest is {MAX_LINE:,}"
    assert int(grown) < 64  # MB on top of the text (it was 1.1 GB: the tag's pattern kept state per character)


def test_tags_moves_and_comments_at_their_bounds_read_back_and_one_more_is_refused():
    name = "T" + "a" * (MAX_TAG_NAME - 1)
    record = Record({"Game": "tictactoe", name: '"\\' * (MAX_TAG // 2), "Termination": "normal"}, ["5", "1"])
    text = format(record)
    assert max(len(line) for line in text.splitlines()) <= MAX_LINE
    assert parse(text) == [record]
    assert "line 2: tag Event: a value of 4,097 characters; the longest is 4,096" in \
        refused(GAME + f'[Event "{"x" * (MAX_TAG + 1)}"]\n\n*')
    assert f"is {MAX_TAG_NAME + 1} characters" in refused(GAME + f'[{name}b "x"]\n\n*')
    assert f"a move is at most {MAX_MOVE}" in refused(GAME + "\n5\n" + "7" * (MAX_MOVE + 1) + " *")
    assert refused(GAME + "\n5\n" + "7" * (MAX_MOVE + 1) + " *").startswith("game 1, line 4: ")
    comment = "time=1s" + " " * (MAX_COMMENT - 7)
    assert parse(GAME + "\n5 {" + comment + "} *")[0].notes[0] == MoveNote(time=1.0)
    assert "never closed" in refused(GAME + "\n5 {" + comment + " } *")
    assert f"line 3: a line of {MAX_LINE + 1:,} characters" in refused(GAME + "\n" + " " * (MAX_LINE - 2) + "5 *")
    assert parse(GAME + "\n" + " " * (MAX_LINE - 3) + "5 *")[0].moves == ["5"]
    for bad in ({"Game": "tictactoe", "Event": "x" * (MAX_TAG + 1)}, {"Game": "tictactoe", name + "b": "x"}):
        with pytest.raises(InvalidFileError, match="the longest is|at most"):
            Record(bad, [])  # what is written can be read back
    with pytest.raises(InvalidFileError, match="the longest is"):
        Record({"Game": "tictactoe"}, ["7" * (MAX_MOVE + 1)])


def test_a_line_longer_than_any_game_is_refused_as_it_is_read(tmp_path):
    # audit: one game of five million moves was read whole (10 MB: 39 s, 291 MB) before its ply 23 was refused
    moves = " ".join(str(1 + i % 7) for i in range(2_000_000))
    text = '[Game "connect4"]\n\n' + "\n".join(moves[i:i + 80] for i in range(0, len(moves), 80)) + " *\n"
    at = 2 + -(-len(" ".join(str(1 + i % 7) for i in range(MAX_LINE_MOVES + 1))) // 80)  # the line of move 10,001
    with pytest.raises(InvalidFileError, match=rf"^game 1, line {at}: more than 200,000 moves in one line: no game "
                                               "is that long$"):
        parse(text)
    variation = '[Game "connect4"]\n\n1. 4 ( ' + "\n".join(["1 2"] * (MAX_LINE_MOVES // 2 + 1)) + " ) *\n"
    with pytest.raises(InvalidFileError, match="more than 200,000 moves in one line"):
        parse(variation)  # a variation's line too
    with pytest.raises(InvalidFileError, match="^a record's moves: more than 200,000 in one line"):
        Record({"Game": "connect4"}, ["4"] * (MAX_LINE_MOVES + 1))  # writing refuses what reading would
    Record({"Game": "connect4"}, ["4"] * MAX_LINE_MOVES)  # at the bound: made (its moves are replayed on use)
    assert MAX_LINE_MOVES > 105_152  # the longest game: Migration 64 x 64, each stone to the far edge


def test_more_tags_than_any_game_needs_are_refused():
    tags = "".join(f'[T{i} "x"]\n' for i in range(MAX_TAGS))
    with pytest.raises(InvalidFileError, match=rf"^game 1, line {MAX_TAGS + 1}: more than 1,000 tags in one game$"):
        parse(tags + GAME + "\n5 *\n")
    assert len(parse(tags[: tags.index(f"[T{MAX_TAGS - 1} ")] + GAME + "\n5 *\n")[0].tags) >= MAX_TAGS - 1
    with pytest.raises(InvalidFileError, match="^a record's tags: more than 1,000 in one game$"):
        Record({"Game": "tictactoe", **{f"T{i}": "x" for i in range(MAX_TAGS)}}, ["5"])


@pytest.mark.parametrize("split", ['[Event "a\nb"]', '[Event\n"a"]', '[\nEvent "a"]', '[Event "a"\n]',
                                   '[Event "a\\\nb"]'])
def test_a_tag_split_across_lines_is_refused_naming_its_line(split):
    text = GAME + "[Site \"x\"]\n" + split + "\n\n5 1 *\n"
    assert refused(text) == 'game 1, line 3: a tag pair is [Name "value"] on one line'


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([" ", "\n", "\n\n", "\t", " \n \n"]), min_size=12, max_size=12),
       st.integers(0, 5))
def test_line_numbers_in_errors_are_the_texts_own_after_any_whitespace_and_comments(gaps, bad_at):
    """Any whitespace (newlines in it, and in comments) between the tokens; the error names the bad move's line."""
    tokens = ['[Game "tictactoe"]', '[Event "e"]', "5", "{time=1s", "nodes=2}", "1", "{value=+1}", "9", "3", "*"]
    tokens.insert(2 + bad_at + (bad_at > 1) + (bad_at > 3), "x")  # a bad move, never inside a comment
    text = "".join(t + g for t, g in zip(tokens, gaps)) + "\n"
    line = text[: re.search(r"(?<![^\s])x(?![^\s])", text).start()].count("\n") + 1
    assert re.match(rf"game 1, line {line}: ply \d, move \d \('x'\)", refused(text))


SURROGATES = st.text(st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3)


@settings(max_examples=60, deadline=None)
@given(SURROGATES, st.text(max_size=5))
def test_lone_surrogates_are_refused_as_bad_input_everywhere(bad, other):
    for tags, moves in (({"Game": "tictactoe", "Event": other + bad}, []), ({"Game": "tictactoe"}, ["5", bad]),
                        ({"Game": "tictactoe", "Event": "x"}, [other + bad + "1"])):
        with pytest.raises(InvalidFileError) as info:
            Record(tags, moves)
        assert "\n" not in str(info.value)
    assert "lone surrogate" in refused(GAME + f'[Event "{bad}"]\n\n*')
    assert refused(GAME + f"\n5 1{bad} *").startswith("game 1, line 3: character ")
    with pytest.raises(InvalidFileError):
        MoveNote.from_text(f"time={bad}s")


def test_writing_a_record_changed_to_hold_a_surrogate_is_refused_and_leaves_no_file(tmp_path):
    record = Record({"Game": "tictactoe", "Event": "e"}, ["5"])
    record.tags["Event"] = "\udcff"  # changed after it was made
    with pytest.raises(InvalidFileError, match="surrogate"):
        write([record], tmp_path / "s.pgn")
    with pytest.raises(InvalidFileError, match="surrogate"):
        format(record)
    with pytest.raises(InvalidFileError, match="surrogate"):
        write([], tmp_path / "\udcff.pgn")
    with pytest.raises(InvalidFileError, match="surrogate"):
        read(tmp_path / "\udcff.pgn")
    assert list(tmp_path.iterdir()) == []


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('[]{}"\\ \n\t=*-/01259Gamexyz\ud800\x00é')) | st.characters(),
               max_size=120))
def test_any_text_parses_or_is_refused_in_one_bounded_line(text):
    try:
        parse('[Game "tictactoe"]\n' + text)
    except GameError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 600
