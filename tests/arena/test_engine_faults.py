"""External engines that misbehave in the arena, with real processes: a crash's words on standard error never
reach a table, a PGN tag or the terminal unescaped; an engine that dies while its game is set up forfeits that
game (the run goes on); an engine out of time is stopped by its own deadline, never by the supervisor, so its
detailed reason is the one recorded in every game."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import pytest

from zerosum.cli import main

from process_helpers import write_script  # noqa: E402 (tests/process_helpers.py)

linux = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc (Linux)")

#: Connect Four, the lowest legal column nearest the middle; its first argument chooses how it misbehaves
ENGINE = r'''
import os, subprocess, sys

MODE = sys.argv[1]
MARK = os.environ.get("ENGINE_MARK")
if MARK and os.path.exists(MARK):
    sys.stderr.write("cannot start: no licence\n")
    sys.exit(1)
if MODE == "helpers":  # helpers in its process group: its kill takes longer than one process's
    kept = [subprocess.Popen(["sleep", "3600"]) for _ in range(20)]
newgames = goes = 0
moves = ""
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "zsp":
        print("id name faulty " + MODE)
        print("game connectx:rows=6,cols=7,k=4")
        print("zspok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "newgame":
        newgames += 1
        if MODE == "dienewgame" and newgames == 2:
            if MARK:
                open(MARK, "w").close()
            sys.stderr.write("died at newgame\n")
            sys.stderr.flush()
            os._exit(4)
    elif words[0] == "position":
        moves = words[3] if len(words) > 3 else ""
    elif words[0] == "go":
        goes += 1
        if MODE == "escape":
            sys.stderr.write("\x1b[31mRED boom \u202e evil\n")
            sys.stderr.flush()
            os._exit(7)
        if MODE == "helpers" and goes >= 2:  # its second move (a warm one): never answers, not even stop
            continue
        print("bestmove %d" % next(c for c in (4, 3, 5, 2, 6, 1, 7) if moves.count(str(c)) < 6), flush=True)
    elif words[0] == "quit":
        break
'''


@pytest.fixture
def engine(tmp_path: Path) -> Path:
    return write_script(tmp_path / "faulty.py", ENGINE)


def reasons(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [r for (r,) in con.execute("SELECT reason FROM games ORDER BY idx")]
    finally:
        con.close()


def test_a_crash_quotes_the_engines_stderr_escaped_in_records_tables_and_pgn(engine, tmp_path, capsys):
    db, pgn = tmp_path / "e.db", tmp_path / "e.pgn"
    assert main(["match", "bad", "first", "--engine", f"bad={sys.executable} {engine} escape", "--games", "2",
                 "--jobs", "1", "--out", str(db), "--pgnout", str(pgn)]) == 0
    want = r"crash: the engine exited (exit code 7): '\x1b[31mRED boom \u202e evil'"
    assert reasons(db) == [want, want]
    assert main(["report", str(db)]) == 0
    shown = capsys.readouterr().out + pgn.read_text(encoding="utf-8")
    assert "\x1b" not in shown and "\u202e" not in shown, shown  # neither in the Forfeits table nor a tag
    assert "RED boom" in shown


def test_an_engine_that_dies_at_newgame_forfeits_that_game_and_the_run_goes_on(engine, tmp_path, capsys):
    """Each process dies at its second newgame: every other game is a forfeit, and a fresh process plays the
    next (the run never stops with 'could not start')."""
    db = tmp_path / "n.db"
    assert main(["match", "d", "first", "--engine", f"d={sys.executable} {engine} dienewgame", "--games", "4",
                 "--jobs", "1", "--out", str(db)]) == 0
    assert "could not start" not in capsys.readouterr().err
    dead = "crash: the engine exited (exit code 4): died at newgame"
    got = reasons(db)
    assert len(got) == 4 and got[1] == got[3] == dead and dead not in (got[0], got[2]), got
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT result, forfeit, moves FROM games WHERE reason = ?", (dead,)).fetchall()
    finally:
        con.close()
    assert {(r[1], r[2]) for r in rows} == {(1, "[]")} and all(r[0] in ("1-0", "0-1") for r in rows)


def test_an_engine_that_cannot_start_again_after_a_crash_still_stops_the_run(engine, tmp_path, monkeypatch, capsys):
    """The crash at newgame forfeits its game; the fresh process then fails its handshake: no result, stop."""
    monkeypatch.setenv("ENGINE_MARK", str(tmp_path / "mark"))
    db = tmp_path / "m.db"
    assert main(["match", "d", "first", "--engine", f"d={sys.executable} {engine} dienewgame", "--games", "4",
                 "--jobs", "1", "--out", str(db), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "game 3 could not start: agent 'd'" in err and "no licence" in err, err
    assert reasons(db)[1:] == ["crash: the engine exited (exit code 4): died at newgame"]


@linux
@pytest.mark.parametrize("limit, reason", [
    (["--time", "0.2"], "timeout: no bestmove within 0.45 s (stop sent after 0.28 s)"),
    (["--tc", "1+0"], "time forfeit: no bestmove within the "),
])
def test_an_engine_out_of_time_is_stopped_by_its_own_deadline_in_every_game(engine, tmp_path, limit, reason):
    """The engine (with 20 helpers in its group) hangs at its second move, a warm one: its own deadline kills
    it, and the supervisor, whose deadline leaves that kill path its margin, never kills the worker first
    (it did with a 20 ms margin: 'timeout: no move within 0.45 s', a bare 'time forfeit')."""
    db = tmp_path / "t.db"
    assert main(["match", "h", "first", "--engine", f"h={sys.executable} {engine} helpers", *limit,
                 "--games", "6", "--jobs", "2", "--out", str(db), "--quiet"]) == 0
    got = reasons(db)
    assert len(got) == 6 and all(r.startswith(reason) for r in got), got


def test_an_engines_own_name_and_games_are_shown_escaped():
    """The handshake's words (its name, author and games) pass the protocol's check of control characters, but
    a right-to-left override is no control character: it is escaped wherever a table or a line shows it."""
    from zerosum.external.names import describe_engines

    line = describe_engines({"e": {"definition": {"command": ["./e"]}, "name": "good\u202eevil",
                                   "author": "me", "ping_ms": 0.5}})[0]
    assert "\u202e" not in line and "'good\\u202eevil' by me" in line, line
