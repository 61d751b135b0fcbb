"""The files a seat runs are the teacher's only (0600, a program 0700), also where the server runs as root and
each seat as a user of its own: the seat plays a read-only copy (bubblewrap's ``--ro-bind-data``, from a
descriptor the server opens), never the file where it lies.  Checked on the real parts: uploads stored so, then
validated and played in the final, in the real sandbox (a Python file, a notebook and a file game's 0600 copy;
a script and a compiled program); and an unconfined seat, which runs as the teacher, plays them as they are.
Before this, a root server stored them 0644/0755, made the game's copy 0644, and refused a 0600 one: ``make it
readable by all (chmod a+r)``."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

import zerosum
from zerosum.agents.base import Limits as MoveLimits
from zerosum.cli import main
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.seats import seat_definition, seat_engine
from zerosum.contest.store import Store
from zerosum.contest.submissions import accept

PROBLEM = sandbox_problem()
needs_sandbox = pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox on this machine: {PROBLEM}")
ROOT = Path(__file__).resolve().parents[2]
AS_ROOT = os.geteuid() == 0  # then each seat runs as a fresh user of its own, which owns none of the files
#: Nim, a course-protocol game in a file: take 1 to 3 from a pile of 9, who takes the last one wins
GAME = '''class Nim:
    def __init__(self, pile=9):
        self.initial_state = (pile, "A")

    def actions(self, state):
        return [n for n in (1, 2, 3) if n <= state[0]]

    def result(self, state, n):
        return (state[0] - n, "B" if state[1] == "A" else "A")

    def terminal_test(self, state):
        return state[0] == 0

    def utility(self, state, player):
        return 0 if state[0] else (-1 if state[1] == player else 1)

    def to_move(self, state):
        return state[1]
'''
#: a student's player that checks its seat: not root (where the server is), and the 0600 game copy readable
PLAYER = '''import os

def player(game, state):
    if {as_root}:
        assert os.getuid() != 0, "the seat runs as root"
    assert open({game!r}).read().startswith("class Nim"), "the game's copy is not readable"
    return game.actions(state)[{pick}]
'''
FIRST_COLUMN = "def player(board):\n    return [c for c in range(board.shape[1]) if board[0][c] == 0][0]\n"


def _mode(path: Path | str) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _new(tmp_path: Path, folder: Path, game: str, names: str, openings: str) -> None:
    roster, starts = tmp_path / "roster.csv", tmp_path / "openings.txt"
    roster.write_text("name\n" + names)
    starts.write_text(openings)
    assert main(["contest", "new", str(folder), "--game", game, "--roster", str(roster), "--move-time", "0.3",
                 "--seed", "3", "--openings", str(starts)]) == 0


def _final(folder: Path, expected: dict[str, int]) -> None:
    """``contest final``: it validates the uploads (validation seats), then plays them (the ladder's seats): every
    one ``ok``, every game played without a forfeit, and every file still as ``expected`` (path: mode)."""
    assert main(["contest", "final", str(folder), "--no-grade", "--jobs", "2"]) == 0
    store = Store(folder)
    try:
        rows = [r for name in ("Ann", "Bob") for r in store.submissions(name)]
        assert all(r["status"] == "ok" for r in rows), [(r["filename"], r["status"], r["message"]) for r in rows]
        games = store.games(stage="final")
        assert games and all(g["result"] and not g["forfeit"] for g in games), [(g["result"], g["reason"])
                                                                                 for g in games]
    finally:
        store.close()
    assert json.loads((folder / "results.json").read_text())["unplayed"] == []
    assert {path: _mode(folder / path) for path in expected} == expected


@needs_sandbox
def test_a_file_game_contests_0600_copy_and_0600_uploads_are_validated_and_played(tmp_path: Path) -> None:
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    (teacher / "nim.py").write_text(GAME)
    folder = tmp_path / "class"
    _new(tmp_path, folder, f"{teacher / 'nim.py'}:Nim", "Ann\nBob\n", "1\n2\n")
    copy = f"{os.path.realpath(folder)}/game/nim.py"
    assert _mode(copy) == 0o600  # the teacher's only (was 0644 as root)
    store = Store(folder)
    python = PLAYER.format(as_root=AS_ROOT, game=copy, pick=0)
    cell = "# submission\n" + PLAYER.format(as_root=AS_ROOT, game=copy, pick=-1)
    ids = [accept(store, "Ann", "ann.py", python.encode()),
           accept(store, "Bob", "bob.ipynb", json.dumps({"cells": [{"cell_type": "code", "source": cell}]}).encode())]
    paths = [str(store.submission(n)["path"]) for n in ids]  # type: ignore[index]
    store.close()
    assert [_mode(folder / p) for p in paths] == [0o600, 0o600]  # was 0644 as root
    _final(folder, {"game/nim.py": 0o600, **{p: 0o600 for p in paths}})


@pytest.mark.slow  # CI time (9 s): a 0600 program and python file play in a real seat below, in CI
@needs_sandbox
@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler here")
def test_a_script_and_a_compiled_program_stored_0700_are_validated_and_played(tmp_path: Path) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler is not None
    binary = tmp_path / "alphabeta"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(ROOT / "examples" / "engines" / "alphabeta.c")],
                   check=True, timeout=120)
    folder = tmp_path / "class"
    _new(tmp_path, folder, "connect4", "Ann\nBob\n", "44\n43\n")
    store = Store(folder)
    ids = [accept(store, "Ann", "engine", (ROOT / "examples" / "engines" / "random_engine.py").read_bytes()),
           accept(store, "Bob", "alphabeta", binary.read_bytes())]
    paths = [str(store.submission(n)["path"]) for n in ids]  # type: ignore[index]
    assert [store.submission(n)["kind"] for n in ids] == ["program", "program"]  # type: ignore[index]
    store.close()
    assert [_mode(folder / p) for p in paths] == [0o700, 0o700]  # was 0755 as root
    _final(folder, {p: 0o700 for p in paths})


def _private(folder: Path, kind: str) -> Path:
    """A Python file or a protocol script (not executable), 0600."""
    path = folder / ("mine.py" if kind == "python" else "engine")
    if kind == "program":
        shutil.copy(ROOT / "examples" / "engines" / "random_engine.py", path)
    else:
        path.write_text(FIRST_COLUMN)
    path.chmod(0o600)
    return path


@needs_sandbox
@pytest.mark.parametrize("kind", ["python", "program"])
def test_a_0600_file_plays_in_the_sandbox_and_a_program_is_made_executable_by_its_owner_only(
        tmp_path: Path, kind: str) -> None:
    path = _private(tmp_path, kind)
    definition = seat_definition(str(tmp_path), str(path), kind, name="private")
    with seat_engine(definition, limits=MoveLimits(time=1.0), startup=30) as engine:
        record = zerosum.play_game("connect4", engine, "random", seed=3)
    assert not record.forfeit, record.reason
    assert _mode(path) == (0o700 if kind == "program" else 0o600)  # never readable, nor runnable, by others


@pytest.mark.parametrize("kind", ["python", "program"])
def test_an_unconfined_seat_runs_as_the_teacher_and_plays_a_0600_file(tmp_path: Path, kind: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("zerosum.contest.sandbox.sandbox_problem", lambda: "no bwrap in this test")
    path = _private(tmp_path, kind)
    definition = seat_definition(str(tmp_path), str(path), kind, name="private", unconfined=True)
    assert "bwrap" not in " ".join(definition.command) and str(path) in " ".join(definition.command)
    with seat_engine(definition, limits=MoveLimits(time=1.0), startup=30) as engine:
        record = zerosum.play_game("connect4", engine, "random", seed=3)
    assert not record.forfeit, record.reason
    assert _mode(path) == (0o700 if kind == "program" else 0o600)
