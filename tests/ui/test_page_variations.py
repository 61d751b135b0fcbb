"""The page's tree of variations in records (#25): ``POST /api/export`` writes the whole tree (the main line,
its marks, every other line as a variation ``( ... )``), ``POST /api/record`` opens a record with variations as
the tree's lines, and in Chromium a variation made on the board is saved, opened again and shown as the
same tree."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip("httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")

from zerosum import records  # noqa: E402
from zerosum.ui.study import MAX_EXPORT_LINES  # noqa: E402



def export(client, **body):
    return client.post("/api/export", json=body)


def page_lines(lines: list[str]) -> list[str]:
    """The lines of the tree the page plants from ``lines``, as the page lists them (tree.js, written again
    here): a trie of the moves, each node's children in the order first met, walked depth first."""
    root: dict = {}
    for line in lines:
        node = root
        for move in line:
            node = node.setdefault(move, {})
    out: list[str] = []

    def walk(node: dict, moves: str) -> None:
        if not node:
            out.append(moves)
        for move, child in node.items():
            walk(child, moves + move)

    walk(root, "")
    return out


def test_export_writes_the_tree_as_pgn_variations_and_the_record_opens_as_the_same_lines(client) -> None:
    lines = ["4435", "445521", "4452", "441"]
    reply = export(client, game="connect4", moves=lines[0], variations=lines[1:],
                   marks=[{"ply": 3, "mark": "?", "comment": "mistake: a win -> a draw"}])
    assert reply.status_code == 200, reply.text
    text = reply.json()["text"]
    movetext = " ".join(text.split("\n\n")[1].split())  # wrapped at 80 columns
    assert movetext == "1. 4 4 2. 3? {mistake: a win -> a draw} ( 2. 5 5 ( 2... 2 ) 3. 2 1 ) ( 2. 1 ) 2... 5 *"
    (record,) = records.parse(text)
    assert record.variations == {2: [records.Variation(["5", "5", "2", "1"], [], {1: [records.Variation(["2"])]}),
                                     records.Variation(["1"])]}
    games = client.post("/api/record", json={"text": text}).json()["games"]
    assert games[0]["error"] is None and games[0]["line"] == list(lines[0])
    assert ["".join(line) for line in games[0]["lines"]] == lines == page_lines(lines)


def test_a_record_with_an_opening_opens_with_its_variations_from_the_start(client) -> None:
    text = '[Game "connect4"]\n[Opening "44"]\n\n2. 3 ( 2. 5 5 ( 2... 2 ) ) 2... 4 3. 1 ( 3. 7 ) *\n'
    (game,) = client.post("/api/record", json={"text": text}).json()["games"]
    assert ["".join(line) for line in game["lines"]] == ["44341", "44347", "4455", "4452"]
    assert game["line"] == list("44341")


def test_random_trees_go_out_and_come_back_as_the_page_planted_them(client) -> None:
    rng = random.Random(25)
    for spec in ("connect4", "tictactoe"):
        for _ in range(6):
            lines: list[str] = []
            for _ in range(rng.randint(1, 8)):  # each line: a random game from a random point of another
                start = rng.choice(lines)[: rng.randint(0, 6)] if lines else ""
                state = client.get("/api/state", params={"game": spec, "moves": start}).json()
                moves = start
                while not state["over"] and len(moves) < rng.randint(3, 12):
                    moves += rng.choice(state["legal"])
                    state = client.get("/api/state", params={"game": spec, "moves": moves}).json()
                lines.append(moves)
            planted = page_lines(lines)  # what the page would send: its tree's lines, the main line first
            reply = export(client, game=spec, moves=planted[0], variations=planted[1:])
            assert reply.status_code == 200, reply.text
            (game,) = client.post("/api/record", json={"text": reply.json()["text"]}).json()["games"]
            assert ["".join(line) for line in game["lines"]] == planted, (spec, lines)


@pytest.mark.parametrize("body, words", [
    ({"game": "connect4", "moves": "44", "variations": "41"}, 'send {"game"'),
    ({"game": "connect4", "moves": "44", "variations": [41]}, "variation 1 is a move string from the start"),
    ({"game": "connect4", "moves": "44", "variations": ["41", "48"]}, "variation 2: "),
    ({"game": "tictactoe", "moves": "15", "variations": ["155"]}, "variation 1: "),
    ({"game": "connect4", "moves": "4", "variations": ["1"] * (MAX_EXPORT_LINES + 1)}, "at most 1,000"),
])
def test_a_bad_tree_to_export_is_a_one_line_400(client, body, words) -> None:
    reply = export(client, **body)
    assert reply.status_code == 400 and words in reply.json()["error"], reply.text
    assert "\n" not in reply.json()["error"]


def test_a_record_whose_tree_is_larger_than_the_page_shows_keeps_its_place_with_the_reason(client) -> None:
    text = '[Game "connect4"]\n\n1. 4\n' + "( 1. 3 )\n( 1. 5 )\n" * 501 + "*\n"
    (game,) = client.post("/api/record", json={"text": text}).json()["games"]
    assert "1,003 lines" in game["error"] and game["lines"] == []
