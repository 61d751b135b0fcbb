"""Variations in records, ``( ... )`` after a move: round trips over random trees of legal moves, made by the
textbook rules written here (not the library's), for Connect Four and Tic-Tac-Toe; the text as PGN writes
it; and every malformed tree refused in one line naming the line."""

import random
import re
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.errors import GameError, InvalidFileError
from zerosum.records import (
    MAX_DEPTH,
    MAX_VARIATIONS,
    MoveNote,
    Record,
    Variation,
    format,
    parse,
    tree,
)

# ---- the textbook rules: a position is the tuple of moves played; moves are the records' text ------------


class ConnectFour:
    """7 columns of 6, four in a row: the board rebuilt from the moves, every line looked at."""

    spec, first = "connect4", [str(c) for c in range(1, 8)]

    @staticmethod
    def board(moves):
        cols = [[] for _ in range(7)]
        for i, m in enumerate(moves):
            cols[int(m) - 1].append(i % 2 + 1)
        return cols

    @classmethod
    def winner(cls, moves):
        cols = cls.board(moves)
        at = lambda c, r: cols[c][r] if 0 <= c < 7 and 0 <= r < len(cols[c]) else 0  # noqa: E731
        for c in range(7):
            for r in range(6):
                p = at(c, r)
                if p and any(all(at(c + k * dc, r + k * dr) == p for k in range(4))
                             for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))):
                    return p
        return None

    @classmethod
    def legal(cls, moves):
        if cls.winner(moves) is not None or len(moves) == 42:
            return []
        cols = cls.board(moves)
        return [str(c + 1) for c in range(7) if len(cols[c]) < 6]


class TicTacToe:
    spec = "tictactoe"
    LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

    @classmethod
    def winner(cls, moves):
        cells = [0] * 9
        for i, m in enumerate(moves):
            cells[int(m) - 1] = i % 2 + 1
        for a, b, c in cls.LINES:
            if cells[a] and cells[a] == cells[b] == cells[c]:
                return cells[a]
        return None

    @classmethod
    def legal(cls, moves):
        if cls.winner(moves) is not None or len(moves) == 9:
            return []
        return [str(c) for c in range(1, 10) if str(c) not in moves]


RESULT = {1: "1-0", 2: "0-1"}

MARKS = [None, None, None, "?", "??", "!", "!?"]
COMMENTS = [None, None, None, "blunder: win -> loss", "a (bracketed) word", "mistake"]


def a_note(rng):
    """None mostly, else a note with some of its fields."""
    if rng.random() < 0.6:
        return None
    return MoveNote(rng.choice([None, round(rng.uniform(0, 1e3), 3)]), rng.choice([None, rng.randrange(10**9)]),
                    None, rng.choice(MARKS), rng.choice(COMMENTS))


def grow(rng, rules, played, depth, leaves, at_least=0):
    """A random line of legal moves from the position after ``played``, with random variations (no two
    alternatives of a move alike): (moves, notes, variations); each leaf's moves from the start go in
    ``leaves``."""
    moves, kept, branches = [], [], {}
    for i in range(rng.randint(at_least, 9 if depth else 14)):
        legal = rules.legal(played + moves)
        if not legal:
            break
        move = rng.choice(legal)
        others = [m for m in legal if m != move]
        count = rng.choice([0, 0, 0, 1, 1, 2]) if depth < 3 else 0
        for alt in rng.sample(others, min(count, len(others))):
            sub = grow(rng, rules, played + moves + [alt], depth + 1, leaves)
            branches.setdefault(i, []).append(Variation([alt] + sub[0], [a_note(rng)] + sub[1],
                                                        {k + 1: v for k, v in sub[2].items()}))
        moves.append(move)
        kept.append(a_note(rng))
    leaves.append(played + moves)
    return moves, kept, branches


def textbook_record(seed, rules):
    """A random record of ``rules`` with variations, its opening, and its leaves (the moves from the start)."""
    rng = random.Random(seed)
    opening = []
    if rules is ConnectFour:
        for _ in range(rng.randint(0, 3)):
            opening.append(rng.choice(rules.legal(opening)))
    leaves = []
    moves, kept, branches = grow(rng, rules, opening, 0, leaves, at_least=1)
    line = opening + moves
    winner = rules.winner(line)
    result = RESULT[winner] if winner else "1/2-1/2" if not rules.legal(line) else "*"
    tags = {"Game": rules.spec, "Opening": "".join(opening) or "-", "Termination": "normal"}
    return Record(tags, moves, kept, result, branches), opening, leaves


def _every_variation(record):
    """Each move's list of variations, at every depth."""
    todo, found = [record.variations], []
    while todo:
        for line in todo.pop().values():
            found.append(line)
            todo += [v.variations for v in line]
    return found


# 60 examples (150 before): each a tree of dozens of lines; in 60, 56 nest variations three deep, 57 carry a
# bracketed comment, 20 start from an opening, 16 have a result
@settings(max_examples=60, deadline=None)
@given(st.sampled_from([ConnectFour, TicTacToe]), st.integers(0, 2**32))
def test_trees_of_legal_moves_round_trip_through_text(rules, seed):
    record, opening, leaves = textbook_record(seed, rules)
    text = format(record)
    assert parse(text) == [record]
    assert format(parse(text)[0]) == text
    # every line of the tree, as the textbook played it
    lines = record.lines()
    assert lines[0] == record.moves
    assert sorted(opening + line for line in lines) == sorted(leaves)
    # the tree again from its lines: the same moves and variations (notes aside)
    moves, variations = tree(lines)
    bare = Record(record.tags, moves, [], record.result, variations)
    assert bare.lines() == lines
    assert parse(format(bare)) == [bare]
    # the written text: outside comments, each parenthesis a word of its own; no line wider than 80 without a
    # comment
    words = re.sub(r"\{[^}]*\}", " ", text.split("\n\n", 1)[1]).split()
    assert all(w in ("(", ")") for w in words if "(" in w or ")" in w)
    assert words.count("(") == words.count(")") == sum(len(v) for v in _every_variation(record))
    assert all(len(line) <= 80 or "{" in line for line in text.splitlines())


@pytest.mark.parametrize("rules", [ConnectFour, TicTacToe])
def test_a_record_without_variations_writes_as_it_always_did(rules):
    record = Record({"Game": rules.spec}, ["5", "1", "9"] if rules is TicTacToe else ["4", "4", "3"])
    text = format(record)
    assert "(" not in text and text.splitlines()[-1] in ("1. 5 1 2. 9 *", "1. 4 4 2. 3 *")
    assert Record({"Game": rules.spec}, record.moves, [], "*", {}) == record


PGN = '[Game "connect4"]\n\n1. 4 4 2. 3 ( 2. 5 5 ( 2... 2 ) 3. 1 ) 2... 4 *\n'


def test_the_pgn_example_reads_as_its_tree_and_is_written_back_the_same():
    record = parse(PGN)[0]
    assert record.moves == ["4", "4", "3", "4"]
    assert record.variations == {2: [Variation(["5", "5", "1"], [], {1: [Variation(["2"])]})]}
    assert format(record).endswith("\n\n" + PGN.split("\n\n")[1])
    # parentheses against the moves, numbers left out, any whitespace: the same tree
    tight = '[Game "connect4"]\n\n4 4 3 (5\n5 (2) 1)\n4 *'
    assert parse(tight)[0].variations == record.variations


def test_several_variations_of_a_move_and_notes_inside_them():
    text = '[Game "tictactoe"]\n\n1. 5 1? {mistake} ( 1... 9 {time=0.5s} ) ( 1... 3! ( 1... 7 ) 2. 7 ) 2. 9 *'
    record = parse(text)[0]
    assert record.notes[1] == MoveNote(mark="?", comment="mistake")
    assert [v.moves for v in record.variations[1]] == [["9"], ["3", "7"]]
    assert record.variations[1][0].notes == [MoveNote(time=0.5)]
    assert record.variations[1][1].notes == [MoveNote(mark="!"), None]
    assert record.variations[1][1].variations == {0: [Variation(["7"])]}
    assert parse(format(record)) == [record]
    assert record.lines() == [["5", "1", "9"], ["5", "9"], ["5", "3", "7"], ["5", "7"]]


def test_the_move_numbers_of_a_variation_count_from_the_start_position():
    opened = '[Game "connect4"]\n[Opening "4"]\n\n1... 4 2. 3 ( 2. 5 ) 2... 4 *'
    assert parse(opened)[0].variations == {1: [Variation(["5"])]}
    with pytest.raises(InvalidFileError, match=r"^game 1, line 4: move number 3\. where 2\. belongs"):
        parse('[Game "connect4"]\n\n1. 4 4 2. 3\n( 3. 5 ) *')


@pytest.mark.parametrize("text", [
    '[Game "connect4"]\n\n1. 4 4 ( 1... 3 ( 2. 3 ) )\n( 1... 2 ( 2. 3 ) )\n*',  # a later variation wrong alike
    '[Game "connect4"]\n\n1. 4 4 ( 1... 3 ( 2. 3 ) )\n3. 3 4\n*',  # then the main line's
    '[Game "connect4"]\n\n1. 4 4 ( 1... 3\n( 2. 3 ) )\n( 1... 2 ( 2. 3 ) ) *',  # a deeper one first
])
def test_the_wrong_move_number_named_is_the_first_in_the_file(text: str) -> None:
    # the lines were looked at last variation first: the error named the last wrong number, and fixing them one
    # by one ran backwards through the file
    first = 3 if "( 1... 3 ( 2. 3" in text else 4
    with pytest.raises(InvalidFileError, match=rf"^game 1, line {first}: move number 2\. where 1\.\.\. belongs"):
        parse(text)


BAD = [
    ('[Game "connect4"]\n\n1. 4 4 ( 1... 3\n*', r"^game 1, line 4: the variation opened on line 3 is not closed"),
    ('[Game "connect4"]\n\n1. 4 4 ( 1... 3\n', r"^game 1, line 3: the variation opened on line 3 is never closed"),
    ('[Game "connect4"]\n\n1. 4 4 ) *', r"^game 1, line 3: a \) closes no variation"),
    ('[Game "connect4"]\n\n1. 4 4 ( ) *', r"^game 1, line 3: an empty variation"),
    ('[Game "connect4"]\n\n( 4 ) 4 *', r"^game 1, line 3: a variation \( \.\.\. \) comes right after the move"),
    ('[Game "connect4"]\n\n1. 4 4 2. ( 3 ) *', r"^game 1, line 3: move number 2\. is followed by '\('"),
    ('[Game "connect4"]\n\n1. 4 ( 3 ) {time=1s} 4 *', r"^game 1, line 3: a comment belongs right after its move"),
    ('[Game "connect4"]\n\n1. 4 ( { x } 3 ) 4 *', r"^game 1, line 3: a comment belongs after a move"),
    ('[Game "connect4"]\n\n1. 4 4\n( 1... 3\n2. 9 ) *', r"^game 1, line 5: ply 3, move 2 of a variation from ply 2 "
                                                       r"\('9'\): .*9"),
    ('[Game "tictactoe"]\n\n1. 5 1 ( 1... 5 ) *', r"^game 1, line 3: ply 2, move 1 of a variation from ply 2 "
                                                  r"\('5'\)"),
    ('[Game "tictactoe"]\n\n1. 1 4 2. 2 5 3. 3\n( 3. 6 ( 3. 3 7 ) ) *',
     r"^game 1, line 4: ply 6, move 2 of a variation from ply 5 \('7'\): the game is over"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_malformed_variations_are_one_line_naming_the_line(text, message):
    with pytest.raises(InvalidFileError, match=message) as info:
        parse(text)
    assert "\n" not in str(info.value)


def test_nesting_and_count_are_bounded_and_said_in_one_line():
    deep = "1. 4 " + " ".join(["( 1. 3"] * MAX_DEPTH) + " )" * MAX_DEPTH + " *"
    assert len(parse('[Game "connect4"]\n\n' + deep)[0].lines()) == MAX_DEPTH + 1
    deeper = "1. 4 " + " ".join(["( 1. 3"] * (MAX_DEPTH + 1)) + " )" * (MAX_DEPTH + 1) + " *"
    with pytest.raises(InvalidFileError, match=rf"^game 1, line 3: variations nested more than {MAX_DEPTH} deep$"):
        parse('[Game "connect4"]\n\n' + deeper)
    many = "1. 4\n" + "( 1. 3 )\n" * (MAX_VARIATIONS + 1) + "*"
    with pytest.raises(InvalidFileError, match=rf"^game 1, line {MAX_VARIATIONS + 4}: more than 10,000 variations"):
        parse('[Game "connect4"]\n\n' + many)
    # the same bounds on a record made in Python, and a tree made to loop is refused, not followed forever
    v = Variation(["3"])
    v.variations = {0: [v]}
    with pytest.raises(InvalidFileError, match=f"nested more than {MAX_DEPTH} deep"):
        Record({"Game": "connect4"}, ["4"], [], "*", {0: [v]})
    with pytest.raises(InvalidFileError, match="more than 10,000 variations"):
        Record({"Game": "connect4"}, ["4"], [], "*", {0: [Variation(["3"])] * (MAX_VARIATIONS + 1)})


def test_reading_variations_takes_memory_in_proportion_to_the_text():
    def peak(copies):
        text = '[Game "connect4"]\n\n1. 4\n' + "( 1. 3 3 2. 3 3 ( 2... 5 ) 3. 3 )\n" * copies + "*\n"
        tracemalloc.start()
        parse(text)
        size = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        return size, len(text)

    small, big = peak(300), peak(2400)
    assert big[0] / small[0] < 1.3 * big[1] / small[1]


def test_a_record_made_in_python_is_checked_as_the_text_is():
    record = Record({"Game": "connect4"}, ["4", "4"], [], "*", {1: [Variation(["9"])]})
    with pytest.raises(GameError, match=r"ply 2, move 1 of a variation from ply 2 \('9'\)"):
        record.check()
    assert len(record.states()) == 3  # the main line replays alone
    with pytest.raises(InvalidFileError, match=r"index is 0\.\.1, not 2"):
        Record({"Game": "connect4"}, ["4", "4"], [], "*", {2: [Variation(["3"])]})
    with pytest.raises(InvalidFileError, match="parentheses only in pairs"):
        Variation(["(3"])


def test_a_course_game_whose_moves_have_parentheses_keeps_them(tmp_path):
    game = tmp_path / "tuples.py"
    game.write_text(
        "class Grid:\n"
        "    initial_state = ((0,) * 4, 1)\n"
        "    def actions(self, s):\n"
        "        return [] if self.is_terminal(s) else [(i // 2, i % 2) for i in range(4) if not s[0][i]]\n"
        "    def result(self, s, a):\n"
        "        cells = list(s[0]); cells[a[0] * 2 + a[1]] = s[1]\n"
        "        return (tuple(cells), 3 - s[1])\n"
        "    def is_terminal(self, s):\n"
        "        return all(s[0])\n"
        "    def utility(self, s, p):\n"
        "        return 0\n"
        "    def to_move(self, s):\n"
        "        return s[1]\n"
        "    def display(self, s):\n"
        "        print(s)\n")
    spec = f"{game}:Grid"
    text = f'[Game "{spec}"]\n\n1. (0,0) (0,1) ( 1... (1,1) ) 2. (1,1) ( (1,0)) *'
    record = parse(text, game=spec)[0]  # a record of a game file is read with the game the caller names
    assert record.moves == ["(0,0)", "(0,1)", "(1,1)"]
    assert record.variations == {1: [Variation(["(1,1)"])], 2: [Variation(["(1,0)"])]}
    assert parse(format(record), game=spec) == [record]


def test_text_with_stray_parentheses_is_a_record_or_one_line():
    pieces = ["(", ")", "( ", " )", "4", " 4", " 3", "\n", " 2.", " 1...", " {x}", "?", " *"]

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(pieces), max_size=30))
    def check(parts):
        text = '[Game "connect4"]\n\n' + "".join(parts) + " *"
        try:
            for record in parse(text):
                assert parse(format(record)) == [record]
        except InvalidFileError as exc:
            assert "\n" not in str(exc) and re.match(r"^game \d+, line \d+: ", str(exc))

    check()


# ---- zerosum replay and zerosum review ---------------------------------------------------------------

TREE = ('[Game "tictactoe"]\n[Round "1"]\n\n1. 5 2 ( 1... 1 2. 9? ( 2. 3 ) ) 2. 1 9 3. 3 7 ( 3... 4 ) 4. 4 6 5. 8 '
        '1/2-1/2\n')


def test_replay_lists_the_variations_after_the_moves_they_replace(tmp_path, capsys, monkeypatch):
    import io

    from zerosum.cli import main

    path = tmp_path / "tree.pgn"
    path.write_text(TREE + "\n" + '[Game "connect4"]\n[Round "2"]\n\n1. 4 4 *\n')
    assert main(["replay", str(path), "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert "(tictactoe, 9 moves, 3 variations, round 1)" in listed[0] and "variation" not in listed[1]
    monkeypatch.setattr("sys.stdin", io.StringIO("n\nq\n"))
    assert main(["replay", str(path), "--no-color"]) == 0
    shown = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Moves:")]
    assert shown[-1] == "Moves: 1. [5] 2 (1... 1 2. 9? (2. 3)) 2. 1 9 3. 3 7 (3... 4) 4. 4 6 5. 8"
    assert "Moves: 1. 5 2?" not in "\n".join(shown)  # TREE's main line has no mark


_TEXTBOOK_VALUES: dict = {}  # textbook_value's, by position: each side's cells


def textbook_value(moves: list[str]) -> int:
    """Tic-Tac-Toe by textbook minimax: +1 the side to move wins, 0 a draw, -1 it loses.  (Memoised by position:
    the empty board's tree, searched anew at each call, took seven seconds.)"""
    key = (frozenset(moves[0::2]), frozenset(moves[1::2]))
    if key not in _TEXTBOOK_VALUES:
        if TicTacToe.winner(moves) is not None:
            _TEXTBOOK_VALUES[key] = -1  # the last mover made a line
        else:
            legal = TicTacToe.legal(moves)
            _TEXTBOOK_VALUES[key] = max(-textbook_value(moves + [m]) for m in legal) if legal else 0
    return _TEXTBOOK_VALUES[key]


def test_review_keeps_a_records_variations_and_adds_the_refutations_that_were_missed(tmp_path, capsys, monkeypatch):
    import io

    from zerosum.cli import main

    path, out = tmp_path / "tree.pgn", tmp_path / "annotated.pgn"
    path.write_text(TREE)
    assert main(["review", str(path), "-o", str(out)]) == 0
    capsys.readouterr()
    (before,), (after,) = parse(TREE), parse(out.read_text())
    assert after.moves == before.moves and any(n is not None and n.mark for n in after.notes)
    added = {}
    for index, lines in after.variations.items():
        kept = before.variations.get(index, [])
        assert lines[: len(kept)] == kept  # the record's own variations, as they were
        added.update({index: v for v in lines[len(kept):]})
    # a refutation stands beside each reply that let a textbook error go unpunished, and only there
    missed = []
    for i in range(len(before.moves)):
        error = textbook_value(before.moves[: i + 1]) > -textbook_value(before.moves[:i])  # the mover lost value
        unpunished = textbook_value(before.moves[: i + 2]) > -textbook_value(before.moves[: i + 1])
        if error and unpunished and i + 1 < len(before.moves):
            missed.append(i + 1)
    assert sorted(added) == missed == [7]
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))  # replay lists the marks and the refutation
    assert main(["replay", str(out), "--no-color"]) == 0
    assert "Moves: 1. 5 2? (1... 1 2. 9? (2. 3)) 2. 1 9 3. 3? 7! (3... 4) 4. 4? 6? (4... 8) 5. 8" in \
        " ".join(capsys.readouterr().out.split())
    for index, v in added.items():
        assert v.notes[0].comment == "refutation"
        head = before.moves[:index]
        assert -textbook_value(head + v.moves[:1]) == textbook_value(head)  # the best move, by the textbook


def test_replay_steps_into_a_variation_and_its_own_and_back(tmp_path, capsys, monkeypatch):
    import io

    from zerosum import get_game
    from zerosum.cli import main

    path = tmp_path / "tree.pgn"
    path.write_text(TREE)
    keys = ["g 1", "v", "v 1", "v", "v 1", "l", "m", "m", "n", "v 3", "m", "q"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(k + "\n" for k in keys)))
    assert main(["replay", str(path), "--no-color"]) == 0
    out = capsys.readouterr().out
    game = get_game("tictactoe")
    blocks = out.split("Game 1 of 1: ")[1:]  # one a position drawn
    expected = ["", "5", "51", "513", "513", "51", "5", "52"]  # the lines from the start, as each key leaves them
    assert len(blocks) == len(expected)
    for block, moves in zip(blocks, expected):
        assert game.render(game.states_of(game.parse_moves(" ".join(moves)))[-1]) in block
    assert "  v 1: 1... 1 2. 9? (2. 3)" in out and "  v 1: 2. 3" in out
    assert "Variation from ply 2: 1. 5 [1] 2. 9? (2. 3)" in out and "Variation from ply 3: 1. 5 1 2. [3]" in out
    assert "The variation ends here" in out and "Already on the main line" in out
    assert "No variation of the next move here (ply 2)" in out
