"""The final and the contest's deadline: ``zerosum contest final DIR`` before the deadline is refused in one line
stating the deadline, and changes nothing; ``--before-deadline`` (``run_final(before_deadline=True)``) plays it
then on purpose, and a student who uploads afterwards is told the teacher froze the entries before the deadline.
The deadline and the clock are compared in UTC, whatever the machine's zone (real processes run with ``TZ``)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from contest_serving import GOOD, curl, make_contest, serving

from zerosum.contest.final import check_deadline, run_final
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.store import Store
from zerosum.errors import UsageError

#: two references and no student: the final is two quick games
REFERENCES = ("--reference", "random", "--reference", "greedy=alphabeta:depth=1")
CONFINED = [] if sandbox_problem() is None else ["--unconfined"]
EARLY_LINE = "the entries are frozen for the final (the teacher froze them before the deadline): no more submissions"


def _final(folder: Path, *options: str, tz: str | None = None, raw: bool = False) -> subprocess.CompletedProcess[Any]:
    """``zerosum contest final FOLDER --no-grade --jobs 1 OPTIONS`` in its own process (its own ``TZ``); ``raw``:
    its output as bytes (text mode would turn a ``\\r`` into a new line)."""
    env = dict(os.environ, **({"TZ": tz} if tz is not None else {}))
    return subprocess.run([sys.executable, "-m", "zerosum", "contest", "final", str(folder), "--no-grade", "--jobs",
                           "1", *CONFINED, *options], capture_output=True, text=not raw, env=env, timeout=600)


def _state(folder: Path) -> tuple[list[str], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """What a refused final must leave as it was: the folder's files, the config, the games."""
    conn = sqlite3.connect(folder / "contest.db")
    try:
        config = sorted(conn.execute("SELECT key, value FROM config"))
        games = sorted(conn.execute("SELECT * FROM games"))
    finally:
        conn.close()
    # SQLite's -wal and -shm files come and go with open connections (a Store not yet collected): not state
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(("-wal", "-shm"))), config, games


def _utc(delta: timedelta, zone: bool = True) -> str:
    """Now plus ``delta`` in UTC, to the second, as ``contest new`` stores it (``zone=False``: without a zone)."""
    text = (datetime.now(timezone.utc) + delta).isoformat(timespec="seconds")
    return text.replace("+00:00", "Z") if zone else text.replace("+00:00", "")


def test_a_final_before_the_deadline_is_refused_and_plays_only_when_asked(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    tokens = make_contest(folder, ["Ann"], *REFERENCES, "--deadline", _utc(timedelta(days=14)))
    stored = Store(folder).config()["deadline"]
    before = _state(folder)
    done = _final(folder)
    assert done.returncode == 2, done
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and not done.stdout, done.stderr
    assert lines[0].startswith(f"zerosum contest final: error: the contest's deadline, {stored}, has not passed (now "
                               f"{datetime.now(timezone.utc):%Y-%m-%d}T"), lines[0]
    assert lines[0].endswith(f"nothing was frozen or played (to play it before the deadline on purpose, add "
                             f"--before-deadline: zerosum contest final {folder} --before-deadline)"), lines[0]
    assert _state(folder) == before  # no results, nothing frozen, no game
    with pytest.raises(UsageError, match="has not passed") as refused:  # the Python API refuses alike
        run_final(folder, grading=False, jobs=1, unconfined=bool(CONFINED))
    assert stored in str(refused.value) and "\n" not in str(refused.value)
    assert _state(folder) == before

    done = _final(folder, "--before-deadline")  # on purpose
    assert done.returncode == 0, done.stderr
    results = json.loads((folder / "results.json").read_text())
    assert results["games"] == 2 and Store(folder).config()["frozen"] is True

    # a student who uploads afterwards, through the real server and curl: the line says why, before the deadline
    (tmp_path / "good.py").write_text(GOOD)
    with serving(folder) as url:
        status, body, _ = curl("-F", f"file=@{tmp_path / 'good.py'}", f"{url}/api/submit", token=tokens["Ann"])
        assert (status, body) == (400, {"error": EARLY_LINE})
        status, me, _ = curl(f"{url}/api/me", token=tokens["Ann"])
        assert status == 200 and me["closed"] == EARLY_LINE and me["deadline"] == stored and me["frozen"] is True

    done = _final(folder)  # the entries are frozen now: the final goes on (here: grades again) without the option
    assert done.returncode == 0, done.stderr


def test_a_stored_time_without_a_zone_is_utc_whatever_the_machines_zone(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    make_contest(folder, ["Ann"], *REFERENCES)
    store = Store(folder)
    soon = _utc(timedelta(hours=3), zone=False)  # three hours ahead in UTC; read as UTC+14's time, 11 hours past
    store.set_config(deadline=soon)
    before = _state(folder)
    done = _final(folder, tz="KIR-14")
    assert done.returncode == 2 and f"deadline, {soon} ({soon}Z), has not passed" in done.stderr, done
    done = _final(folder, tz="ZZZ+12")  # and as UTC-12's, fifteen hours ahead: the same answer
    assert done.returncode == 2 and "has not passed" in done.stderr, done
    assert _state(folder) == before
    passed = _utc(timedelta(hours=-3), zone=False)  # three hours past in UTC; read as UTC-12's time, 9 hours ahead
    store.set_config(deadline=passed)
    closed = ("from zerosum.contest.submissions import closed_reason; "
              f"print(closed_reason({{'deadline': {passed!r}, 'frozen': False}}))")
    answer = subprocess.run([sys.executable, "-c", closed], capture_output=True, text=True, timeout=120,
                            env=dict(os.environ, TZ="ZZZ+12"))
    assert answer.stdout.startswith(f"the deadline was {passed} (UTC ") and "no more submissions" in answer.stdout, \
        answer  # uploads are closed: the deadline passed in UTC
    done = _final(folder, tz="ZZZ+12", raw=True)  # and the final plays without the option
    assert done.returncode == 0, done.stderr
    # into a pipe (a log), its progress is whole lines, never a line rewritten with \r
    assert b"\r" not in done.stderr and b"final: 2/2 games" in done.stderr.split(b"\n"), done.stderr
    assert json.loads((folder / "results.json").read_text())["games"] == 2


def test_the_check_compares_instants_and_leaves_finals_without_a_deadline_or_already_frozen_alone() -> None:
    at = datetime(2026, 12, 12, 18, tzinfo=timezone.utc).timestamp()
    for deadline in ("2026-12-12T18:00:00Z", "2026-12-12T19:00:00+01:00", "2026-12-12T18:00:00"):
        config = {"deadline": deadline, "frozen": False}
        with pytest.raises(UsageError, match=re.escape(f"deadline, {deadline}")):
            check_deadline(config, "class", now=at - 1)
        check_deadline(config, "class", now=at)  # at the deadline: the final may run
        check_deadline({**config, "frozen": True}, "class", now=at - 14 * 86400)  # frozen (the button): it may
    check_deadline({"deadline": None, "frozen": False}, "class", now=time.time())  # no deadline: whenever
    with pytest.raises(UsageError) as refused:
        check_deadline({"deadline": "2026-12-12T19:00:00+01:00", "frozen": False}, "my class", now=at - 60)
    assert "(2026-12-12T18:00:00Z), has not passed (now 2026-12-12T17:59:00Z)" in str(refused.value)
    assert str(refused.value).endswith("zerosum contest final 'my class' --before-deadline)")
