"""A record, or a results file, never runs the Python file its Game tag (its run's game) names: reading one
is refused in one line, with nothing run, unless the user names the game (``--game FILE.py:Class`` on
replay and review, ``game=`` from Python), and then the game named is played, never the tag's file.

Before, ``zerosum replay evil.pgn --list`` and ``zerosum review evil.pgn`` imported the file the record named
(a marker file appeared), and so did ``zerosum report evil.db --export``."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum import play_game, records
from zerosum.cli import main
from zerosum.errors import GameError, InvalidFileError

ENV = {**os.environ, "NO_COLOR": "1"}

#: a course game: take 1 or 2 sticks of 5, taking the last wins
GAME = '''class TakeAway:
    def __init__(self, sticks=5):
        self.initial = (sticks, "A")
    def actions(self, state):
        return [n for n in (1, 2) if n <= state[0]]
    def result(self, state, n):
        return (state[0] - n, "B" if state[1] == "A" else "A")
    def terminal_test(self, state):
        return state[0] == 0
    def utility(self, state, player):
        return -1 if state[1] == player else +1
    def to_move(self, state):
        return state[1]
    def display(self, state):
        print("|" * state[0])
'''
#: the same game, whose import leaves a marker file beside it: what a hostile file would do
EVIL = 'import os\nopen(os.path.join(os.path.dirname(os.path.abspath(__file__)), "PWNED"), "w").write("x")\n' + GAME


def zerosum(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "zerosum", *args], capture_output=True, text=True, env=ENV,
                          timeout=300, cwd=cwd)


def refused(run: subprocess.CompletedProcess[str], *words: str) -> str:
    assert run.returncode == 2 and run.stdout == "", (run.stdout, run.stderr)
    assert run.stderr.count("\n") == 1, run.stderr
    assert all(w in run.stderr for w in words), run.stderr
    return run.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "evil.py").write_text(EVIL)
    (tmp_path / "evil.pgn").write_text(f'[Event "x"]\n[Game "{tmp_path}/evil.py:TakeAway"]\n[Result "*"]\n\n1 2 *\n')
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "evil.py").write_text(GAME)  # the user's own copy of the game, harmless
    return tmp_path


def test_replay_and_review_of_a_record_naming_a_file_run_nothing(folder: Path) -> None:
    for argv in (["replay", "evil.pgn", "--list"], ["replay", "evil.pgn"], ["review", "evil.pgn"],
                 ["review", "evil.pgn", "--json", "--agent", "alphabeta"],
                 ["review", "evil.pgn", "--game", "tictactoe"],
                 ["replay", "evil.pgn", "--game", "mine/evil.py:Other", "--list"]):  # a class the user's file lacks
        before = sorted(p.name for p in folder.iterdir())
        err = refused(zerosum(*argv, cwd=folder), "evil.py")
        assert not (folder / "PWNED").exists(), (argv, err)
        assert sorted(p.name for p in folder.iterdir()) == before
    err = refused(zerosum("replay", "evil.pgn", "--list", cwd=folder))
    assert "names a Python file, and reading a record runs no code it names" in err and "--game FILE.py:Class" in err


def test_the_game_the_user_names_is_played_and_never_the_tags_file(folder: Path) -> None:
    own = folder / "mine" / "evil.py"  # same file name and class, another folder: the record's game
    listed = zerosum("replay", "evil.pgn", "--list", "--game", f"{own}:TakeAway", cwd=folder)
    assert listed.returncode == 0 and "2 moves" in listed.stdout, listed.stderr
    shown = subprocess.run([sys.executable, "-m", "zerosum", "replay", "evil.pgn", "--game", f"{own}:TakeAway"],
                           input="l\nq\n", capture_output=True, text=True, env=ENV, timeout=300, cwd=folder)
    assert shown.returncode == 0 and "ply 2/2" in shown.stdout, shown.stderr
    reviewed = zerosum("review", "evil.pgn", "--game", f"{own}:TakeAway", "--agent", "alphabeta", "-o", "rev.pgn",
                       cwd=folder)
    assert reviewed.returncode == 0, reviewed.stderr
    assert not (folder / "PWNED").exists()
    again = records.read(folder / "rev.pgn", game=f"{own}:TakeAway")  # the annotated record, read back
    assert again[0].moves == ["1", "2"] and again[0].tags["Game"] == f"{folder}/evil.py:TakeAway"
    assert not (folder / "PWNED").exists()
    other = zerosum("replay", "evil.pgn", "--list", "--game", f"{own}:TakeAway(3)", cwd=folder)  # other arguments
    refused(other, "is not the game given")
    assert not (folder / "PWNED").exists()


def test_the_records_api_needs_the_game_for_a_game_files_record(folder: Path) -> None:
    text = (folder / "evil.pgn").read_text()
    own = f"{folder / 'mine' / 'evil.py'}:TakeAway"
    for call in (lambda: records.parse(text), lambda: records.read(folder / "evil.pgn"),
                 lambda: list(records.reading.iter_read(folder / "evil.pgn"))):
        with pytest.raises(InvalidFileError, match="names a Python file"):
            call()
    made = records.Record({"Game": f"{folder}/evil.py:TakeAway"}, ["1", "2"])  # made by hand: no game to use yet
    for use in (lambda: made.game, made.states, lambda: records.format(made)):
        with pytest.raises(InvalidFileError, match="names a Python file"):
            use()
    assert not (folder / "PWNED").exists()
    read = records.parse(text, game=own)[0]
    assert read.game.spec == own and len(read.states()) == 3
    assert records.parse(records.format(read), game=own) == [read]
    with pytest.raises(InvalidFileError, match="is not the game given"):
        records.parse(text, game="tictactoe")
    with pytest.raises(InvalidFileError, match="is not the game given"):
        records.Record({"Game": "tictactoe"}, ["5"], game=own)
    with pytest.raises(GameError, match="game is a game"):
        records.parse(text, game=3.5)
    assert records.Record({"Game": f"{folder}/evil.py:TakeAway"}, ["1"], game=own).game.spec == own
    assert not (folder / "PWNED").exists()


def test_a_played_game_and_an_arena_run_on_a_game_file_write_their_records(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "take.py").write_text(GAME)
    monkeypatch.chdir(tmp_path)
    played = records.from_game_record(play_game("take.py:TakeAway", "random", "first", seed=1))
    assert records.parse(records.format(played), game="take.py:TakeAway") == [played]
    assert main(["match", "random", "first", "--game", "take.py:TakeAway", "--games", "2", "--jobs", "1", "--quiet",
                 "-o", "r.db", "--pgnout", "r.pgn"]) == 0  # the run's own game writes its records
    assert len(records.read("r.pgn", game="take.py:TakeAway")) == 2
    with pytest.raises(InvalidFileError, match="names a Python file"):
        list(records.from_store("r.db"))
    assert [r.moves for r in records.from_store("r.db", game="take.py:TakeAway")] == \
        [r.moves for r in records.read("r.pgn", game="take.py:TakeAway")]


def _results_on(folder: Path, game: Path) -> Path:
    """A results file of a run on ``game`` (a copy of a real run's, its game renamed), as someone may hand it."""
    (folder / "good.py").write_text(GAME)
    assert zerosum("match", "random", "first", "--game", "good.py:TakeAway", "--games", "2", "--jobs", "1",
                   "--quiet", "-o", "good.db", cwd=folder).returncode == 0
    db = folder / "evil.db"
    db.write_bytes((folder / "good.db").read_bytes())
    con = sqlite3.connect(db)
    with con:
        config = json.loads(con.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0])
        config["game"], config["digests"] = f"{game}:TakeAway", {}
        con.execute("UPDATE meta SET value = ? WHERE key = 'config'", (json.dumps(config),))
    con.close()
    return db


def test_report_export_of_a_run_on_a_game_file_runs_nothing(folder: Path) -> None:
    _results_on(folder, folder / "evil.py")
    err = refused(zerosum("report", "evil.db", "--export", "out.pgn", cwd=folder), "names a Python file")
    assert "from_store" in err and not (folder / "out.pgn").exists()
    assert not (folder / "PWNED").exists()


def test_report_of_a_run_on_a_game_file_runs_nothing(folder: Path) -> None:
    _results_on(folder, folder / "evil.py")
    run = zerosum("report", "evil.db", "--no-plots", cwd=folder)
    assert run.returncode == 0 and "random" in run.stdout, run.stderr
    assert not (folder / "PWNED").exists()


def test_report_exports_a_run_on_your_own_game_file_when_you_name_it(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``report --export --game FILE`` writes the records of a run on the user's own game file (the refusal's
    way out, as ``--game`` is on replay and review); another file, or --game without --export, is one line."""
    (tmp_path / "take.py").write_text(GAME)
    (tmp_path / "take2.py").write_text(GAME)
    assert zerosum("match", "random", "first", "--game", "take.py:TakeAway", "--games", "2", "--jobs", "1",
                   "--quiet", "-o", "r.db", "--pgnout", "played.pgn", cwd=tmp_path).returncode == 0
    run = zerosum("report", "r.db", "--export", "out.pgn", "--game", "take.py:TakeAway", cwd=tmp_path)
    assert run.returncode == 0 and "wrote 2 games" in run.stdout, run.stderr
    monkeypatch.chdir(tmp_path)
    assert [r.moves for r in records.read("out.pgn", game="take.py:TakeAway")] == \
        [r.moves for r in records.read("played.pgn", game="take.py:TakeAway")]
    refused(zerosum("report", "r.db", "--export", "other.pgn", "--game", "take2.py:TakeAway", cwd=tmp_path),
            "is not the game given")
    refused(zerosum("report", "r.db", "--no-plots", "--game", "take.py:TakeAway", cwd=tmp_path), "--export")
    assert not (tmp_path / "other.pgn").exists()


def test_a_record_of_a_game_object_read_elsewhere_says_to_give_the_game(tmp_path: Path) -> None:
    """A record of an in-process game object (``[Game "<ZzNeverMade>"]``) read by another process said only "malformed
    spec '<Nim>': expected a name such as 'alphabeta'"; it names the way out, ``game=``."""
    (tmp_path / "r.pgn").write_text('[Event "x"]\n[Game "<ZzNeverMade>"]\n[Result "*"]\n\n1 *\n')
    with pytest.raises(InvalidFileError, match=r"names a game object \(ZzNeverMade\) .*game=ZzNeverMade\(\)") as info:
        records.read(tmp_path / "r.pgn")
    assert "\n" not in str(info.value)


def test_a_game_file_s_record_with_tuple_moves_is_refused_for_its_tag_not_its_parentheses(tmp_path: Path) -> None:
    """A course game's moves are tuples, ``(0,1)``: without the game named, the record was misread as PGN
    variations (``move number 2. is followed by '(', not a move``); it is the tag's refusal, as for any other."""
    text = f'[Game "{tmp_path}/grid.py:Grid"]\n[Result "*"]\n\n1. (0,1) 2. (1,1) *\n'
    with pytest.raises(InvalidFileError, match=r"^game 1, line 1: Game tag .*grid.py:Grid' names a Python file, "
                                               "and reading a record runs no code it names"):
        records.parse(text)
    with pytest.raises(InvalidFileError, match=r"^game 1, line 1: Game tag 'nosuch': unknown game 'nosuch'"):
        records.parse('[Game "nosuch"]\n[Result "*"]\n\n1. (0,1) *\n')
    assert not (tmp_path / "grid.py").exists()
