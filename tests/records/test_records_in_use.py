"""A record file another run is writing is in use (audit of two runs at once): ``--pgnout FILE --overwrite``
once emptied the file under a run still appending to it (854 of its games kept, 1000 of the other's mixed in,
both runs exit 0). A run holds its record file's lock for its whole life, as it holds its results file, so a
second run that would replace it, write it or carry on into it is refused in one line and changes nothing;
so is a :class:`zerosum.records.Writer` opened on it from Python.

The first run is held still by its own player (a file that waits for a signal file once the run has written a
game), so the second starts while the first is sure to be writing: no timing is assumed."""

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zerosum.arena.store import Store
from zerosum.cli import main
from zerosum.commands.replay import PGNOUT_KEY
from zerosum.errors import InvalidFileError
from zerosum.records import Writer, from_store, read
from zerosum.records import write as write_records

#: a player holding its run still once a game is written, until the file ``go`` beside it exists
GATED = Path(__file__).parent.parent / "arena" / "gated_player.py"
RUN = ["--game", "tictactoe", "--jobs", "1", "--quiet", "--grace", "30", "--deadline", "600"]
SAFETY = 240  # seconds: only a safety net, never reached when all is well


def whole_games(path) -> int:
    """The games a record file holds so far (a result token ends their last line)."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return 0
    return sum(1 for line in text.splitlines() if line.split()[-1:] in (["1-0"], ["0-1"], ["1/2-1/2"]))


def zerosum(*argv: str, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zerosum", *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=SAFETY)


def stored_games(db) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        con.close()


@pytest.fixture
def writing_run(tmp_path):
    """A real run writing ``games.pgn`` (results in ``r1.db``), held still once it has written a game;
    ``release()`` lets it finish and returns its exit status and standard error."""
    player = shutil.copy(GATED, tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "match", f"{player}:gated", "first", "--games", "10",
                             *RUN, "-o", "r1.db", "--pgnout", "games.pgn"], cwd=tmp_path, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + SAFETY
    while whole_games(tmp_path / "games.pgn") < 1 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if proc.poll() is not None or whole_games(tmp_path / "games.pgn") < 1:
        stop(proc)
        pytest.fail(f"the first run wrote no game: {proc.stderr.read()[-2000:]}")

    def release():
        (tmp_path / "go").touch()
        _, err = proc.communicate(timeout=SAFETY)
        return proc.returncode, err

    try:
        yield release
    finally:
        stop(proc)


def stop(proc: subprocess.Popen) -> None:
    """The run and its workers killed, if still running."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)


def test_a_second_run_cannot_replace_write_or_resume_into_a_record_file_in_use(tmp_path, writing_run):
    pgn = tmp_path / "games.pgn"
    # a run stopped early that began with games.pgn as its record file, to be carried on
    assert main(["match", "random", "first", "--games", "4", *RUN, "-o", str(tmp_path / "r3.db")]) == 0
    con = sqlite3.connect(tmp_path / "r3.db")
    with con:
        con.execute("DELETE FROM games WHERE idx >= 2")
    con.close()
    with Store(tmp_path / "r3.db") as stopped:
        stopped.set_meta(PGNOUT_KEY, "games.pgn")
    before = pgn.read_bytes()
    # the audit's second run: --overwrite replaces a file no run holds, never one a run is writing
    done = zerosum("match", "random", "minimax:depth=2", "--games", "4", *RUN, "-o", "r2.db", "--pgnout", "games.pgn",
                   "--overwrite", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "record file 'games.pgn' is in use by another run: wait for it to end" in done.stderr, done.stderr
    assert not (tmp_path / "r2.db").exists()  # refused before its results file was made
    done = zerosum("match", "random", "minimax:depth=2", "--games", "4", *RUN, "-o", "r2.db", "--pgnout", "games.pgn",
                   cwd=tmp_path)  # without --overwrite: in use, not "pass --overwrite to replace it"
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "is in use by another run" in done.stderr and "--overwrite" not in done.stderr, done.stderr
    assert not (tmp_path / "r2.db").exists()
    done = zerosum("match", "--resume", *RUN, "-o", "r3.db", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"record file '{pgn}' is in use by another run" in done.stderr, done.stderr  # no word of going on there
    assert stored_games(tmp_path / "r3.db") == 2
    assert pgn.read_bytes()[:len(before)] == before  # the first run's games, as it wrote them

    code, err = writing_run()
    assert code == 0, err
    records = read(pgn)
    assert sorted(int(r.tags["Round"]) for r in records) == list(range(1, 11))  # every game of run 1, once
    assert all("gated" in r.tags["First"] + r.tags["Second"] for r in records)
    assert stored_games(tmp_path / "r1.db") == 10


def test_a_writer_from_python_cannot_open_a_record_file_in_use(tmp_path, writing_run):
    pgn = tmp_path / "games.pgn"
    before = pgn.read_bytes()
    for overwrite in (True, False):
        with pytest.raises(InvalidFileError, match="record file .*games.pgn' is in use by another run"):
            Writer(pgn, overwrite=overwrite)
        assert pgn.read_bytes()[:len(before)] == before
    code, err = writing_run()
    assert code == 0, err
    assert len(read(pgn)) == 10


def one_record(tmp_path):
    """A game's record, from a one-game run."""
    assert main(["match", "random", "first", "--games", "1", *RUN, "-o", str(tmp_path / "one.db")]) == 0
    (record,) = from_store(tmp_path / "one.db")
    return record


def test_two_writers_of_one_file_in_one_process(tmp_path):
    pgn, record = tmp_path / "live.pgn", one_record(tmp_path)
    with Writer(pgn) as first:
        first.write(record)
        before = pgn.read_bytes()
        with pytest.raises(InvalidFileError, match="in use by another run"):
            Writer(pgn, overwrite=True)  # never emptied before its lock is held
        assert pgn.read_bytes() == before
    with Writer(pgn, overwrite=True) as again:  # once the first is closed, the file is free
        again.write(record)
    assert len(read(pgn)) == 1


def test_records_write_never_renames_a_file_over_a_writer_holding_it(tmp_path):
    # before: the new file took the name, and the writer's later games went to the unlinked old one
    pgn, record = tmp_path / "live.pgn", one_record(tmp_path)
    with Writer(pgn) as held:
        held.write(record)
        with pytest.raises(InvalidFileError, match="in use by another run"):
            write_records([record, record], pgn, overwrite=True)
        held.write(record)
    assert len(read(pgn)) == 2  # both of the writer's games, in the file under its name
    assert write_records([record], pgn, overwrite=True) == 1  # free again: replaced
    assert len(read(pgn)) == 1

