"""A record's layout is PGN's export format, checked against python-chess's PGN writer as the reference: the
Seven Tag Roster first, in its order, then the other tags; a move number (``N...`` for the second player)
after every comment and every variation, as well as before the first player's moves and at a line's start.

Our games are not chess, so the reference is an equivalent structure written by python-chess: a chess game of
knight moves with the same plies from the start, the same comments and the same variations; the two texts
must agree token for token once each move is read as "a move"."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import get_game, play_game
from zerosum.records import MoveNote, Record, Variation, format, from_game_record, parse

chess_pgn = pytest.importorskip("chess.pgn")
import chess  # noqa: E402  (after the skip: python-chess is in the test extra)

SEVEN = ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
#: a board where no line can be made and no column fills in the moves drawn: every move legal
GAME = get_game("connectx:rows=16,cols=7,k=16")


def tag_names(text: str) -> list[str]:
    return re.findall(r'^\[([A-Za-z0-9_]+) "', text, re.M)


# ---- tags ------------------------------------------------------------------------------------------------


def test_the_seven_tag_roster_comes_first_in_its_order_then_the_others():
    record = from_game_record(play_game("tictactoe", "random", "random", seed=3))
    names = tag_names(format(record))
    assert names[:7] == SEVEN
    assert names[7:] == ["First", "Second", "Game", "Opening", "Termination", "TimeControl"]


@settings(max_examples=30, deadline=None)
@given(st.dictionaries(st.from_regex(r"[A-Z][a-z]{1,8}", fullmatch=True).filter(lambda k: k not in SEVEN + [
    "First", "Second", "Game", "Opening", "Termination", "TimeControl"]), st.from_regex(r"[a-z ]{0,12}", fullmatch=True),
    max_size=4), st.permutations(SEVEN + ["First", "Game", "Termination"]))
def test_tags_are_where_python_chess_writes_them(extra, order):
    """Whatever order the tags are given in, the header is what python-chess's writer makes of it: the roster
    first in its order, then the other tags (ours first, then any others in the order given)."""
    given_tags = {"Event": "e", "Site": "s", "Date": "2025.01.02", "Round": "3", "White": "a", "Black": "b",
                  "Result": "*", "First": "a", "Game": "tictactoe", "Termination": "unterminated"}
    tags = {name: given_tags[name] for name in order} | extra
    text = format(Record(tags, ["5", "1"], [MoveNote(time=0.5)], "*"))
    reference = chess_pgn.read_game(__import__("io").StringIO(text))
    written = reference.accept(chess_pgn.StringExporter(headers=True, comments=False, variations=False))
    assert tag_names(text) == tag_names(written)
    assert tag_names(text)[:7] == SEVEN
    assert parse(text)[0].tags == Record(tags, ["5", "1"], [MoveNote(time=0.5)], "*").tags


# ---- move numbers after comments and variations ----------------------------------------------------------


def knight_move(board: chess.Board, knight: str) -> chess.Move:
    """The side to move's ``g`` knight (g1 <-> f3, g8 <-> f6) or ``b`` knight (b1 <-> c3, b8 <-> c6) moved:
    always legal, and the two differ, so a variation never repeats the move it replaces."""
    homes = {(chess.WHITE, "g"): ("g1", "f3"), (chess.WHITE, "b"): ("b1", "c3"),
             (chess.BLACK, "g"): ("g8", "f6"), (chess.BLACK, "b"): ("b8", "c6")}
    home, out = homes[(board.turn, knight)]
    here = chess.parse_square(home)
    piece = board.piece_at(here)
    if piece is not None and piece.piece_type == chess.KNIGHT:
        return chess.Move(here, chess.parse_square(out))
    return chess.Move(chess.parse_square(out), here)


NOTES = [None, MoveNote(time=0.25), MoveNote(comment="free text"), MoveNote(nodes=7, value=2.0, comment="both"),
         MoveNote(mark="?"), MoveNote(mark="!!", value=-1.5)]


@st.composite
def lines(draw, depth: int = 0, longest: int = 6):
    """A line of the tree as ``(columns, note indexes, {index: [lines]})``.  A variation has none of its own
    at its first move: python-chess keeps a tree, where that is one more alternative to the same move, and
    writes it after the variation, not inside it (both are PGN)."""
    count = draw(st.integers(1, longest))
    columns = draw(st.lists(st.integers(0, 6), min_size=count, max_size=count))
    notes = draw(st.lists(st.integers(0, len(NOTES) - 1), min_size=count, max_size=count))
    branches = {}
    if depth < 3 and count > (depth > 0):
        for i in draw(st.sets(st.integers(1 if depth else 0, count - 1), max_size=2)):
            branches[i] = draw(st.lists(lines(depth + 1, 3), min_size=1, max_size=2))
    return columns, notes, branches


def ours(line) -> tuple[list[str], list[MoveNote | None], dict[int, list[Variation]]]:
    columns, notes, branches = line
    made = {i: [Variation(*ours(v)) for v in vs] for i, vs in branches.items()}
    return [GAME.format_action(c) for c in columns], [NOTES[n] for n in notes], made


def reference(node: chess_pgn.GameNode, line, knight: str = "g") -> None:
    """The chess line of ``line`` below ``node``: one knight move a ply (the first of a variation by the
    other knight), each carrying a comment where our move carries a note or a free comment."""
    columns, notes, branches = line
    for i in range(len(columns)):
        board = node.board()
        child = node.add_variation(knight_move(board, knight if i == 0 else "g"))
        note = NOTES[notes[i]]
        if note is not None and (note.text() or note.comment):
            child.comment = "c"
        for v in branches.get(i, ()):
            reference(node, v, "b")
        node = child


def layout(text: str) -> list[str]:
    """The movetext's tokens with each move read as ``M``, each run of comments as one ``{}``, NAGs left out
    (python-chess writes ``$2`` where we write ``4?``): the move numbers, parentheses and result as written."""
    out: list[str] = []
    for token in re.findall(r"\{[^}]*\}|\(|\)|[^\s(){}]+", text):
        if token.startswith("{"):
            if out[-1] != "{}":
                out.append("{}")
        elif token.startswith("$"):
            continue
        elif re.fullmatch(r"\d+\.(\.\.)?|[()*]", token):
            out.append(token)
        else:
            out.append("M")
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 5), lines())
def test_move_numbers_are_where_python_chess_writes_them_with_comments_and_variations(opening, line):
    board = chess.Board()
    for _ in range(opening):
        board.push(knight_move(board, "g"))
    game = chess_pgn.Game()
    game.setup(board)
    reference(game, line)
    expected = layout(game.accept(chess_pgn.StringExporter(headers=False, comments=True, variations=True)))

    moves, notes, variations = ours(line)
    record = Record({"Game": GAME.spec, "Opening": GAME.format_moves([0] * opening) if opening else "-",
                     "Termination": "unterminated"}, moves, notes, "*", variations)
    text = format(record)
    assert layout(text.split("\n\n", 1)[1]) == expected
    assert parse(text) == [record]


def test_the_second_players_move_after_a_comment_is_numbered():
    """The audit's case: ``4. 4 {...} 6 {...}`` read as the export format writes it, ``4. 4 {...} 4... 6``."""
    record = Record({"Game": "connect4", "Opening": "226626", "Termination": "normal"}, ["4", "6", "6"],
                    [MoveNote(time=0.003, nodes=812, value=44.0), MoveNote(time=0.0), None], "*")
    assert format(record).split("\n\n", 1)[1] == ("4. 4 {time=0.003s nodes=812 value=+44} 4... 6 {time=0s} "
                                                  "5. 6 *\n")
    assert parse(format(record)) == [record]


def test_records_written_before_the_numbers_after_comments_read_as_they_did():
    old = ('[Game "connect4"]\n[Opening "226626"]\n[Termination "normal"]\n\n'
           '4. 4 {time=0.003s nodes=812 value=+44} 6 {time=0s} 5. 6 *\n')
    assert parse(old)[0].moves == ["4", "6", "6"]
    old_order = ('[Event "e"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "1"]\n[First "a"]\n[Second "b"]\n'
                 '[White "a"]\n[Black "b"]\n[Game "connect4"]\n[Opening "-"]\n[Result "*"]\n\n1. 4 *\n')
    record = parse(old_order)[0]
    assert tag_names(format(record))[:7] == SEVEN and record.tags["First"] == "a"


def test_a_line_that_is_not_utf8_is_shown_as_its_bytes(tmp_path):
    """Appending to a file that is not a record: the line is quoted as it is (its bytes), not as U+FFFD."""
    from zerosum.errors import InvalidFileError
    from zerosum.records import Writer

    path = tmp_path / "bad.pgn"
    path.write_bytes(b"\xff\xfe garbage\n")
    with pytest.raises(InvalidFileError) as info:
        Writer(path)
    assert "line 1: b'\\xff\\xfe garbage' where a game's first tag belongs" in str(info.value)
    assert "\ufffd" not in str(info.value) and path.read_bytes() == b"\xff\xfe garbage\n"
