"""An agent without a game has no rating, rank or grade, and agents of equal Elo share a rank.

The truth: results files written here game by game (``Store``, results chosen by the test), and the ratings
worked out by hand: two agents that met, with the one virtual draw of the prior, have the closed-form
maximum-likelihood ratings ``+-200 log10((W + D/2 + 1/2) / (L + D/2 + 1/2))``, whatever other agent the run
holds without a game.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re

import pytest
from rich.console import Console

from zerosum.arena.grading import grade_points, grades_table, ranking, write_ranking
from zerosum.arena.match import ArenaConfig
from zerosum.arena.plan import labels_for, pairings, plan_games
from zerosum.arena.plots import ranking_marks
from zerosum.arena.report import Report, Standing, print_tables, standing_ranks, summarize
from zerosum.arena.stats import competition_ranks, rating_errors, ratings, same_elo
from zerosum.arena.store import GameRecord, Store
from zerosum.errors import UsageError


def results_file(path, agents, scores, mode="round-robin", games=2):
    """A results file of ``agents`` holding, for each pairing, the games ``scores[pairing]`` (the pairing's
    first agent's score in each, game by game); the other planned games are not stored (a killed run)."""
    config = ArenaConfig(game="tictactoe", agents=agents, games=games, mode=mode)
    plan = plan_games(config)
    pairs = pairings(mode, len(agents))
    seen: dict[int, int] = {}
    with Store(path, create=True) as store:
        store.initialise(config.to_json(), list(zip(labels_for(agents), agents)), plan)
        for g in plan:
            k = seen.get(g.pairing, 0)
            if k >= len(scores.get(g.pairing, [])):
                continue
            seen[g.pairing] = k + 1
            s_a = scores[g.pairing][k]
            s_first = s_a if g.first == pairs[g.pairing][0] else 1.0 - s_a
            result = {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[s_first]
            store.add_game(GameRecord(g.idx, result, None, "three in a row" if s_first != 0.5 else "board full", False))
    return path


def report_of(path):
    with Store(path) as store:
        return summarize(store)


def by_hand(wins, draws, losses):
    """The two ratings of a pairing alone (mean 0), one virtual draw added: the closed form."""
    half = 200.0 * math.log10((wins + draws / 2 + 0.5) / (losses + draws / 2 + 0.5))
    return half, -half


def text_of(report, width=200):
    console = Console(file=io.StringIO(), width=width, color_system=None)
    print_tables(report, console)
    return console.file.getvalue()


# ---- an agent without a game -------------------------------------------------------------------------


def test_ratings_leave_an_agent_without_games_out_of_the_mean():
    results = [(1, 0, 1.0), (0, 1, 0.0)]  # agent 1 won both games against agent 0; agent 2 played none
    three = ratings(3, results)
    assert math.isnan(three[2])
    first, random = by_hand(2, 0, 0)
    assert three[1] == pytest.approx(first, abs=1e-6) and three[0] == pytest.approx(random, abs=1e-6)
    assert ratings(2, results) == pytest.approx(three[:2], abs=1e-9)
    errors = rating_errors(3, results, three)
    assert math.isnan(errors[2]) and errors[:2] == pytest.approx(rating_errors(2, results, three[:2]))
    assert all(math.isnan(x) for x in ratings(2, []))


@pytest.fixture
def killed(tmp_path):
    """A round robin killed after two games: first beat random twice; alphabeta:depth=1 never played."""
    return report_of(results_file(tmp_path / "z3.db", ["random", "first", "alphabeta:depth=1"], {0: [0.0, 0.0]}))


def test_an_agent_without_games_has_no_elo_no_rank_and_does_not_move_the_others(killed):
    first, random = by_hand(2, 0, 0)
    assert [st.label for st in killed.standings] == ["first", "random", "alphabeta:depth=1"]
    assert standing_ranks(killed.standings) == [1, 2, None]
    elos = {st.label: st.elo for st in killed.standings}
    assert elos["first"] == pytest.approx(first, abs=0.05) and elos["random"] == pytest.approx(random, abs=0.05)
    assert math.isnan(elos["alphabeta:depth=1"])
    rows = ranking(killed, ("random", "first"))
    idle = rows[-1]
    assert idle["agent"] == "alphabeta:depth=1" and idle["games"] == 0
    assert idle["rank"] is None and idle["elo"] is None and idle["elo_low"] is None and idle["elo_high"] is None
    assert idle["grade"] is None and idle["score"] is None
    assert [(r["rank"], r["grade"]) for r in rows[:2]] == [(1, 10), (2, 0)]
    assert rows[0]["elo"] == round(first, 1)


def test_the_tables_and_files_show_no_figure_for_an_agent_without_games(killed, tmp_path):
    ranking_rows = text_of(killed).split("Ranking")[1].splitlines()
    idle = next(line for line in ranking_rows if "alphabeta:depth=1" in line)
    cells = [c.strip() for c in idle.split("│")[1:-1]]
    assert cells[0] == "-" and cells[2] == "-" and cells[3] == "-" and cells[4] == "0"
    grades = Console(file=io.StringIO(), width=200, color_system=None)
    grades.print(grades_table(ranking(killed, "random,first"), "random", "first"))
    text = grades.file.getvalue()
    idle = [c.strip() for c in next(line for line in text.splitlines() if "alphabeta" in line).split("│")[1:-1]]
    assert idle == ["-", "alphabeta:depth=1", "-", "-", "-"]
    assert "no game played, so no Elo and no grade" in " ".join(text.split())
    write_ranking(tmp_path / "r.csv", killed, "random,first")
    rows = list(csv.DictReader(open(tmp_path / "r.csv")))
    assert rows[-1]["agent"] == "alphabeta:depth=1"
    assert all(rows[-1][k] == "" for k in ("rank", "score", "elo", "elo_low", "elo_high", "grade"))
    write_ranking(tmp_path / "r.json", killed, "random,first")
    last = json.load(open(tmp_path / "r.json"))["ranking"][-1]
    assert last["rank"] is None and last["elo"] is None and last["grade"] is None
    assert [m.name for m in ranking_marks(killed)] == ["first", "random"]  # no bar without a rating


def test_a_match_without_games_prints_no_elo(tmp_path):
    report = report_of(results_file(tmp_path / "m.db", ["random", "first"], {}, mode="match"))
    text = text_of(report)
    assert not re.search(r"│\s*\+0\s*│", text)  # no Elo of +0 in any cell
    for label in ("random", "first"):
        row = next(line for line in text.split("Ranking")[1].splitlines() if f" {label} " in line)
        cells = [c.strip() for c in row.split("│")[1:-1]]
        assert cells[0] == "-" and cells[2] == "-", row
    assert all(r["elo"] is None and r["rank"] is None for r in ranking(report))


def test_grading_needs_low_and_high_to_have_played_and_gives_the_others_none():
    with pytest.raises(UsageError, match="played no game") as err:
        grade_points({"low": math.nan, "high": 100.0}, "low", "high")
    assert "\n" not in str(err.value)
    points = grade_points({"low": -100.0, "high": 100.0, "idle": math.nan, "up": math.inf, "down": -math.inf},
                          "low", "high")
    assert points == {"low": 0, "high": 10, "idle": None, "up": 10, "down": 0}


# ---- ties ------------------------------------------------------------------------------------------------


def test_competition_ranks_share_a_place_and_skip_the_next():
    assert competition_ranks([5, 4, 4, 3, 3, 3, 1], lambda a, b: a == b) == [1, 2, 2, 4, 4, 4, 7]
    assert competition_ranks([], lambda a, b: True) == []
    assert same_elo(126.8 + 1e-12, 126.8) and not same_elo(126.8, 126.9)


def test_agents_with_the_same_record_share_their_rank(tmp_path):
    agents = ["random", "mcts:sims=20", "alphabeta:depth=2"]
    # random loses every game; mcts and alphabeta win one each against the other: the same record
    report = report_of(results_file(tmp_path / "t.db", agents, {0: [0.0, 0.0], 1: [0.0, 0.0], 2: [1.0, 0.0]}))
    assert [st.label for st in report.standings] == ["alphabeta:depth=2", "mcts:sims=20", "random"]
    assert standing_ranks(report.standings) == [1, 1, 3]
    rows = ranking(report, "random,alphabeta:depth=2")
    assert [(r["rank"], r["grade"]) for r in rows] == [(1, 10), (1, 10), (3, 0)]
    table = text_of(report).split("Ranking")[1]
    ranks = [line.split("│")[1].strip() for line in table.splitlines() if line.startswith("│")]
    assert ranks == ["1", "1", "3"]


def test_ratings_a_hair_apart_share_their_rank():
    standings = [Standing("b", games=4, elo=126.8 + 3e-11), Standing("a", games=4, elo=126.8),
                 Standing("c", games=4, elo=-253.6), Standing("d")]
    assert standing_ranks(standings) == [1, 1, 3, None]
    config = ArenaConfig(game="tictactoe", agents=["a", "b", "c", "d"], games=2, mode="round-robin")
    report = Report(config, 12, 6, [], standings, {}, {}, 5.0, 0.1, None)
    assert [r["rank"] for r in ranking(report)] == [1, 1, 3, None]
