"""The solver's search: negamax with alpha-beta on 64-bit Connect-X bitboards, compiled by numba.

A position is ``(current, mask, moves)``: the side to move's stones, all stones, and the number of stones
played -- always seen from the side to move, so the search has one code path.  The score convention is
DESIGN.md's: a win with the stone of ply ``p`` (plies counted from 1) scores ``(cells + 2 - p) // 2``, a
loss is the negative of the opponent's win, a draw 0.

The pieces, each a few lines below:

* ``win_cells``: the empty cells where one more stone completes ``k`` in a row (a fast path for k = 4);
* ``non_losing``: the playable cells that do not hand the opponent an immediate win (and the forced
  block when the opponent threatens one); an empty result means every move loses;
* the transposition table: two numpy arrays indexed by ``key % size`` (``size`` prime), holding a partial
  key (``key mod 2**32``, enough with the index to tell keys apart, by the Chinese remainder theorem, while
  ``key < size * 2**32``; larger boards get 64-bit key slots) and one byte: a lower or an upper bound;
* move ordering: moves that create the most new winning cells first, centre-first between equals;
* the window is clamped by the best and worst scores still possible;
* ``solve_position``: the exact score by a sequence of null-window searches (a weak solve searches only
  the window around 0).

Everything per solve runs inside one compiled call; Python only prepares arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bitboard import geometry, popcount, shl, shr

__all__ = [
    "solve_position",
    "analyze_position",
    "make_table",
    "table_size",
    "position_key",
    "DEFAULT_LOG_SIZE",
]

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)

#: default table size: the first prime above 2**24 entries (5 bytes each: about 80 MB)
DEFAULT_LOG_SIZE = 24

# table byte: 0 empty; an upper bound ``s`` is stored as ``s + _OFFSET``, a lower bound as
# ``s + _OFFSET + _LOWER`` (scores lie within +-33 on any 64-bit board, so both fit one byte)
_OFFSET = 64
_LOWER = 128


def _next_prime(n: int) -> int:
    def is_prime(m: int) -> bool:
        if m < 2:
            return False
        i = 2
        while i * i <= m:
            if m % i == 0:
                return False
            i += 1
        return True

    while not is_prime(n):
        n += 1
    return n


def table_size(log_size: int) -> int:
    """The number of entries of a table of about ``2**log_size`` entries (a prime)."""
    return _next_prime(1 << log_size)


def make_table(log_size: int = DEFAULT_LOG_SIZE, key_bits: int = 49) -> tuple[np.ndarray, np.ndarray]:
    """A fresh table ``(keys, values)`` for keys of ``key_bits`` bits (``cols * (rows + 1)``).

    Keys are stored modulo 2**32 when that, with the index, still identifies them; otherwise whole.
    """
    size = table_size(log_size)
    dtype = np.uint32 if key_bits <= 32 + log_size else np.uint64
    return np.zeros(size, dtype=dtype), np.zeros(size, dtype=np.uint8)


def position_key(current: int, mask: int) -> int:
    """The unique key of a position: ``current + mask`` (the sentinel bits make it one-to-one)."""
    return current + mask


# ---- bitboard pieces --------------------------------------------------------------------------


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


@njit(cache=True)
def _win_cells_any(s: np.uint64, h: int, k: int) -> np.uint64:
    r = ZERO
    for d in (1, h, h - 1, h + 1):
        for m in range(k):  # m stones after the cell along d, k-1-m before it
            c = ~ZERO
            for j in range(1, m + 1):
                c &= shr(s, j * d)
            for j in range(1, k - m):
                c &= shl(s, j * d)
            r |= c
    return r


@njit(cache=True, inline="always")
def win_cells(s: np.uint64, mask: np.uint64, h: int, k: int, board: np.uint64) -> np.uint64:
    """The empty cells of the board where one more stone of ``s`` makes ``k`` in a row."""
    if k == 4:
        r = _win_cells4(s, h)
    else:
        r = _win_cells_any(s, h, k)
    return r & (board ^ mask)


@njit(cache=True, inline="always")
def non_losing(current: np.uint64, mask: np.uint64, h: int, k: int, bottom: np.uint64, board: np.uint64) -> np.uint64:
    """Playable cells that do not let the opponent win at once (0: every move loses).

    The caller guarantees the side to move cannot win at once.
    """
    possible = (mask + bottom) & board
    opp_win = win_cells(current ^ mask, mask, h, k, board)
    forced = possible & opp_win
    if forced:
        if forced & (forced - ONE):
            return ZERO  # two threats: cannot block both
        possible = forced
    return possible & ~(opp_win >> ONE)  # never play right below an opponent's winning cell


# ---- the search ---------------------------------------------------------------------------------


@njit(cache=True)
def _negamax(
    current: np.uint64,
    mask: np.uint64,
    moves0: int,
    alpha0: int,
    beta0: int,
    geo: tuple[int, int, int, int, np.uint64, np.uint64, np.uint64],
    keys: np.ndarray,
    vals: np.ndarray,
    order: np.ndarray,
    colmask: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    stats: np.ndarray,
) -> int:
    """The score of a position whose side to move cannot win at once, within ``(alpha0, beta0)``.

    Fail-soft alpha-beta: a result ``<= alpha0`` is an upper bound, ``>= beta0`` a lower bound, else exact.
    The recursion runs on an explicit stack (frame ``d`` is the position ``d`` plies below the root):
    no call per node, and numba can cache it.
    """
    rows, cols, k, cells, bottom, board, kmask = geo
    h = rows + 1
    mv, sc, fu, fi = work  # moves / their order scores per frame; per frame (cur, mask, key, idx), (alpha, beta, n, i)
    size = U64(keys.shape[0])
    fu[0, 0] = current
    fu[0, 1] = mask
    fi[0, 0] = alpha0
    fi[0, 1] = beta0
    d = 0
    nodes = 0
    while True:
        # ---- enter the node of frame d: either a value v at once, or its moves in order
        cur = fu[d, 0]
        msk = fu[d, 1]
        moves = moves0 + d
        alpha = fi[d, 0]
        beta = fi[d, 1]
        nodes += 1
        done = True
        v = 0
        nxt = non_losing(cur, msk, h, k, bottom, board)
        if nxt == ZERO:
            v = -((cells - moves) // 2)  # the opponent wins with its next stone
        elif moves >= cells - 2:
            v = 0  # the opponent cannot win with the last stone, and we could not win before
        else:
            lo = -((cells - 2 - moves) // 2)  # the opponent cannot win with its next stone
            hi = (cells - 1 - moves) // 2  # we cannot win with this stone
            key = cur + msk
            idx = key % size
            if U64(keys[idx]) == (key & kmask) and vals[idx] != 0:
                t = int(vals[idx])
                if t >= _LOWER:
                    t -= _LOWER + _OFFSET
                    if lo < t:
                        lo = t
                else:
                    t -= _OFFSET
                    if hi > t:
                        hi = t
            if alpha < lo:
                alpha = lo
            if beta > hi:
                beta = hi
            if alpha >= beta:
                v = alpha if alpha == lo else beta
            else:
                done = False
                # order: most winning cells after the move first, centre first between equals
                n = 0
                for i in range(cols):
                    m = nxt & colmask[order[i]]
                    if m:
                        s = popcount(win_cells(cur | m, msk, h, k, board))
                        j = n
                        while j > 0 and sc[d, j - 1] < s:
                            mv[d, j] = mv[d, j - 1]
                            sc[d, j] = sc[d, j - 1]
                            j -= 1
                        mv[d, j] = m
                        sc[d, j] = s
                        n += 1
                fu[d, 2] = key
                fu[d, 3] = idx
                fi[d, 0] = alpha
                fi[d, 1] = beta
                fi[d, 2] = n
                fi[d, 3] = 0
        # ---- return v to the parents until one has another move to try
        while done:
            if d == 0:
                stats[0] += nodes
                return v
            d -= 1
            score = -v
            if score >= fi[d, 1]:
                keys[fu[d, 3]] = fu[d, 2] & kmask
                vals[fu[d, 3]] = np.uint8(score + _OFFSET + _LOWER)
                v = score
                continue
            if score > fi[d, 0]:
                fi[d, 0] = score
            i = fi[d, 3] + 1
            if i < fi[d, 2]:
                fi[d, 3] = i
                done = False
            else:
                keys[fu[d, 3]] = fu[d, 2] & kmask
                vals[fu[d, 3]] = np.uint8(fi[d, 0] + _OFFSET)
                v = fi[d, 0]
        # ---- descend into the next move of frame d
        m = mv[d, fi[d, 3]]
        fu[d + 1, 0] = fu[d, 0] ^ fu[d, 1]
        fu[d + 1, 1] = fu[d, 1] | m
        fi[d + 1, 0] = -fi[d, 1]
        fi[d + 1, 1] = -fi[d, 0]
        d += 1


@njit(cache=True)
def _can_win_now(current: np.uint64, mask: np.uint64, h: int, k: int, bottom: np.uint64, board: np.uint64) -> bool:
    return bool(win_cells(current, mask, h, k, board) & (mask + bottom) & board)


@njit(cache=True)
def _trunc_half(x: int) -> int:
    """``x / 2`` rounded toward zero."""
    return x // 2 if x >= 0 else -((-x) // 2)


@njit(cache=True)
def _solve(
    current: np.uint64,
    mask: np.uint64,
    moves: int,
    weak: bool,
    geo: tuple[int, int, int, int, np.uint64, np.uint64, np.uint64],
    keys: np.ndarray,
    vals: np.ndarray,
    order: np.ndarray,
    colmask: np.ndarray,
    work: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    stats: np.ndarray,
) -> int:
    rows, cols, k, cells, bottom, board, kmask = geo
    h = rows + 1
    if _can_win_now(current, mask, h, k, bottom, board):
        stats[0] += 1
        return (cells + 1 - moves) // 2
    lo = -((cells - moves) // 2)
    hi = (cells + 1 - moves) // 2
    if weak:
        lo, hi = -1, 1
    while lo < hi:  # null-window searches narrow [lo, hi] to the score
        med = lo + (hi - lo) // 2
        if med <= 0 and _trunc_half(lo) < med:
            med = _trunc_half(lo)
        elif med >= 0 and _trunc_half(hi) > med:
            med = _trunc_half(hi)
        r = _negamax(current, mask, moves, med, med + 1, geo, keys, vals, order, colmask, work, stats)
        if r <= med:
            hi = r
        else:
            lo = r
    return lo


@njit(cache=True)
def _setup(rows: int, cols: int, k: int, kmask: np.uint64) -> tuple[
    tuple[int, int, int, int, np.uint64, np.uint64, np.uint64],
    np.ndarray,
    np.ndarray,
    tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
]:
    bottom, board = geometry(rows, cols)
    h = rows + 1
    order = np.empty(cols, dtype=np.int64)
    n = 0
    # centre first, then outwards alternately (left first on even widths)
    for dist in range(cols):
        for c in range(cols):
            if abs(2 * c - (cols - 1)) == dist:
                order[n] = c
                n += 1
    colmask = np.empty(cols, dtype=np.uint64)
    for c in range(cols):
        colmask[c] = ((ONE << U64(rows)) - ONE) << U64(c * h)
    cells = rows * cols
    depth = cells + 2
    work = (
        np.zeros((depth, cols), dtype=np.uint64),
        np.zeros((depth, cols), dtype=np.int64),
        np.zeros((depth, 4), dtype=np.uint64),
        np.zeros((depth, 4), dtype=np.int64),
    )
    return (rows, cols, k, cells, bottom, board, kmask), order, colmask, work


@njit(cache=True)
def solve_position(
    current: np.uint64,
    mask: np.uint64,
    rows: int,
    cols: int,
    k: int,
    weak: bool,
    keys: np.ndarray,
    vals: np.ndarray,
    stats: np.ndarray,
) -> int:
    """The score of a position nobody has won yet and that is not full (``stats[0] += nodes``)."""
    kmask = U64(0xFFFFFFFF) if keys.itemsize == 4 else ~ZERO
    geo, order, colmask, work = _setup(rows, cols, k, kmask)
    moves = popcount(mask)
    return _solve(current, mask, moves, weak, geo, keys, vals, order, colmask, work, stats)


@njit(cache=True)
def analyze_position(
    current: np.uint64,
    mask: np.uint64,
    rows: int,
    cols: int,
    k: int,
    weak: bool,
    keys: np.ndarray,
    vals: np.ndarray,
    stats: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[c]``: the score of playing column ``c`` (side to move's view), ``-1000`` for a full column."""
    kmask = U64(0xFFFFFFFF) if keys.itemsize == 4 else ~ZERO
    geo, order, colmask, work = _setup(rows, cols, k, kmask)
    _, _, _, cells, bottom, board, _ = geo
    h = rows + 1
    moves = popcount(mask)
    wins = win_cells(current, mask, h, k, board)
    for c in range(cols):
        m = (mask + bottom) & colmask[c]
        if not m:
            out[c] = -1000
        elif m & wins:
            stats[0] += 1
            out[c] = (cells + 1 - moves) // 2
        elif moves + 1 == cells:
            out[c] = 0
        else:
            new_mask = mask | m
            out[c] = -_solve(
                    current ^ mask, new_mask, moves + 1, weak, geo, keys, vals, order, colmask, work, stats
            )
