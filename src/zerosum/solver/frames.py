"""The search's working memory: the board's constants and the explicit stack of frames.

The search does not recurse: frame ``d`` holds the position ``d`` plies below the root and the state of
its loop over moves, and going down or up a ply is ``d += 1`` or ``d -= 1``.  There is no call per node,
numba can cache the whole search, and a search stopped half way (out of its node budget) leaves every
frame in place, so the next call goes on exactly where it stopped.

A frame is one row of five arrays, allocated once per board (``depth = cells + 2`` rows, so a solve
allocates nothing):

* ``mv[d, i]``, ``sc[d, i]``, ``wc[d, i]``: the ``i``-th move in search order (one bit), its sort key
  (:mod:`.order`) and the winning cells of the side that plays it, once it has;
* ``fb[d, F]``: the frame's bitboard fields, named below (``fb[d, CUR]``, ...);
* ``fi[d, F]``: its integer fields (``fi[d, ALPHA]``, ...).

Beside them: ``near``, the small transposition table (:mod:`.table`), and ``geo``, the board's constants
``(rows, cols, k, cells, bottom, board, key mask, slot shift, stored-bits mask)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.connectx import ONE, U64, ZERO, geometry
from .table import near_size

__all__ = ["CUR", "MASK", "THREATS", "PART", "SLOT", "ALPHA", "BETA", "COUNT", "TRYING", "FLIP", "START",
           "board_constants", "new_frames"]

# ---- bitboard fields: fb[d, ...]
#: the side to move's stones
CUR = 0
#: every stone
MASK = 1
#: the opponent's winning cells (empty cells where its next stone would make a line)
THREATS = 2
#: the position's table slot (``table.NO_ENTRY``: its result is not stored) and its key's stored bits
SLOT = 3
PART = 4
_BITBOARD_FIELDS = 5

# ---- integer fields: fi[d, ...]
#: the window: the best score the side to move is sure of, and the score past which the parent cuts off
ALPHA = 0
BETA = 1
#: the number of moves ordered, and the index of the one being searched
COUNT = 2
TRYING = 3
#: 1 when the table holds the position as its mirror image (its stored columns are mirrored)
FLIP = 4
#: the node count when the frame was entered (its work = nodes since)
START = 5
_INTEGER_FIELDS = 6


@njit(cache=True)
def board_constants(rows: int, cols: int, k: int, size: int) -> tuple[
    int, int, int, int, np.uint64, np.uint64, np.uint64, int, np.uint64
]:
    """``geo = (rows, cols, k, cells, bottom, board, key mask, slot shift, stored-bits mask)`` for a main
    table of ``size`` entries (a power of two)."""
    bottom, board = geometry(rows, cols)
    bits = cols * (rows + 1)
    log = 0
    while (1 << log) < size:
        log += 1
    shift = bits - log
    bmask = ~ZERO >> U64(64 - bits)
    pmask = (ONE << U64(shift)) - ONE
    return (rows, cols, k, rows * cols, bottom, board, bmask, shift, pmask)


@njit(cache=True)
def new_frames(rows: int, cols: int, size: int) -> tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]:
    """``(mv, sc, wc, fb, fi, near)``: the frames of a search on this board, and the small table."""
    depth = rows * cols + 2
    return (
        np.zeros((depth, cols), dtype=np.uint64),
        np.zeros((depth, cols), dtype=np.int64),
        np.zeros((depth, cols), dtype=np.uint64),
        np.zeros((depth, _BITBOARD_FIELDS), dtype=np.uint64),
        np.zeros((depth, _INTEGER_FIELDS), dtype=np.int64),
        np.zeros(near_size(rows, cols, size), dtype=np.uint64),
    )
