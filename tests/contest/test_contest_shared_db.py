"""Another process reading ``contest.db`` while ``zerosum contest serve`` runs (a teacher's ``sqlite3``, Python's
``sqlite3``, a ``contest final`` refused because the server holds the folder) leaves the server whole: its
``contest.db-wal`` and ``-shm`` stay in place (not deleted under it), uploads and pages go on answering, and
what it committed is there after a restart.

The fault this guards against: closing any plain descriptor of a file drops every POSIX lock the process holds
on it, SQLite's included; a check that opened ``contest.db`` as a plain file in a process holding a connection
to it (the server's second Store) left the server without its locks, so the next outside connection to close
thought itself the last, checkpointed and deleted the WAL and its index under the live server, which then
answered 500 "disk I/O error" to every write.  Real processes, real SQLite, ``curl`` as students use it."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.store import Store

from contest_serving import GOOD, curl, make_contest, serving

pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="the students upload with curl")


def _deleted(pid: int, folder: Path) -> list[str]:
    """The files of ``folder`` that process ``pid`` holds open although they were deleted."""
    out = []
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(folder)) and target.endswith("(deleted)"):
            out.append(target)
    return out


def _submit(url: str, token: str, path: Path) -> tuple[int, object]:
    status, body, _ = curl("-F", f"file=@{path}", f"{url}/api/submit", token=token)
    return status, body


def test_other_processes_reading_the_database_leave_the_live_server_whole(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    tokens = make_contest(folder, ["Ada"])
    player = tmp_path / "player.py"
    player.write_text(GOOD)
    started: list[subprocess.Popen[bytes]] = []
    with serving(folder, started) as url:
        pid = started[0].pid
        status, first = _submit(url, tokens["Ada"], player)
        assert status == 201 and isinstance(first, dict) and first["status"] == "ok", str(first)  # the whole answer (its reason), not a repr cut at 240
        assert (folder / "contest.db-wal").exists() and (folder / "contest.db-shm").exists()
        # a teacher looks with Python's sqlite3, then tries the final: refused, the server holds the folder
        peek = subprocess.run([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                               "print(c.execute('SELECT COUNT(*) FROM submissions').fetchone()[0]); c.close()",
                               str(folder / "contest.db")], capture_output=True, text=True, timeout=60)
        assert peek.returncode == 0 and peek.stdout.strip() == "1", peek.stderr
        final = [sys.executable, "-m", "zerosum", "contest", "final", str(folder)]
        if sandbox_problem() is not None:
            final.append("--unconfined")
        refused = subprocess.run(final, capture_output=True, text=True, timeout=120)
        assert refused.returncode == 2 and "another server is serving the contest" in refused.stderr, refused.stderr
        assert (folder / "contest.db-wal").exists() and (folder / "contest.db-shm").exists()
        assert _deleted(pid, folder) == []  # the server's -wal and -shm are the ones in the folder
        # the server goes on: its pages, its API, and an upload (a write)
        for path in ("/", f"/s/{tokens['Ada']}", "/api/leaderboard"):
            assert curl(f"{url}{path}")[0] == 200, path
        status, me, _ = curl(f"{url}/api/me", token=tokens["Ada"])
        assert status == 200 and len(me["submissions"]) == 1, me
        player.write_text(GOOD + "# a second version\n")  # the same bytes again would not be stored again
        status, second = _submit(url, tokens["Ada"], player)
        assert status == 201 and isinstance(second, dict) and second["status"] == "ok", str(second)
        assert _deleted(pid, folder) == []
    with serving(folder) as url:  # everything the first server committed is there after a restart
        status, me, _ = curl(f"{url}/api/me", token=tokens["Ada"])
        assert status == 200 and [s["id"] for s in me["submissions"]] == [second["id"], first["id"]], me
        assert [s["status"] for s in me["submissions"]] == ["ok", "ok"]


def test_a_second_store_in_the_process_keeps_the_first_ones_locks(tmp_path: Path) -> None:
    """The server's process opens the contest twice (the command's check, the app's Store): the second
    opening must not drop the first connection's locks, or another process closing its connection deletes
    the WAL under the first."""
    folder = tmp_path / "c"
    make_contest(folder, ["Ada"])
    first = Store(folder)
    try:
        first.set_config(url="http://example")  # a write: the WAL has frames, the connection its locks
        second = Store(folder)
        try:
            other = subprocess.run([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                                    "c.execute('SELECT COUNT(*) FROM people').fetchone(); c.close()", str(folder / "contest.db")],
                                   capture_output=True, text=True, timeout=60)
            assert other.returncode == 0, other.stderr
            assert (folder / "contest.db-wal").exists() and (folder / "contest.db-shm").exists()
            assert _deleted(os.getpid(), folder) == []
            first.set_config(frozen=False)  # still writes, through the files in the folder
            assert second.get("url") == "http://example"
        finally:
            second.close()
    finally:
        first.close()
    db = sqlite3.connect(folder / "contest.db")
    try:
        assert db.execute("SELECT value FROM config WHERE key = 'frozen'").fetchone() == ("false",)
    finally:
        db.close()
