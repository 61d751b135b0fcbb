"""A record's round trip through the page's server: ``POST /api/record`` opens it, ``POST /api/export`` writes
its tree back, and every move's mark and comment -- the main line's and every variation's, at any depth --
comes back on the same move, with the record's own ``Annotator`` when the marks sent are the record's.

The truth is independent of the server: both records are read with :func:`zerosum.records.parse` and their
trees compared node by node (each node named by its moves from the start), over random trees of moves that
the textbook rules written here (not the library's) call legal, with random marks and comments."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("httpx")

from zerosum import records  # noqa: E402
from zerosum.records import MoveNote, Record, Variation  # noqa: E402

#: `zerosum review study.pgn -o rev.pgn` (the audit's record): the solver's marks on the main line, a comment
#: inside the variation it added
REVIEWED = """[Event "zerosum serve"]
[Result "*"]
[Game "connectx:rows=6,cols=7,k=4"]
[Opening "-"]
[Termination "?"]
[Annotator "zerosum review, the solver"]

1. 4! {best (only move): win in 21 moves} 1... 4
2. 4! {best (only move): win in 20 moves} ( 2. 1 1 ) 2... 4
3. 4! {best (only move): win in 19 moves} ( 3. 5 ) 3... 4
4. 1?? {blunder: win in 18 moves -> loss in 18 moves; best 3 5; refutation 2 3 5 5 5 5 5 6}
4... 3?? {blunder: win in 18 moves -> loss in 16 moves; best 2; refutation 3 3 3 5 3 5 5 3}
( 4... 2 {refutation} 5. 3 5 6. 5 5 7. 5 5 8. 6 ) *
"""


def opened(client, text: str) -> dict:
    """The record's one game as ``POST /api/record`` lists it."""
    reply = client.post("/api/record", json={"text": text})
    assert reply.status_code == 200, reply.text
    (game,) = reply.json()["games"]
    assert game["error"] is None, game["error"]
    return game


def sent_back(game: dict, annotator: bool = True) -> dict:
    """The export body of an opened game as it was read: its lines, its marks (the main line's and the
    variations'), and its annotator (``annotator``: the record's Annotator is sent)."""
    sep = game["separator"]
    body = {"game": game["game"], "moves": sep.join(game["lines"][0]),
            "variations": [sep.join(line) for line in game["lines"][1:]],
            "marks": game["marks"] + game.get("variation_marks", [])}
    if annotator and "Annotator" in game["tags"]:
        body["annotator"] = game["tags"]["Annotator"]
    return body


def exported(client, body: dict) -> str:
    reply = client.post("/api/export", json=body)
    assert reply.status_code == 200, reply.text
    return reply.json()["text"]


def nodes(record: Record) -> dict[tuple[str, ...], tuple[str | None, str | None]]:
    """Every node of the record's tree, by its moves from the start (the opening's first): its mark and
    comment, walked here from the record's own fields."""
    found: dict[tuple[str, ...], tuple[str | None, str | None]] = {}
    opening = record.tags.get("Opening", "-")
    start = tuple(opening) if opening not in ("", "-") else ()  # one-digit moves: connect4, tictactoe
    for i in range(1, len(start) + 1):
        found[start[:i]] = (None, None)

    def walk(before: tuple[str, ...], moves, notes, variations) -> None:
        for i, move in enumerate(moves):
            for v in variations.get(i, ()):
                walk(before, v.moves, v.notes, v.variations)
            before = (*before, move)
            note = notes[i] if i < len(notes) else None
            found[before] = (None, None) if note is None else (note.mark, note.comment)

    walk(start, record.moves, record.notes, record.variations)
    return found


@pytest.fixture(scope="module")
def served():
    """The page's server with its engine worker (a process, as `zerosum serve` runs it): records are read there."""
    from starlette.testclient import TestClient

    from zerosum.ui.server import create_app

    with TestClient(create_app(workers=1, engine_time=3.0, margin=60.0)) as c:
        yield c


def test_the_audits_record_comes_back_as_it_was(served) -> None:
    client = served
    game = opened(client, REVIEWED)
    assert game["marks"][-1]["ply"] == 8 and game["variation_marks"] == [
        {"line": 1, "ply": 8, "mark": None, "comment": "refutation"}]
    (before,) = records.parse(REVIEWED)
    # the page's own review's marks (no annotator named): every comment kept, and the page's review says so
    text = exported(client, sent_back(game, annotator=False))
    (after,) = records.parse(text)
    assert nodes(after) == nodes(before) and after.lines() == before.lines()
    assert "( 4... 2 {refutation} 5. 3" in " ".join(text.split())
    assert after.tags["Annotator"] == "zerosum serve, the page's review"
    # the record's marks sent back with its annotator: the record as it was, its Annotator too
    text = exported(client, sent_back(game))
    (after,) = records.parse(text)
    assert nodes(after) == nodes(before) and after.tags["Annotator"] == "zerosum review, the solver"
    assert text.split("\n\n")[1] == REVIEWED.split("\n\n")[1]  # the movetext, word for word


def test_a_move_the_record_reaches_twice_is_one_move_of_the_tree_with_both_comments(client) -> None:
    text = '[Game "connect4"]\n\n1. 4 {a} ( 1. 4? {b} 4 ) ( 1. 3 {c} ) ( 1. 3 {d} 3 ) 1... 4 *\n'
    game = opened(client, text)
    assert game["marks"] == [{"ply": 1, "mark": "?", "comment": "a; b"}]
    assert game["variation_marks"] == [{"line": 2, "ply": 1, "mark": None, "comment": "c; d"}]
    out = exported(client, sent_back(game))
    assert " ".join(out.split("\n\n")[1].split()) == "1. 4? {a; b} ( 1. 3 {c; d} 1... 3 ) 1... 4 *"
    # two marks sent for one move (any line through it) are joined the same way, never one lost
    body = {"game": "connect4", "moves": "44", "variations": ["41"],
            "marks": [{"ply": 1, "comment": "x"}, {"line": 1, "ply": 1, "mark": "!", "comment": "y"}]}
    assert records.parse(exported(client, body))[0].notes[0] == MoveNote(mark="!", comment="x; y")


@pytest.mark.parametrize("body, words", [
    ({"marks": [{"line": 2, "ply": 1}]}, "a mark's line is 0 (the main line) or a variation 1..1, not '2'"),
    ({"marks": [{"line": True, "ply": 1}]}, "a mark's line is 0"),
    ({"marks": [{"line": "1", "ply": 1}]}, "a mark's line is 0"),
    ({"marks": [{"line": 1, "ply": 4}]}, "a mark's ply is a move of the line 1..3, not '4'"),
    ({"marks": [{"line": 1, "ply": 0}]}, "a mark's ply is a move of the line 1..3"),
    ({"marks": ["4?"]}, "a mark is {"),
    ({"marks": [{"line": 1, "ply": 3, "mark": "?!?"}]}, "a move's mark is one of"),
    ({"marks": [{"line": 1, "ply": 3, "comment": "{x}"}]}, "without braces"),
    ({"marks": [{"line": 1, "ply": 3, "comment": "value=3"}]}, "not starting time="),
    ({"annotator": 5}, "tag Annotator: its value is text on one line"),
    ({"annotator": "a\nb"}, "tag Annotator: its value is text on one line"),
    ({"annotator": "x" * 5000}, "the longest is 4,096"),
    ({"tags": {"Annotator": "me"}}, 'send {"game"'),
    ({"marks": [{"ply": 1}] * 10_001}, "10,001 marks: a record from the page holds at most 10,000"),
])
def test_bad_marks_and_annotators_are_one_line_400s(client, body, words) -> None:
    reply = client.post("/api/export", json={"game": "connect4", "moves": "44", "variations": ["413"], **body})
    error = reply.json()["error"]
    assert reply.status_code == 400 and words in error and "\n" not in error, error


def test_an_annotator_no_utf8_file_can_hold_is_a_one_line_400(client) -> None:
    body = b'{"game": "connect4", "moves": "44", "marks": [{"ply": 1, "mark": "?"}], "annotator": "\\ud800"}'
    reply = client.post("/api/export", content=body, headers={"Content-Type": "application/json"})
    error = reply.json()["error"]
    assert reply.status_code == 400 and "\n" not in error and "surrogate" in error, error


@pytest.mark.parametrize("text, words", [
    ('[Game "connect4"]\n\n1. 4 ( 1. 4 {a} 8 ) *\n', "game 1, line 3: "),
    ('[Game "connect4"]\n\n1. 4 ( 1. 3 {a *\n', "game 1, line 3: "),
    ('[Game "connect4"]\n\n1. 4 ( 1. 3?!? ) *\n', "game 1, line 3: "),
])
def test_a_record_with_bad_variations_is_still_a_one_line_400(client, text, words) -> None:
    reply = client.post("/api/record", json={"text": text})
    error = reply.json()["error"]
    assert reply.status_code == 400 and error.startswith(words) and "\n" not in error, error


# ---- the textbook rules: a position is the list of moves played ------------------------------------------

C4_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))
TTT_LINES = ((1, 2, 3), (4, 5, 6), (7, 8, 9), (1, 4, 7), (2, 5, 8), (3, 6, 9), (1, 5, 9), (3, 5, 7))


def c4_winner(moves: list[str]) -> int | None:
    """Connect Four (7 columns of 6, four in a row): the board rebuilt from the moves, every line looked at."""
    cols: list[list[int]] = [[] for _ in range(7)]
    for i, m in enumerate(moves):
        cols[int(m) - 1].append(i % 2 + 1)
    at = lambda c, r: cols[c][r] if 0 <= c < 7 and 0 <= r < len(cols[c]) else 0  # noqa: E731
    for c in range(7):
        for r in range(len(cols[c])):
            if any(all(at(c + k * dc, r + k * dr) == cols[c][r] for k in range(4)) for dc, dr in C4_DIRECTIONS):
                return cols[c][r]
    return None


def c4_free(moves: list[str]) -> list[str]:
    return [str(c) for c in range(1, 8) if moves.count(str(c)) < 6]


def ttt_winner(moves: list[str]) -> int | None:
    cells = {int(m): i % 2 + 1 for i, m in enumerate(moves)}
    return next((cells[a] for a, b, c in TTT_LINES if a in cells and cells.get(a) == cells.get(b) == cells.get(c)),
                None)


def ttt_free(moves: list[str]) -> list[str]:
    return [str(c) for c in range(1, 10) if str(c) not in moves]


RULES = {"connect4": (c4_winner, c4_free), "tictactoe": (ttt_winner, ttt_free)}


def legal(spec: str, moves: list[str]) -> list[str]:
    winner, free = RULES[spec]
    return [] if winner(moves) is not None else free(moves)


def result(spec: str, moves: list[str]) -> str:
    winner = RULES[spec][0](moves)
    return {1: "1-0", 2: "0-1"}[winner] if winner else "*" if RULES[spec][1](moves) else "1/2-1/2"


MARKS = [None, None, "?", "??", "!", "!!", "!?", "?!"]
#: comments: text without braces, never starting as a note does (time=, nodes=, value=)
LETTERS = "abc xyz (1. 4) ?!;:->.,'\"é→ "


def annotation(rng: random.Random) -> MoveNote | None:
    if rng.random() < 0.5:
        return None
    comment = "".join(rng.choice(LETTERS) for _ in range(rng.randint(0, 30))) if rng.random() < 0.7 else None
    return MoveNote(mark=rng.choice(MARKS), comment=comment)


def grow(rng: random.Random, spec: str, played: list[str], depth: int) -> tuple[list, list, dict]:
    """A random line of legal moves after ``played`` with random notes and variations (the alternatives of a
    move all different, and different from it): ``(moves, notes, variations)``."""
    moves: list[str] = []
    notes: list[MoveNote | None] = []
    branches: dict[int, list[Variation]] = {}
    for i in range(rng.randint(1, 8 if depth else 12)):
        choices = legal(spec, played + moves)
        if not choices:
            break
        move = rng.choice(choices)
        others = [m for m in choices if m != move]
        for alt in rng.sample(others, min(rng.choice([0, 0, 1, 1, 2]) if depth < 3 else 0, len(others))):
            sub = grow(rng, spec, played + moves + [alt], depth + 1)
            branches.setdefault(i, []).append(Variation([alt, *sub[0]], [annotation(rng), *sub[1]],
                                                        {k + 1: v for k, v in sub[2].items()}))
        moves.append(move)
        notes.append(annotation(rng))
    return moves, notes, branches


def random_record(seed: int, spec: str) -> str:
    """A record of ``spec``: a random tree of legal moves (after a random opening, on Connect Four), random
    marks and comments on any move of it, the result its main line's board shows."""
    rng = random.Random(seed)
    opening: list[str] = []
    for _ in range(rng.randint(0, 3) if spec == "connect4" else 0):
        opening.append(rng.choice(legal(spec, opening)))
    moves, notes, branches = grow(rng, spec, opening, 0)
    done = result(spec, opening + moves)
    tags = {"Game": spec, "Opening": "".join(opening) or "-", "Termination": "normal" if done != "*" else "?",
            "Annotator": rng.choice(["zerosum review, the solver", "a teacher; (and a class)"])}
    return records.format(Record(tags, moves, notes, done, branches))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(sorted(RULES)), st.integers(0, 2**32))
def test_random_annotated_trees_come_back_with_every_mark_and_comment_on_its_move(client, spec, seed) -> None:
    text = random_record(seed, spec)
    (before,) = records.parse(text)
    game = opened(client, text)
    (after,) = records.parse(exported(client, sent_back(game)))
    assert nodes(after) == nodes(before)  # every move of the tree, with its mark and comment
    opening = [] if before.tags["Opening"] == "-" else list(before.tags["Opening"])
    assert after.lines() == [opening + line for line in before.lines()]  # the same lines, in the same order
    assert after.result == before.result
    assert after.tags.get("Annotator") == (before.tags["Annotator"] if any(map(any, nodes(before).values())) else None)
    # the main line's marks are where the page looks for them (plies along `line`), the others apart
    assert {m["ply"] for m in game["marks"]} == {len(k) for k, v in nodes(before).items()
                                                 if any(v) and list(k) == game["line"][:len(k)]}
