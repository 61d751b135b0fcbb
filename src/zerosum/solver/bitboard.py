"""Numba bitboard kernels for Connect-X boards that fit in 64 bits (``cols * (rows + 1) <= 64``).

The layout is the one :class:`zerosum.games.connectx.ConnectX` uses: column ``c`` owns bits
``c*h .. c*h+rows-1`` (``h = rows + 1``, bottom cell first) and one always-empty sentinel bit above, so a
:class:`~zerosum.games.connectx.ConnectXState`'s ``current`` and ``mask`` go straight into these kernels.

Every board quantity is a ``uint64``; the geometry travels as plain integers (``rows``, ``cols``, ``k``) and
the derived masks from :func:`geometry`.  Each kernel is a few lines and is tested alone against the
pure-Python rules.  Compiled code is cached on disk (``cache=True``), so a second run pays no compile.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "geometry",
    "line_bits",
    "has_line",
    "winning_cells",
    "playable",
    "popcount",
    "column_order",
    "rng_next",
    "random_playout",
    "random_playouts",
]

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True)
def geometry(rows: int, cols: int) -> tuple[np.uint64, np.uint64]:
    """``(bottom, board)``: the bottom cell of every column, and every cell of the board."""
    h = rows + 1
    bottom = ZERO
    for c in range(cols):
        bottom |= ONE << U64(c * h)
    column = (ONE << U64(rows)) - ONE
    return bottom, bottom * column


@njit(cache=True, inline="always")
def shr(x: np.uint64, s: int) -> np.uint64:
    """``x >> s``, zero once ``s`` reaches 64 (where LLVM's shift is undefined)."""
    return x >> U64(s) if s < 64 else ZERO


@njit(cache=True, inline="always")
def shl(x: np.uint64, s: int) -> np.uint64:
    return x << U64(s) if s < 64 else ZERO


@njit(cache=True)
def line_bits(stones: np.uint64, step: int, k: int) -> np.uint64:
    """Bits ``i`` where ``stones`` holds ``i, i+step, ..., i+(k-1)*step``: doubling the run each time."""
    run = stones
    length = 1
    while length < k:
        grow = min(length, k - length)
        run &= shr(run, step * grow)
        length += grow
    return run


@njit(cache=True)
def has_line(stones: np.uint64, rows: int, k: int) -> bool:
    """Whether ``stones`` hold ``k`` in a row in any of the four directions."""
    h = rows + 1
    return bool(
        line_bits(stones, 1, k) | line_bits(stones, h, k) | line_bits(stones, h - 1, k) | line_bits(stones, h + 1, k)
    )


@njit(cache=True)
def winning_cells(stones: np.uint64, mask: np.uint64, rows: int, board: np.uint64, k: int) -> np.uint64:
    """Empty cells of the board where one more stone would give ``stones`` ``k`` in a row.

    For each direction, ``up[m]`` marks cells with ``m`` stones right after them along the direction and
    ``down[m]`` cells with ``m`` stones right before; a cell wins when ``up[m] & down[k-1-m]`` for some m.
    """
    h = rows + 1
    result = ZERO
    for d in (1, h, h - 1, h + 1):
        up = np.empty(k, dtype=np.uint64)
        down = np.empty(k, dtype=np.uint64)
        up[0] = ~ZERO
        down[0] = ~ZERO
        for m in range(1, k):
            up[m] = up[m - 1] & shr(stones, m * d)
            down[m] = down[m - 1] & shl(stones, m * d)
        for m in range(k):
            result |= up[m] & down[k - 1 - m]
    return result & board & ~mask


@njit(cache=True, inline="always")
def playable(mask: np.uint64, bottom: np.uint64, board: np.uint64) -> np.uint64:
    """The cells where a stone can be dropped now: one addition carries each column's lowest empty bit."""
    return (mask + bottom) & board


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> int:
    """The number of set bits (SWAR: no lookup table, no loop over bits)."""
    x = x - ((x >> U64(1)) & U64(0x5555555555555555))
    x = (x & U64(0x3333333333333333)) + ((x >> U64(2)) & U64(0x3333333333333333))
    x = (x + (x >> U64(4))) & U64(0x0F0F0F0F0F0F0F0F)
    return int((x * U64(0x0101010101010101)) >> U64(56))


def column_order(cols: int) -> list[int]:
    """Columns centre first, then alternating outwards (left before right on even widths)."""
    return sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c))


@njit(cache=True, inline="always")
def rng_next(state: np.ndarray) -> np.uint64:
    """xorshift64*: advances ``state[0]`` in place and returns 64 random bits."""
    x = state[0]
    x ^= x >> U64(12)
    x ^= x << U64(25)
    x ^= x >> U64(27)
    state[0] = x
    return U64(x * U64(0x2545F4914F6CDD1D))


@njit(cache=True)
def random_playout(
    current: np.uint64, mask: np.uint64, rows: int, cols: int, k: int, rng: np.ndarray
) -> int:
    """Play uniformly random moves to the end: +1 if the side to move now wins, -1 if it loses, 0 draw.

    The position must not be over already.  Columns are drawn uniformly among the non-full ones.
    """
    h = rows + 1
    bottom, board = geometry(rows, cols)
    sign = 1
    cols_free = np.empty(cols, dtype=np.int64)
    while True:
        n = 0
        for c in range(cols):
            if not (mask & (ONE << U64(c * h + rows - 1))):
                cols_free[n] = c
                n += 1
        if n == 0:
            return 0
        c = cols_free[int(rng_next(rng) % U64(n))]
        move = (mask + (ONE << U64(c * h))) & (((ONE << U64(rows)) - ONE) << U64(c * h))
        mine = current | move
        if has_line(mine, rows, k):
            return sign
        mask |= move
        current = mine ^ mask  # the opponent's stones: they move next
        sign = -sign


@njit(cache=True)
def random_playouts(n: int, rows: int, cols: int, k: int, seed: int) -> tuple[int, int, int]:
    """``n`` random games from the empty board: (first player wins, second player wins, draws)."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = U64(seed) * U64(0x9E3779B97F4A7C15) | ONE
    wins1 = wins2 = draws = 0
    for _ in range(n):
        r = random_playout(ZERO, ZERO, rows, cols, k, rng)
        if r > 0:
            wins1 += 1
        elif r < 0:
            wins2 += 1
        else:
            draws += 1
    return wins1, wins2, draws
