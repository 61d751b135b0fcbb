"""The ladder (zerosum.contest.ladder) and the leaderboard (zerosum.contest.standings): what is scheduled, in
which order, what a replaced submission leaves behind, ratings against the logistic model worked by hand,
real games in the sandbox written as records that replay, and a kill -9 in the middle of the ladder."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest

from contest_players import make_contest, source, submit
from zerosum.contest import ladder, standings
from zerosum.contest.sandbox import sandbox_problem

UNCONFINED = sandbox_problem() is not None  # where bubblewrap cannot run, the seats run unconfined (said below)
RUN = {"jobs": 2, "unconfined": UNCONFINED}


def games(store, stage="ladder"):
    return store.rows("SELECT * FROM games WHERE stage = ? ORDER BY id", (stage,))


def test_a_new_submission_is_scheduled_against_the_whole_field_once_in_colour_swapped_pairs(tmp_path):
    refs = [{"name": "random", "spec": "random"}, {"name": "first", "spec": "first"}]
    store = make_contest(tmp_path / "c", {"ann": source("first"), "bob": source("first"), "cy": source("first")},
                         references=refs, openings=["-", "45", "36"])
    assert ladder.schedule(store) == 2 * 9  # 5 entries: 10 pairings, less the two references' own
    assert ladder.schedule(store) == 0  # nothing twice
    rows = games(store)
    pairs = Counter(frozenset((g["first"], g["second"])) for g in rows)
    entries = ["ref:random", "ref:first", "sub:1", "sub:2", "sub:3"]
    expected = {frozenset((a, b)) for i, a in enumerate(entries) for b in entries[i + 1:]} - {frozenset(entries[:2])}
    assert set(pairs) == expected and set(pairs.values()) == {2}
    by_pairing: dict[str, list] = {}
    for g in rows:
        by_pairing.setdefault(g["pairing"], []).append(g)
    for pairing, (one, two) in by_pairing.items():
        assert (one["first"], one["second"]) == (two["second"], two["first"])  # colours swapped
        assert one["opening"] == two["opening"] in ("-", "45", "36")
        assert pairing.split(" vs ")[0] == one["first"]  # the newcomer first
        assert one["status"] == "pending" and one["seed"] != two["seed"]
    # a new contest from the same seed schedules the same games
    again = make_contest(tmp_path / "d", {"ann": source("first"), "bob": source("first"), "cy": source("first")},
                         references=refs, openings=["-", "45", "36"])
    ladder.schedule(again)
    keep = ("pairing", "first", "second", "opening", "seed")
    assert [[g[k] for k in keep] for g in games(again)] == [[g[k] for k in keep] for g in rows]


def test_a_replaced_submission_loses_its_pending_games_and_the_newcomer_is_played_first(tmp_path):
    folder = tmp_path / "c"
    store = make_contest(folder, {"ann": source("first"), "bob": source("first")})
    ladder.schedule(store)
    assert len(games(store)) == 6  # ann-random, bob-random, ann-bob
    played = ladder.run_pending(store, 2, **RUN)
    for _ in range(2):  # a try that failed on a loaded machine (the game back to pending, its attempt counted)
        if played < 2:
            played += ladder.run_pending(store, 2 - played, **RUN)
    assert played == 2, [dict(g) for g in games(store)]
    done = [g for g in games(store) if g["status"] == "done"]
    # every newcomer's first game before anybody's second: ann's and bob's first games against random
    assert sorted((g["first"], g["second"]) for g in done) == [("sub:1", "ref:random"), ("sub:2", "ref:random")]
    new = submit(store, folder, "bob", source("greedy"))
    assert ladder.schedule(store) == 4  # bob's new code meets random and ann
    rows = games(store)
    assert not [g for g in rows if "sub:2" in (g["first"], g["second"]) and g["status"] == "pending"]
    assert [g["id"] for g in rows if g["status"] == "done"] == [g["id"] for g in done]  # the history stays
    board = standings.leaderboard(store)
    assert [r["entry"] for r in board if r["kind"] == "student"] == ["sub:1", f"sub:{new}"] or \
        {r["entry"] for r in board} == {"ref:random", "sub:1", f"sub:{new}"}
    assert all(r["entry"] != "sub:2" for r in board)  # the replaced code is off the board
    assert next(r for r in board if r["entry"] == f"sub:{new}")["games"] == 0


def _insert(store, first, second, result, reason="4 in a row", forfeit=0):
    with store.transaction() as db:
        db.execute("INSERT INTO games(stage, pairing, first, second, opening, seed, status, result, reason, forfeit) "
                   "VALUES ('ladder', ?, ?, ?, '-', 0, 'done', ?, ?, ?)",
                   (f"{first} vs {second}", first, second, result, reason, forfeit))


def test_leaderboard_ratings_follow_the_logistic_model_with_one_virtual_draw(tmp_path):
    store = make_contest(tmp_path / "c", {"ann": source("first"), "bob": source("first")})
    # ann against random: 3 wins, 1 loss (by forfeit); bob played nobody yet
    for result in ("1-0", "1-0", "1-0"):
        _insert(store, "sub:1", "ref:random", result)
    _insert(store, "ref:random", "sub:1", "1-0", "illegal move: column 99 is outside 1..8", 1)
    board = {r["entry"]: r for r in standings.leaderboard(store)}
    ann, rnd, bob = board["sub:1"], board["ref:random"], board["sub:2"]
    # two players, one virtual draw: ann's expected score is (3 + 1/2) / (4 + 1) = 0.7; mean 0
    diff = -400 * math.log10(1 / 0.7 - 1)
    assert ann["rating"] == pytest.approx(diff / 2, abs=0.1) and rnd["rating"] == pytest.approx(-diff / 2, abs=0.1)
    # the 95% interval from the Fisher information of 5 games at p = 0.7: 1.96 * 400/ln10 / sqrt(5 p (1-p)) / 2
    half = 1.959964 * 400 / math.log(10) / math.sqrt(5 * 0.7 * 0.3) / 2
    assert ann["rating_high"] - ann["rating"] == pytest.approx(half, abs=0.2)
    assert (ann["wins"], ann["draws"], ann["losses"], ann["games"], ann["score"]) == (3, 0, 1, 4, 0.75)
    assert ann["forfeits"] == 1 and ann["forfeit_reasons"] == [
        {"reason": "illegal move: column 99 is outside 1..8", "count": 1}]
    assert rnd["forfeits"] == 0
    assert (bob["rating"], bob["games"], bob["rank"]) == (None, 0, 3)
    assert [board[k]["rank"] for k in ("sub:1", "ref:random")] == [1, 2]
    # a game against a replaced submission is history: off the board
    old = submit(store, tmp_path / "c", "bob", source("greedy")) - 1
    _insert(store, f"sub:{old}", "sub:1", "1-0")
    assert {r["entry"]: r["games"] for r in standings.leaderboard(store)}["sub:1"] == 4


def test_a_database_made_before_the_forfeit_column_gets_it(tmp_path):
    import sqlite3

    store = make_contest(tmp_path / "c", {"ann": source("first")})
    store.close()
    with sqlite3.connect(tmp_path / "c" / "contest.db") as db:
        db.execute("ALTER TABLE games DROP COLUMN forfeit")
    assert standings.leaderboard(tmp_path / "c")[0]["games"] == 0
    with sqlite3.connect(tmp_path / "c" / "contest.db") as db:
        assert "forfeit" in {row[1] for row in db.execute("PRAGMA table_info(games)")}


def test_real_games_in_the_sandbox_are_recorded_with_forfeits_and_replayable_records(tmp_path):
    from zerosum.records import parse

    store = make_contest(tmp_path / "c", {"ann": source("first"), "bob": source("illegal")})
    assert ladder.run_pending(store, 100, **RUN) == 6
    rows = games(store)
    assert all(g["status"] == "done" for g in rows)
    for g in rows:
        record = parse(g["record"])[0]  # the moves replay legally and the result agrees with the board
        assert record.result == g["result"] and record.moves == (g["moves"].split() if g["moves"] else [])
        assert record.tags["Opening"] == g["opening"]
        bob = "sub:2" in (g["first"], g["second"])
        if bob:  # bob answers column 99 at its first move: it loses every game by forfeit
            assert g["forfeit"] == 1 and "returned 99" in g["reason"] and "outside 0..7" in g["reason"]
            assert g["reason"].startswith("illegal move: ") and "BadAnswer" not in g["reason"], g["reason"]
            assert g["result"] == ("0-1" if g["first"] == "sub:2" else "1-0")
        else:
            assert g["forfeit"] == 0
    board = {r["name"]: r for r in standings.leaderboard(store)}
    assert board["bob"]["losses"] == 4 and board["bob"]["forfeits"] == 4 and board["bob"]["rank"] == 3
    reasons = board["bob"]["forfeit_reasons"]  # one a position where it answered 99 (each names its position)
    assert sum(r["count"] for r in reasons) == 4 and all(r["reason"].startswith("illegal move: ") for r in reasons)


SCRIPT = """
import sys
from zerosum.contest import ladder
if __name__ == "__main__":
    ladder.run_pending(sys.argv[1], 10**6, jobs=2, unconfined=sys.argv[2] == "1")
"""


@pytest.mark.slow  # 8-29 s; CI keeps test_contest_api's kill -9 of the server and the ladder's other restarts
def test_kill_9_in_the_middle_of_the_ladder_loses_nothing_and_replays_the_unfinished_games(tmp_path):
    players = {f"s{i}": source("alphabeta", depth=1) if i % 2 else source("greedy") for i in range(3)}
    folder = tmp_path / "c"
    store = make_contest(folder, players)
    total = ladder.schedule(store)
    assert total == 2 * (3 + 3)
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    proc = subprocess.Popen([sys.executable, str(script), str(folder), "1" if UNCONFINED else "0"],
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            done = store.rows("SELECT COUNT(*) AS n FROM games WHERE status = 'done'")[0]["n"]
            running = store.rows("SELECT COUNT(*) AS n FROM games WHERE status = 'running'")[0]["n"]
            if done >= 4 and running:
                break
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    before = {g["id"]: dict(g) for g in games(store) if g["status"] == "done"}
    assert 4 <= len(before) < total
    board_before = standings.leaderboard(store)
    assert ladder.run_pending(store, 0, **RUN) == 0  # a restart: running games go back to pending, nothing is lost
    after = games(store)
    assert not [g for g in after if g["status"] == "running"]
    assert {g["id"]: dict(g) for g in after if g["status"] == "done"} == before
    assert standings.leaderboard(store) == board_before  # the same ratings
    assert ladder.run_pending(store, 10**6, **RUN) == total - len(before)
    final = games(store)
    assert len(final) == total and all(g["status"] == "done" for g in final)
    assert {g["id"]: dict(g) for g in final if g["id"] in before} == before  # finished games never replayed
    assert Counter(frozenset((g["first"], g["second"])) for g in final) == Counter(
        {frozenset((g["first"], g["second"])): 2 for g in final})


def test_the_background_ladder_takes_new_submissions_while_it_runs_and_stops_cleanly(tmp_path):
    folder = tmp_path / "c"
    store = make_contest(folder, {"ann": source("greedy")})  # two games: ann against random
    finished: list[int] = []
    running = ladder.start(store, folder, on_game=finished.append, **RUN)
    try:
        deadline = time.monotonic() + 120
        while len(finished) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        new = submit(store, folder, "cy", source("first"))  # arrives while the ladder plays
        mine = f"sub:{new}"
        while time.monotonic() < deadline:
            rows = store.rows("SELECT status FROM games WHERE ? IN (first, second)", (mine,))
            if rows and all(r["status"] == "done" for r in rows):
                break
            time.sleep(0.1)
        assert len(rows) == 2 * 2  # cy met random and ann
        assert running.running and running.error is None
    finally:
        ladder.stop()
    assert not running.running
    left = store.rows("SELECT status, COUNT(*) AS n FROM games GROUP BY status")
    assert {r["status"] for r in left} <= {"done", "pending"}  # nothing is left running
    done = {g["id"] for g in games(store) if g["status"] == "done"}
    assert set(finished) == done  # on_game heard of every finished game, once
    board = {r["name"]: r for r in standings.leaderboard(store)}
    assert board["cy"]["games"] == 4 and board["cy"]["rating"] is not None


def test_the_background_ladder_gives_way_to_a_validation_in_progress(tmp_path):
    folder = tmp_path / "c"
    store = make_contest(folder, {"ann": source("first"), "bob": source("first")})
    waiting = submit(store, folder, "cy", source("first"), status="validating")  # a student waits for this answer
    running = ladder.start(store, folder, **RUN)
    try:
        time.sleep(3)
        assert not store.rows("SELECT id FROM games WHERE status != 'pending'")  # nothing started meanwhile
        store.set_status(waiting, "failed", "its answer")
        deadline = time.monotonic() + 120
        while not store.rows("SELECT id FROM games WHERE status = 'done'") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert store.rows("SELECT id FROM games WHERE status = 'done'")
    finally:
        running.stop()


def test_a_submission_whose_file_is_gone_loses_by_forfeit_with_its_reason(tmp_path):
    folder = tmp_path / "c"
    store = make_contest(folder, {"ann": source("first")})
    (folder / store.submission(1)["path"]).unlink()
    assert ladder.run_pending(store, 10, **RUN) == 2
    for g in games(store):
        assert g["forfeit"] == 1 and g["reason"].startswith("could not start: ") and "not found" in g["reason"]
        assert g["result"] == ("0-1" if g["first"] == "sub:1" else "1-0")


def _textbook_elo(players: list[str], games: list[dict]) -> dict[str, float]:
    """Logistic maximum likelihood by plain gradient ascent, one virtual draw added to every pairing that met,
    centred on 0 over the players that played (the leaderboard's definition, computed another way)."""
    wins: dict[tuple[str, str], float] = {}
    for g in games:
        s = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[g["result"]]
        a, b = g["first"], g["second"]
        wins[(a, b)] = wins.get((a, b), 0.0) + s
        wins[(b, a)] = wins.get((b, a), 0.0) + 1.0 - s
    played = sorted({p for pair in wins for p in pair})
    n = {}
    for (a, b), w in wins.items():
        n[(a, b)] = w + wins[(b, a)]
    theta = dict.fromkeys(played, 0.0)
    for _ in range(20000):
        grad = dict.fromkeys(played, 0.0)
        for (a, b), games_ab in n.items():
            p = 1.0 / (1.0 + math.exp(theta[b] - theta[a]))
            grad[a] += (wins[(a, b)] + 0.5) - (games_ab + 1.0) * p
        step = max(abs(v) for v in grad.values())
        for p in played:
            theta[p] += 0.05 * grad[p]
        if step < 1e-10:
            break
    mean = sum(theta.values()) / len(played)
    return {p: (theta[p] - mean) * 400 / math.log(10) for p in played}


@pytest.mark.parametrize("seed", range(6))
def test_leaderboard_ratings_agree_with_a_textbook_fit_on_random_tournaments(seed):
    import random

    rng = random.Random(seed)
    entries = [standings.Entry(f"sub:{i}", f"s{i}", i) for i in range(1, 6)]
    games_played = []
    for _ in range(rng.randint(5, 40)):
        a, b = rng.sample([e.key for e in entries[:4]], 2)  # s5 never plays
        games_played.append({"first": a, "second": b, "result": rng.choice(["1-0", "0-1", "1/2-1/2"]),
                             "reason": "-", "forfeit": 0})
    rows = {r["entry"]: r for r in standings.standing_rows(entries, games_played)}
    expected = _textbook_elo([e.key for e in entries], games_played)
    for key, elo in expected.items():
        assert rows[key]["rating"] == pytest.approx(elo, abs=0.2)
    assert rows["sub:5"]["rating"] is None and rows["sub:5"]["rank"] == 5
    ranked = [r for r in sorted(rows.values(), key=lambda r: r["rank"]) if r["rating"] is not None]
    assert [r["rating"] for r in ranked] == sorted((r["rating"] for r in ranked), reverse=True)


def test_a_reference_marked_sandbox_plays_as_a_sandboxed_engine(tmp_path):
    if UNCONFINED:
        pytest.skip("no sandbox here: nothing tells a sandboxed reference from one run as it is")
    teacher = tmp_path / "teacher.py"  # it plays well only where the sandbox shows it /submission
    teacher.write_text(source("greedy").replace("def player(board):", "def teach(board):\n    import os\n"
                                                "    if not os.path.isdir('/submission'):\n        return 99")
                       + "\n\ndef other(x, y):\n    return 0\n")
    refs = [{"name": "instructor", "spec": f"{teacher}:teach", "sandbox": True}]  # ann's only opponent
    store = make_contest(tmp_path / "c", {"ann": source("first")}, references=refs)
    assert ladder.run_pending(store, 10, **RUN) == 2
    rows = [g for g in games(store) if "ref:instructor" in (g["first"], g["second"])]
    assert len(rows) == 2 and all(g["forfeit"] == 0 for g in rows)
    assert all(g["result"] == ("1-0" if g["first"] == "ref:instructor" else "0-1") for g in rows)  # greedy beats first
    assert "instructor (ref:instructor)" in rows[0]["record"]
