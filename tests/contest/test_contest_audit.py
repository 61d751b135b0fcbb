"""Fixes from the contest's audit: one process plays a contest's games (the folder's lock), reference files
kept with the contest, a damaged database or config refused in one line, tied students share a rank and its
points, an engine's own 'info string error' quoted, long file names keep their kind, a hang at import answered
within the check's budget, the final's progress reaching its total."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from contest_players import make_contest, source
from contest_serving import curl, serving
from contest_serving import make_contest as make_served
from zerosum.cli import main
from zerosum.contest import ladder
from zerosum.contest.final import grade_rows, run_final
from zerosum.contest.lock import FolderBusy, claim
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.standings import Entry, standing_rows
from zerosum.contest.store import Store
from zerosum.contest.submissions import accept, clean_filename

RUN = {"jobs": 1, "unconfined": sandbox_problem() is not None}
HERE = Path(__file__).parent


def _running_game(folder: Path) -> int:
    """A ladder game marked running, as a live server's is while it plays it; its id."""
    with sqlite3.connect(folder / "contest.db") as db:
        cur = db.execute("INSERT INTO games(stage, pairing, first, second, opening, seed, status, started) "
                         "VALUES ('ladder', 'ref:random vs ref:random', 'ref:random', 'ref:random', '-', 1, "
                         "'running', 123.0)")
        return int(cur.lastrowid or 0)


def _status(folder: Path, game: int) -> tuple[str, float | None]:
    with sqlite3.connect(folder / "contest.db") as db:
        return db.execute("SELECT status, started FROM games WHERE id = ?", (game,)).fetchone()


# ---- 1. one process plays a contest's games --------------------------------------------------------------

def test_a_second_ladder_is_refused_and_leaves_the_first_ones_games(tmp_path):
    folder = tmp_path / "c"
    make_contest(folder, {})
    first = ladder.Ladder(folder, jobs=1, unconfined=True).start()
    try:
        game = _running_game(folder)
        with pytest.raises(FolderBusy, match=rf"another server is serving the contest in .* \(pid {os.getpid()}\)"):
            ladder.Ladder(folder, jobs=1, unconfined=True).start()
        with pytest.raises(FolderBusy):
            ladder.run_pending(folder, 1, jobs=1, unconfined=True)
        assert _status(folder, game) == ("running", 123.0)  # not set back to pending under the first's feet
    finally:
        first.stop()
    assert _status(folder, game)[0] == "pending"  # the holder's own stop does, as before
    again = ladder.Ladder(folder, jobs=1, unconfined=True).start()  # the lock went with the first
    again.stop()


def test_the_final_is_refused_while_a_server_holds_the_contest(tmp_path, capsys):
    folder = tmp_path / "c"
    make_contest(folder, {"ann": source("first")})
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time\nfrom zerosum.contest.lock import claim\n"
                               "claim(sys.argv[1]); print('held', flush=True); time.sleep(60)", str(folder)],
                              stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        game = _running_game(folder)
        assert main(["contest", "final", str(folder), "--unconfined"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"another server is serving the contest in {folder} (pid {holder.pid})" in err[0]
        assert _status(folder, game) == ("running", 123.0)
        assert Store(folder).get("frozen") is False and not Store(folder).games(stage="final")
    finally:
        holder.kill()
        holder.wait()
    held = claim(folder)  # killed: the kernel let the lock go
    held.release()


def test_a_second_server_on_the_same_port_leaves_the_live_ones_games(tmp_path):
    folder = tmp_path / "c"
    make_served(folder, ["Ada"])
    with serving(folder) as url:
        game = _running_game(folder)
        port = url.rsplit(":", 1)[1]
        command = [sys.executable, "-m", "zerosum", "contest", "serve", str(folder), "--port", port]
        done = subprocess.run(command + (["--unconfined"] if sandbox_problem() else []), capture_output=True,
                              timeout=120, text=True)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr  # not uvicorn's traceback
        assert done.stderr.startswith("zerosum contest serve: error: another server is serving the contest in")
        assert "serving the contest in" not in done.stdout
        assert _status(folder, game) == ("running", 123.0)  # the live server's game was not reset
        assert curl(f"{url}/api/leaderboard")[0] == 200


def test_a_port_in_use_is_one_line_and_changes_nothing(tmp_path):
    """The port is bound before the server starts: in use, it was uvicorn's ERROR line and exit 3, after the
    games a killed server left running had been reset and "serving ... on http://..." printed."""
    import socket

    folder = tmp_path / "c"
    make_served(folder, ["Ada"])
    game = _running_game(folder)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        command = [sys.executable, "-m", "zerosum", "contest", "serve", str(folder), "--port",
                   str(taken.getsockname()[1])]
        done = subprocess.run(command + (["--unconfined"] if sandbox_problem() else []), capture_output=True,
                              timeout=120, text=True)
    finally:
        taken.close()
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "the port is in use" in done.stderr and "serving the contest" not in done.stderr
    assert _status(folder, game) == ("running", 123.0)
    claim(folder).release()  # and the lock went with the refused process


def test_contest_new_overwrite_is_refused_while_a_server_holds_the_folder(tmp_path, capsys):
    folder = tmp_path / "c"
    make_contest(folder, {})
    roster = tmp_path / "r.csv"
    roster.write_text("name\nAda\n")
    held = claim(folder)
    try:
        assert main(["contest", "new", str(folder), "--game", "connect4", "--roster", str(roster), "--openings",
                     str(_openings(tmp_path)), "--overwrite"]) == 2
        assert "a server is serving the contest in" in capsys.readouterr().err
        assert Store(folder).people("student") == []  # the old contest (no students) is still there
    finally:
        held.release()


def _openings(folder: Path) -> Path:
    path = folder / "openings.txt"
    path.write_text("44\n43\n")
    return path


# ---- 2. a reference file is kept with the contest --------------------------------------------------------

def test_a_relative_reference_file_is_copied_and_played_from_anywhere(tmp_path, monkeypatch, capsys):
    teacher = tmp_path / "teacher"
    teacher.mkdir()
    shutil.copy(HERE.parents[1] / "examples" / "contest" / "instructor.py", teacher / "instructor.py")
    (teacher / "r.csv").write_text("name\nAda\n")
    monkeypatch.chdir(teacher)
    assert main(["contest", "new", "class", "--game", "connect4", "--roster", "r.csv", "--move-time", "0.2",
                 "--openings", str(_openings(teacher)), "--reference", "random",
                 "--reference", "instructor=instructor.py:player"]) == 0
    refs = Store("class").get("references")
    assert refs[1]["file"] == "references/instructor.py" and refs[1]["entry"] == "player"
    assert (teacher / "class" / "references" / "instructor.py").read_bytes() == (teacher / "instructor.py").read_bytes()
    (teacher / "instructor.py").write_text("def player(board):\n    raise ValueError('edited')\n")  # no effect
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = run_final(teacher / "class", **RUN)
    assert result["games"] == 2
    assert not any(r["forfeits"] for r in result["results"] if r["kind"] == "reference")


def test_an_older_contests_relative_reference_works_from_its_folder_and_is_one_line_elsewhere(tmp_path, monkeypatch,
                                                                                             capsys):
    folder = tmp_path / "c"
    make_contest(folder, {})
    with sqlite3.connect(folder / "contest.db") as db:  # as an older `contest new` stored it: the path as given
        db.execute("UPDATE config SET value = ? WHERE key = 'references'", (json.dumps(
            [{"name": "random", "spec": "random"}, {"name": "instructor", "spec": "instructor.py:player"}]),))
    shutil.copy(HERE.parents[1] / "examples" / "contest" / "instructor.py", tmp_path / "instructor.py")
    monkeypatch.chdir(folder)  # not where the file is
    assert main(["contest", "final", str(folder), "--unconfined"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'instructor.py', is not found from" in err[0] and "run the command from there" in err[0]
    with sqlite3.connect(folder / "contest.db") as db:
        assert db.execute("SELECT value FROM config WHERE key = 'frozen'").fetchone() == ("false",)
    monkeypatch.chdir(tmp_path)
    result = run_final(folder, **RUN)
    assert result["games"] == 2 and not any(r["forfeits"] for r in result["results"])


# ---- 3, 4. a damaged database, a bad config value --------------------------------------------------------

def _damage(db: Path, how: str) -> None:
    if how == "random":
        db.write_bytes(os.urandom(5000))
    elif how == "empty":
        db.write_bytes(b"")
    else:
        with open(db, "r+b") as f:
            f.seek(4096)
            f.write(bytes(2000))


@pytest.mark.parametrize("how", ["random", "empty", "zeroed"])
@pytest.mark.parametrize("action", ["serve", "final"])
def test_a_damaged_database_is_one_line_and_left_as_it_is(tmp_path, capsys, how, action):
    folder = tmp_path / "c"
    make_contest(folder, {})
    _damage(folder / "contest.db", how)
    before = (folder / "contest.db").read_bytes()
    args = ["contest", action, str(folder), "--unconfined"] + (["--port", "1"] if action == "serve" else [])
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"{folder}/contest.db is not a readable contest database (" in err[0]
    assert (folder / "contest.db").read_bytes() == before


@pytest.mark.parametrize("key,value", [("limits", "{{"), ("limits", '{"move_time": -1}'), ("references", "[]"),
                                       ("openings", '"44"')])
def test_a_bad_config_value_is_refused_at_start_naming_its_key(tmp_path, capsys, key, value):
    folder = tmp_path / "c"
    make_contest(folder, {})
    with sqlite3.connect(folder / "contest.db") as db:
        db.execute("UPDATE config SET value = ? WHERE key = ?", (value, key))
    assert main(["contest", "serve", str(folder), "--unconfined", "--port", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"the config's '{key}'" in err[0]


# ---- 5. ties share a rank and its points -----------------------------------------------------------------

def test_tied_students_share_a_rank_and_a_tables_points():
    entries = [Entry("ref:r", "r"), Entry("sub:1", "ann", 1), Entry("sub:2", "bob", 2), Entry("sub:3", "cid", 3)]
    games = []
    for a in ("sub:1", "sub:2", "sub:3"):  # each student beats r twice; the students draw with each other
        games += [{"first": a, "second": "ref:r", "result": "1-0", "reason": "", "forfeit": 0}] * 2
    games += [{"first": "sub:1", "second": "sub:2", "result": "1/2-1/2", "reason": "", "forfeit": 0}]
    games += [{"first": "sub:3", "second": "sub:2", "result": "1-0", "reason": "", "forfeit": 0},
              {"first": "sub:3", "second": "sub:1", "result": "1-0", "reason": "", "forfeit": 0}]
    rows = standing_rows(entries, games)
    assert [(r["name"], r["rank"]) for r in rows] == [("cid", 1), ("ann", 2), ("bob", 2), ("r", 4)]
    grade_rows(rows, table=("rank", [(1.0, 10.0), (2.0, 7.0), (4.0, 3.0)]))
    assert {r["name"]: r["points"] for r in rows if r["kind"] == "student"} == {"cid": 10, "ann": 7, "bob": 7}


# ---- 6. the engine's own explanation ---------------------------------------------------------------------

def test_an_engines_info_string_error_is_quoted_in_its_forfeit(tmp_path):
    from zerosum.agents.base import Limits
    from zerosum.external import Engine
    from zerosum.external.process import EngineFault
    from zerosum.games import get_game

    program = tmp_path / "small-boards"
    program.write_text("#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n"
                       "    zsp*) echo 'game connectx'; echo zspok ;;\n    isready) echo readyok ;;\n"
                       "    position*) echo 'info string error this board does not fit in 64 bits' ;;\n"
                       "    go*) echo 'bestmove (none)' ;;\n    quit) exit 0 ;;\n  esac\ndone\n")
    program.chmod(0o755)
    game = get_game("connect4-8x8")
    engine = Engine([str(program)], limits=Limits(time=1.0))
    try:
        engine.warm_up(game)
        with pytest.raises(EngineFault) as caught:
            engine(game, game.initial_state)
    finally:
        engine.close()
    assert caught.value.reason == ("illegal move: bestmove (none), but the position has legal moves; the engine said "
                                   "'info string error this board does not fit in 64 bits'")


# ---- 7. a long file name keeps its kind ------------------------------------------------------------------

def test_a_long_py_file_name_is_still_a_python_file(tmp_path):
    name = "a" * 300 + ".py"
    assert clean_filename(name).endswith(".py") and len(clean_filename(name)) == 120
    store = make_contest(tmp_path / "c", {})
    store.add_people([("Ada", "tok-ada", "student")])
    sid = accept(store, "Ada", name, source("first").encode())
    row = store.submission(sid)
    assert row["kind"] == "python" and row["filename"].endswith(".py")


# ---- 8. a hang at import within the check's budget; the final's progress ---------------------------------

@pytest.mark.slow  # 7 s, the check's own budget: CI's time
def test_a_hang_at_import_is_answered_within_the_checks_budget(tmp_path):
    from zerosum.contest.validate import BUDGET, validate

    store = make_contest(tmp_path / "c", {})
    shutil.copy(HERE / "hostile" / "loop_import.py", tmp_path / "c" / "submissions" / "loop.py")
    started = time.monotonic()
    status, message, ply = validate(str(tmp_path / "c"), "submissions/loop.py", "python", store.config(),
                                    unconfined=RUN["unconfined"])
    took = time.monotonic() - started
    assert status == "failed" and "did not finish loading within the check's" in message and ply is None
    assert took < BUDGET + 0.6, took


def test_the_finals_progress_reaches_its_total(tmp_path):
    make_contest(tmp_path / "c", {"ann": source("first")},
                 references=[{"name": "random", "spec": "random"}, {"name": "ab", "spec": "alphabeta:depth=1"}])
    seen: list[tuple[int, int]] = []
    result = run_final(tmp_path / "c", progress=lambda done, total: seen.append((done, total)), **RUN)
    assert seen[-1] == (result["games"], result["games"]) == (6, 6)  # it stopped at 5/6 (the last claim's count)


def test_contest_new_reads_openings_as_the_arena_does(tmp_path, capsys):
    """A bad line is one error naming the file and its line, and nothing is made (it was cut to its first field,
    then refused without a line number); moves written with spaces are read whole."""
    roster = tmp_path / "r.csv"
    roster.write_text("name\nAda\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("44\n4 banana\n")
    assert main(["contest", "new", str(tmp_path / "c"), "--game", "connect4", "--roster", str(roster), "--openings",
                 str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"openings file {str(bad)!r}, line 2: move 2 of '4 banana'" in err, err
    assert not (tmp_path / "c").exists()
    spaced = tmp_path / "spaced.txt"
    spaced.write_text("# judged by hand\n4 4 3 3\n4453 0\n")
    assert main(["contest", "new", str(tmp_path / "c"), "--game", "connect4", "--roster", str(roster), "--openings",
                 str(spaced)]) == 0
    assert "2 openings given" in capsys.readouterr().err
    assert Store(tmp_path / "c").get("openings") == ["4433", "4453"]
