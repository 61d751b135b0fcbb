"""Numba bit tricks for Connect-X bitboards: one definition each, used by the fast agents, the heuristics'
kernels and the solver.

The layout is :class:`zerosum.games.connectx.ConnectX`'s: column ``c`` owns bits ``c*h .. c*h+rows-1``
(``h = rows + 1``, bottom cell first) and one always-empty sentinel bit above, so a state's ``current``
and ``mask`` go straight in.  Every board quantity is a ``uint64`` for boards that fit 64 bits (``cols *
(rows + 1) <= 64``); the tricks the solver uses also take :data:`zerosum.kernels.wide.U128` bitboards (boards
up to 128 bits): they take their constants from their argument's type (:func:`~zerosum.kernels.wide.like`),
so each compiles to the same code as before for ``uint64``.  The geometry travels as plain integers
(``rows``, ``cols``, ``k``, ``h``) and the masks of :func:`geometry`.  :mod:`zerosum.kernels.bits` has the
same tricks on Python ints (any size); :func:`nth_column` is compiled from there as it is.  Compiled code is
cached on disk (``cache=True``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import bits
from .wide import ctlz, ctpop, like, width

__all__ = [
    "U64", "ONE", "ZERO",
    "geometry", "geometry_of", "shr", "shl", "playable", "column_masks",
    "popcnt", "bits_of",
    "line_bits", "has_line", "open_line", "win_cells", "non_losing", "mirror",
    "nth_column", "centre_order",
    "rng_next", "rng_seed", "shuffle", "random_playout", "greedy_playout", "random_playouts",
]

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)
#: a shift count known to be below 64, masked with this, costs a 128-bit shift no test of its size
_SMALL = np.uint64(63)


# ---- geometry ------------------------------------------------------------------------------------


@njit(cache=True)
def geometry(rows: int, cols: int) -> tuple[np.uint64, np.uint64]:
    """``(bottom, board)``: the bottom cell of every column, and every cell of the board."""
    return geometry_of(rows, cols, ZERO)  # type: ignore[no-any-return]


@njit(cache=True)
def geometry_of(rows, cols, zero):  # type: ignore[no-untyped-def]
    """:func:`geometry` as bitboards of ``zero``'s type (``uint64`` or ``U128``)."""
    h = rows + 1
    one = like(zero, 1)
    bottom = zero
    for c in range(cols):
        bottom |= one << U64(c * h)
    column = (one << U64(rows)) - one
    return bottom, bottom * column


@njit(cache=True)
def column_masks(rows: int, cols: int) -> np.ndarray:
    """``masks[c]``: every cell of column ``c``."""
    out = np.empty(cols, dtype=np.uint64)
    for c in range(cols):
        out[c] = ((ONE << U64(rows)) - ONE) << U64(c * (rows + 1))
    return out


@njit(cache=True, inline="always")
def shr(x: np.uint64, s: int) -> np.uint64:
    """``x >> s``, zero once ``s`` reaches the width (64 or 128; where LLVM's shift is undefined)."""
    return x >> U64(s) if s < width(x) else like(x, 0)


@njit(cache=True, inline="always")
def shl(x: np.uint64, s: int) -> np.uint64:
    """``x << s``, zero once ``s`` reaches the width."""
    return x << U64(s) if s < width(x) else like(x, 0)


@njit(cache=True, inline="always")
def playable(mask: np.uint64, bottom: np.uint64, board: np.uint64) -> np.uint64:
    """The cells where a stone can be dropped now: one addition carries each column's lowest empty bit."""
    return (mask + bottom) & board


# ---- counting bits -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def popcnt(x: np.uint64) -> int:
    """The number of set bits of ``x`` (LLVM's population count: one ``popcnt`` instruction a word)."""
    return int(ctpop(x))


@njit(cache=True, inline="always")
def bits_of(x: np.uint64) -> int:
    """The bit length of ``x``."""
    return width(x) - int(ctlz(x))


# ---- lines ---------------------------------------------------------------------------------------


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


@njit(cache=True, inline="always")
def open_line(s: np.uint64, h: int, k: int, rows: int) -> bool:
    """:func:`has_line` (for k = 4 on columns under 20 bits: one pair of shifts each way)."""
    if k == 4 and h < 20:
        for dd in (1, h, h - 1, h + 1):
            d = U64(dd) & _SMALL  # below 64 (the mask tells LLVM, so a 128-bit shift needs no guard)
            m = s & (s >> d)
            if m & (m >> ((d + d) & _SMALL)):
                return True
        return False
    return has_line(s, rows, k)


@njit(cache=True, inline="always")
def _win_cells4(s: np.uint64, h: int) -> np.uint64:
    """Cells (possibly occupied, possibly off the board) that complete four in a row for ``s``."""
    # vertical: three stones right below
    r = (s << ONE) & (s << U64(2)) & (s << U64(3))
    for d in (h, h - 1, h + 1):
        a = shl(s, d) & shl(s, 2 * d)  # two before
        r |= a & shl(s, 3 * d)
        r |= a & shr(s, d)
        b = shr(s, d) & shr(s, 2 * d)  # two after
        r |= b & shl(s, d)
        r |= b & shr(s, 3 * d)
    return r


@njit(cache=True, inline="always")
def _win_cells4_small(s: np.uint64, h: int) -> np.uint64:
    """``_win_cells4`` for columns of at most 19 bits: every shift below 64, so no guard."""
    r = (s << ONE) & (s << U64(2)) & (s << U64(3))
    for dd in (h, h - 1, h + 1):
        # every shift below 64, and masked so: the mask tells LLVM, so a 128-bit shift needs no guard
        d, d2, d3 = U64(dd) & _SMALL, U64(2 * dd) & _SMALL, U64(3 * dd) & _SMALL
        a = (s << d) & (s << d2)
        r |= a & (s << d3)
        r |= a & (s >> d)
        b = (s >> d) & (s >> d2)
        r |= b & (s << d)
        r |= b & (s >> d3)
    return r


@njit(cache=True)
def _win_cells_any(s: np.uint64, h: int, k: int) -> np.uint64:
    """Cells that complete ``k`` in a row: ``m`` stones after the cell along a direction, ``k-1-m`` before."""
    r = like(s, 0)
    for d in (1, h, h - 1, h + 1):
        for m in range(k):
            c = ~like(s, 0)
            for j in range(1, m + 1):
                c &= shr(s, j * d)
            for j in range(1, k - m):
                c &= shl(s, j * d)
            r |= c
    return r  # type: ignore[no-any-return]


@njit(cache=True, inline="always")
def win_cells(s: np.uint64, mask: np.uint64, h: int, k: int, board: np.uint64) -> np.uint64:
    """The empty cells of the board where one more stone of ``s`` makes ``k`` in a row (a fast path for
    k = 4); :func:`zerosum.kernels.bits.win_cells` on Python ints."""
    if k == 4 and h < 20:
        r = _win_cells4_small(s, h)
    elif k == 4:
        r = _win_cells4(s, h)
    else:
        r = _win_cells_any(s, h, k)
    return r & (board ^ mask)


@njit(cache=True, inline="always")
def non_losing(mask: np.uint64, opp_win: np.uint64, bottom: np.uint64, board: np.uint64) -> np.uint64:
    """Playable cells that do not let the opponent win at once (0: every move loses).

    ``opp_win``: the opponent's winning cells.  The caller guarantees the side to move cannot win at once.
    """
    one = like(mask, 1)
    possible = (mask + bottom) & board
    forced = possible & opp_win
    if forced:
        if forced & (forced - one):
            return like(mask, 0)  # type: ignore[no-any-return]  # two threats: cannot block both
        possible = forced
    return possible & ~(opp_win >> ONE)  # never play right below an opponent's winning cell


@njit(cache=True, inline="always")
def mirror(x: np.uint64, h: int, cols: int) -> np.uint64:
    """The bitboard mirrored left to right (``h``: bits per column)."""
    one = like(x, 1)
    col = (one << U64(h)) - one
    out = like(x, 0)
    for c in range(cols):
        out |= ((x >> U64(c * h)) & col) << U64((cols - 1 - c) * h)
    return out  # type: ignore[no-any-return]


# ---- column order --------------------------------------------------------------------------------

#: the ``i``-th column, centre first: :func:`zerosum.kernels.bits.nth_column`, compiled
nth_column = njit(cache=True, inline="always")(bits.nth_column)


@njit(cache=True)
def centre_order(cols: int) -> np.ndarray:
    """Every column, centre first, as an int64 array."""
    order = np.empty(cols, dtype=np.int64)
    for i in range(cols):
        order[i] = nth_column(i, cols)
    return order


# ---- random numbers and playouts -----------------------------------------------------------------


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
def rng_seed(seed: int) -> np.ndarray:
    """A fresh xorshift state for ``seed`` (never zero)."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = U64(seed) * U64(0x9E3779B97F4A7C15) | ONE
    return rng


@njit(cache=True, inline="always")
def shuffle(cand: np.ndarray, n: int, rng: np.ndarray) -> None:
    """Fisher-Yates on ``cand[:n]`` with the xorshift stream ``rng``."""
    for i in range(n - 1, 0, -1):
        j = int(rng_next(rng) % U64(i + 1))
        tmp = cand[i]
        cand[i] = cand[j]
        cand[j] = tmp


@njit(cache=True)
def random_playout(cur: np.uint64, mask: np.uint64, rows: int, cols: int, k: int, rng: np.ndarray,
                   free: np.ndarray) -> int:
    """Uniformly random moves (among the non-full columns) to the end: +1 if the side to move now wins,
    -1 if it loses, 0 for a draw.  The position must not be over; ``free`` is scratch space for ``cols``
    int64s (the caller's, so that nothing is allocated per playout)."""
    h = rows + 1
    sign = 1
    while True:
        n = 0
        for c in range(cols):
            if not (mask & (ONE << U64(c * h + rows - 1))):
                free[n] = c
                n += 1
        if n == 0:
            return 0
        c = free[int(rng_next(rng) % U64(n))]
        move = (mask + (ONE << U64(c * h))) & (((ONE << U64(rows)) - ONE) << U64(c * h))
        mine = cur | move
        if has_line(mine, rows, k):
            return sign
        mask |= move
        cur = mine ^ mask  # the opponent's stones: they move next
        sign = -sign


@njit(cache=True)
def greedy_playout(cur: np.uint64, mask: np.uint64, rows: int, cols: int, k: int, rng: np.ndarray) -> int:
    """A playout that takes a win, else blocks the opponent's win in one, else plays a random column:
    +1 if the side to move now wins, -1 if it loses, 0 for a draw.  The position must not be over."""
    h = rows + 1
    bottom, board = geometry(rows, cols)
    sign = 1
    free = np.empty(cols, dtype=np.int64)
    while True:
        if mask == board:
            return 0
        play = (mask + bottom) & board
        if win_cells(cur, mask, h, k, board) & play:
            return sign
        theirs = win_cells(cur ^ mask, mask, h, k, board) & play
        if theirs:
            move = theirs & (~theirs + ONE)
        else:
            n = 0
            for c in range(cols):
                if not (mask & (ONE << U64(c * h + rows - 1))):
                    free[n] = c
                    n += 1
            c = free[int(rng_next(rng) % U64(n))]
            move = play & (((ONE << U64(rows)) - ONE) << U64(c * h))
        opp = cur ^ mask
        mask = mask | move
        cur = opp
        sign = -sign


@njit(cache=True)
def random_playouts(n: int, rows: int, cols: int, k: int, seed: int) -> tuple[int, int, int]:
    """``n`` random games from the empty board: (first player wins, second player wins, draws)."""
    rng = rng_seed(seed)
    free = np.empty(cols, dtype=np.int64)
    wins1 = wins2 = draws = 0
    for _ in range(n):
        r = random_playout(ZERO, ZERO, rows, cols, k, rng, free)
        if r > 0:
            wins1 += 1
        elif r < 0:
            wins2 += 1
        else:
            draws += 1
    return wins1, wins2, draws

