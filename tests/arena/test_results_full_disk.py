"""A command that only reads a results file (``zerosum report``, ``replay``) reads it on a full disk too: SQLite's
shared-memory file beside it cannot be made there, so the file is read as it is when its write-ahead log is
empty; when the log holds games the error is a reader's (run the command again), never "carry on with --resume"."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from process_helpers import small_disk  # tests/process_helpers.py
from zerosum.arena.store import Store
from zerosum.errors import InvalidFileError


def zerosum(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def full_disk(tmp_path):
    """A 512 KiB tmpfs (root and a working ``mount`` only), filled by the test, unmounted afterwards."""
    with small_disk(tmp_path / "small", "512k") as where:
        yield where


def fill(folder: Path) -> None:
    fd = os.open(folder / "fill", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(fd, b"\0" * 4096):
            pass
    except OSError:  # no space left
        pass
    finally:
        os.close(fd)


def test_report_reads_a_results_file_on_a_full_disk(full_disk, tmp_path):
    assert zerosum("match", "random", "random", "--game", "tictactoe", "--games", "40", "--quiet",
                   "-o", str(tmp_path / "r.db")).returncode == 0
    shutil.copy(tmp_path / "r.db", full_disk / "r.db")
    fill(full_disk)
    before = (full_disk / "r.db").read_bytes()
    done = zerosum("report", str(full_disk / "r.db"), "--no-plots")
    assert done.returncode == 0 and "40 games" in done.stdout, done.stderr  # it said "cannot be written ... --resume"
    with Store(full_disk / "r.db") as store:  # from Python too
        assert store.count() == 40
    assert (full_disk / "r.db").read_bytes() == before
    done = zerosum("match", "--resume", "-o", str(full_disk / "r.db"))  # a writer is still told the truth
    assert done.returncode == 2 and "cannot be written: the disk is full" in done.stderr


def test_a_log_holding_games_is_not_read_without_it(full_disk, tmp_path):
    assert zerosum("match", "random", "random", "--game", "tictactoe", "--games", "10", "--quiet",
                   "-o", str(tmp_path / "r.db")).returncode == 0
    db = sqlite3.connect(tmp_path / "r.db")  # a change left in the write-ahead log (a run killed mid-way)
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('note', '\"kept in the log\"')")
    db.commit()
    assert (tmp_path / "r.db-wal").stat().st_size > 0
    for name in ("r.db", "r.db-wal"):  # no -shm beside them: SQLite must make one to read
        shutil.copy(tmp_path / name, full_disk / name)
    db.close()
    fill(full_disk)
    done = zerosum("report", str(full_disk / "r.db"), "--no-plots")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    line, = done.stderr.strip().splitlines()
    assert "cannot be read here: the disk is full" in line and "run the command again" in line
    assert "--resume" not in line
    with pytest.raises(InvalidFileError, match="cannot be read here"):
        Store(full_disk / "r.db")
