"""The contest's HTTP API, as students and the teacher use it: a real ``zerosum contest serve`` process, driven by
real ``curl`` processes -- submit (validated, with the reason and ply of a failure), me, leaderboard, who may
read what, hostile names kept as data, the size and rate limits, the deadline and the freeze."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any, Iterator

import pytest
from contest_serving import COLUMN_NINE, GOOD, curl, make_contest, serving

from zerosum.contest.store import Store
from zerosum.contest.submissions import MAX_UPLOAD


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("api")
    folder = root / "class"
    tokens = make_contest(folder, ["Ann", "Bob", "Cy", "Dee"])
    files = root / "files"
    files.mkdir()
    (files / "good.py").write_text(GOOD)
    (files / "better.py").write_text(GOOD.replace("import random", "import random  # better"))
    (files / "nine").write_text(COLUMN_NINE)
    (files / "broken.py").write_text("def player(board)\n    return 0\n")
    (files / "notes.txt").write_text("not a program\n")
    (files / "big.py").write_text("# padding\n" + "#" * (MAX_UPLOAD + 10) + "\n" + GOOD)
    with serving(folder) as url:
        yield {"url": url, "tokens": tokens, "files": files, "folder": folder}


def _submit(s: dict[str, Any], who: str, file: str, *extra: str) -> tuple[int, Any, dict[str, str]]:
    return curl("-F", f"file=@{s['files'] / file}{''.join(extra)}", f"{s['url']}/api/submit", token=s["tokens"][who])


def test_a_good_submission_is_validated_ok_and_replaces_the_last(served: dict[str, Any]) -> None:
    status, first, _ = _submit(served, "Ann", "good.py")
    assert status == 201 and first["status"] == "ok" and first["kind"] == "python", first
    assert "legal moves" in first["message"] and first["ply"] is None
    status, second, _ = _submit(served, "Ann", "better.py")
    assert status == 201 and second["status"] == "ok" and second["id"] > first["id"]
    status, me, _ = curl(f"{served['url']}/api/me", token=served["tokens"]["Ann"])
    assert status == 200 and me["name"] == "Ann" and me["role"] == "student"
    subs = me["submissions"]
    assert [s["id"] for s in subs] == [second["id"], first["id"]]  # the history, newest first
    assert [s["active"] for s in subs] == [True, False]
    assert [s["filename"] for s in subs] == ["better.py", "good.py"]
    status, code, _ = curl(f"{served['url']}/api/code/{first['id']}", token=served["tokens"]["Ann"])
    assert status == 200 and code["code"] == GOOD  # one's own code, as sent


def test_a_protocol_program_plays_as_it_is(served: dict[str, Any]) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "engines" / "random_engine.py"
    (served["files"] / "my-engine").write_bytes(example.read_bytes())  # a #! script, not named .py
    status, sub, _ = _submit(served, "Bob", "my-engine")
    assert status == 201 and sub["kind"] == "program" and sub["status"] == "ok", sub


def test_failures_come_with_their_reason_and_ply(served: dict[str, Any]) -> None:
    status, nine, _ = _submit(served, "Bob", "nine")
    assert status == 201 and nine["kind"] == "program" and nine["status"] == "failed", nine
    # the first opening is '44' (two plies): the program's first move, as the first player, is ply 3
    assert nine["message"].startswith("illegal move") and "9" in nine["message"] and nine["ply"] == 3, nine
    status, broken, _ = _submit(served, "Bob", "broken.py")
    assert status == 201 and broken["status"] == "failed" and broken["ply"] is None
    assert "line 1" in broken["message"] and "\n" not in broken["message"], broken


def _notebook(*cells: str) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": cell.splitlines(keepends=True)} for cell in cells]})


def test_a_notebook_plays_its_marked_cell(served: dict[str, Any]) -> None:
    files = served["files"]
    (files / "homework.ipynb").write_text(_notebook("print('scratch work')\nx = 1 / 0\n", "# Submission\n" + GOOD))
    (files / "unmarked.ipynb").write_text(_notebook(GOOD))
    (files / "twice.ipynb").write_text(_notebook("# submission\n" + GOOD, "# submission\n" + GOOD))
    status, sub, _ = _submit(served, "Dee", "homework.ipynb")
    assert status == 201 and sub["kind"] == "notebook" and sub["status"] == "ok", sub
    status, code, _ = curl(f"{served['url']}/api/code/{sub['id']}", token=served["tokens"]["Dee"])
    assert code["code"] == "# Submission\n" + GOOD  # the marked cell only: the 1 / 0 of the other cell never ran
    status, body, _ = _submit(served, "Dee", "unmarked.ipynb")
    assert status == 400 and "# submission" in body["error"]
    status, body, _ = _submit(served, "Dee", "twice.ipynb")
    assert status == 400 and "2 cells" in body["error"]


def test_a_student_token_reads_nothing_of_another_student(served: dict[str, Any]) -> None:
    url, tokens = served["url"], served["tokens"]
    status, ann, _ = curl(f"{url}/api/me", token=tokens["Ann"])
    ann_ids = [s["id"] for s in ann["submissions"]]
    assert ann_ids
    status, cy, _ = curl(f"{url}/api/me", token=tokens["Cy"])
    assert status == 200 and cy["name"] == "Cy" and cy["submissions"] == [] and cy["games"] == []
    assert "Ann" not in json.dumps(cy)
    for sub in ann_ids:
        status, body, _ = curl(f"{url}/api/code/{sub}", token=tokens["Cy"])
        assert status == 404 and "GOOD" not in json.dumps(body) and "random.choice" not in json.dumps(body)
    for path, method in (("/api/teacher", "GET"), ("/api/freeze", "POST")):
        status, body, _ = curl("-X", method, f"{url}{path}", token=tokens["Cy"])
        assert status == 403 and set(body) == {"error"}, body
    for token in (None, "not-a-token", tokens["Cy"] + "x"):
        status, body, _ = curl(f"{url}/api/me", token=token)
        assert status == 401 and set(body) == {"error"}
    status, body, _ = curl(f"{url}/api/code/{ann_ids[0]}")
    assert status == 401
    # the teacher reads everything
    status, code, _ = curl(f"{url}/api/code/{ann_ids[0]}", token=tokens["teacher"])
    assert status == 200 and "random.choice" in code["code"] and code["name"] == "Ann"
    status, everything, _ = curl(f"{url}/api/teacher", token=tokens["teacher"])
    assert status == 200 and {s["name"] for s in everything["submissions"]} == {"Ann", "Bob", "Dee"}
    # the page of a link: the student's page, the teacher's page, or 403 for a token nobody holds
    assert "teacher" not in curl(f"{url}/s/{tokens['Cy']}")[1].split("<h1>")[1].split("</h1>")[0]
    assert "the teacher" in curl(f"{url}/?token={tokens['teacher']}")[1]
    assert curl(f"{url}/s/nobody-holds-this")[0] == 403


def test_the_leaderboard_is_public_and_quotes_no_program_output(served: dict[str, Any]) -> None:
    status, board, headers = curl(f"{served['url']}/api/leaderboard")
    assert status == 200 and headers["content-type"].startswith("application/json")
    names = {row["name"] for row in board["rows"]}
    # Bob's failed uploads (the column-nine program, broken.py) left his working program his entry; Cy sent nothing
    assert {"random", "Ann", "Bob"} <= names and "Cy" not in names
    assert all("forfeit_reasons" not in row for row in board["rows"])


def test_hostile_file_names_are_data_and_pages_forbid_inline_script(served: dict[str, Any]) -> None:
    hostile = "<img src=x onerror=alert(1)>.py"  # (a double quote would be sent as %22, by curl as by browsers)
    status, sub, _ = _submit(served, "Dee", "good.py", f';filename="{hostile}"')
    assert status == 201 and sub["filename"] == hostile  # kept as it was sent, as data
    status, me, headers = curl(f"{served['url']}/api/me", token=served["tokens"]["Dee"])
    assert me["submissions"][0]["filename"] == hostile and headers["content-type"].startswith("application/json")
    status, page, headers = curl(f"{served['url']}/s/{served['tokens']['Dee']}")
    assert status == 200 and hostile not in page  # the page is static: names come in as text, by its script
    assert "script-src 'self'" in headers["content-security-policy"] and headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"


def test_uploads_are_limited_in_size_kind_and_rate(served: dict[str, Any]) -> None:
    url, token = served["url"], served["tokens"]["Cy"]
    status, body, _ = _submit(served, "Cy", "big.py")
    assert status == 413 and str(f"{MAX_UPLOAD:,}") in body["error"], body
    status, body, _ = _submit(served, "Cy", "notes.txt")
    assert status == 400 and ".py" in body["error"]
    status, body, _ = curl("-X", "POST", "-d", "file=x", f"{url}/api/submit", token=token)
    assert status == 400 and "multipart" in body["error"]
    status, me, _ = curl(f"{url}/api/me", token=token)
    assert me["submissions"] == []  # nothing refused was kept
    codes = [_submit(served, "Cy", "notes.txt")[0] for _ in range(4)]
    assert codes == [400, 400, 400, 429], codes  # six a minute, refused ones included
    status, body, _ = _submit(served, "Cy", "good.py")
    assert status == 429 and "a minute" in body["error"]
    assert _submit(served, "Dee", "notes.txt")[0] == 400  # another token has its own count


def test_after_the_deadline_uploads_are_refused_with_the_deadline(served: dict[str, Any]) -> None:
    store = Store(served["folder"])
    store.set_config(deadline="2020-02-03T04:05:06Z")
    try:
        status, body, _ = _submit(served, "Ann", "good.py")
        assert status == 400 and "2020-02-03T04:05:06Z" in body["error"], body
        status, me, _ = curl(f"{served['url']}/api/me", token=served["tokens"]["Ann"])
        assert len(me["submissions"]) == 2 and "deadline" in me["closed"]
    finally:
        store.set_config(deadline=None)


def test_ladder_games_reach_the_student_with_replay_links(served: dict[str, Any]) -> None:
    deadline = time.monotonic() + 120
    while True:
        status, me, _ = curl(f"{served['url']}/api/me", token=served["tokens"]["Ann"])
        done = [g for g in me["games"] if g["status"] == "done"]
        if done or time.monotonic() > deadline:
            break
        time.sleep(1)
    assert done, me["games"]
    game = done[0]
    assert "Ann" in (game["first"], game["second"]) and game["result"] in ("1-0", "0-1", "1/2-1/2")
    assert game["replay"].startswith("/board?game=") and game["opening"] in ("44", "43")
    status, board, _ = curl(f"{served['url']}{game['replay']}")
    assert status == 200 and "<html" in board.lower()


def test_kill_9_of_the_server_loses_no_submission(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    tokens = make_contest(folder, ["Eve"])
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(3)  # a slow import: the server is killed while it validates\n" + GOOD)
    started: list[subprocess.Popen[bytes]] = []
    with serving(folder, started) as url:
        status, sub, _ = curl("-F", f"file=@{slow}", f"{url}/api/submit?wait=0", token=tokens["Eve"])
        assert status == 201 and sub["status"] == "validating"
        os.killpg(started[0].pid, signal.SIGKILL)
        started[0].wait(30)
    assert Store(folder).submission(sub["id"])["status"] == "validating"  # committed before the kill
    # uploaded an hour before the restart: validated again with the whole budget, not the 2 s left of it from the
    # upload (audit: a player of 1.5 s a move had no move checked; this one's 3 s import did not finish loading)
    with sqlite3.connect(folder / "contest.db") as con:
        con.execute("UPDATE submissions SET created = created - 3600 WHERE id = ?", (sub["id"],))
    con.close()
    with serving(folder) as url:  # validated again at the start
        deadline = time.monotonic() + 120
        while True:
            status, me, _ = curl(f"{url}/api/me", token=tokens["Eve"])
            if me["submissions"][0]["status"] != "validating" or time.monotonic() > deadline:
                break
            time.sleep(0.5)
    assert [(s["id"], s["status"], s["active"]) for s in me["submissions"]] == [(sub["id"], "ok", True)]
    assert Store(folder).rows("PRAGMA integrity_check") == [{"integrity_check": "ok"}]


def test_the_teacher_freezes_the_entries(served: dict[str, Any]) -> None:
    # last of the module: a freeze drops the ladder's pending games and schedules none (the tests above use them)
    status, body, _ = curl("-X", "POST", f"{served['url']}/api/freeze", token=served["tokens"]["teacher"])
    assert status == 200 and body["frozen"] is True and "zerosum contest final" in body["next"]
    status, body, _ = _submit(served, "Bob", "good.py")
    assert status == 400 and "frozen" in body["error"]
