"""The homework's contest end to end: ``zerosum contest new`` from a roster, ``zerosum contest serve``, every
student's upload through ``curl``, the validation's answer, the ladder and its live leaderboard (the server
killed with SIGKILL in the middle of it and started again), the freeze,
``zerosum contest final`` and the grades CSV.  The submissions are generated (tests/contest/contest_players.py):
players of known strengths, broken ones, a slow one and hostile ones.

The CI version has 4 students; the full run (30 students, ``-m slow``) is also what
benchmarks/contest_ladder.py measures.  Times are reported (``-s``), never asserted."""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from contest_players import roster, source
from process_helpers import zerosum_run  # tests/process_helpers.py
from zerosum.contest.sandbox import sandbox_problem

UNCONFINED = sandbox_problem() is not None
pytestmark = pytest.mark.skipif(shutil.which("curl") is None, reason="the students upload with curl, which is not here")
#: how long the whole ladder may take before the test gives up (a loaded machine)
LADDER_WAIT = 1800.0
START_WAIT = 120.0
#: what cannot pass validation (the others may or may not, and are judged by what the ladder makes of them)
BROKEN = {"syntax", "signature", "illegal"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str, token: str | None = None) -> Any:
    from urllib.request import Request, urlopen

    request = Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _curl(url: str, token: str, path: Path) -> tuple[float, dict[str, Any]]:
    """``curl -F file=@PATH`` with the student's token: the seconds it took and the JSON answer."""
    out = subprocess.run(["curl", "-sS", "-H", f"Authorization: Bearer {token}", "-F", f"file=@{path}",
                          "-w", "\n%{time_total}", f"{url}/api/submit"], capture_output=True, text=True, timeout=300)
    body, _, took = out.stdout.rpartition("\n")
    return float(took), json.loads(body)


def serve(folder: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``zerosum contest serve`` in its own process group on a free port, once it answers: the process, its URL."""
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "zerosum", "contest", "serve", str(folder), "--port", str(port)]
    server = subprocess.Popen(command + (["--unconfined"] if UNCONFINED else []), start_new_session=True,
                              stdout=open(log, "ab"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + START_WAIT
    while True:
        try:
            _get(f"{url}/api/leaderboard")
            return server, url
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                os.killpg(server.pid, signal.SIGKILL)
                raise AssertionError(log.read_text()[-2000:]) from None
            time.sleep(0.2)


def _done_games(folder: Path) -> dict[int, tuple[Any, ...]]:
    import sqlite3

    with sqlite3.connect(folder / "contest.db") as db:
        return {row[0]: row[1:] for row in db.execute(
            "SELECT id, first, second, result, reason, moves, record FROM games WHERE status = 'done'")}


def run_contest(tmp: Path, students: list[tuple[str, str, dict[str, Any]]], *, instructor_depth: int,
                move_time: float, burst: bool, log: Any = print, kill_midway: bool = False) -> dict[str, Any]:
    """The whole contest in ``tmp``: its figures (validation seconds, seconds to each first rating, the
    ladder's games and seconds, the final's) and the results rows.  ``kill_midway``: the server is killed with
    SIGKILL in the middle of the ladder and started again (every finished game must still be there, and the
    ladder must end with every game played once)."""
    folder = tmp / "contest"
    (tmp / "roster.csv").write_text("name\n" + "".join(f"{n}\n" for n, _, _ in students))
    (tmp / "openings.txt").write_text("# two plies\n45\n54\n")
    (tmp / "instructor.py").write_text(source("alphabeta", depth=instructor_depth))
    # contest new and final run here (process_helpers.zerosum_run: a Python process's imports are seconds on a
    # loaded machine); the server is a process of its own, killed and started again
    made = zerosum_run(["contest", "new", str(folder), "--game", "connect4-8x8",
                        "--roster", str(tmp / "roster.csv"), "--move-time", str(move_time), "--openings",
                        str(tmp / "openings.txt"), "--reference", "random",
                        "--reference", f"instructor={tmp / 'instructor.py'}:player", "--seed", "3"])
    assert made.returncode == 0, made.stderr
    with open(folder / "tokens.csv", newline="") as f:
        tokens = {row["name"]: row["token"] for row in csv.DictReader(f)}
    server, url = serve(folder, tmp / "server.log")
    figures: dict[str, Any] = {"students": len(students)}
    try:
        files = {}
        for name, kind, options in students:
            files[name] = tmp / f"{name.replace(' ', '_')}.py"
            files[name].write_text(source(kind, **options))
        answers: dict[str, tuple[float, dict[str, Any], float]] = {}

        def upload(name: str) -> None:
            sent = time.monotonic()
            took, answer = _curl(url, tokens[name], files[name])
            answers[name] = (took, answer, sent)

        started = time.monotonic()
        if burst:  # everyone at once, as a class does before the deadline
            threads = [threading.Thread(target=upload, args=(n,)) for n, _, _ in students]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        else:
            for n, _, _ in students:
                upload(n)
        kinds = {n: k for n, k, _ in students}
        for name, (took, answer, _) in answers.items():
            assert answer["status"] in ("ok", "failed"), answer
            if kinds[name] in BROKEN:
                assert answer["status"] == "failed" and answer["message"], (name, answer)
            if kinds[name] in ("alphabeta", "greedy", "first", "randomish"):
                assert answer["status"] == "ok", (name, answer)
        figures["validation_seconds"] = sorted(round(a[0], 2) for a in answers.values())
        ok = {n for n, a in answers.items() if a[1]["status"] == "ok"}
        # the live leaderboard, until every game of the ladder is played
        first_rating: dict[str, float] = {}
        seen_partial = False
        deadline = time.monotonic() + LADDER_WAIT
        while True:
            board = _get(f"{url}/api/leaderboard")
            rows = board["rows"]
            for row in rows:
                if row["kind"] == "student" and row["rating"] is not None and row["name"] not in first_rating:
                    first_rating[row["name"]] = time.monotonic() - answers[row["name"]][2]
            pending = sum(r["pending"] for r in rows)
            seen_partial |= pending > 0 and any(r["games"] for r in rows)
            if kill_midway and pending and sum(r["games"] for r in rows) >= 4:  # kill -9 in the middle of the ladder
                kill_midway = False
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(30)
                before = _done_games(folder)
                from zerosum.contest.standings import leaderboard

                board_before = leaderboard(folder)
                server, url = serve(folder, tmp / "server.log")
                kept = _done_games(folder)
                assert {k: kept[k] for k in before} == before  # every finished game is still there, unchanged
                figures["killed_with_games_done"] = len(before)
                assert [(r["entry"], r["games"]) for r in board_before if r["games"]]
                continue
            if {r["name"] for r in rows if r["kind"] == "student"} == ok and not pending and all(r["games"] for r in rows):
                break
            assert time.monotonic() < deadline, rows
            time.sleep(0.5)
        figures["ladder_seconds"] = round(time.monotonic() - started, 1)
        figures["first_rating_seconds"] = sorted(round(v, 1) for v in first_rating.values())
        figures["ladder_games"] = sum(r["games"] for r in rows) // 2
        figures["seen_partial_leaderboard"] = seen_partial
        names = {r["name"]: r for r in rows}
        assert names["instructor"]["score"] > 0.5 > names["random"]["score"]
        me = _get(f"{url}/api/me", tokens[next(iter(ok))])
        assert me["games"] and me["submissions"][0]["status"] == "ok"
        frozen = _post_freeze(url, tokens["#teacher"])
        assert frozen["frozen"] is True
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # the harshest stop: nothing may be lost
        server.wait(30)
    started = time.monotonic()
    final = zerosum_run(["contest", "final", str(folder)]
                        + (["--unconfined"] if UNCONFINED and _final_takes_unconfined() else []))
    assert final.returncode == 0, final.stderr[-2000:]
    figures["final_seconds"] = round(time.monotonic() - started, 1)
    with open(folder / "results.csv", newline="") as f:
        results = list(csv.DictReader(f))
    figures["final_games"] = json.loads((folder / "results.json").read_text())["games"]
    log(json.dumps(figures))
    return {"figures": figures, "results": results, "ok": ok, "kinds": kinds, "folder": folder}


def _final_takes_unconfined() -> bool:
    out = subprocess.run([sys.executable, "-m", "zerosum", "contest", "final", "--help"], capture_output=True, text=True)
    return "--unconfined" in out.stdout


def _post_freeze(url: str, token: str) -> Any:
    from urllib.request import Request, urlopen

    request = Request(f"{url}/api/freeze", data=b"", method="POST", headers={"Authorization": f"Bearer {token}"})
    with urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def check_results(run: dict[str, Any]) -> None:
    """The grades CSV: every student of the roster once, ranked students with their games, points 0..10, the
    broken ones unranked with 0, the instructor above random."""
    rows = run["results"]
    students = [r for r in rows if r["kind"] == "student"]
    assert sorted(r["name"] for r in students) == sorted(run["kinds"])
    for r in students:
        assert 0 <= float(r["points"]) <= 10
        if r["name"] in run["ok"]:
            assert r["rank"] and int(r["games"]) > 0
        else:
            assert r["rank"] == "" and float(r["points"]) == 0
    refs = {r["name"]: r for r in rows if r["kind"] == "reference"}
    assert float(refs["instructor"]["rating"]) > float(refs["random"]["rating"])
    assert refs["instructor"]["points"] == refs["random"]["points"] == ""


def test_a_small_contest_runs_end_to_end_through_curl(tmp_path):
    students = [("ann", "alphabeta", {"depth": 1}), ("bob", "greedy", {}), ("cy", "syntax", {}), ("dee", "illegal", {})]
    run = run_contest(tmp_path, students, instructor_depth=2, move_time=2.0, burst=False, kill_midway=True)
    assert run["figures"]["killed_with_games_done"] >= 2
    assert run["ok"] == {"ann", "bob"}
    assert run["figures"]["ladder_games"] == 2 * 5 and run["figures"]["final_games"] == 2 * 6
    check_results(run)


@pytest.mark.slow
def test_the_homework_contest_of_30_students_runs_end_to_end(tmp_path):
    run = run_contest(tmp_path, roster(30), instructor_depth=3, move_time=2.0, burst=True)
    check_results(run)
    assert len(run["ok"]) >= 20
