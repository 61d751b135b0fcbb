"""Figures a mutation audit found unchecked, each held to a hand computation or a textbook formula: the
ratings' 95% half-widths with the prior draws every report uses, the ranking file's Elo interval, the plotted
score interval, the printed LOS, which agent a move's time and nodes are credited to after an odd-length
opening, the grading bands at LOW's own Elo, and the grace of a cold first move kept off the game clock."""

from __future__ import annotations

import csv
import json
import math
import sqlite3
from pathlib import Path

import pytest
from test_report_layout import one_pairing, render  # the report tests' helpers (tests/arena/test_report_layout.py)

from zerosum.arena.grading import grade_points, write_ranking
from zerosum.arena.report import summarize
from zerosum.arena.stats import los, rating_errors, ratings, score_interval, trinomial
from zerosum.arena.store import Store
from zerosum.cli import main

Z = 1.959963984540054  # the 97.5% point of the standard normal (textbook tables: 1.96)
SCALE = Z * 400 / math.log(10)  # Elo points per unit of the logistic model's natural log-odds, times Z


def two_agent_half_width(games: float, p: float) -> float:
    """By hand, for two agents: the information on the difference is ``n p (1 - p)``; each rating is half the
    difference (ratings centre on 0), so its standard error is half the difference's."""
    return SCALE * 0.5 / math.sqrt(games * p * (1 - p))


# ---- ratings with the prior draws every report uses ----------------------------------------------------------

def test_rating_errors_with_one_prior_draw_per_pairing_match_the_hand_formula():
    w, l = 7, 3
    results = [(0, 1, 1.0)] * w + [(0, 1, 0.0)] * l
    elos = ratings(2, results)  # the default: 1 virtual draw, half a win to each
    p = (w + 0.5) / (w + l + 1)  # by hand: 7.5 of 11
    assert elos[0] - elos[1] == pytest.approx(400 * math.log10(p / (1 - p)), rel=1e-9)
    for errors in (rating_errors(2, results, elos), rating_errors(2, results, elos, prior_draws=1.0)):
        assert errors[0] == pytest.approx(two_agent_half_width(w + l + 1, p), rel=1e-9)  # 11 games, not 12
        assert errors[1] == pytest.approx(errors[0], rel=1e-12)
    # all draws: p = 1/2, 4 games and the prior one -> 5 games' information
    drawn = [(0, 1, 0.5)] * 4
    errors = rating_errors(2, drawn, ratings(2, drawn))
    assert errors[0] == pytest.approx(SCALE * 0.5 / math.sqrt(5 * 0.25), rel=1e-9)  # 175.3 Elo points


# ---- the plotted score interval -------------------------------------------------------------------------------

def test_score_interval_of_mixed_results_is_the_normal_interval_by_hand():
    # 3 wins, 4 draws, 3 losses: mean 0.5, variance (3 * 0.25 + 3 * 0.25) / 10 = 0.15
    half = Z * math.sqrt(0.15 / 10)
    assert score_interval(trinomial(3, 4, 3)) == pytest.approx((0.5 - half, 0.5 + half), rel=1e-12)
    # 6 wins, 2 draws, 2 losses: mean 0.7, variance (6 * 0.09 + 2 * 0.04 + 2 * 0.49) / 10 = 0.16
    half = Z * math.sqrt(0.16 / 10)
    assert score_interval(trinomial(6, 2, 2)) == pytest.approx((0.7 - half, 0.7 + half), rel=1e-12)
    assert 0.7 + half < 1.0  # not clipped: the bound itself is checked


# ---- the printed LOS ----------------------------------------------------------------------------------------------

def test_the_printed_los_cell_is_the_textbook_likelihood_of_superiority():
    report = one_pairing((7, 0, 3), [0, 0, 1, 3, 1])
    report.pairings[0].los = los(7, 3)
    text, _ = render(report, 200)
    row = next(line for line in text.splitlines() if "first vs random" in line)
    cells = [c.strip() for c in row.split("│")]
    # LOS = Phi((W - L) / sqrt(W + L)) = Phi(4 / sqrt(10)) = Phi(1.2649) = 0.8971 (normal tables)
    assert 0.5 * (1 + math.erf(4 / math.sqrt(10) / math.sqrt(2))) == pytest.approx(0.8971, abs=1e-4)
    assert "89.7%" in cells and "10.3%" not in cells, cells


# ---- an odd-length opening: who made each stored move ------------------------------------------------------------

@pytest.fixture(scope="module")
def odd_opening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("odd") / "m.db"
    assert main(["match", "alphabeta:depth=1", "alphabeta:depth=5", "--game", "tictactoe", "--opening-plies", "1",
                 "--games", "4", "--jobs", "1", "--out", str(db), "--quiet"]) == 0
    return db


def _by_hand(db: Path) -> tuple[list[str], dict[str, list[float]], dict[str, list[float]], list[float]]:
    """Each stored move's mover from the board: in tic-tac-toe X (the first player) moves when an even number of
    stones stand, and the opening's stones stand before the stored moves; scores of the first agent listed."""
    con = sqlite3.connect(db)
    try:
        labels = [r[0] for r in con.execute("SELECT label FROM agents ORDER BY id")]
        times: dict[str, list[float]] = {a: [] for a in labels}
        nodes: dict[str, list[float]] = {a: [] for a in labels}
        scores = []
        for first, second, opening, result, t, n in con.execute(
                "SELECT p.first, p.second, p.opening, g.result, g.times, g.nodes FROM games g JOIN plan p USING (idx)"):
            stones = len(opening.split())
            assert stones == 1, opening  # one ply of opening: the second player makes the first stored move
            for k, (took, count) in enumerate(zip(json.loads(t), json.loads(n))):
                mover = labels[first] if (stones + k) % 2 == 0 else labels[second]
                times[mover].append(took)
                nodes[mover].append(count)
            s = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            scores.append(s if first == 0 else 1 - s)
    finally:
        con.close()
    return labels, times, nodes, scores


def test_after_an_odd_opening_each_agents_time_and_nodes_are_its_own(odd_opening):
    labels, times, nodes, _ = _by_hand(odd_opening)
    with Store(odd_opening) as store:
        report = summarize(store)
    by = {st.label: st for st in report.standings}
    for label in labels:
        assert by[label].nodes == pytest.approx(sum(nodes[label]) / len(nodes[label]), rel=1e-9), label
        assert by[label].move_ms == pytest.approx(1000 * sum(times[label]) / len(times[label]), rel=1e-6), label
    # independent of any bookkeeping: a depth-1 search of tic-tac-toe sees at most the root and its 8 children
    assert by["alphabeta:depth=1"].nodes <= 10 < by["alphabeta:depth=5"].nodes


def test_the_ranking_file_gives_elo_and_its_interval_by_hand(odd_opening, tmp_path):
    labels, _, _, scores = _by_hand(odd_opening)
    n, w = len(scores), sum(scores)
    p = (w + 0.5) / (n + 1)  # the first agent's share with the prior draw
    diff = 400 * math.log10(p / (1 - p))
    elo = {labels[0]: diff / 2, labels[1]: -diff / 2}
    half = two_agent_half_width(n + 1, p)
    out = tmp_path / "r.csv"
    write_ranking(out, odd_opening)
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 2
    for r in rows:
        e = elo[r["agent"]]
        assert float(r["elo"]) == round(e, 1) + 0.0, r
        assert float(r["elo_low"]) == pytest.approx(round(e - half, 1), abs=1e-9), r
        assert float(r["elo_high"]) == pytest.approx(round(e + half, 1), abs=1e-9), r
        assert float(r["elo_high"]) - float(r["elo_low"]) == pytest.approx(2 * half, abs=0.11), r


# ---- grading at LOW's own Elo ------------------------------------------------------------------------------------

def test_an_elo_equal_to_lows_but_for_its_last_bits_grades_0_and_a_band_edge_its_band():
    lo, hi = -300.0, 200.0
    same = math.nextafter(lo, 0.0)  # LOW's Elo, as another summation order would give it
    points = grade_points({"lo": lo, "hi": hi, "x": same, "y": math.nextafter(math.nextafter(lo, 0.0), 0.0)},
                          "lo", "hi")
    assert points == {"lo": 0, "hi": 10, "x": 0, "y": 0}
    # a band's upper edge, computed with rounding error, stays in that band: 0.1 + 0.2 = 0.30000000000000004
    assert grade_points({"lo": 0.0, "hi": 1.0, "x": 0.1 + 0.2}, "lo", "hi")["x"] == 3


# ---- the grace of a cold first move is not charged to the game clock ----------------------------------------------

SLOW_FIRST = '''
import os
import time
from pathlib import Path


def player(game, state):
    mark = Path(__file__).with_name(f"moved-{os.getpid()}")  # the agent is built afresh for each game: the
    if not mark.exists():  # process remembers, as its imports or a compile's cache would
        mark.touch()
        time.sleep(1.2)  # stands for imports or a compile on the first move in a new worker
    return game.actions(state)[0]
'''


def test_a_cold_first_move_within_the_grace_costs_no_clock(tmp_path):
    slow = tmp_path / "slow_first.py"
    slow.write_text(SLOW_FIRST)
    db = tmp_path / "g.db"
    assert main(["match", f"{slow}:player", "first", "--game", "tictactoe", "--tc", "0.6+0", "--games", "2",
                 "--opening-plies", "0", "--jobs", "1", "--out", str(db), "--quiet"]) == 0
    con = sqlite3.connect(db)
    try:
        games = con.execute("SELECT g.reason, g.forfeit, g.times FROM games g ORDER BY idx").fetchall()
    finally:
        con.close()
    assert len(games) == 2
    for reason, forfeit, _ in games:
        assert forfeit == 0 and "time" not in reason, reason  # 1.2 s within the 30 s grace: never off a 0.6 s clock
    assert max(max(json.loads(t)) for *_, t in games) >= 1.2  # the slow first move was made, and took its time
