"""Fixes from the contest's second audit: a program that waits at ``newgame`` is bounded (its check within its
budget, its games forfeited after :data:`~zerosum.contest.playing.SEAT_READY`), the final validates the uploads
left ``validating``, a student never reads the opponent's forfeit reason, the board viewer's engine is bounded on
the contest server, and a game's id is never given again."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from contest_players import make_contest, source
from contest_serving import curl, serving
from contest_serving import make_contest as make_served
from zerosum.contest import ladder, playing
from zerosum.contest.final import run_final
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.store import Store
from zerosum.contest.submissions import accept
from zerosum.contest.validate import validate
from zerosum.ui import contest_quota
from zerosum.ui.contest_server import create_contest_app

UNCONFINED = sandbox_problem() is not None
sandboxed = pytest.mark.skipif(UNCONFINED, reason=f"no sandbox here: {sandbox_problem()}")

#: a protocol program that sleeps at every 'newgame' (the audit's waited 100 s)
SLOW_NEWGAME = """#!/bin/sh
while read -r line; do
  case "$line" in
    zsp*) echo "id name slow"; echo "game connectx"; echo "zspok";;
    newgame*) sleep 30;;
    isready) echo readyok;;
    go*) echo "bestmove 1";;
    quit) exit 0;;
  esac
done
"""
#: a player that double-forks a process at each move, which held each later 'newgame' 5 s
ESCAPE = """import os

def player(board):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            import time
            time.sleep(60)
            os._exit(0)
        os._exit(0)
    return [c for c in range(board.shape[1]) if board[0, c] == 0][0]
"""


def _program(folder: Path, name: str, text: str) -> str:
    path = folder / "submissions" / name
    path.write_text(text)
    return f"submissions/{name}"


# ---- 1. a wait at 'newgame' is bounded ------------------------------------------------------------------

@sandboxed
@pytest.mark.parametrize("kind, text", [("program", SLOW_NEWGAME), pytest.param("python", ESCAPE, marks=pytest.mark.slow)],
                         ids=["newgame", "escape"])  # CI: newgame (escape: 3 s more)
def test_a_check_ends_within_its_budget_whatever_the_seat_waits_for(tmp_path, kind, text):
    store = make_contest(tmp_path / "c", {"Ann": source("first")}, move_time=0.5)
    rel = _program(tmp_path / "c", "slow" if kind == "program" else "escape.py", text)
    started = time.monotonic()
    status, message, _ = validate(str(tmp_path / "c"), rel, kind, store.config(), budget=3.0)
    took = time.monotonic() - started
    assert took < 4.0, (took, message)
    if kind == "program":  # not ready for its first game: it fails, saying why
        assert status == "failed" and "not ready to play within the check's 3 s" in message, message
    else:  # ok, as far as it got (the engine no longer waits on what the player left running: all its games)
        assert status == "ok" and ("check stopped there" in message or "plays legal moves" in message), message


def test_an_unconfined_check_ends_within_its_budget_too(tmp_path, monkeypatch):
    # no sandbox (as on a machine without bubblewrap, with --unconfined): the jail's relay alone ends the seat; it
    # waited the engine client's 110 s for 'readyok'
    from zerosum.contest import sandbox, seats

    monkeypatch.setattr(sandbox, "sandbox_problem", lambda: "no sandbox in this test")
    store = make_contest(tmp_path / "c", {"Ann": source("first")}, move_time=0.5)
    rel = _program(tmp_path / "c", "slow", SLOW_NEWGAME)
    definition = seats.seat_definition(str(tmp_path / "c"), rel, "program", unconfined=True, until=1.0)
    assert definition.command[-2:] == ("--", str((tmp_path / "c" / rel).resolve())) and "--until" in definition.command
    assert "bwrap" not in " ".join(definition.command)  # unconfined: the relay, no sandbox
    started = time.monotonic()
    status, message, _ = validate(str(tmp_path / "c"), rel, "program", store.config(), budget=3.0, unconfined=True)
    took = time.monotonic() - started
    assert took < 4.5, (took, message)
    assert status == "failed" and "not ready to play within the check's 3 s" in message, message
    good = _program(tmp_path / "c", "good.py", source("first"))  # an honest one still plays its games
    status, message, _ = validate(str(tmp_path / "c"), good, "python", store.config(), budget=15.0, unconfined=True)
    assert status == "ok" and "games against the random player" in message, message


@sandboxed
def test_a_seat_not_ready_for_its_game_forfeits_with_a_named_reason(tmp_path, monkeypatch):
    monkeypatch.setattr(playing, "SEAT_READY", 3.0)  # the supervisor's bound is kept in this process
    store = make_contest(tmp_path / "c", {}, move_time=0.5, absent=("Ben",))
    sid = store.add_submission("Ben", "slow", "program", "-", _program(tmp_path / "c", "slow", SLOW_NEWGAME))
    store.set_status(sid, "ok")
    started = time.monotonic()
    assert ladder.run_pending(store, 1, jobs=1) == 1
    assert time.monotonic() - started < 20
    with sqlite3.connect(tmp_path / "c" / "contest.db") as db:
        first, result, reason, forfeit = db.execute("SELECT first, result, reason, forfeit FROM games "
                                                    "WHERE status = 'done'").fetchone()
    assert forfeit == 1 and result == ("0-1" if first == f"sub:{sid}" else "1-0")
    assert reason.startswith("could not start: it was not ready to play within 3 s of its start"), reason


@pytest.mark.slow
@sandboxed
def test_slow_newgame_uploads_do_not_hold_an_honest_one(tmp_path):
    tokens = make_served(tmp_path / "c", ["Ann", "Ben"])
    (tmp_path / "good.py").write_text(source("first"))
    with serving(tmp_path / "c") as url:
        for i in range(4):  # every validator busy with one (four files: the same bytes again are not stored again)
            (tmp_path / "slow").write_text(SLOW_NEWGAME + f"\n# upload {i}\n")
            status, body, _ = curl("-F", f"file=@{tmp_path / 'slow'};filename=slow{i}", f"{url}/api/submit?wait=0",
                                   token=tokens["Ann"])
            assert status == 201, body
        time.sleep(1)
        started = time.monotonic()
        status, body, _ = curl("-F", f"file=@{tmp_path / 'good.py'}", f"{url}/api/submit", token=tokens["Ben"])
        assert status == 201 and body["status"] == "ok", body
        assert time.monotonic() - started < 12
        time.sleep(1)
        _, me, _ = curl(f"{url}/api/me", token=tokens["Ann"])
    assert [s["status"] for s in me["submissions"]] == ["failed"] * 4, me["submissions"]


# ---- 2. the final validates the uploads left 'validating' ----------------------------------------------

@sandboxed
def test_the_final_validates_pending_uploads_and_never_reuses_a_game_id(tmp_path):
    folder = tmp_path / "c"
    store = make_contest(folder, {"Pat": source("first")}, move_time=0.5)
    ladder.schedule(store)  # pending ladder games, dropped at the freeze
    with sqlite3.connect(folder / "contest.db") as db:
        top = db.execute("SELECT MAX(id) FROM games").fetchone()[0]
    assert top and top >= 2
    old = store.active()[0]["id"]
    new = accept(store, "Pat", "greedy.py", source("greedy").encode())  # accepted; the server stopped then
    store.close()
    result = run_final(folder, grading=False, jobs=1, unconfined=UNCONFINED)
    assert [(v["id"], v["status"]) for v in result["validated"]] == [(new, "ok")]
    pat = next(r for r in result["results"] if r["name"] == "Pat")
    assert pat["submission"] == new != old
    with sqlite3.connect(folder / "contest.db") as db:
        assert db.execute("SELECT status, active FROM submissions WHERE id = ?", (new,)).fetchone() == ("ok", 1)
        ids = [r[0] for r in db.execute("SELECT id FROM games WHERE stage = 'final'")]
    assert ids and min(ids) > top


# ---- 3. a student reads only the kind of the opponent's forfeit ------------------------------------------

def test_a_student_sees_the_reason_of_their_own_forfeit_only(tmp_path):
    folder = tmp_path / "c"
    tokens = make_served(folder, ["Ada", "Alan"])
    store = Store(folder)
    ada = store.add_submission("Ada", "a.py", "python", "-", "submissions/a.py")
    alan = store.add_submission("Alan", "b.py", "python", "-", "submissions/b.py")
    with sqlite3.connect(folder / "contest.db") as db:
        for first, second, result, reason in (
                (f"sub:{ada}", f"sub:{alan}", "1-0", "crash: the engine exited (exit code 1): KeyError: 'late bug'"),
                (f"sub:{alan}", f"sub:{ada}", "1-0", "illegal move: bestmove '9': column 9 is outside 1..7")):
            db.execute("INSERT INTO games(stage, pairing, first, second, opening, seed, status, result, reason, "
                       "forfeit, moves) VALUES ('ladder', 'p', ?, ?, '-', 1, 'done', ?, ?, 1, '')",
                       (first, second, result, reason))
    store.close()
    app = create_contest_app(folder, unconfined=True, ladder=False, viewer=False, validators=1)
    with TestClient(app) as client:
        seen = {who: client.get("/api/me", headers={"Authorization": f"Bearer {tokens[who]}"}).json()["games"]
                for who in ("Ada", "Alan")}
    assert sorted(g["reason"] for g in seen["Ada"]) == [
        "illegal move: bestmove '9': column 9 is outside 1..7", "the opponent forfeited: crash"]
    assert sorted(g["reason"] for g in seen["Alan"]) == [
        "crash: the engine exited (exit code 1): KeyError: 'late bug'", "the opponent forfeited: illegal move"]
    assert "late bug" not in json.dumps(seen["Ada"]) and "column 9" not in json.dumps(seen["Alan"])


# ---- 4. the board viewer's engine is bounded on the contest server -----------------------------------------

def test_the_viewers_engine_routes_answer_429_past_the_quota_and_replays_are_free(tmp_path, monkeypatch):
    monkeypatch.setattr(contest_quota, "PER_CLIENT", 0.0)  # spent already: the engine is never asked
    folder = tmp_path / "c"
    make_served(folder, ["Ada"])
    app = create_contest_app(folder, unconfined=True, ladder=False, viewer=True, validators=1)
    position = {"game": "connectx:rows=8,cols=8,k=4", "moves": "4"}
    with TestClient(app) as client:
        refused = client.get("/api/analyze", params=position)
        replay = client.get("/api/state", params=position)
    assert refused.status_code == 429
    assert "limited on the contest server" in refused.json()["error"] and refused.headers["retry-after"]
    assert replay.status_code == 200


@pytest.mark.slow
def test_analysis_through_curl_is_short_and_stops_at_the_quota(tmp_path):
    make_served(tmp_path / "c", ["Ada"])
    with serving(tmp_path / "c") as url:
        deadline = time.monotonic() + 120
        while not curl(f"{url}/api/health")[1].get("ready") and time.monotonic() < deadline:
            time.sleep(0.5)  # the viewer's engine warm (its first start may compile)
        answers: list[tuple[int, float]] = []
        while len(answers) < 12 and (not answers or answers[-1][0] == 200):
            started = time.monotonic()
            status, body, _ = curl(f"{url}/api/analyze?game=connectx:rows%3D8,cols%3D8,k%3D4&moves=4")
            took = time.monotonic() - started
            # on a first run (a cold cache) an answer may wait for a compile, which its note says (and which the
            # quota does not count): 20 s for the code of boards past 64 bits; the rest is the analysis's time
            waited = re.search(r"after (\d+) s preparing the engine, first run only", str(body.get("note")))
            answers.append((status, took - (int(waited[1]) + 1 if waited else 0)))
    assert all(took < 6 for status, took in answers if status == 200), answers
    assert answers[0][0] == 200 and answers[-1][0] == 429, answers
    assert sum(took for status, took in answers if status == 200) < contest_quota.PER_CLIENT + 6, answers

