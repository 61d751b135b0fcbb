"""The 128-bit search (``Solver(wide=...)``, :mod:`zerosum.kernels.wide`) against independent truth.

* Forced onto 7 x 6, it gives the scores AND node counts of the 64-bit search on Pascal Pons' six sets, and
  his published scores (a few positions of each set here; ``slow``: the first 60 of each).
* On small boards, every score agrees with a textbook negamax written here (grid cells, no bitboards).
* On 8 x 8, 9 x 7 and 7 x 9 (72 and 70 bits, chosen automatically) late positions agree with the same
  negamax, both through two-word table entries and with a table that keeps whole keys in one word.
* The 128-bit bit tricks agree with Python ints on random boards up to 128 bits.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from numba import njit

from zerosum import ConnectX
from zerosum.errors import InvalidSpecError, UsageError
from zerosum.kernels import bits
from zerosum.kernels.connectx import geometry_of, has_line, mirror, non_losing, popcnt, win_cells
from zerosum.kernels.wide import high_word, like, low_word, split, u128
from zerosum.solver.solver import Solver

from solver_truth import read_bench  # type: ignore[import-not-found]

#: positions of each Pons set: its first N, or those of the indices given (Test_L1_R3's first took 8.8 s for
#: the two paths; these two, 0.75 M and 0.8 M nodes, about 0.2 s)
SETS: dict[str, int | tuple[int, ...]] = {"Test_L3_R1": 6, "Test_L2_R1": 6, "Test_L2_R2": 5, "Test_L1_R1": 6,
                                          "Test_L1_R2": 4, "Test_L1_R3": (13, 25)}


def textbook_score(game: ConnectX, moves: list[int]) -> int:
    """The DESIGN.md score of the position after ``moves``, by plain negamax over a grid of cells (memoised,
    no pruning): a win with the stone of ply p scores (cells + 2 - p) // 2."""
    rows, cols, k = game.rows, game.cols, game.k
    grid = [[0] * rows for _ in range(cols)]  # grid[c][r]: 0 empty, else the player
    heights = [0] * cols
    for i, c in enumerate(moves):
        grid[c][heights[c]] = 1 + i % 2
        heights[c] += 1

    def wins(c: int, r: int, p: int) -> bool:
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                cc, rr = c + s * dc, r + s * dr
                while 0 <= cc < cols and 0 <= rr < rows and grid[cc][rr] == p:
                    n += 1
                    cc, rr = cc + s * dc, rr + s * dr
            if n >= k:
                return True
        return False

    memo: dict[tuple[tuple[int, ...], ...], int] = {}

    def value(ply: int) -> int:
        key = tuple(tuple(col) for col in grid)
        if key in memo:
            return memo[key]
        p = 1 + ply % 2
        best = None
        for c in range(cols):
            r = heights[c]
            if r == rows:
                continue
            if wins(c, r, p):
                best = (rows * cols + 1 - ply) // 2
                break
            grid[c][r], heights[c] = p, r + 1
            v = 0 if ply + 1 == rows * cols else -value(ply + 1)
            grid[c][r], heights[c] = 0, r
            best = v if best is None else max(best, v)
        memo[key] = 0 if best is None else best
        return memo[key]

    return value(len(moves))


def late_positions(game: ConnectX, n: int, empty: int, seed: int) -> list[list[int]]:
    """``n`` positions with ``empty`` empty cells reached by random moves that never complete a line, where
    the side to move cannot win at once (so the search has something to do)."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        state, moves = game.initial_state, []
        while game.cells - state.ply > empty:
            safe = [c for c in game.actions(state) if not game.result(state, c).won_by]
            if not safe:
                break
            c = rng.choice(safe)
            state, moves = game.result(state, c), moves + [c]
        if game.cells - state.ply == empty and all(not game.result(state, c).won_by for c in game.actions(state)):
            out.append(moves)
    return out


def _same_as_64(names: dict[str, int | tuple[int, ...]], weak: bool = False) -> None:
    for name, count in names.items():
        if isinstance(count, tuple):
            everyone = read_bench(name, max(count) + 1)
            positions = [everyone[i] for i in count]
        else:
            positions = read_bench(name, count)
        moves = [m for m, _ in positions]
        found = {}
        for wide in (False, True):
            solver = Solver(tt_size=1 << 20, book=False, wide=wide)
            found[wide] = (solver.solve_many(moves, weak=weak), solver.node_counts)
        truth = [(s > 0) - (s < 0) if weak else s for _, s in positions]
        assert found[True][0] == truth, name
        assert found[True] == found[False], name  # the same scores and the same nodes, position by position


def test_wide_on_7x6_equals_64_bits_on_pons_sets() -> None:
    _same_as_64(SETS)


def test_wide_on_7x6_equals_64_bits_weak() -> None:
    _same_as_64({"Test_L2_R2": 5, "Test_L1_R2": 3}, weak=True)


@pytest.mark.slow
def test_wide_on_7x6_equals_64_bits_on_pons_sets_slow() -> None:
    _same_as_64({name: 60 for name in SETS if name != "Test_L1_R3"} | {"Test_L1_R3": 15})


def test_wide_solve_one_and_analyze_equal_64_bits() -> None:
    narrow, wide = (Solver(tt_size=1 << 18, book=False, wide=w) for w in (False, True))
    # positions of Pons' Test_L1_R1 and Test_L2_R1 with their published scores (ply 4 took 13 s in all)
    for moves, score in (("32164625", 11), ("243335424257", 12), ("52753311433677442422121", 8)):
        assert wide.solve(moves) == narrow.solve(moves) == score
        assert wide.nodes == narrow.nodes
        assert wide.analyze(moves) == narrow.analyze(moves)
    assert repr(wide).endswith("wide=True)") and wide.wide and not narrow.wide


@pytest.mark.parametrize("rows,cols", [(4, 4), (4, 5), (5, 4)])
def test_wide_small_boards_against_textbook_negamax(rows: int, cols: int) -> None:
    game = ConnectX(rows, cols, 4)
    solver = Solver(game, tt_size=1 << 12, book=False, wide=True)
    rng = random.Random(rows * 10 + cols)
    for _ in range(20):
        moves = late_positions(game, 1, rng.randint(6, min(13, rows * cols - 2)), rng.randint(0, 10**6))[0]
        assert solver.solve(moves) == textbook_score(game, moves), moves


@pytest.mark.parametrize("spec,empty,seed", [("connectx:rows=8,cols=8,k=4", 12, 1),
                                             ("connectx:rows=7,cols=9,k=4", 12, 2),
                                             ("connectx:rows=9,cols=7,k=4", 12, 3), ("connect4-8x8", 14, 4)])
def test_past_64_bits_against_textbook_negamax(spec: str, empty: int, seed: int) -> None:
    solver = Solver(spec, tt_size=1 << 14, book=False)
    game = solver.game
    assert solver.wide and solver.table.ndim == 2  # a small table keeps the rest of each key in a second word
    for moves in late_positions(game, 6, empty, seed):
        assert solver.solve(moves) == textbook_score(game, moves), moves
        assert solver.solve(moves, weak=True) == np.sign(textbook_score(game, moves))
    moves = late_positions(game, 1, 10, seed + 100)[0]
    scores = solver.analyze(moves)
    for c in range(game.cols):
        if c in game.actions(game.from_moves(moves)):
            child = game.result(game.from_moves(moves), c)
            truth = (game.cells + 2 - child.ply) // 2 if child.won_by else -textbook_score(game, moves + [c])
            assert scores[c] == truth, (moves, c)


def test_choosing_the_width() -> None:
    assert not Solver(tt_size=1 << 10, book=False).wide
    with pytest.raises(InvalidSpecError, match="64"):
        Solver("connect4-8x8", tt_size=1 << 10, wide=False)
    with pytest.raises(InvalidSpecError, match="128"):
        Solver("connectx:rows=15,cols=9,k=4")  # 144 bits; 15 x 8 (128 bits) fits
    with pytest.raises(UsageError, match="wide"):
        Solver(tt_size=1 << 10, book=False, wide="yes")  # type: ignore[arg-type]


@njit(cache=True)
def _tricks(clo, chi, mlo, mhi, rows, cols, k):  # type: ignore[no-untyped-def]
    cur, msk = u128(clo, chi), u128(mlo, mhi)
    bottom, board = geometry_of(rows, cols, like(cur, 0))
    w = win_cells(cur, msk, rows + 1, k, board)
    opp = win_cells(cur ^ msk, msk, rows + 1, k, board)
    nl = non_losing(msk, opp, bottom, board)
    m = mirror(cur, rows + 1, cols)
    return (low_word(w), high_word(w), low_word(m), high_word(m), low_word(nl), high_word(nl), popcnt(msk),
            has_line(cur, rows, k))


def _join(lo: Any, hi: Any) -> int:
    return int(hi) << 64 | int(lo)


@pytest.mark.parametrize("rows,cols,k", [(8, 8, 4), (7, 9, 4), (9, 12, 5), (15, 8, 4), (5, 21, 3), (6, 7, 4)])
def test_128_bit_tricks_against_python_ints(rows: int, cols: int, k: int) -> None:
    rng = random.Random(rows * cols * k)
    h = rows + 1
    bottom = sum(1 << (c * h) for c in range(cols))
    board = bottom * ((1 << rows) - 1)
    for _ in range(100):
        cur = mask = 0
        for c in range(cols):
            for r in range(rng.randint(0, rows)):
                mask |= 1 << (c * h + r)
                cur |= rng.randint(0, 1) << (c * h + r)
        out = _tricks(*split(cur), *split(mask), rows, cols, k)
        w = bits.win_cells(cur, mask, h, k, board)
        opp = bits.win_cells(cur ^ mask, mask, h, k, board)
        assert _join(out[0], out[1]) == w
        assert _join(out[2], out[3]) == bits.mirror(cur, rows, cols)
        playable = (mask + bottom) & board
        forced = playable & opp
        if forced & (forced - 1):
            expected = 0
        else:
            expected = (forced or playable) & ~(opp >> 1)
        assert _join(out[4], out[5]) == expected
        assert out[6] == bin(mask).count("1")
        assert out[7] == any(bits.line_bits(cur, d, k) for d in (1, h, h - 1, h + 1))
