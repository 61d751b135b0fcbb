"""Adjudication in the arena (``--adjudicate solver`` / ``draw=N``): what it proves agrees with playing on,
matches store adjudicated games with the right result, and bad rules are refused up front."""

import json
import random
import sqlite3

import pytest
from test_runs import rows  # the arena tests' helpers (tests/arena/test_runs.py)

from zerosum.analysis import prove
from zerosum.arena.adjudicate import (
    DEFAULT_SOLVER_NODES,
    TABLE_SIZE,
    Judge,
    describe_adjudication,
    parse_adjudicate,
)
from zerosum.arena.match import ArenaConfig
from zerosum.arena.opening_files import parse_opening, play_opening
from zerosum.cli import main
from zerosum.errors import InvalidFileError, UsageError
from zerosum.games import get_game

pytest.importorskip("numba")


def random_position(game, rng, lo, hi):
    """A position ``lo..hi`` random plies in, not over."""
    while True:
        state = game.initial_state
        for _ in range(rng.randrange(lo, hi + 1)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state):
            return state


def perfect(game, state, memo):
    """Brute force: (sign, plies to the end) for the side to move under perfect play (the fastest win, the
    slowest loss), by the game's own rules."""
    key = (state.current, state.mask)
    if key not in memo:
        best = None
        for action in game.actions(state):
            child = game.result(state, action)
            if game.outcome(child) is not None:
                v = (1 if child.won_by else 0, 1)
            else:
                s, p = perfect(game, child, memo)
                v = (-s, p + 1)
            rank = (v[0], -v[1] if v[0] > 0 else v[1] if v[0] < 0 else 0)
            if best is None or rank > best[0]:
                best = (rank, v)
        memo[key] = best[1]
    return memo[key]


def adjudicator(game):
    from zerosum.solver.solver import Solver

    return Solver(game, tt_size=TABLE_SIZE, book=False)


def test_solver_adjudication_agrees_with_perfect_play_on_connect_four():
    """200 random mid-game positions: whatever the adjudicator proves within its budget, the solver without
    a budget (and with its book) finds too, distance and all."""
    from zerosum.solver.solver import Solver
    from zerosum.values import plies_to_end, score_to_value

    game = get_game("connect4")
    adj, full = adjudicator(game), Solver(game)
    rng = random.Random(15)
    proven = distances = 0
    for i in range(200):
        state = random_position(game, rng, 8, 30)
        proof = prove(adj, state, 200_000 if i % 2 else DEFAULT_SOLVER_NODES)  # a large budget and the default
        if proof is None:
            continue
        proven += 1
        score = full.solve(state)
        assert proof[0] == (score > 0) - (score < 0), state
        if proof[1] is not None:
            distances += 1
            assert proof[1] == plies_to_end(score_to_value(score, state.ply, game.cells)), state
    assert proven >= 100 and distances >= 50  # the test checks something (random play decides games early)


@pytest.mark.parametrize("spec, lo, hi", [("connectx:rows=4,cols=5,k=4", 6, 16), ("connectx:rows=4,cols=4,k=3", 0, 8)])
def test_solver_adjudication_agrees_with_brute_force_on_small_boards(spec, lo, hi):
    game = get_game(spec)
    adj = adjudicator(game)
    rng = random.Random(4)
    memo: dict = {}
    seen = {True: 0, False: 0}
    for i in range(100):
        state = random_position(game, rng, lo, hi)
        proof = prove(adj, state, 1_000 if i % 2 else 20_000)
        seen[proof is not None] += 1
        if proof is not None:
            sign, plies = perfect(game, state, memo)
            assert proof[0] == sign and proof[1] in (None, plies), (spec, state, proof, (sign, plies))
    assert seen[True] >= 50


def test_judge_names_the_winner_and_the_draw_rule():
    game = get_game("connect4")
    judge = Judge(game, {"solver": DEFAULT_SOLVER_NODES})
    state = game.from_moves("445566")  # player 1 to move, with three in a row open at both ends
    assert game.player(state) == 1
    assert judge(state, 1) == (1, "adjudicated: solver proved a win for the first player in 1 ply")
    state = game.from_moves("4455661")  # player 2 to move cannot stop both ends: a loss for 2, in 2 plies
    assert judge(state, 1) == (1, "adjudicated: solver proved a win for the first player in 2 plies")
    draw = Judge(game, {"draw": 3})
    assert draw(game.from_moves("44"), 2) is None
    assert draw(game.from_moves("44"), 3) == (None, "adjudicated: draw after 3 moves")


def test_parse_adjudicate_rules():
    assert parse_adjudicate([]) is None
    assert parse_adjudicate(["solver"]) == {"solver": DEFAULT_SOLVER_NODES}
    assert parse_adjudicate(["solver=5000", "draw=60"]) == {"solver": 5000, "draw": 60}
    assert describe_adjudication({"solver": 5000, "draw": 60}) == "adjudication: solver (5,000 nodes a check), draw after 60 moves"
    for bad in (["solver=5"], ["solver=abc"], ["draw"], ["draw=0"], ["draw=10001"], ["tablebase"], ["solver", "solver=9000"],
                ["solver=1e6"], [""]):
        with pytest.raises(UsageError):
            parse_adjudicate(bad)


@pytest.mark.parametrize("argv", [
    ["--game", "tictactoe", "--adjudicate", "solver"],  # not Connect-X
    ["--game", "connectx:rows=15,cols=9,k=4", "--adjudicate", "solver"],  # 144 bits
    ["--adjudicate", "solver=5"],
    ["--adjudicate", "draw=-1"],
    ["--adjudicate", "draw=x"],
    ["--adjudicate", "resign"],
    ["--adjudicate", "draw=5", "--adjudicate", "draw=6"],
])
def test_bad_adjudication_is_one_line_and_writes_nothing(tmp_path, capsys, argv):
    db = tmp_path / "adj.db"
    assert main(["match", "random", "random", *argv, "--out", str(db)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--adjudicate" in err
    assert not db.exists()


def test_stored_rules_are_checked():
    base = {"game": "connect4", "agents": ["random", "random"], "games": 2}
    assert ArenaConfig.from_json({**base, "adjudicate": {"draw": 40}}).adjudicate == {"draw": 40}
    for bad in ({"solver": 9}, {"draw": 1.5}, {"resign": 3}, {}, ["solver"]):
        with pytest.raises(InvalidFileError, match="'adjudicate'"):
            ArenaConfig.from_json({**base, "adjudicate": bad})


def test_match_stores_adjudicated_games_with_the_proven_result(tmp_path, capsys):
    from zerosum.solver.solver import Solver

    db = tmp_path / "adj.db"
    assert main(["match", "alphabeta:depth=2", "random", "--games", "4", "--jobs", "2", "--adjudicate", "solver",
                 "--out", str(db)]) == 0
    assert f"adjudication: solver ({DEFAULT_SOLVER_NODES:,} nodes a check)" in capsys.readouterr().out  # the header
    game, full = get_game("connect4"), Solver("connect4")
    got = rows(db, "SELECT p.opening, g.moves, g.result, g.reason, g.forfeit FROM games g JOIN plan p USING (idx)")
    assert len(got) == 4
    adjudicated = 0
    for opening, moves, result, reason, forfeit in got:
        assert forfeit == 0
        state = play_opening(game, parse_opening(game, opening))
        for move in json.loads(moves):
            state = game.result(state, game.parse_action(move))
        if not reason.startswith("adjudicated"):
            assert game.outcome(state) is not None  # played to the end
            continue
        adjudicated += 1
        score = full.solve(state)  # the truth, without a budget
        winner = None if score == 0 else game.player(state) if score > 0 else 3 - game.player(state)
        assert result == {1: "1-0", 2: "0-1", None: "1/2-1/2"}[winner]
        assert ("draw" in reason) == (winner is None)
        assert winner is None or ("first" if winner == 1 else "second") in reason
    assert adjudicated >= 1
    config = json.loads(rows(db, "SELECT value FROM meta WHERE key = 'config'")[0][0])
    assert config["adjudicate"] == {"solver": DEFAULT_SOLVER_NODES}


def test_draw_rule_ends_undecided_games_after_n_moves(tmp_path):
    db = tmp_path / "draw.db"
    assert main(["match", "random", "random", "--game", "tictactoe", "--games", "6", "--jobs", "2",
                 "--adjudicate", "draw=3", "--out", str(db), "--quiet"]) == 0
    got = rows(db, "SELECT moves, result, reason, forfeit FROM games")
    assert len(got) == 6
    for moves, result, reason, forfeit in got:
        n = len(json.loads(moves))
        assert n <= 3 and forfeit == 0
        if reason.startswith("adjudicated"):
            assert (n, result, reason) == (3, "1/2-1/2", "adjudicated: draw after 3 moves")
    assert any(r.startswith("adjudicated") for _, _, r, _ in got)


def test_resumed_run_keeps_its_rules(tmp_path):
    db = tmp_path / "resume.db"
    argv = ["match", "random", "random", "--game", "tictactoe", "--games", "2", "--jobs", "1", "--out", str(db), "--quiet"]
    assert main([*argv, "--adjudicate", "draw=2", "--tc", "30+1"]) == 0
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM games WHERE idx = 1")
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 0
    got = rows(db, "SELECT idx, reason FROM games ORDER BY idx")
    assert [i for i, _ in got] == [0, 1]
    assert all(r == "adjudicated: draw after 2 moves" or not r.startswith("adjudicated") for _, r in got)
    config = json.loads(rows(db, "SELECT value FROM meta WHERE key = 'config'")[0][0])
    assert config["adjudicate"] == {"draw": 2} and config["tc"] == [30.0, 1.0]


@pytest.mark.slow
def test_adjudication_with_the_ray_backend(tmp_path):
    ray = pytest.importorskip("ray")
    db = tmp_path / "ray.db"
    try:
        code = main(["match", "alphabeta:depth=2", "random", "--games", "2", "--adjudicate", "solver",
                     "--backend", "ray", "--jobs", "2", "--out", str(db), "--quiet"])
    finally:
        ray.shutdown()
    assert code == 0
    got = rows(db, "SELECT reason, forfeit FROM games")
    assert len(got) == 2 and all(f == 0 for _, f in got)
