"""The static bounds of :mod:`zerosum.solver.bounds` against true scores: claimeven never claims less than
a position is worth, and it does prove something often enough to matter."""

from __future__ import annotations

from solver_truth import brute_score, random_positions, read_bench  # type: ignore[import-not-found]

from zerosum import ConnectX
from zerosum.kernels.bits import line_masks
from zerosum.solver.bounds import NO_BOUND, claimeven_upper_py


def _bound(game: ConnectX, state) -> int:  # type: ignore[no-untyped-def]
    return claimeven_upper_py(state.current, state.mask, state.ply, game.rows, game.cols, game.k)


def test_claimeven_never_bounds_a_pons_position_below_its_score() -> None:
    game = ConnectX(6, 7, 4)
    proved = 0
    for moves, score in read_bench("Test_L3_R1") + read_bench("Test_L2_R1", limit=300):
        state = game.from_moves(moves)
        bound = _bound(game, state)
        assert score <= bound, (moves, score, bound)
        proved += bound != NO_BOUND
    assert proved >= 100  # the rule fires on a good share of them, so the check above means something


def test_claimeven_never_bounds_a_small_board_below_its_score() -> None:
    """Brute force on boards of even and odd height (claimeven pairs cells from each column's top):
    every position the brute force met, not only the sampled ones (65,000 of 4 x 4 from 4 stones on: every
    kind of bound and of position the 110,000 from 2 stones on held, in half the time).  (5 x 4: the next
    test, the same positions.)"""
    for rows, cols, k in ((4, 4, 4), (3, 4, 3)):
        game = ConnectX(rows, cols, k)
        memo: dict = {}
        for state in random_positions(game, 60, seed=rows * 10 + cols, min_ply=4):
            brute_score(game, state, memo)
        proved = 0
        for (current, mask), score in memo.items():
            bound = claimeven_upper_py(current, mask, bin(mask).count("1"), rows, cols, k)
            assert score <= bound, (rows, cols, current, mask, score, bound)
            proved += bound != NO_BOUND
        assert proved >= 10, (rows, cols, proved)


def test_claimeven_with_lines_right_above_the_others_never_bounds_below_its_score() -> None:
    """The refinement (a line of the side to move lying right above one of the other side's, in the same
    direction, completes only after it): brute force on 5 x 4, counting the positions it decides.  From 6
    stones on: 210,000 positions, 467 of them refined, each kind of bound (0, -1, -2; with and without a line
    of the side to move, vertical or not) as from 2 stones on, whose 750,000 took seven times as long."""
    rows, cols, k = 5, 4, 4
    game = ConnectX(rows, cols, k)
    memo: dict = {}
    for state in random_positions(game, 60, seed=54, min_ply=6):
        brute_score(game, state, memo)
    h = rows + 1
    bottom = sum(1 << (c * h) for c in range(cols))
    board = bottom * ((1 << rows) - 1)
    lines = line_masks(rows, cols, k)
    refined = 0
    for (current, mask), score in memo.items():
        bound = claimeven_upper_py(current, mask, bin(mask).count("1"), rows, cols, k)
        assert score <= bound, (current, mask, score, bound)
        theirs = (current ^ mask) | (board & ~mask & ((1 << h) // 3) * bottom & ~(mask + bottom))
        mine = board & ~theirs
        refined += bound != NO_BOUND and any(mine & line == line for line in lines)
    assert refined >= 100, refined  # the side to move had a line of its own in these, yet a bound is proved


def test_claimeven_proves_nothing_with_an_odd_number_of_empty_cells() -> None:
    game = ConnectX(6, 7, 4)
    assert _bound(game, game.from_moves("4")) == NO_BOUND  # 41 empty cells
    assert _bound(game, game.initial_state) == NO_BOUND  # the bottom row is the first player's


def test_claimeven_proves_no_win_a_late_loss_and_an_earlier_one() -> None:
    """0, -1, and below -1 when the other side's line tops out low (the scores are checked above)."""
    game = ConnectX(6, 7, 4)
    bounds = {_bound(game, game.from_moves(moves)) for moves, _ in read_bench("Test_L3_R1")}
    assert {0, -1} <= bounds and min(bounds) <= -2
