"""Fixes from the contest's sixth audit: a game's replay link asks the board viewer for no engine (a forfeit
with the second player to move showed the solver's 16th move, never played); a forfeit reason quotes the
program's last line whole (an ``illegal move`` listed only some of the legal columns); results.csv and
results.json keep each forfeit reason whole and count them on their whole text; a Tic-Tac-Toe contest's default
openings are draws with perfect play (alpha-beta at depth 4 called forced wins even).

The browser's half of the replay link is tests/contest/test_contest_replay_page.py."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from starlette.testclient import TestClient

from contest_players import make_contest as make_submitted
from contest_players import source
from contest_serving import make_contest
from zerosum import get_game
from zerosum.cli import main
from zerosum.contest import standings
from zerosum.contest.final import run_final
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.setup import OPENINGS_JUDGE, openings_judge
from zerosum.contest.store import Store
from zerosum.contest.submissions import accept
from zerosum.contest.validate import validate_submission
from zerosum.ui import contest_views
from zerosum.ui.contest_server import create_contest_app

UNCONFINED = sandbox_problem() is not None
#: 15 plies of Connect Four, nobody has won: the second player is to move (where a forfeit on its turn stops)
FIFTEEN = "1 1 1 1 1 1 2 2 2 2 2 2 3 3 3"


def forfeited_game(folder: Path) -> tuple[str, str]:
    """A contest (connect4) with one ladder game Ada won when Alan's program forfeited at its 8th move (the 16th
    of the game): its tokens' Ada, and the game's whole move string."""
    tokens = make_contest(folder, ["Ada", "Alan"])
    store = Store(folder)
    ada = store.add_submission("Ada", "a.py", "python", "-", "submissions/a.py")
    alan = store.add_submission("Alan", "b.py", "python", "-", "submissions/b.py")
    store.close()
    with sqlite3.connect(folder / "contest.db") as db:
        db.execute("INSERT INTO games(stage, pairing, first, second, opening, seed, status, result, reason, forfeit, "
                   "moves) VALUES ('ladder', 'p', ?, ?, '-', 1, 'done', '1-0', ?, 1, ?)",
                   (f"sub:{ada}", f"sub:{alan}", "crash: the engine exited (exit code 1)", FIFTEEN))
    return tokens["Ada"], FIFTEEN.replace(" ", "")


# ---- 1. a replay link shows the game, and no engine's move --------------------------------------------------

def test_a_replay_link_asks_the_viewer_for_no_engine(tmp_path):
    token, line = forfeited_game(tmp_path / "c")
    game = get_game("connect4")
    state = game.from_moves(line)
    assert not game.is_terminal(state) and game.player(state) == 2  # the second player to move
    app = create_contest_app(tmp_path / "c", unconfined=True, ladder=False, viewer=False, validators=1)
    with TestClient(app) as client:
        (seen,) = client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()["games"]
        teacher = client.get("/api/teacher", headers={"Authorization": f"Bearer {_teacher(tmp_path / 'c')}"}).json()
    for link in (seen["replay"], teacher["games"][0]["replay"]):
        address = urlsplit(link)
        assert address.path == "/board"
        assert parse_qs(address.query) == {"game": [game.spec], "moves": [line], "opponent": ["person"]}, link


def _teacher(folder: Path) -> str:
    with open(folder / "tokens.csv", newline="", encoding="utf-8") as f:
        return next(row["token"] for row in csv.DictReader(f) if row["name"] == "#teacher")


# ---- 2. a forfeit reason quotes the program's last line whole ------------------------------------------------

def test_an_illegal_columns_reason_names_every_legal_column(tmp_path):
    """The audit's file, in the sandbox: its reason ran past 200 characters and lost its last column."""
    make_contest(tmp_path / "c", ["Ann"])
    store = Store(tmp_path / "c")
    submission = accept(store, "Ann", "submission.py", b"def player(board):\n    return 99\n")
    status, message, ply = validate_submission(store, submission, unconfined=UNCONFINED, budget=7.0)
    store.close()
    assert (status, ply) == ("failed", 3), (status, message, ply)
    assert "illegal move: submission.py:player returned 99 (int) in position '44': " in message, message
    assert re.search(r"not full: one of 0, 1, 2, 3, 4, 5, 6( \(the engine exited \(exit code 1\)\))?$", message), message
    assert len(message) > 200


# ---- 3. the final's files keep each forfeit reason whole and count it on its whole text -----------------------

#: a player whose reason is ~200 characters, the same but for its last word: which side it moved for
SAME_BUT_LAST = '''def player(board):
    side = "first" if int((board != 0).sum()) % 2 == 0 else "second"
    raise ValueError("my search ran out of ideas here, " * 4 + "when moving " + side)
'''
WORDS = "crash: the engine exited (exit code 1): the agent failed: ValueError: " + "my search ran out of ideas here, " * 4


def test_two_reasons_sharing_a_long_start_are_two_entries_with_their_own_counts():
    entries = [standings.Entry("sub:1", "Ann", 1, "a.py", "python"), standings.Entry("ref:r", "r", None, None, None)]
    games = [{"first": "sub:1", "second": "ref:r", "result": "0-1", "forfeit": 1, "reason": WORDS + end}
             for end in ("column 1 is full", "column 2 is full", "column 2 is full")]
    (ann,) = [row for row in standings.standing_rows(entries, games) if row["name"] == "Ann"]
    assert ann["forfeit_reasons"] == [{"reason": WORDS + "column 2 is full", "count": 2},
                                      {"reason": WORDS + "column 1 is full", "count": 1}]
    short = standings.shortened(ann["forfeit_reasons"])  # the teacher's page: short, as the arena's table
    assert len(short) == 1 and short[0]["count"] == 3 and short[0]["reason"].endswith("...")


def test_the_finals_files_hold_every_reason_whole_with_its_own_count(tmp_path):
    folder = tmp_path / "c"
    make_submitted(folder, {"bob": source("illegal"), "cy": SAME_BUT_LAST}, openings=["4545"]).close()
    result = run_final(folder, seed=1, unconfined=UNCONFINED, grading=False)
    rows = {row["name"]: row for row in json.loads((folder / "results.json").read_text())["results"]}
    assert rows == {row["name"]: row for row in result["results"]}
    # cy moves first against random and against bob (who forfeits at once when he moves first), second once
    cy = rows["cy"]["forfeit_reasons"]
    assert cy == [{"reason": WORDS + "when moving first", "count": 2},
                  {"reason": WORDS + "when moving second", "count": 1}] or _late_exit(cy), cy
    bob = rows["bob"]["forfeit_reasons"]  # each position's reason, every legal column of 8 x 8 named
    assert sum(r["count"] for r in bob) == 3 and len(bob) >= 2, bob
    for r in bob:  # (a seat whose exit code comes late says "crash: the engine closed its output: illegal ...")
        assert "illegal move: bob-1.py:player returned 99 (int) in position '4545" in r["reason"], r
        assert re.search(r"not full: one of 0, 1, 2, 3, 4, 5, 6, 7( \(the engine exited \(exit code 1\)\))?$",
                         r["reason"]), r
    with open(folder / "results.csv", newline="", encoding="utf-8") as f:
        cells = {row["name"]: row["forfeit_reasons"] for row in csv.DictReader(f)}
    assert cells["cy"] == "; ".join(f"{r['reason']} ({r['count']})" for r in cy)
    assert cells["bob"] == "; ".join(f"{r['reason']} ({r['count']})" for r in bob)
    # the teacher's games table: each game's reason whole too
    store = Store(folder)
    try:
        seen = {g["reason"] for g in contest_views.teacher(store)["games"] if g["stage"] == "final"}
    finally:
        store.close()
    assert {r["reason"] for r in bob + cy} <= seen


def _late_exit(reasons: list[dict[str, Any]]) -> bool:
    """The same reasons where a seat's exit code came late (a loaded machine): ``crash: the engine closed its
    output: the agent failed: ...`` for some of them, each still whole and counted apart."""
    counts = {"first": 0, "second": 0}
    for r in reasons:
        start, _, side = r["reason"].rpartition(" when moving ")
        assert start + " " in (WORDS, WORDS.replace("exited (exit code 1)", "closed its output")) and side in counts, r
        counts[side] += r["count"]
    return counts == {"first": 2, "second": 1}


# ---- 4. a Tic-Tac-Toe contest's default openings are draws -------------------------------------------------------

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


@lru_cache(maxsize=None)
def perfect(board: str) -> int:
    """Tic-Tac-Toe's value with perfect play, by plain minimax over every game (independent of zerosum): +1 X
    wins, 0 a draw, -1 O wins; ``board`` nine characters, ``X``, ``O`` or ``.``, X to move on equal counts."""
    for a, b, c in _LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return 1 if board[a] == "X" else -1
    if "." not in board:
        return 0
    mover = "X" if board.count("X") == board.count("O") else "O"
    values = [perfect(board[:i] + mover + board[i + 1:]) for i in range(9) if board[i] == "."]
    return max(values) if mover == "X" else min(values)


def board_of(opening: str) -> str:
    """An opening's cells (1-based digits, X first) as :func:`perfect` reads them."""
    cells = ["."] * 9
    for ply, digit in enumerate(opening):
        cells[int(digit) - 1] = "XO"[ply % 2]
    return "".join(cells)


def test_the_brute_force_knows_tic_tac_toe():
    assert perfect("." * 9) == 0
    assert perfect(board_of("1689")) == 1  # the audit's: X on 1 and 6, O on 8 and 9, X to move wins


def _openings(folder: Path) -> list[str]:
    with sqlite3.connect(folder / "contest.db") as db:
        return list(json.loads(db.execute("SELECT value FROM config WHERE key = 'openings'").fetchone()[0]))


def test_a_tic_tac_toe_contests_default_openings_are_draws_with_perfect_play(tmp_path, capsys):
    roster = tmp_path / "r.csv"
    roster.write_text("name\nAnn\nBob\n")
    assert main(["contest", "new", str(tmp_path / "ttt"), "--game", "tictactoe", "--roster", str(roster),
                 "--reference", "random", "--reference", "perfect=alphabeta", "--seed", "1"]) == 0
    openings = _openings(tmp_path / "ttt")
    assert len(openings) == 8 and all(len(o) == 4 for o in openings), openings
    assert {o: perfect(board_of(o)) for o in openings} == {o: 0 for o in openings}
    # every opening it may choose: all of the draws 4 plies in, and nothing else
    assert main(["contest", "new", str(tmp_path / "all"), "--game", "tictactoe", "--roster", str(roster),
                 "--openings-count", "1000", "--seed", "1"]) == 0
    every = _openings(tmp_path / "all")
    assert all(perfect(board_of(o)) == 0 for o in every), [o for o in every if perfect(board_of(o))]
    drawn = {b for b in _positions(4) if perfect(b) == 0}  # by the brute force: 136 of the 756 positions
    assert {board_of(o) for o in every} == drawn and len(drawn) == 136 and len(every) == 136
    capsys.readouterr()


def _positions(plies: int) -> set[str]:
    """Every Tic-Tac-Toe board ``plies`` moves in that no line ended before."""
    boards = {"." * 9}
    for ply in range(plies):
        boards = {b[:i] + "XO"[ply % 2] + b[i + 1:] for b in boards for i in range(9)
                  if b[i] == "." and not any(b[x] != "." and b[x] == b[y] == b[z] for x, y, z in _LINES)}
    return {b for b in boards if not any(b[x] != "." and b[x] == b[y] == b[z] for x, y, z in _LINES)}


def test_games_too_large_to_search_to_the_end_keep_the_estimate():
    assert openings_judge(get_game("tictactoe"), 4) == "alphabeta:depth=5"
    for spec in ("othello:n=4", "connect4-8x8", "migration:n=5"):
        assert openings_judge(get_game(spec), 4) == OPENINGS_JUDGE, spec


@pytest.mark.parametrize("plies", [0, 8])
def test_the_exact_judge_reaches_the_end_from_any_depth(plies):
    assert openings_judge(get_game("tictactoe"), plies) == f"alphabeta:depth={9 - plies}"


def test_contest_new_suggests_serving_on_the_port_its_links_name() -> None:
    # audit: `contest new --url http://localhost:8731` still said `zerosum contest serve class` (port 8000)
    from zerosum.commands.contest import serve_command

    assert serve_command("class", "http://localhost:8731") == "zerosum contest serve class --port 8731"
    assert serve_command("class", "http://127.0.0.1:8000") == "zerosum contest serve class"
    assert serve_command("class", "http://localhost") == "zerosum contest serve class"
    assert serve_command("class", "https://games.school.edu:8443/") == "zerosum contest serve class"  # behind a proxy
    assert serve_command("my class", "http://[::1]:9000") == "zerosum contest serve 'my class' --port 9000"
    assert serve_command("class", "http://localhost:99999") == "zerosum contest serve class"  # no port
