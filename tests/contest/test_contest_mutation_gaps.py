"""Gaps a mutation audit of the contest's standings, ladder, final and grading found: each test fails on a careless
edit no other test caught, and is checked against figures worked by hand from docs/contest.md (no game is played:
the whole file runs in about a second)."""

from __future__ import annotations

from collections import Counter

from contest_players import make_contest, source
from zerosum.contest import ladder, standings
from zerosum.contest.standings import Entry, absent_rows, field, standing_rows


def _game(first: str, second: str, result: str) -> dict:
    return {"first": first, "second": second, "result": result, "reason": "", "forfeit": 0}


def test_a_draw_is_half_a_point_for_both_players() -> None:
    # catches: a draw counted as a whole point in points and score (docs: score is points per game)
    entries = [Entry("sub:1", "ann", 1), Entry("ref:c", "c")]
    games = [_game("sub:1", "ref:c", "1/2-1/2"), _game("ref:c", "sub:1", "1/2-1/2"), _game("sub:1", "ref:c", "1-0")]
    rows = {r["name"]: r for r in standing_rows(entries, games)}
    # ann: a win and two draws, 2 points of 3; c: two draws and a loss, 1 point of 3
    assert (rows["ann"]["wins"], rows["ann"]["draws"], rows["ann"]["losses"]) == (1, 2, 0)
    assert (rows["ann"]["points"], rows["ann"]["score"]) == (2.0, 0.6667)
    assert (rows["c"]["points"], rows["c"]["score"]) == (1.0, 0.3333)


def test_the_configs_ladder_pairs_sets_the_colour_swapped_pairs_of_each_pairing(tmp_path) -> None:
    # catches: the config's ladder_pairs ignored (one pair a pairing whatever the teacher set).  Worked by hand:
    # references r and f, students ann and bob: 6 pairings less the references' own = 5, each 2 pairs of 2
    # games = 20 games, every pair colour-swapped from one opening; each newcomer's references first
    store = make_contest(tmp_path / "c", {"ann": source("first"), "bob": source("first")},
                         references=[{"name": "r", "spec": "random"}, {"name": "f", "spec": "first"}],
                         openings=["-", "45", "36", "54"])
    with store.transaction() as db:
        db.execute("INSERT OR REPLACE INTO config(key, value) VALUES ('ladder_pairs', '2')")
    assert ladder.schedule(store) == 20
    rows = store.rows("SELECT * FROM games WHERE stage = 'ladder' ORDER BY id")
    pairings = Counter(r["pairing"] for r in rows)
    assert pairings == {"sub:1 vs ref:r": 4, "sub:1 vs ref:f": 4, "sub:1 vs sub:2": 4, "sub:2 vs ref:r": 4,
                        "sub:2 vs ref:f": 4}
    for pairing in pairings:
        games = [r for r in rows if r["pairing"] == pairing]
        new, opp = pairing.split(" vs ")
        assert [(g["first"], g["second"]) for g in games] == [(new, opp), (opp, new)] * 2
        assert games[0]["opening"] == games[1]["opening"] and games[2]["opening"] == games[3]["opening"]
        assert len({g["seed"] for g in games}) == 4
    order = [r["pairing"].split(" vs ")[1] for r in rows if r["pairing"].startswith("sub:2 ")]
    assert order[:8] == ["ref:r"] * 4 + ["ref:f"] * 4  # bob's games against the references first


def test_a_student_without_an_entry_is_listed_even_when_a_reference_has_their_name(tmp_path) -> None:
    # catches: the reference names taken for students who have an entry, so a roster student named as a
    # reference (nothing forbids it) drops out of results.csv instead of its row with 0 points
    store = make_contest(tmp_path / "c", {"ann": source("first")}, references=[{"name": "random", "spec": "random"}],
                         absent=("bob", "random"))
    conn = standings.connect(store)
    try:
        rows = absent_rows(conn, field(conn))
    finally:
        conn.close()
    assert [(r["name"], r["kind"], r["rank"], r["points"], r["games"]) for r in rows] == \
        [("bob", "student", None, 0, 0), ("random", "student", None, 0, 0)]


def test_an_elo_table_gives_the_points_of_the_highest_threshold_reached_even_when_they_are_fewer() -> None:
    """docs/contest.md: "the points of the highest threshold the student's rating reaches"; a table whose points
    fall (0 -> 5, 100 -> 3) gave 150 Elo above the anchor the 5 of a lower threshold (the largest points)."""
    from zerosum.contest.final import grade_rows
    from zerosum.contest.standings import Entry, standing_rows

    entries = [Entry("ref:r", "r"), Entry("sub:1", "ann", 1), Entry("sub:2", "bob", 2), Entry("sub:3", "cy", 3)]
    games = []  # ann beats everyone, bob beats r and cy, cy loses to all: ann far above r, bob above, cy below
    for first, second, times in (("sub:1", "ref:r", 3), ("sub:1", "sub:2", 3), ("sub:1", "sub:3", 3),
                                 ("sub:2", "ref:r", 1), ("ref:r", "sub:2", 1), ("sub:2", "sub:3", 3), ("ref:r", "sub:3", 3)):
        games += [{"first": first, "second": second, "result": "1-0", "reason": "", "forfeit": 0}] * times
    rows = standing_rows(entries, games)
    rating = {r["name"]: r["rating"] for r in rows}
    assert rating["ann"] - rating["r"] >= 100 and 0 <= rating["bob"] - rating["r"] < 100 and rating["cy"] < rating["r"]
    grade_rows(rows, table=("elo", [(0.0, 5.0), (100.0, 3.0)]), anchor="ref:r")
    assert {r["name"]: r["points"] for r in rows if r["kind"] == "student"} == {"ann": 3.0, "bob": 5.0, "cy": 0.0}
