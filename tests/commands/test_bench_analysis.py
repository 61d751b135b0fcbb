"""``zerosum bench analysis`` and its sampler of quiet positions (:mod:`zerosum.solver.sampling`)."""

from __future__ import annotations

import re

import pytest

from zerosum.cli import main
from zerosum.errors import InvalidSpecError, UsageError
from zerosum.games import get_game
from zerosum.solver.sampling import is_quiet, quiet_positions, safe_moves
from zerosum.analysis import service

GAME = get_game("connect4")


def brute_force_quiet(game, state) -> bool:
    """Quiet by the plain game API: not over, and after every legal move no reply of the opponent wins."""
    if game.is_terminal(state):
        return False
    for move in game.actions(state):
        child = game.result(state, move)
        for reply in game.actions(child):
            if game.winner(game.result(child, reply)) is not None:
                return False
    return True


def test_sampling_is_reproducible_by_seed() -> None:
    first = [GAME.to_moves(s) for s in quiet_positions(GAME, 9, 8, seed=3)]
    again = [GAME.to_moves(s) for s in quiet_positions("connect4", 9, 8, seed=3)]
    other = [GAME.to_moves(s) for s in quiet_positions(GAME, 9, 8, seed=4)]
    assert first == again
    assert first != other
    assert quiet_positions(GAME, 9, 3, seed=3) == quiet_positions(GAME, 9, 8, seed=3)[:3]  # a larger count extends


@pytest.mark.parametrize("spec, plies", [("connect4", (0, 1, 5, 10, 21, 39)), ("connect4-5x7", (2, 9, 32)),
                                         ("connectx:rows=4,cols=5,k=3", (3, 6, 9))])
def test_every_sampled_position_is_quiet_at_its_ply(spec: str, plies: tuple[int, ...]) -> None:
    game = get_game(spec)
    for ply in plies:
        states = quiet_positions(game, ply, 6, seed=1)
        assert states, (spec, ply)
        assert len({(s.current, s.mask) for s in states}) == len(states)  # distinct positions
        for state in states:
            assert state.ply == ply == len(game.to_moves(state))
            assert game.from_moves(game.to_moves(state)) == state
            assert brute_force_quiet(game, state), (spec, game.to_moves(state))


def test_is_quiet_agrees_with_brute_force_on_random_positions() -> None:
    import random

    rng = random.Random(7)
    seen = {True: 0, False: 0}
    for _ in range(400):
        state = GAME.initial_state
        for _ in range(rng.randrange(0, 30)):
            moves = GAME.actions(state)
            if not moves:
                break
            state = GAME.result(state, rng.choice(moves))
        quiet = brute_force_quiet(GAME, state)
        assert is_quiet(GAME, state) == quiet, GAME.to_moves(state)
        seen[quiet] += 1
    assert seen[True] > 20 and seen[False] > 20  # both kinds were checked


def test_safe_moves_neither_win_nor_hand_a_win() -> None:
    # the first player has 4, 5, 6 on the bottom row (wins at 3 or 7); the second has three in column 1
    state = GAME.from_moves("415161")
    assert safe_moves(GAME, state) == [0]  # 3 and 7 win (the game would end), 2, 4, 5, 6 let column 1 win
    assert not is_quiet(GAME, state) and not brute_force_quiet(GAME, state)
    for move in safe_moves(GAME, GAME.from_moves("4455")):
        child = GAME.result(GAME.from_moves("4455"), move)
        assert GAME.winner(child) is None
        assert not any(GAME.winner(GAME.result(child, r)) for r in GAME.actions(child))


def test_only_the_existing_quiet_positions_come_back() -> None:
    assert len(quiet_positions(GAME, 0, 5)) == 1  # the empty board
    assert sorted(s.mask for s in quiet_positions(GAME, 1, 50)) == sorted(GAME.result(GAME.initial_state, c).mask
                                                                         for c in range(7))


def test_sampler_refuses_bad_arguments() -> None:
    for ply, count in ((-1, 1), (42, 1), (5, 0), (5, 100_001), (True, 1), (5, 2.0)):
        with pytest.raises(UsageError):
            quiet_positions(GAME, ply, count)
    with pytest.raises(InvalidSpecError):
        quiet_positions("tictactoe", 1, 1)


@pytest.mark.parametrize("argv, needle", [
    (["--plies", "5-3"], "5-3"),
    (["--plies", "x"], "'x'"),
    (["--plies", "5-"], "5-"),
    (["--plies", "-3"], "-3"),
    (["--plies", "40-42"], "40-42"),
    (["--game", "connect4-5x7", "--plies", "35"], "35"),
    (["--per-ply", "0"], "--per-ply"),
    (["--per-ply", "1001"], "--per-ply"),
    (["--seed", "-1"], "--seed"),
    (["--tt-log-size", "40"], "--tt-log-size"),
    (["--game", "tictactoe"], "tictactoe"),
    (["--game", "connectx:rows=15,cols=9,k=4"], "rows=15"),
])
def test_bad_bench_analysis_options_are_one_line_errors(capsys, argv: list[str], needle: str) -> None:
    assert main(["bench", "analysis", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and needle in captured.err, captured.err
    assert "| ply |" not in captured.out  # refused before any analysis


def test_bench_analysis_prints_the_table(capsys) -> None:
    assert main(["bench", "analysis", "--plies", "30-31", "--per-ply", "2", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "command: zerosum bench analysis --game connectx:rows=6,cols=7,k=4 --plies 30-31 --per-ply 2 --seed 5" in out
    assert re.search(r"^load at start: \d+\.\d\d ", out, re.M) and re.search(r"^load at end: \d+\.\d\d ", out, re.M)
    assert "| ply | positions | p50 s | p90 s | max s | mean nodes | exact | fallbacks |" in out
    rows = re.findall(r"^\| (\d+) \| (\d+) \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d,]+ \| (\w+) \| (\d+) \|$", out, re.M)
    assert rows == [("30", "2", "yes", "0"), ("31", "2", "yes", "0")]


def test_bench_analysis_progressive_times_the_faces_slices_to_the_same_exact_scores(capsys) -> None:
    argv = ["bench", "analysis", "--plies", "26-27", "--per-ply", "3", "--seed", "2", "--threads", "2"]
    for extra in ([], ["--progressive"]):
        assert main([*argv, *extra]) == 0
        out = capsys.readouterr().out
        assert ("--seed 2 --progressive --threads 2" in out) == bool(extra)
        rows = re.findall(r"^\| (\d+) \| (\d+) \| ([\d.]+) \| ([\d.]+) \| [\d.]+ \| ([\d,]+) \| (\w+) \| (\d+) \|"
                          r"(?: ([\d.]+) \| ([\d.]+) \|)?$", out, re.M)
        assert [(ply, n, exact) for ply, n, _, _, _, exact, _, _, _ in rows] == [("26", "3", "yes"), ("27", "3", "yes")]
        # --progressive: when every column had its win, draw or loss, never after its exact scores
        assert ("| wdl p50 s | wdl p90 s |" in out) == bool(extra)
        for _, _, p50, p90, _, _, _, wdl50, wdl90 in rows:
            assert bool(wdl50) == bool(extra)
            assert not extra or (float(wdl50) <= float(p50) and float(wdl90) <= float(p90))


def test_bench_analysis_without_the_book_leaves_the_faces_solver_alone(capsys) -> None:
    before = service(GAME).solver
    assert main(["bench", "analysis", "--plies", "33", "--per-ply", "1", "--no-book", "--tt-log-size", "16"]) == 0
    out = capsys.readouterr().out
    assert "table of 65,536 entries, book: none" in out and "--no-book --tt-log-size 16" in out
    assert service(GAME).solver is before


@pytest.mark.parametrize("seed", ["0", str(2**62)])
def test_bench_analysis_accepts_the_documented_seeds_at_both_ends(capsys, seed: str) -> None:
    assert main(["bench", "analysis", "--plies", "38", "--per-ply", "1", "--seed", seed]) == 0
    out = capsys.readouterr().out
    assert f"--seed {seed}" in out and re.search(r"^\| 38 \| 1 \| ", out, re.M), out


@pytest.mark.parametrize("seed", ["-1", str(2**62 + 1)])
def test_bench_analysis_refuses_a_seed_one_past_either_end(capsys, seed: str) -> None:
    assert main(["bench", "analysis", "--plies", "38", "--per-ply", "1", "--seed", seed]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--seed" in err and f"0..{2**62}" in err, err
