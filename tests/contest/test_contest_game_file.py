"""A contest on the teacher's own game (``contest new --game file.py:Class``): the file is copied into the
contest's folder (``game/``) and pinned by its SHA-256; every seat sees the copy read-only, in the real
sandbox, and plays on it (the validation through ``curl``, ladder games, the final); a changed, missing or
moved copy, a file that imports a module beside it and a folder whose path cannot be named in one word are
refused in one line.  Before this, every upload failed: ``game file 'c3.py' not found`` inside the sandbox."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from contest_serving import curl, free_port, serving
from zerosum.cli import main
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.store import Store

PROBLEM = sandbox_problem()
needs_sandbox = pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox on this machine: {PROBLEM}")

#: a course-protocol game (AIMA's names): Connect-3 on 4 columns of 3
GAME = '''class Connect3:
    def __init__(self, cols=4, rows=3):
        self.cols, self.rows = cols, rows
        self.initial_state = (tuple(() for _ in range(cols)), "X")

    def actions(self, state):
        return [] if self.terminal_test(state) else [c for c in range(self.cols) if len(state[0][c]) < self.rows]

    def result(self, state, a):
        cols = list(state[0])
        cols[a] = cols[a] + (state[1],)
        return (tuple(cols), "O" if state[1] == "X" else "X")

    def cell(self, state, c, r):
        return state[0][c][r] if 0 <= c < self.cols and 0 <= r < len(state[0][c]) else None

    def winner(self, state):
        for c in range(self.cols):
            for r in range(self.rows):
                p = self.cell(state, c, r)
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if p is not None and all(self.cell(state, c + dc * i, r + dr * i) == p for i in range(3)):
                        return p
        return None

    def terminal_test(self, state):
        return self.winner(state) is not None or all(len(c) == self.rows for c in state[0])

    def utility(self, state, player):
        w = self.winner(state)
        return 0 if w is None else (1 if w == player else -1)

    def to_move(self, state):
        return state[1]
'''
#: a student's player that checks its seat: the game's copy readable, read-only, alone in its folder
CAREFUL = '''import os

def player(game, state):
    path = {path!r}
    assert open(path).read().startswith("class Connect3"), "the game's copy is not readable"
    try:
        open(path, "a").close()
    except OSError:
        pass
    else:
        raise RuntimeError("the game's copy is writable")
    assert os.listdir(os.path.dirname(path)) == [os.path.basename(path)], os.listdir(os.path.dirname(path))
    assert not os.path.exists(os.path.join(os.path.dirname(os.path.dirname(path)), "contest.db"))
    return game.actions(state)[0]
'''
FIRST = "def player(game, state):\n    return game.actions(state)[-1]\n"


def _new(tmp_path: Path, folder: Path, game: str, *more: str, names: str = "Ann\n") -> int:
    roster = tmp_path / "roster.csv"
    roster.write_text("name\n" + names)
    return main(["contest", "new", str(folder), "--game", game, "--roster", str(roster), "--move-time", "0.3",
                 "--seed", "3", "--openings-count", "2", "--opening-plies", "2", *more])


@pytest.fixture
def teacher(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The teacher's folder, holding c3.py, as the command's folder."""
    home = tmp_path / "teacher"
    home.mkdir()
    (home / "c3.py").write_text(GAME)
    monkeypatch.chdir(home)
    return home


def _tokens(folder: Path) -> dict[str, str]:
    with open(folder / "tokens.csv", newline="") as f:
        return {row["name"]: row["token"] for row in csv.DictReader(f)}


def test_the_game_file_is_copied_pinned_and_the_teachers_edit_changes_nothing(teacher: Path, tmp_path: Path) -> None:
    import hashlib

    folder = tmp_path / "class"
    assert _new(tmp_path, folder, "c3.py:Connect3") == 0
    config = Store(folder).config()
    copy = folder / "game" / "c3.py"
    assert copy.read_text() == GAME and (copy.stat().st_mode & 0o777) == 0o600
    assert config["game"] == f"{os.path.realpath(folder)}/game/c3.py:Connect3"
    assert config["game_file"] == {"file": "game/c3.py", "sha256": hashlib.sha256(GAME.encode()).hexdigest(),
                                   "given": "c3.py:Connect3"}
    (teacher / "c3.py").write_text("raise SystemExit('the teacher edited the file')\n")
    from zerosum.contest.game_file import check_game_file

    check_game_file(config, folder)  # the copy is the game, not the teacher's file
    # --overwrite knows the copy (and Python's cache of it) as the contest's own
    (folder / "game" / "__pycache__").mkdir(exist_ok=True)
    (folder / "game" / "__pycache__" / "c3.cpython-311.pyc").write_bytes(b"cache")
    (teacher / "c3.py").write_text(GAME.replace("rows=3", "rows=4"))
    assert _new(tmp_path, folder, "c3.py", "--overwrite") == 0
    assert "rows=4" in copy.read_text() and Store(folder).config()["game"].endswith("/game/c3.py:Connect3")


def test_overwrite_refuses_a_file_in_game_that_the_contest_did_not_write(teacher: Path, tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    assert _new(tmp_path, folder, "c3.py:Connect3") == 0
    (folder / "game" / "mine.py").write_text("the teacher's own\n")
    capsys.readouterr()
    before = sorted(str(p) for p in folder.rglob("*"))
    assert _new(tmp_path, folder, "c3.py:Connect3", "--overwrite") == 2
    err = capsys.readouterr().err.strip()
    assert "'game/mine.py'" in err and "is not the contest's" in err and len(err.splitlines()) == 1
    assert sorted(str(p) for p in folder.rglob("*")) == before


@pytest.mark.parametrize("harm", ["changed", "gone", "moved"])
def test_a_changed_missing_or_moved_copy_is_refused_by_serve_and_final(teacher: Path, tmp_path: Path,
                                                                      harm: str) -> None:
    folder = tmp_path / "class"
    assert _new(tmp_path, folder, "c3.py:Connect3") == 0
    if harm == "changed":
        with open(folder / "game" / "c3.py", "a") as f:
            f.write("# one more line\n")
    elif harm == "gone":
        (folder / "game" / "c3.py").unlink()
    else:
        folder = folder.rename(tmp_path / "elsewhere")
    for command in (["serve", str(folder), "--port", str(free_port())], ["final", str(folder), "--no-grade"]):
        try:  # in a process of its own: a server that starts anyway is stopped, and the test fails
            done = subprocess.run([sys.executable, "-m", "zerosum", "contest", *command], capture_output=True,
                                  text=True, timeout=90)
        except subprocess.TimeoutExpired:
            pytest.fail(f"contest {command[0]} started on a {harm} game file")
        err = done.stderr.strip()
        assert done.returncode == 2, err
        assert len(err.splitlines()) == 1, err
        assert {"changed": "changed since `contest new`", "gone": "is gone",
                "moved": "the contest's folder moved"}[harm] in err
        assert f"'{folder}/game/c3.py'" in err
    assert not (folder / "server.lock").exists() and not Store(folder).games()


def test_a_game_file_that_imports_a_module_beside_it_is_refused(teacher: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    (teacher / "helper.py").write_text("ROWS = 3\n")
    (teacher / "g.py").write_text("import helper\n" + GAME)
    (teacher / "h.py").write_text("import importlib\nhelper = importlib.import_module('helper')\n" + GAME)
    folder = tmp_path / "class"
    capsys.readouterr()
    assert _new(tmp_path, folder, "g.py:Connect3") == 2  # read from its syntax
    err = capsys.readouterr().err.strip()
    assert "g.py imports 'helper', a module beside it" in err and len(err.splitlines()) == 1
    assert _new(tmp_path, folder, "h.py:Connect3") == 2  # found by loading the copy alone, as the seats do
    err = capsys.readouterr().err.strip()
    assert "does not load on its own" in err and "No module named 'helper'" in err and len(err.splitlines()) == 1
    assert "'" + str(folder) in err  # the copy's path in the contest's folder, not the scratch folder's
    assert not folder.exists() and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_the_spec_is_one_word_and_the_folder_path_must_allow_it(teacher: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "class"
    assert _new(tmp_path, folder, "c3.py:Connect3(cols=4, rows=3)") == 0
    assert Store(folder).config()["game"].endswith("/game/c3.py:Connect3(cols=4,rows=3)")
    spaced = tmp_path / "my class"
    capsys.readouterr()
    assert _new(tmp_path, spaced, "c3.py:Connect3") == 2
    err = capsys.readouterr().err.strip()
    assert "holds ' ' in its path" in err and len(err.splitlines()) == 1 and not spaced.exists()


@needs_sandbox
@pytest.mark.skipif(shutil.which("curl") is None, reason="the students upload with curl, which is not here")
def test_uploads_are_validated_on_the_game_file_in_the_sandbox_and_the_ladder_plays_it(teacher: Path,
                                                                                       tmp_path: Path) -> None:
    folder = tmp_path / "class"
    assert _new(tmp_path, folder, "c3.py:Connect3") == 0
    os.chdir(tmp_path)  # served from another folder than the teacher's: nothing is read from there
    tokens = _tokens(folder)
    careful = tmp_path / "careful.py"
    careful.write_text(CAREFUL.format(path=f"{os.path.realpath(folder)}/game/c3.py"))
    with serving(folder) as url:
        status, answer, _ = curl("-F", f"file=@{careful}", f"{url}/api/submit", token=tokens["Ann"])
        assert status == 201 and answer["status"] == "ok", answer
        assert answer["message"].startswith("loads and plays legal moves: 4 games"), answer
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            _, me, _ = curl(f"{url}/api/me", token=tokens["Ann"])
            done = [g for g in me["games"] if g["status"] == "done"]
            if len(done) >= 2:
                break
            time.sleep(1)
        assert len(done) >= 2, me
        assert all(g["result"] in ("1-0", "0-1", "1/2-1/2") and "forfeit" not in (g["reason"] or "")
                   and "could not start" not in (g["reason"] or "") for g in done), done


@needs_sandbox
@pytest.mark.slow  # 4 s; CI keeps the ladder on the game file
def test_the_final_plays_on_the_game_file_in_the_sandbox(teacher: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from contest_players import submit

    folder = tmp_path / "class"
    assert _new(tmp_path, folder, "c3.py:Connect3", names="Ann\nBob\n") == 0
    store = Store(folder)
    submit(store, folder, "Ann", FIRST)
    submit(store, folder, "Bob", CAREFUL.format(path=f"{os.path.realpath(folder)}/game/c3.py"))
    store.close()
    os.chdir(tmp_path)
    capsys.readouterr()
    assert main(["contest", "final", str(folder), "--no-grade", "--jobs", "2"]) == 0
    results = json.loads((folder / "results.json").read_text())
    games = Store(folder).games(stage="final")
    assert results["games"] == len(games) == 6 and results["unplayed"] == []
    assert all(g["result"] and not g["forfeit"] for g in games), [(g["result"], g["reason"]) for g in games]
    assert all(g["record"] and "game/c3.py:Connect3" in g["record"] for g in games)
