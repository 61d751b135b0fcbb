"""Standings figures a mutation audit found untested: pending games of both players, the rating interval's
low end, the score tie-break between equal ratings, and the final's default bands with three references."""

import math
import sqlite3

import pytest

from zerosum.contest.final import grade_rows
from zerosum.contest.standings import Entry, leaderboard, standing_rows, tied
from zerosum.contest.store import SCHEMA


def _game(first, second, result):
    return {"first": first, "second": second, "result": result, "reason": "", "forfeit": 0}


def _expected(diff):
    return 1 / (1 + 10 ** (-diff / 400))


# ann beats c once (score 1.0); bob beats c four times and loses once (0.8).  With one virtual draw a
# pairing, each meets c at an effective 1.5/2 = 4.5/6 = 0.75, so the two are rated alike, 400 log10(3) above c
TIE = [Entry("sub:1", "ann", 1), Entry("sub:2", "bob", 2), Entry("ref:c", "c")]
TIE_GAMES = [_game("sub:1", "ref:c", "1-0")] + [_game("sub:2", "ref:c", "1-0")] * 4 + [_game("ref:c", "sub:2", "1-0")]


def test_equal_ratings_are_ordered_by_score_and_do_not_share_a_rank():
    rows = standing_rows(TIE, TIE_GAMES)
    ann, bob, c = rows
    assert [r["name"] for r in rows] == ["ann", "bob", "c"]
    assert ann["rating"] == bob["rating"]
    assert ann["rating"] - c["rating"] == pytest.approx(400 * math.log10(3), abs=0.2)  # the hand figure
    assert ann["rating"] + bob["rating"] + c["rating"] == pytest.approx(0, abs=0.2)  # mean 0
    assert (ann["score"], bob["score"]) == (1.0, 0.8)
    assert [r["rank"] for r in rows] == [1, 2, 3]  # the better score ranks first, alone
    assert not tied(ann, bob) and tied(ann, dict(bob, score=1.0))


def test_the_rating_interval_is_the_rating_plus_or_minus_one_half_width():
    rows = standing_rows(TIE, TIE_GAMES)
    for r in rows:
        assert r["rating_low"] < r["rating"] < r["rating_high"]
        assert r["rating"] - r["rating_low"] == pytest.approx(r["rating_high"] - r["rating"], abs=0.11)
    # ann has one game, bob five against the same opponent at the same rating: ann's interval is the wider
    assert rows[0]["rating_high"] - rows[0]["rating_low"] > rows[1]["rating_high"] - rows[1]["rating_low"]


def test_pending_games_count_for_both_players(tmp_path):
    db = tmp_path / "contest.db"
    with sqlite3.connect(db) as conn:
        conn.executescript(SCHEMA)
        conn.execute("INSERT INTO games (stage, first, second, status, result) VALUES "
                     "('ladder', 'sub:1', 'ref:c', 'done', '1-0')")
        for first, second, status in [("sub:1", "sub:2", "pending"), ("sub:1", "ref:c", "running"),
                                      ("sub:2", "sub:1", "pending"), ("ref:c", "sub:2", "done")]:
            conn.execute("INSERT INTO games (stage, first, second, status, result) VALUES ('ladder', ?, ?, ?, ?)",
                         (first, second, status, "0-1" if status == "done" else None))
        conn.execute("INSERT INTO games (stage, first, second, status) VALUES ('final', 'ref:c', 'sub:2', 'pending')")
    rows = {r["name"]: r for r in leaderboard(db, "ladder", TIE)}
    # ann is in all three games not done, bob in the two between ann and bob, c in the running one;
    # the final's game is another stage's
    assert {n: r["pending"] for n, r in rows.items()} == {"ann": 3, "bob": 2, "c": 1}
    assert {n: r["games"] for n, r in rows.items()} == {"ann": 1, "bob": 1, "c": 2}


def test_the_finals_bands_run_from_the_lowest_reference_to_the_highest():
    # a chain of three references, random < greedy < instructor, with ann between greedy and the instructor
    entries = [Entry("ref:instructor", "instructor"), Entry("ref:greedy", "greedy"), Entry("ref:random", "random"),
               Entry("sub:1", "ann", 1)]
    games = []
    for better, worse in [("ref:greedy", "ref:random"), ("sub:1", "ref:greedy"), ("ref:instructor", "sub:1")]:
        games += [_game(better, worse, "1-0")] * 3 + [_game(worse, better, "1-0")]
    games += [_game("ref:instructor", "ref:random", "1-0")] * 2
    rows = standing_rows(entries, games)
    elo = {r["name"]: r["rating"] for r in rows}
    assert elo["random"] < elo["greedy"] < elo["ann"] < elo["instructor"]
    rule = grade_rows(rows)
    assert (rule["rule"], rule["low"], rule["high"]) == ("bands", "random", "instructor")
    f = (elo["ann"] - elo["random"]) / (elo["instructor"] - elo["random"])  # the bands' rule, by hand
    points = {r["name"]: r["points"] for r in rows}
    assert points["ann"] == math.ceil(10 * f) and 0 < points["ann"] < 10
    assert points["instructor"] is None and points["random"] is None
