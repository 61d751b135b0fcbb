"""Gaps a mutation audit of the arena's statistics found (stats, grading, adjudicate, clock, plan, openings,
report): each test fails on a careless edit a user would notice, and is held to independent truth where there is
one (the SPRT's Wald bounds, the textbook LOS, counts of tic-tac-toe positions worked out by hand, the games a
results file holds).  Small synthetic results files and tiny games only: the whole file runs in a few seconds."""

from __future__ import annotations

import math
from itertools import combinations
from pathlib import Path

import pytest
from test_report_layout import one_pairing, render  # the report tests' helpers (tests/arena/test_report_layout.py)

from zerosum import get_game
from zerosum.arena.adjudicate import parse_adjudicate
from zerosum.arena.clock import move_budget
from zerosum.arena.grading import ranking_text, resolve_grade
from zerosum.arena.match import ArenaConfig
from zerosum.arena.openings import candidate_positions, format_value, generate_openings, has_balanced_openings
from zerosum.arena.plan import labels_for, opening_order, plan_games, planned_count
from zerosum.arena.report import summarize
from zerosum.arena.stats import Sprt
from zerosum.arena.store import GameRecord, Store
from zerosum.errors import InvalidFileError, UsageError


# ---- the SPRT's bounds, reached exactly ---------------------------------------------------------------------------

@pytest.mark.parametrize("alpha, beta", [(0.05, 0.05), (0.05, 0.1)])
def test_the_sprt_decides_at_its_bound_itself_not_only_beyond_it(alpha, beta):
    sprt = Sprt(0.0, 50.0, alpha, beta)
    upper, lower = math.log((1 - beta) / alpha), math.log(beta / (1 - alpha))  # Wald's bounds, by hand
    assert (sprt.upper, sprt.lower) == pytest.approx((upper, lower), rel=1e-15)
    assert sprt.decide(sprt.upper) == "H1" and sprt.decide(sprt.lower) == "H0"  # "at or above", "at or below"
    assert sprt.decide(math.nextafter(sprt.upper, 0.0)) is None
    assert sprt.decide(math.nextafter(sprt.lower, 0.0)) is None


def test_the_report_prints_walds_bounds_to_two_places():
    report = one_pairing((3, 2, 1), [0, 0, 1, 1, 1], sprt=[0.0, 50.0, 0.05, 0.1])
    text, _ = render(report, 200)
    # ln(0.1 / 0.95) = -2.2513 and ln(0.9 / 0.05) = ln 18 = 2.8904
    assert "SPRT elo0=0 elo1=50 alpha=0.05 beta=0.1: bounds [-2.25, 2.89], LLR " in text


def test_a_run_the_sprt_did_not_decide_prints_its_llr_so_far():
    """The LLR without a decision was shown only in the live bar at a terminal: a pipe, CI and `zerosum report`
    never saw it (audit).  Pairs 6 4 10 5 5 under 0,50: LLR -0.86 (the audit's figure, by hand)."""
    report = one_pairing((20, 20, 20), [6, 4, 10, 5, 5], sprt=[0.0, 50.0, 0.05, 0.05])
    text, _ = render(report, 200)
    assert "bounds [-2.94, 2.94], LLR -0.86 after 60 games: no decision (every game played)" in text
    report.planned = 100  # games still to play
    text, _ = render(report, 200)
    assert "bounds [-2.94, 2.94], LLR -0.86 after 60 games: no decision yet" in text
    report.played = 61  # a game whose pair is not in: the LLR is of the 30 pairs, and the line says so
    text, _ = render(report, 200)
    assert "bounds [-2.94, 2.94], LLR -0.86 after 30 pairs (61 games): no decision yet" in text


# ---- grading: a rule read two ways, and no grade column without a rule --------------------------------------------

def test_a_grade_rule_that_splits_two_ways_is_refused_not_guessed():
    labels = ["mcts:sims=10", "mcts:sims=10,c=2", "c=2,random", "random"]
    # "mcts:sims=10" | "c=2,random" and "mcts:sims=10,c=2" | "random" both name two agents
    with pytest.raises(UsageError, match="can be read 2 ways"):
        resolve_grade("mcts:sims=10,c=2,random", labels, labels)
    assert resolve_grade("mcts:sims=10,c=2,first", [*labels, "first"], [*labels, "first"]) == \
        ("mcts:sims=10,c=2", "first")  # one reading: taken


def test_a_ranking_csv_without_a_rule_has_no_grade_column():
    row = {"rank": 1, "agent": "a", "spec": "a", "points": 1.0, "games": 1, "score": 1.0, "wins": 1, "draws": 0,
           "losses": 0, "elo": 0.0, "elo_low": -1.0, "elo_high": 1.0, "forfeits": 0}
    header = ranking_text([row], "csv").splitlines()[0].split(",")
    assert header == list(row)
    assert ranking_text([{**row, "grade": 10}], "csv").splitlines()[0].split(",")[-1] == "grade"


# ---- adjudication and clock: the ends of the ranges, the cap only caps ----------------------------------------------

def test_adjudication_takes_the_ends_of_its_documented_ranges():
    # the ranges the message states: solver=NODES 10..100,000,000, draw=N 1..10,000
    assert parse_adjudicate(["solver=10", "draw=1"]) == {"solver": 10, "draw": 1}
    assert parse_adjudicate(["solver=100000000", "draw=10000"]) == {"solver": 100_000_000, "draw": 10_000}
    for bad in (["solver=9"], ["solver=100000001"], ["draw=0"], ["draw=10001"]):
        with pytest.raises(UsageError, match="out of range"):
            parse_adjudicate(bad)


def test_stored_adjudication_of_true_moves_is_refused():
    base = {"game": "connect4", "agents": ["random", "first"], "games": 2}
    for bad in ({"draw": True}, {"solver": 100, "draw": True}):  # True == 1 is in 1..10000 but is not a number of moves
        with pytest.raises(InvalidFileError, match="'adjudicate'"):
            ArenaConfig.from_json({**base, "adjudicate": bad})


def test_an_agents_own_time_caps_the_clocks_budget_but_never_raises_it():
    # 10 s left, no increment: 10 / 20 = 0.5 s; an own time= of 5 s must not raise it to 5 s
    assert move_budget(10.0, 0.0, cap=5.0) == pytest.approx(0.5)
    assert move_budget(10.0, 0.2, cap=5.0) == pytest.approx(0.7)  # 10 / 20 + 0.2
    assert move_budget(10.0, 0.2, cap=0.3) == pytest.approx(0.3)


# ---- the plan: counts, seeds and passes --------------------------------------------------------------------------

PLANS = [("match", 2), *((mode, n) for mode in ("round-robin", "gauntlet") for n in (2, 3, 4, 6))]


@pytest.mark.parametrize("mode, agents", PLANS)
def test_the_planned_count_is_the_number_of_planned_games(mode, agents):
    specs = [f"alphabeta:depth={d}" for d in range(1, agents + 1)]
    config = ArenaConfig(game="tictactoe", agents=specs, games=3, mode=mode)
    by_hand = {"match": 1, "gauntlet": agents - 1, "round-robin": len(list(combinations(range(agents), 2)))}[mode]
    assert planned_count(mode, agents, 3) == len(plan_games(config)) == 3 * by_hand


def test_a_match_of_three_agents_is_not_a_stored_configuration():
    with pytest.raises(InvalidFileError, match="'agents'"):
        ArenaConfig.from_json({"game": "connect4", "agents": ["random", "first", "random"], "games": 2})


def _config(seed: int, openings: int) -> ArenaConfig:
    return ArenaConfig(game="tictactoe", agents=["random", "first"], games=2, seed=seed,
                       openings=[str(i) for i in range(1, openings + 1)])


def test_the_random_opening_order_follows_the_seed():
    orders = {tuple(opening_order(_config(seed, 9), 9)) for seed in range(4)}
    assert all(sorted(o) == list(range(9)) for o in orders)  # each a permutation of the nine openings
    assert len(orders) == 4  # four seeds, four orders (9! of them to draw from)


def test_each_pass_over_the_openings_is_a_new_shuffle():
    order = opening_order(_config(0, 3), 30)
    passes = [tuple(order[i:i + 3]) for i in range(0, 30, 3)]
    assert all(sorted(p) == [0, 1, 2] for p in passes)  # every opening once a pass
    assert len(set(passes)) > 1  # not one shuffle repeated ten times


# ---- openings: open positions only, whole-number values, the seed's order, the widest judged board ------------------

def test_openings_five_plies_into_tictactoe_are_the_1140_open_boards():
    # by hand: 3 X and 2 O on 9 cells, C(9,3) C(6,2) = 1260 boards (all reachable: nobody can have won earlier);
    # X has three in a row on 8 lines x C(6,2) = 120 of them, finished games that are no opening
    game = get_game("tictactoe")
    positions = candidate_positions(game, 5)
    assert len(positions) == math.comb(9, 3) * math.comb(6, 2) - 8 * math.comb(6, 2) == 1140
    for seq in positions:
        state = game.initial_state
        for action in seq:
            state = game.result(state, action)
        assert not game.is_terminal(state), seq


def test_judged_values_are_written_as_whole_numbers_without_a_point():
    assert [format_value(v) for v in (0.0, -3.0, 2, 0.25)] == ["0", "-3", "2", "0.25"]


def test_count_keeps_the_first_openings_of_a_seeded_order():
    game = get_game("tictactoe")
    everything = {seq for seq, _ in generate_openings(game, 2, 0, evaluate=lambda s: 0)}
    kept = [frozenset(seq for seq, _ in generate_openings(game, 2, 0, evaluate=lambda s: 0, count=3, seed=seed))
            for seed in range(4)]
    assert all(len(k) == 3 and k <= everything for k in kept)
    assert len(set(kept)) > 1  # the seed draws them (the same seed, the same openings: checked elsewhere)


def test_the_solver_judges_boards_of_up_to_64_bits():
    # bits = cols x (rows + 1): 8 x 8 = 64 is the widest judged, 9 x 9 = 81 and 8 x 9 = 72 are not
    assert has_balanced_openings(get_game("connectx:rows=7,cols=8,k=4"))
    assert not has_balanced_openings(get_game("connectx:rows=8,cols=8,k=4"))
    assert has_balanced_openings(get_game("connectx:rows=6,cols=9,k=4"))  # 9 x 7 = 63


# ---- the report's pairing figures from a results file written game by game ---------------------------------------

def _results(path: Path, scores: list[float], games: int, plies: list[int] | None = None) -> Path:
    """A match of ``games`` games (random against first, tic-tac-toe) holding the first ``len(scores)`` planned games
    with the given scores from the view of the pairing's first agent (random), and ``plies[k]`` moves in game k."""
    config = ArenaConfig(game="tictactoe", agents=["random", "first"], games=games)
    plan = plan_games(config)
    with Store(path, create=True) as store:
        store.initialise(config.to_json(), list(zip(labels_for(config.agents), config.agents)), plan)
        for k, (g, s_a) in enumerate(zip(plan, scores)):
            s_first = s_a if g.first == 0 else 1.0 - s_a
            n = 9 if plies is None else plies[k]
            moves = [str(c) for c in range(1, n + 1)]
            store.add_game(GameRecord(g.idx, {1.0: "1-0", 0.0: "0-1", 0.5: "1/2-1/2"}[s_first], None, "board full",
                                      False, moves, [0.01] * n, [None] * n, [None] * n, [None] * n))
    return path


def _pairing(path: Path):
    with Store(path) as store:
        report = summarize(store)
    return report, report.pairings[0]


def test_only_whole_pairs_count_in_the_pentanomial(tmp_path):
    # rounds: (1, 1) -> WW, (0.5, 0) -> LD, then one game of the third round: no pair yet
    _, ps = _pairing(_results(tmp_path / "r.db", [1.0, 1.0, 0.5, 0.0, 1.0], 6))
    assert ps.pairs == [0, 1, 0, 0, 1]
    assert ps.penta is not None and ps.penta.n == 2 and ps.penta.score == pytest.approx((1.0 + 0.25) / 2)


def test_the_pairings_los_leaves_its_draws_out(tmp_path):
    # 3 wins, 4 draws, 1 loss: LOS = Phi((W - L) / sqrt(W + L)) = Phi(2 / 2) = Phi(1) = 0.8413 (normal tables)
    _, ps = _pairing(_results(tmp_path / "r.db", [1.0, 0.5, 1.0, 0.5, 0.5, 1.0, 0.5, 0.0], 8))
    assert (ps.wins, ps.draws, ps.losses) == (3, 4, 1)
    assert ps.los == pytest.approx(0.8413, abs=1e-4)


def test_the_mean_game_length_is_every_games_moves(tmp_path):
    report, _ = _pairing(_results(tmp_path / "r.db", [1.0, 0.0, 0.5, 1.0], 4, plies=[5, 6, 9, 7]))
    assert report.mean_plies == pytest.approx((5 + 6 + 9 + 7) / 4)
    text, _ = render(report, 200)
    assert "6.8 moves" in text
