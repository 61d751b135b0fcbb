"""What once stalled a contest (the audit): a game whose record could not be written, and a student whose
uploads held the ladder.

- An engine that says ``info depth 1 nodes 2000000000000000000`` (more than a record keeps) restarted its game
  every few seconds for ever, no other game of the ladder started, and the final died with thread tracebacks
  and a false message, run after run.  Now the protocol refuses the count (the engine forfeits, docs/protocol.md)
  and any other fault of a try (a teacher's agent whose figures no record holds) is the game's counted try:
  after three it is set aside with its reason, and the ladder and the final go on.
- A student uploading a file that hangs at import again and again held the ladder for every check; now only a
  student's first upload in a minute holds it (docs/contest.md, the ladder).
"""

from __future__ import annotations

import sys
import time

import pytest

from contest_players import make_contest, source, submit
from counting_engine import COUNTING_ENGINE
from zerosum.contest import ladder
from zerosum.contest.final import run_final
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.submissions import accept
from zerosum.contest.validate import validate_submission

UNCONFINED = sandbox_problem() is not None  # where bubblewrap cannot run, the seats run unconfined
BIG = 2 * 10**18

#: a teacher's agent class whose every move claims more nodes than a record keeps (not through the protocol)
BOASTER = '''
from zerosum.agents.base import SearchAgent, SearchResult


class Boaster(SearchAgent):
    name = "boaster"

    def search(self, game, state, tracer=None):
        return SearchResult(action=game.actions(state)[0], nodes=10**19)
'''

#: a submission that hangs at import (its check ends with the check's budget)
HANG = "import time\ntime.sleep(100)\n\n\ndef player(board):\n    return 0\n"


def _counter_contest(tmp_path):
    """A contest whose first reference is the counter engine (``contest new --engine``), and ann."""
    from zerosum.cli import main
    from zerosum.contest.store import Store

    script, roster, folder = tmp_path / "counter.py", tmp_path / "roster.csv", tmp_path / "c"
    script.write_text(COUNTING_ENGINE)
    roster.write_text("name\nann\n")
    (tmp_path / "openings.txt").write_text("-\n45\n")  # given: no opening judged (1.5 s)
    assert main(["contest", "new", str(folder), "--game", "connect4-8x8", "--roster", str(roster), "--engine",
                 f"big={sys.executable} {script} {BIG}", "--reference", "big", "--reference", "random",
                 "--openings", str(tmp_path / "openings.txt")]) == 0
    store = Store(folder)
    submit(store, folder, "ann", source("first"))
    return store


def _ladder_until(store, done, seconds=90.0):
    """Run the ladder (one job) until ``done(rows)`` or ``seconds``; the games' rows."""
    lad = ladder.start(store, jobs=1, unconfined=UNCONFINED)
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            rows = store.rows("SELECT * FROM games WHERE stage = 'ladder' ORDER BY id")
            if rows and done(rows):
                break
            time.sleep(0.3)
    finally:
        lad.stop()
    return store.rows("SELECT * FROM games WHERE stage = 'ladder' ORDER BY id")


def test_an_engine_reporting_too_many_nodes_forfeits_and_the_ladder_and_the_final_go_on(tmp_path, capfd):
    store = _counter_contest(tmp_path)
    assert ladder.schedule(store) == 4  # ann against big (first: the first reference), then against random
    rows = _ladder_until(store, lambda rows: all(r["status"] == "done" for r in rows))
    assert [r["status"] for r in rows] == ["done"] * 4, [dict(r) for r in rows]
    for r in rows:
        if "ref:big" in (r["first"], r["second"]):  # the engine's protocol error: it loses, the reason says why
            assert r["forfeit"] and r["result"] == ("0-1" if r["first"] == "ref:big" else "1-0")
            assert "protocol error" in r["reason"] and "nodes 2000000000000000000 is out of range" in r["reason"]
        else:
            assert r["result"] in ("1-0", "0-1", "1/2-1/2")
    result = run_final(tmp_path / "c", unconfined=UNCONFINED, before_deadline=True, grade="big,random")
    assert result["unplayed"] == [] and result["games"] == 6  # three entries, a pair of games each pairing
    ann = next(r for r in result["results"] if r["name"] == "ann")
    assert ann["points"] is not None and ann["games"] == 4
    big = next(r for r in result["results"] if r["name"] == "big")
    assert big["forfeits"] == 4 and "protocol error" in big["forfeit_reasons"][0]["reason"]
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.slow  # 8 s; CI keeps this file's other stall
def test_a_game_no_record_can_hold_is_a_counted_try_then_set_aside_and_the_rest_is_played(tmp_path, capfd):
    (tmp_path / "boaster.py").write_text(BOASTER)
    refs = [{"name": "boaster", "spec": str(tmp_path / "boaster.py") + ":Boaster"}, {"name": "random", "spec": "random"}]
    store = make_contest(tmp_path / "c", {"ann": source("first")}, references=refs)
    assert ladder.schedule(store) == 4
    rows = _ladder_until(store, lambda rows: all(r["status"] == "done" for r in rows))
    assert [r["status"] for r in rows] == ["done"] * 4, [dict(r) for r in rows]
    for r in rows:
        if "ref:boaster" in (r["first"], r["second"]):  # three tries, then set aside with the reason
            assert r["result"] is None and r["reason"].startswith("not played: its record could not be made: "
                                                                  "InvalidFileError: a move's nodes are")
        else:
            assert r["result"] in ("1-0", "0-1", "1/2-1/2")
    err = capfd.readouterr().err
    aside = [r["id"] for r in rows if r["result"] is None]
    for game in aside:  # the server's log says each try
        for n in (1, 2):
            assert f"ladder: game {game}: try {n} of 3 failed, to be tried again: its record could not be made" in err
        assert f"ladder: game {game}: try 3 of 3 failed, set aside, not played: its record" in err
    assert "Traceback" not in err
    # the final: the same games set aside, their reasons in results.json, the grades of the games played
    table = tmp_path / "table.csv"
    table.write_text("rank,points\n1,10\n")
    result = run_final(tmp_path / "c", unconfined=UNCONFINED, before_deadline=True, table=table)
    assert len(result["unplayed"]) == 4 and all(g["reason"].startswith("not played: its record could not be made")
                                                for g in result["unplayed"])
    assert result["games"] == 2 and next(r for r in result["results"] if r["name"] == "ann")["points"] == 10
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.slow  # CI time: two checks that hang to their limit while the ladder plays (15 s)
def test_a_students_uploads_again_and_again_hold_the_ladder_for_one_check(tmp_path):
    """eve uploads a file that hangs at import, then again as soon as its check failed: the first check holds
    the ladder (no game starts), the second does not (games start while it runs); before, every upload of the
    last minute held it, so one student uploading every 10 s held it most of the time."""
    players = {name: source("first") for name in ("ann", "bob", "cy", "dan")}
    store = make_contest(tmp_path / "c", players, absent=("eve",))
    assert ladder.schedule(store) == 20
    lad = ladder.start(store, jobs=1, unconfined=UNCONFINED)
    try:
        end = time.monotonic() + 60
        while not store.rows("SELECT id FROM games WHERE status = 'done'") and time.monotonic() < end:
            time.sleep(0.2)
        windows = []
        for n in (1, 2):
            sid = accept(store, "eve", "hang.py", f"{HANG}# upload {n}\n".encode())
            start = time.time()
            answer = validate_submission(store, sid, unconfined=UNCONFINED)
            windows.append((start, time.time()))
            assert answer[0] == "failed", answer
    finally:
        lad.stop()
    started = [r["started"] for r in store.rows("SELECT started FROM games WHERE started IS NOT NULL")]
    (a0, a1), (b0, b1) = windows
    assert a1 - a0 > 3 and b1 - b0 > 3  # each check took its time (the import hangs)
    assert not [t for t in started if a0 + 0.5 < t < a1], "the first check held the ladder"
    assert len([t for t in started if b0 < t < b1]) >= 2, "the second check (within the minute) does not hold it"
