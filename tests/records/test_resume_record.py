"""A resumed run keeps writing the record file named at its start (#23): the results file remembers it, so
``--resume`` without ``--pgnout`` after a SIGKILL leaves every game in the file exactly once."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from zerosum.cli import main
from zerosum.records import read

RUN = ["--jobs", "1", "--quiet", "--grace", "5"]

GAMES = 12


def stored(db):
    """round -> moves, straight from the results file's games table."""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT idx, moves FROM games").fetchall()
    con.close()
    return {str(idx + 1): json.loads(moves) for idx, moves in rows}


def whole_games(path) -> int:
    """The games a record file holds so far (their result tokens end a line)."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return 0
    return sum(1 for line in text.splitlines() if line.split()[-1:] in (["1-0"], ["0-1"], ["1/2-1/2"], ["*"]))


def test_kill_9_then_resume_without_pgnout_leaves_every_game_once(tmp_path):
    db, pgn = tmp_path / "r.db", tmp_path / "r.pgn"
    cmd = [sys.executable, "-m", "zerosum", "match", "mcts:sims=300", "random", "--games", str(GAMES), *RUN,
           "--out", str(db)]
    proc = subprocess.Popen([*cmd, "--pgnout", str(pgn)], cwd=tmp_path, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    while whole_games(pgn) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the arena and its workers, mid-run
    proc.wait(timeout=60)
    killed_at = len(stored(db))
    assert 3 <= killed_at < GAMES, proc.stderr.read().decode()[-2000:]

    done = subprocess.run([*cmd, "--resume"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"--resume: the records go on in '{pgn}', the record file this run began with" in done.stderr
    truth = stored(db)
    assert len(truth) == GAMES
    records = read(pgn)
    rounds = [r.tags["Round"] for r in records]
    assert sorted(rounds, key=int) == [str(i) for i in range(1, GAMES + 1)]  # every game, exactly once
    assert {r.tags["Round"]: r.moves for r in records} == truth


def test_a_resume_may_name_a_new_record_file_which_then_gets_every_game(killed_run, tmp_path, capsys):
    db, pgn, full = killed_run(6, 3)
    other = tmp_path / "other.pgn"
    other.write_text("")
    before = pgn.read_bytes()
    assert main(["match", "--resume", *RUN, "--out", str(db), "--pgnout", str(other)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"this run writes its records to '{pgn}'" in err, err
    assert pgn.read_bytes() == before and other.read_text() == "" and len(stored(db)) == 3  # nothing changed

    new = tmp_path / "new.pgn"
    assert main(["match", "--resume", *RUN, "--out", str(db), "--pgnout", str(new)]) == 0
    assert sorted(r.tags["Round"] for r in read(new)) == ["1", "2", "3", "4", "5", "6"]
    assert read(new) and {r.tags["Round"]: r.moves for r in read(new)} == stored(db)
    capsys.readouterr()
    assert main(["match", "--resume", *RUN, "--out", str(db)]) == 0  # the results file now names new.pgn
    assert f"the records go on in '{new}'" in capsys.readouterr().err
    assert len(read(new)) == 6


def test_a_run_without_records_resumes_without_them(tmp_path, capsys):
    db = tmp_path / "r.db"
    assert main(["match", "random", "first", "--games", "2", *RUN, "--out", str(db)]) == 0
    capsys.readouterr()
    assert main(["match", "--resume", *RUN, "--out", str(db)]) == 0
    assert "records" not in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("r.db")) == []


def test_a_resume_refused_says_only_why(tmp_path, capsys):
    """A resumed run whose --ranking is its remembered record file: the one-line error, not first the notice
    that the records go on there (the run does not start)."""
    db, pgn = tmp_path / "r.db", tmp_path / "r.pgn"
    assert main(["match", "random", "first", "--games", "2", *RUN, "--out", str(db), "--pgnout", str(pgn)]) == 0
    before = pgn.read_bytes()
    capsys.readouterr()
    assert main(["match", "--resume", *RUN, "--out", str(db), "--ranking", str(pgn)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is the record file (--pgnout)" in err and "go on" not in err, err
    assert pgn.read_bytes() == before
