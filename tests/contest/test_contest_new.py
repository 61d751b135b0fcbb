"""``zerosum contest new``: the contest folder from the command line and from Python -- the roster, the tokens
(only their sha256 stored, tokens.csv 0600), the judged openings (checked against a textbook minimax), and
every bad input refused in one line with nothing written."""

from __future__ import annotations

import csv
import functools
import hashlib
import io
import os
import stat
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.cli import main
from zerosum.contest.setup import ContestSettings, check_name, create_contest, read_roster
from zerosum.contest.store import Store
from zerosum.errors import UsageError


def _roster(tmp_path: Path, text: str, name: str = "roster.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _tokens(folder: Path) -> list[dict[str, str]]:
    with open(folder / "tokens.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zerosum", "contest", *args], capture_output=True, text=True,
                          timeout=300)


def test_new_contest_stores_only_token_hashes_and_writes_private_links(tmp_path: Path) -> None:
    roster = _roster(tmp_path, "name\nAda Lovelace\nZoë Ñúñez\nO'Brien\n")
    folder = tmp_path / "class"
    assert main(["contest", "new", str(folder), "--game", "connect4", "--roster", str(roster), "--nodes", "10000",
                 "--move-time", "30", "--reference", "random", "--reference", "instructor=alphabeta:depth=2",
                 "--deadline", "2099-12-01T18:00+01:00", "--seed", "7", "--url", "https://contest.example:9000",
                 "--openings-count", "3"]) == 0
    assert stat.S_IMODE(os.stat(folder / "tokens.csv").st_mode) == 0o600
    rows = _tokens(folder)
    assert [r["name"] for r in rows] == ["#teacher", "Ada Lovelace", "Zoë Ñúñez", "O'Brien"]
    tokens = [r["token"] for r in rows]
    assert len(set(tokens)) == 4 and all(len(t) >= 32 for t in tokens)
    assert all(r["link"] == f"https://contest.example:9000/s/{r['token']}" for r in rows)
    store = Store(folder)
    stored = {r["name"]: (r["token_hash"], r["role"]) for r in store.rows("SELECT * FROM people")}
    for row in rows:
        assert stored[row["name"]][0] == hashlib.sha256(row["token"].encode()).hexdigest()
    assert stored["#teacher"][1] == "teacher" and stored["Ada Lovelace"][1] == "student"
    database = b"".join(p.read_bytes() for p in folder.glob("contest.db*"))
    assert not any(t.encode() in database for t in tokens)  # the tokens themselves are nowhere in the database
    assert store.person(tokens[1]) == ("Ada Lovelace", "student") and store.person("x" * 32) is None
    config = store.config()
    assert config["limits"] == {"nodes": 10000, "move_time": 30.0, "tc": None}
    assert config["deadline"] == "2099-12-01T17:00:00Z"
    assert config["references"] == [{"name": "random", "spec": "random"},
                                    {"name": "instructor", "spec": "alphabeta:depth=2"}]
    assert config["seed"] == 7 and config["frozen"] is False and len(config["openings"]) == 3
    assert (folder / "submissions").is_dir()


@functools.lru_cache(maxsize=None)
def _ttt_value(board: str, player: str) -> int:
    """Textbook minimax of Tic-Tac-Toe from the side to move (+1 win, 0 draw, -1 loss)."""
    lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
    other = "O" if player == "X" else "X"
    if any(all(board[i] == other for i in line) for line in lines):
        return -1
    empty = [i for i, c in enumerate(board) if c == "."]
    if not empty:
        return 0
    return max(-_ttt_value(board[:i] + player + board[i + 1:], other) for i in empty)


def test_judged_openings_are_of_value_zero_by_a_textbook_minimax(tmp_path: Path) -> None:
    roster = _roster(tmp_path, "Ann\nBo\n")
    folder = tmp_path / "ttt"
    assert main(["contest", "new", str(folder), "--game", "tictactoe", "--roster", str(roster),
                 "--opening-plies", "2", "--openings-count", "5", "--openings-with", "alphabeta:depth=9",
                 "--seed", "3"]) == 0
    openings = Store(folder).config()["openings"]
    assert len(openings) == 5 and len(set(openings)) == 5
    for text in openings:
        cells = [int(ch) - 1 for ch in text]  # Tic-Tac-Toe's notation: 1-based cells
        assert len(cells) == 2
        board = ["."] * 9
        for ply, cell in enumerate(cells):
            board[cell] = "XO"[ply % 2]
        assert _ttt_value("".join(board), "X") == 0, text
    # the same seed, the same openings
    again = tmp_path / "ttt2"
    assert main(["contest", "new", str(again), "--game", "tictactoe", "--roster", str(roster),
                 "--opening-plies", "2", "--openings-count", "5", "--openings-with", "alphabeta:depth=9",
                 "--seed", "3"]) == 0
    assert Store(again).config()["openings"] == openings


def test_openings_from_a_file_are_checked_and_kept(tmp_path: Path) -> None:
    roster = _roster(tmp_path, "Ann\n")
    good = tmp_path / "openings.txt"
    good.write_text("# mine\n44 0\n4453\n")
    assert main(["contest", "new", str(tmp_path / "a"), "--game", "connect4", "--roster", str(roster),
                 "--openings", str(good)]) == 0
    assert Store(tmp_path / "a").config()["openings"] == ["44", "4453"]
    bad = tmp_path / "bad.txt"
    bad.write_text("44\n4444444\n")  # the seventh stone in column 4 does not fit
    done = _cli("new", str(tmp_path / "b"), "--game", "connect4", "--roster", str(roster), "--openings", str(bad))
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "full" in done.stderr
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("text, words", [
    ("Ann\nann\n", "already on line 1"),
    ("Jos\u00e9\nJose\u0301\n", "already on line 1"),  # the same name, composed and decomposed
    ("Ann\n  Ann \n", "spaces"),
    ("Ann\n\"\",x\n", "empty name"),
    ("Ann\n<script>alert(1)</script>\n", "holds '<'"),
    ("Ann\nBob & Co\n", "holds '&'"),
    ("Ann\nEve\u202egnp.exe\n", "holds"),
    ("Ann\nTab\there\n", "holds"),
    ("Ann\nJo \"Q\" Smith\n", "holds '\"'"),
    ("#teacher\n", "holds '#'"),
    ("A" * 65 + "\n", "longer than 64"),
    ("name\n\n", "no names"),
])
def test_bad_rosters_are_one_line_and_write_nothing(tmp_path: Path, text: str, words: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    roster = _roster(tmp_path, text)
    assert main(["contest", "new", str(tmp_path / "c"), "--game", "connect4", "--roster", str(roster)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roster.csv"]


@pytest.mark.parametrize("options, words", [
    (["--game", "connect5x"], "unknown game"),
    (["--game", "connect4", "--reference", "alphabeta:depht=2"], "no option 'depht'"),
    (["--game", "connect4", "--reference", "a=random", "--reference", "a=first"], "two references"),
    (["--game", "connect4", "--deadline", "2001-01-01T00:00Z"], "is past"),
    (["--game", "connect4", "--deadline", "next friday"], "ISO 8601"),
    (["--game", "connect4", "--move-time", "1", "--tc", "60+1"], "not allowed with"),
    (["--game", "connect4", "--openings", "x.txt", "--opening-plies", "2"], "one or the other"),
    (["--game", "connect4", "--nodes", "0"], "out of range"),
    (["--game", "connect4", "--url", "javascript:alert(1)"], "not an http"),
    (["--game", "connect4", "--opening-plies", "60"], "plies"),
])
def test_bad_options_are_one_line_and_write_nothing(tmp_path: Path, options: list[str], words: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    roster = _roster(tmp_path, "Ann\nBob\n")
    assert main(["contest", "new", str(tmp_path / "c"), "--roster", str(roster), *options]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roster.csv"]


def test_an_existing_contest_is_kept_unless_overwrite(tmp_path: Path) -> None:
    roster = _roster(tmp_path, "Ann\nBob\n")
    folder = tmp_path / "class"
    args = ["contest", "new", str(folder), "--game", "connect4", "--roster", str(roster), "--openings-count", "2"]
    assert main(args) == 0
    first = _tokens(folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    done = _cli(*args[1:])
    assert done.returncode == 2 and "holds a contest already" in done.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
    (folder / "notes.txt").write_text("the teacher's own file")
    assert main(args + ["--overwrite"]) == 0
    second = _tokens(folder)
    store = Store(folder)
    assert store.person(first[1]["token"]) is None and store.person(second[1]["token"]) == ("Ann", "student")
    assert (folder / "notes.txt").read_text() == "the teacher's own file"  # only the contest's files replaced


def test_from_python(tmp_path: Path) -> None:
    people = create_contest(tmp_path / "py", ContestSettings(game="tictactoe", roster=read_roster("Ann\nBob\n"),
                                                             openings=["5", "1"]))
    assert [p[0] for p in people] == ["#teacher", "Ann", "Bob"]
    assert Store(tmp_path / "py").config()["openings"] == ["5", "1"]
    assert check_name("Jean-Luc Picard Jr.") == "Jean-Luc Picard Jr."
    assert check_name("Jose\u0301 \u0905\u0928\u0941\u0930\u093e\u0917")  # combining accents, vowel signs
    with pytest.raises(UsageError, match="holds"):
        check_name("a/b")
    with pytest.raises(UsageError, match="not a contest folder"):
        Store(tmp_path)


def test_serve_refuses_in_one_line_before_starting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["contest", "serve", str(tmp_path)]) == 2
    assert "not a contest folder" in capsys.readouterr().err
    assert main(["contest", "new", str(tmp_path / "c"), "--game", "connect4", "--roster",
                 str(_roster(tmp_path, "Ann\n")), "--openings-count", "1"]) == 0
    capsys.readouterr()
    assert main(["contest", "serve", str(tmp_path / "c"), "--ray-address", "10.0.0.1:6379"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--backend ray" in err


NAMEISH = st.from_regex(r"[A-Za-z\u00e9\u00d1\u4e2d0-9]([A-Za-z\u00e9\u00d1 .'_-]?[a-z0-9]){0,8}", fullmatch=True)
ANY = st.text(st.sampled_from("abAB z\u00e9\u00d17.-_'<&\"/#\t\u202e"), max_size=70) | st.text(max_size=80)


@settings(max_examples=200, deadline=None)
@given(st.lists(NAMEISH | NAMEISH | NAMEISH | ANY, max_size=8))
def test_any_roster_is_names_safe_to_show_or_one_line(cells: list[str]) -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerows([[cell] for cell in cells])
    try:
        names = read_roster(buffer.getvalue())
    except UsageError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
        return
    assert names and len({" ".join(unicodedata.normalize("NFC", n).casefold().split()) for n in names}) == len(names)
    for name in names:  # nothing a page or a CSV reader could take for markup, a path, or a control
        assert 1 <= len(name) <= 64 and name == name.strip() and not set(name) & set("<>&\"`/\\#;,=")
        assert all(ch.isprintable() and not unicodedata.category(ch).startswith(("C", "Z")) or ch == " "
                   for ch in name)
    header = ("name", "names", "student")  # a first row that is a header
    assert names == [c for i, c in enumerate(cells) if c.strip() and not (i == 0 and c.strip().lower() in header)]


def test_the_closing_line_counts_one_student_in_the_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["contest", "new", str(tmp_path / "one"), "--game", "connect4", "--roster",
                 str(_roster(tmp_path, "name\nAda Lovelace\n"))]) == 0
    assert f"contest for 1 student in {tmp_path / 'one'}" in capsys.readouterr().err
    assert main(["contest", "new", str(tmp_path / "two"), "--game", "connect4", "--roster",
                 str(_roster(tmp_path, "name\nAda Lovelace\nAlan Turing\n", "two.csv"))]) == 0
    assert f"contest for 2 students in {tmp_path / 'two'}" in capsys.readouterr().err
