"""A contest's config edited by hand to a value of the right type that is not valid (a game zerosum does not know,
a reference that does not build) is refused by ``zerosum contest serve`` (and ``final``, ``token``) in one line
naming the key, exit status 2, the database unchanged -- not served, to fail every upload with ``the check itself
failed: InvalidSpecError``; and a roster saved by Excel as "CSV UTF-8" (a byte-order mark first) is read."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from contest_serving import free_port, make_contest

from zerosum.cli import main
from zerosum.contest.store import Store

ENGINE = Path(__file__).resolve().parents[2] / "examples" / "engines" / "random_engine.py"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A contest with a built-in, a file and an external engine's reference, made once (copied by each test)."""
    folder = tmp_path_factory.mktemp("made") / "class"
    teacher = folder.parent / "teacher.py"
    teacher.write_text("def player(game, state):\n    return game.actions(state)[0]\n")
    make_contest(folder, ["Ann"], "--reference", "random", "--reference", f"instructor={teacher}:player",
                 "--engine", f"rnd={sys.executable} {ENGINE}", "--reference", "rnd")
    return folder


def _edited(made: Path, tmp_path: Path, key: str, change: object) -> Path:
    """A copy of the contest whose config's ``key`` is set to ``change(value)`` (or to ``change``)."""
    folder = tmp_path / "edited"
    shutil.copytree(made, folder)
    with sqlite3.connect(folder / "contest.db") as db:
        value = json.loads(db.execute("SELECT value FROM config WHERE key = ?", (key,)).fetchone()[0])
        value = change(value) if callable(change) else change
        db.execute("UPDATE config SET value = ? WHERE key = ?", (json.dumps(value), key))
    db.close()
    return folder


def _refused(folder: Path, capsys: pytest.CaptureFixture[str], *command: str) -> str:
    """The one line ``zerosum contest COMMAND`` (in this process) refuses the contest with, exit status 2."""
    before = (folder / "contest.db").read_bytes()
    assert main(["contest", *command]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err, err
    assert (folder / "contest.db").read_bytes() == before and not (folder / "server.lock").exists()
    return err


def _serve_refused(folder: Path) -> str:
    """The one line a real ``zerosum contest serve`` process refuses the contest with, exit status 2 (a server
    that starts instead is stopped at once: the test fails)."""
    before = (folder / "contest.db").read_bytes()
    command = [sys.executable, "-m", "zerosum", "contest", "serve", str(folder), "--port", str(free_port()),
               "--unconfined"]
    with subprocess.Popen(command, stderr=subprocess.PIPE, text=True, start_new_session=True) as server:
        assert server.stderr is not None
        lines = []
        for line in server.stderr:  # ends when it exits; a server that starts says so first
            lines.append(line)
            if line.startswith("serving the contest"):
                os.killpg(server.pid, signal.SIGKILL)
                pytest.fail(f"the server started: {''.join(lines)}")
        assert server.wait(30) == 2, lines
    assert len(lines) == 1 and "Traceback" not in lines[0], lines
    assert (folder / "contest.db").read_bytes() == before and not (folder / "server.lock").exists()
    return lines[0]


def test_the_contest_as_made_opens(made: Path) -> None:
    Store(made).close()  # its built-in, file and engine references all build; its game is known


@pytest.mark.parametrize("game, why", [("nope", "unknown game 'nope'"), ("connectx:rows=99", "99 rows"),
                                       ("connect4:x=1", "no option 'x'")])
def test_serve_refuses_a_game_zerosum_does_not_know(made: Path, tmp_path: Path, game: str, why: str) -> None:
    folder = _edited(made, tmp_path, "game", game)
    err = _serve_refused(folder)
    assert f"the config's 'game' is {game!r}, not a game zerosum knows" in err and why in err, err
    assert "edited by hand" in err, err


def _swap(name: str, **changes: object) -> object:
    return lambda refs: [{**r, **changes} if r["name"] == name else r for r in refs]


@pytest.mark.parametrize("change, why", [
    (_swap("random", spec="randm"), "unknown agent 'randm'"),
    (_swap("random", spec="alphabeta:depth=x"), "not a whole number"),
    (_swap("random", spec="human"), "a person cannot be a reference"),
    (_swap("instructor", entry="nothing"), "has no 'nothing'"),
    (_swap("rnd", engine={"name": "rnd", "command": [], "folder": None, "options": []}), "engine definition"),
    (lambda refs: refs + [{"name": "random", "spec": "first"}], "two references are called 'random'"),
])
def test_serve_refuses_a_reference_that_does_not_build(made: Path, tmp_path: Path, change: object,
                                                       why: str) -> None:
    folder = _edited(made, tmp_path, "references", change)
    err = _serve_refused(folder)
    assert "the config's 'references' holds" in err and "which does not build" in err and why in err, err


def test_a_reference_played_in_the_sandbox_is_read_never_run(made: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    boxed = tmp_path / "boxed.py"  # its top level would fail here, where it is not meant to run
    boxed.write_text("import os\nassert os.path.isdir('/submission')\n\n\ndef teach(board):\n    return 0\n")
    ref = {"name": "boxed", "spec": f"{boxed}:teach", "sandbox": True}
    Store(_edited(made, tmp_path / "a", "references", lambda refs: refs + [ref])).close()
    folder = _edited(made, tmp_path / "b", "references", lambda refs: refs + [{**ref, "spec": f"{boxed}:nothing"}])
    assert "'boxed' = " in _refused(folder, capsys, "token", str(folder), "Ann", "--new")


def test_final_and_token_refuse_it_too(made: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _edited(made, tmp_path, "game", "nope")
    assert "the config's 'game' is 'nope'" in _refused(folder, capsys, "final", str(folder), "--unconfined")
    assert "the config's 'game' is 'nope'" in _refused(folder, capsys, "token", str(folder), "Ann", "--new")


#: a roster as Excel saves it as "CSV UTF-8": a byte-order mark first, a header, CRLF line ends
EXCEL = b"\xef\xbb\xbfname,email\r\nAda Lovelace,a@x\r\nAlan Turing,b@x\r\n"


def test_a_roster_saved_by_excel_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "excel.csv"
    roster.write_bytes(EXCEL)
    assert main(["contest", "new", str(tmp_path / "class"), "--game", "tictactoe", "--roster", str(roster),
                 "--openings", str(_openings(tmp_path))]) == 0, capsys.readouterr().err
    with open(tmp_path / "class" / "tokens.csv", newline="", encoding="utf-8") as f:
        assert [row["name"] for row in csv.DictReader(f)] == ["#teacher", "Ada Lovelace", "Alan Turing"]


def test_a_byte_order_mark_further_in_is_still_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    roster = tmp_path / "late-mark.csv"
    roster.write_bytes(b"name\r\nAda\r\n\xef\xbb\xbfBob\r\n")
    assert main(["contest", "new", str(tmp_path / "class"), "--game", "tictactoe", "--roster", str(roster),
                 "--openings", str(_openings(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert "roster line 3: the name '\\ufeffBob' holds '\\ufeff'" in err, err
    assert not (tmp_path / "class").exists()


def _openings(folder: Path) -> Path:
    path = folder / "openings.txt"
    path.write_text("5\n1\n")
    return path
