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

**Two widths, one source.**  On a board that fits 64 bits a bitboard is a ``uint64`` and the bitboard
arrays (``mv``, ``wc``, ``fb``, the column masks) hold one word an item.  On a wider board (up to 128 bits,
or any board when asked: ``Solver(wide=True)``) a bitboard is a :data:`zerosum.kernels.wide.U128` and each
item of those arrays is two words, low first (one more dimension of 2).  The search reads and writes them
through :func:`get`, :func:`put_board` and :func:`item`, which numba compiles for the array it is handed:
for one-word arrays exactly the plain indexing, so the 64-bit search is the same code as before.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.extending import overload

from ..kernels.connectx import U64, ZERO, geometry_of
from ..kernels.wide import like, u128, width
from .table import near_size, wide_entries

__all__ = ["CUR", "MASK", "THREATS", "PART", "SLOT", "ALPHA", "BETA", "COUNT", "TRYING", "FLIP", "START",
           "board_constants", "board_constants_of", "new_frames", "get", "put_board", "item"]

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
    table of ``size`` entries (a power of two), on ``uint64`` bitboards."""
    return board_constants_of(rows, cols, k, size, ZERO)  # type: ignore[no-any-return]


@njit(cache=True)
def board_constants_of(rows, cols, k, size, zero):  # type: ignore[no-untyped-def]
    """:func:`board_constants` with bitboards of ``zero``'s type (``uint64`` or ``U128``)."""
    bottom, board = geometry_of(rows, cols, zero)
    bits = cols * (rows + 1)
    log = 0
    while (1 << log) < size:
        log += 1
    shift = bits - log
    bmask = ~zero >> U64(width(zero) - bits)
    pmask = (like(zero, 1) << U64(shift)) - like(zero, 1)
    return (rows, cols, k, rows * cols, bottom, board, bmask, shift, pmask)


def new_frames(rows: int, cols: int, size: int, wide: bool = False) -> tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]:
    """``(mv, sc, wc, fb, fi, near)``: the frames of a search on this board, and the small table; ``wide``:
    for ``U128`` bitboards (each bitboard two words)."""
    depth = rows * cols + 2
    words = (2,) if wide else ()
    near = near_size(rows, cols, size)
    return (
        np.zeros((depth, cols, *words), dtype=np.uint64),
        np.zeros((depth, cols), dtype=np.int64),
        np.zeros((depth, cols, *words), dtype=np.uint64),
        np.zeros((depth, _BITBOARD_FIELDS, *words), dtype=np.uint64),
        np.zeros((depth, _INTEGER_FIELDS), dtype=np.int64),
        np.zeros((near, 2) if wide_entries(rows, cols, near) else near, dtype=np.uint64),
    )


# ---- bitboards in arrays, at either width --------------------------------------------------------


def get(arr: np.ndarray, d: int, f: int) -> Any:
    """The bitboard ``arr[d, f]``: a ``uint64``, or a ``U128`` from its two words."""
    raise NotImplementedError("for compiled code")  # pragma: no cover


def put_board(arr: np.ndarray, d: int, f: int, v: Any) -> None:
    """``arr[d, f] = v`` for a bitboard ``v``: one word, or two."""
    raise NotImplementedError("for compiled code")  # pragma: no cover


def item(arr: np.ndarray, c: int) -> Any:
    """The bitboard ``arr[c]`` of a one-dimensional array of bitboards (the column masks)."""
    raise NotImplementedError("for compiled code")  # pragma: no cover


@overload(get, inline="always")
def _get(arr, d, f):  # type: ignore[no-untyped-def]
    if arr.ndim == 2:
        return lambda arr, d, f: arr[d, f]
    return lambda arr, d, f: u128(arr[d, f, 0], arr[d, f, 1])


@overload(put_board, inline="always")
def _put_board(arr, d, f, v):  # type: ignore[no-untyped-def]
    if arr.ndim == 2:
        def one_word(arr, d, f, v):  # type: ignore[no-untyped-def]
            arr[d, f] = v
        return one_word

    def two_words(arr, d, f, v):  # type: ignore[no-untyped-def]
        arr[d, f, 0] = like(U64(0), v)
        arr[d, f, 1] = like(U64(0), v >> U64(64))
    return two_words


@overload(item, inline="always")
def _item(arr, c):  # type: ignore[no-untyped-def]
    if arr.ndim == 1:
        return lambda arr, c: arr[c]
    return lambda arr, c: u128(arr[c, 0], arr[c, 1])
