"""The plan of games (fair colours, openings from both sides, reproducible) and openings files."""

import collections

import pytest

from zerosum import ConnectX, Migration, TicTacToe
from zerosum.arena.match import ArenaConfig, labels_for, pairings, plan_games
from zerosum.arena.openings import (
    format_opening,
    generate_openings,
    parse_opening,
    random_openings,
    read_openings,
    shipped_openings,
)
from zerosum.errors import GameError, IllegalMoveError


def config(**kw):
    base = dict(game="connect4", agents=["random", "first", "random:seed=3"], games=10, seed=1,
                mode="round-robin", openings=["44", "43", "35", "11"])
    base.update(kw)
    return ArenaConfig(**base)


def test_colours_balanced_and_openings_from_both_sides():
    cfg = config()
    plan = plan_games(cfg)
    assert len(plan) == 3 * 10  # three pairings of ten games
    assert [g.idx for g in plan] == list(range(30))
    firsts = collections.Counter(g.first for g in plan)
    seconds = collections.Counter(g.second for g in plan)
    assert firsts == seconds == {0: 10, 1: 10, 2: 10}
    by_pair = collections.defaultdict(list)
    for g in plan:
        by_pair[(g.pairing, g.round)].append(g)
    assert len(by_pair) == 15
    for games in by_pair.values():
        a, b = games
        assert a.opening == b.opening
        assert (a.first, a.second) == (b.second, b.first)
    # every pairing uses the same opening in the same round, and all openings appear
    for r in range(5):
        assert len({g.opening for g in plan if g.round == r}) == 1
    assert {g.opening for g in plan} == {"44", "43", "35", "11"}


def test_same_seed_same_plan_other_seed_other_plan():
    assert plan_games(config()) == plan_games(config())
    other = plan_games(config(seed=2))
    assert [g.seed for g in other] != [g.seed for g in plan_games(config())]
    assert len({g.seed for g in plan_games(config())}) == 30  # every game its own seed


def test_sequential_order_and_odd_games():
    plan = plan_games(config(mode="match", agents=["random", "first"], games=7, order="sequential"))
    assert len(plan) == 7
    assert [g.opening for g in plan] == ["44", "44", "43", "43", "35", "35", "11"]
    assert [g.first for g in plan] == [0, 1, 0, 1, 0, 1, 0]


def test_pairings_and_labels():
    assert pairings("match", 2) == [(0, 1)]
    assert pairings("round-robin", 3) == [(0, 1), (0, 2), (1, 2)]
    assert pairings("gauntlet", 4) == [(0, 1), (0, 2), (0, 3)]
    assert labels_for(["random", "random", "dir/a.py:f"]) == ["random", "random#2", "a.py:f"]


def test_config_json_round_trip():
    cfg = config(sprt=[0, 10, 0.05, 0.05], limits={"time": 0.5})
    assert ArenaConfig.from_json(cfg.to_json()) == cfg


def test_opening_notation_round_trip():
    for game, text in ((ConnectX(), "4453"), (TicTacToe(), "159"), (Migration(5), "1,0;4,1")):
        actions = parse_opening(game, text)
        assert format_opening(game, actions) == text
    assert parse_opening(Migration(5), "1,0>1,1;4,1>3,1") == parse_opening(Migration(5), "1,0;4,1")  # old form read
    wide = ConnectX(6, 12, 4)
    assert parse_opening(wide, "10,11") == (9, 10)
    assert format_opening(wide, (9, 10)) == "10,11"
    assert parse_opening(ConnectX(), "-") == ()


def test_bad_openings_are_refused(tmp_path):
    with pytest.raises(IllegalMoveError, match="column 8"):
        parse_opening(ConnectX(), "48")
    with pytest.raises(IllegalMoveError, match="ends the game"):
        parse_opening(ConnectX(), "1212121")
    path = tmp_path / "o.txt"
    path.write_text("# comment\n44 0\n\n4x\n")
    with pytest.raises(GameError, match="line 4"):
        read_openings(path, ConnectX())
    path.write_text("# nothing\n")
    with pytest.raises(GameError, match="no openings"):
        read_openings(path, ConnectX())
    with pytest.raises(GameError, match="not found"):
        read_openings(tmp_path / "missing.txt", ConnectX())


def test_random_openings_reproducible_open_and_distinct():
    game = ConnectX()
    a = random_openings(game, 20, 3, seed=5)
    assert a == random_openings(game, 20, 3, seed=5)
    assert a != random_openings(game, 20, 3, seed=6)
    assert len(set(a)) == 20 and all(len(o) == 3 for o in a)
    ttt = random_openings(TicTacToe(), 100, 2, seed=0)  # only 72 two-move openings exist: then repeats
    assert len(ttt) == 100 and len(set(ttt)) == 72
    mig = random_openings(Migration(5), 5, 2, seed=0)
    for o in mig:
        state = Migration(5).initial_state
        for a_ in o:
            state = Migration(5).result(state, a_)
        assert not Migration(5).is_terminal(state)


def test_generate_openings_counts_mirror_images_once():
    game = ConnectX()
    # 7 positions after one move, 4 up to mirror images; 49 after two moves (OEIS A212693), of which only
    # the one with both stones in the centre column is its own mirror image: (49 + 1) / 2 = 25
    assert len(generate_openings(game, 1, 0, evaluate=lambda s: 0)) == 4
    two = generate_openings(game, 2, 0, evaluate=lambda s: 0)
    assert len(two) == 25
    # the evaluator decides what is balanced: here the first stone's distance from the centre column
    kept = generate_openings(game, 1, 1, evaluate=lambda s: abs(int(game.to_moves(s)) - 4))
    assert sorted((format_opening(game, seq), score) for seq, score in kept) == [("3", 1), ("4", 0)]
    # any game is judged by a given evaluator (#22); only Connect-X folds mirror images
    assert len(generate_openings(TicTacToe(), 1, 0, evaluate=lambda s: 0)) == 9


def test_shipped_openings_file_is_balanced():
    path = shipped_openings(ConnectX())
    if path is None:
        pytest.skip("no shipped openings file yet")
    openings = read_openings(path, ConnectX())
    assert len(openings) >= 20
    text = path.read_text()
    assert "--with solver" in text.splitlines()[0]  # generated by the solver, as the header says
    scores = [int(line.split()[1]) for line in text.splitlines() if line and not line.startswith("#")]
    assert len(scores) == len(openings) and max(abs(s) for s in scores) <= 2
    assert len(set(openings)) == len(openings)
    assert shipped_openings(ConnectX(8, 8, 4)) is None


@pytest.mark.slow
def test_shipped_openings_scores_are_the_solvers():
    pytest.importorskip("zerosum.solver.search")
    from zerosum import Solver

    path = shipped_openings(ConnectX())
    if path is None:
        pytest.skip("no shipped openings file yet")
    lines = [l.split() for l in path.read_text().splitlines() if l and not l.startswith("#")]
    solver = Solver()
    for moves, score in lines[:: max(1, len(lines) // 4)]:  # a few of them: each takes seconds
        assert solver.solve(moves) == int(score), moves


def test_generate_openings_sample_is_a_seeded_subset():
    game = ConnectX()
    every = {seq for seq, _ in generate_openings(game, 2, 0, evaluate=lambda s: 0)}
    some = generate_openings(game, 2, 0, evaluate=lambda s: 0, sample=10, seed=4)
    assert len(some) == 10 and {seq for seq, _ in some} <= every
    assert some == generate_openings(game, 2, 0, evaluate=lambda s: 0, sample=10, seed=4)
    assert some != generate_openings(game, 2, 0, evaluate=lambda s: 0, sample=10, seed=5)


def test_balanced_openings_are_for_the_games_the_solver_takes():
    from zerosum import get_game
    from zerosum.arena.openings import balanced_game, has_balanced_openings, max_plies

    solver = pytest.importorskip("zerosum.solver.solver")
    for spec in ("connect4", "connectx:rows=4,cols=5,k=3", "connectx:rows=8,cols=8,k=4", "tictactoe", "migration:n=5"):
        game = get_game(spec)
        judged = solver.supports(game) and game.cols * (game.rows + 1) <= 64  # early 8 x 8: hours a position
        assert has_balanced_openings(game) is judged  # the solver answers, nobody else
        if not judged:
            with pytest.raises(GameError, match="solver"):
                generate_openings(game, 1, 0)  # no evaluator: the solver's, which does not take the game
        else:
            assert balanced_game(game) == game
    assert has_balanced_openings(get_game("connect4")) and not has_balanced_openings(get_game("tictactoe"))
    # the longest openings are what they were when each game was named here
    assert [max_plies(get_game(s)) for s in ("connect4", "tictactoe", "migration", "othello")] == [41, 8, 100, 63]


def test_shipped_openings_belong_to_connect_four_by_any_name():
    from zerosum import get_game

    assert shipped_openings(get_game("connectx:rows=6,cols=7,k=4")) == shipped_openings(get_game("connect4"))
    assert shipped_openings(get_game("connectx:rows=7,cols=7,k=4")) is None
    assert shipped_openings(TicTacToe()) is None
