"""The solver's search: the exact score of a Connect-X position on a bitboard, compiled by numba.

The score convention is DESIGN.md's: a win with the stone of ply ``p`` (plies counted from 1) scores
``(cells + 2 - p) // 2``, a loss is the negative of the opponent's win, a draw 0.  A position is
``(current, mask, moves)``: the side to move's stones, all stones, and the number of stones played -- always
seen from the side to move, so the search has one code path.

Each piece is a file of its own:

* :mod:`.negamax`: ``_negamax``, alpha-beta on one window, with the window clamped by the best and worst
  scores still possible and enhanced transposition cut-offs near the root;
* :mod:`zerosum.kernels.connectx`: the bit tricks -- winning cells, the moves that do not lose at once,
  mirror images, the centre-first column order;
* :mod:`.table`: the transposition tables (a big one, and a small one for positions near the end);
* :mod:`.order`: the move sorter (the refuting column first, then the most winning cells, centre first),
  which also spots a move that wins with our next stone;
* :mod:`.frames`: the explicit stack the search runs on, with its named fields;
* :mod:`.book`: an opening book's exact scores, looked up (:func:`.table.book_find`) at every node up to
  its depth (``run``'s last item; no book costs one comparison a node);
* here: ``_solve``, the exact score by a sequence of null-window searches (a weak solve asks for a quick
  win and a quick loss first, then only for the sign), and the entry points Python calls.

A bitboard is a ``uint64`` on boards that fit 64 bits and a :data:`zerosum.kernels.wide.U128` on wider ones
(up to 128 bits), or on any board with ``prepare(..., wide=True)``: the same source compiled for either, as
the arrays of :func:`prepare` say (:mod:`.frames`); wide positions are handed in as pairs of ``uint64`` words
(:func:`zerosum.kernels.wide.split`; rows of two words in :func:`solve_many`).

Everything per solve runs in compiled code; Python only prepares arrays.  A search given a node budget
(``stats[1]``, see :data:`.negamax.STATS_SIZE`) stops when it is spent and, called again, goes on exactly
where it stopped: ``Solver`` runs every search in slices of ``Solver.slice_nodes`` nodes this way, so
Ctrl-C is seen between them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from ..kernels.connectx import centre_order, column_masks, popcnt, win_cells
from ..kernels.wide import as_board, like, split
from .frames import board_constants_of, item, new_frames
from .negamax import ABORTED, HALT, HALT_EVERY, STATS_SIZE, BookArrays, Frames, Geo, Run, _negamax
from .table import DEFAULT_LOG_SIZE, MAX_PART_BITS, MAX_WIDE_PART_BITS, make_table, position_key, table_size

__all__ = [
    "solve_position",
    "prepare",
    "board_words",
    "board_array",
    "solve_prepared",
    "solve_many",
    "make_table",
    "table_size",
    "position_key",
    "DEFAULT_LOG_SIZE",
    "MAX_PART_BITS",
    "MAX_WIDE_PART_BITS",
    "split",
    "ABORTED",
    "STATS_SIZE",
    "HALT",
    "HALT_EVERY",
    "book_arrays",
]

_F = TypeVar("_F", bound=Callable[..., Any])

#: what :func:`solve_prepared` and :func:`solve_many` take besides the table: ``(order, colmask, work, book)``
Prepared = tuple[np.ndarray, np.ndarray, Frames, BookArrays]


def _released(fn: _F) -> _F:
    """``njit`` for an entry point called from Python: the GIL is released while it runs (``nogil``), so
    threads of one process search at once (each with its own frames and stats, over one shared table)."""
    return cast(_F, njit(cache=True, nogil=True)(fn))


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
    run: Run,
    stats: np.ndarray,
) -> int:
    """The exact score of a position (its sign when ``weak``), or ``ABORTED`` when the budget ran out."""
    rows, cols, k, cells, bottom, board, bmask, shift, pmask = run[0]
    h = rows + 1
    pausable = stats.shape[0] >= STATS_SIZE
    resume = pausable and stats[2] > 0
    if resume:  # the last call stopped inside a null-window search: its bounds, phase and window
        lo, hi, phase, med = stats[4], stats[5], stats[6], stats[7]
    else:
        if _can_win_now(current, mask, h, k, bottom, board):
            stats[0] += 1
            return (cells + 1 - moves) // 2
        lo = -((cells - moves) // 2)
        hi = (cells + 1 - moves) // 2
        # phases 0 and 1, a weak solve only: ask first for a quick win (half the best score possible), then
        # for a slow enough loss, so positions that end soon answer at once; phase 2: null-window searches
        # narrow [lo, hi] to the score (to its sign when weak)
        phase = 0 if weak else 2
        med = 0
    while True:
        if not resume:  # the next window, or the answer
            if phase == 0:
                med = _trunc_half(hi)
                if med <= 0:
                    phase = 1
                    continue
            elif phase == 1:
                med = _trunc_half(lo)
                if med >= 0 or lo >= hi:
                    lo = max(lo, -1)
                    hi = min(hi, 1)
                    phase = 2
                    continue
            else:
                if lo >= hi:
                    return int(lo)
                med = lo + (hi - lo) // 2
                if med <= 0 and _trunc_half(lo) < med:
                    med = _trunc_half(lo)
                elif med >= 0 and _trunc_half(hi) > med:
                    med = _trunc_half(hi)
        r = _negamax(current, mask, moves, med, med + 1, run, stats, resume)
        resume = False
        if r == ABORTED:
            if pausable:
                stats[4], stats[5], stats[6], stats[7] = lo, hi, phase, med
            return ABORTED
        if phase == 0:
            if r > med:
                return 1
            hi = r
            phase = 1
        elif phase == 1:
            if r <= med:
                return -1
            lo = max(r, -1)
            hi = min(hi, 1)
            phase = 2
        elif r <= med:
            hi = r
        else:
            lo = r


@njit(cache=True)
def _no_book() -> BookArrays:
    """The book of a search without one: nothing in it, and a depth no position is at."""
    return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int8), -1


def book_arrays(keys: np.ndarray | None = None, scores: np.ndarray | None = None, depth: int = -1) -> BookArrays:
    """A book as the search probes it (:meth:`zerosum.solver.book.Book.probe`); none by default."""
    if keys is None or scores is None or depth < 0:
        return _no_book()
    return keys, scores, int(depth)


def prepare(rows: int, cols: int, k: int, table_size: int, wide: bool = False) -> tuple[np.ndarray, np.ndarray,
                                                                                         Frames]:
    """The arrays a solve needs besides the table and the book, made once per board: ``(order, colmask,
    work)``; :func:`solve_prepared` takes them with a book (:func:`book_arrays`) added.  ``wide``: for
    ``U128`` bitboards (boards past 64 bits need it), each bitboard two ``uint64`` words."""
    if cols * (rows + 1) > 64 and not wide:
        raise ValueError(f"a {rows} x {cols} board needs the wide search (more than 64 bits)")
    if wide:
        column = (1 << rows) - 1
        colmask = np.array([split(column << (c * (rows + 1))) for c in range(cols)], dtype=np.uint64).reshape(cols, 2)
    else:
        colmask = column_masks(rows, cols)
    return centre_order(cols), colmask, new_frames(rows, cols, table_size, wide)


def board_words(x: int, wide: bool) -> Any:
    """A bitboard as :func:`solve_prepared` takes it: a ``uint64``, or (``wide``) a pair of words."""
    return split(x) if wide else np.uint64(x)


def board_array(boards: list[int], wide: bool) -> np.ndarray:
    """Bitboards as :func:`solve_many` takes them: ``uint64`` s, or (``wide``) rows of two words."""
    if not wide:
        return np.fromiter(boards, dtype=np.uint64, count=len(boards))
    return np.array([split(b) for b in boards], dtype=np.uint64).reshape(len(boards), 2)


@_released
def solve_prepared(current: Any, mask: Any, rows: int, cols: int, k: int, weak: bool,
                   prepared: Prepared, table: np.ndarray, stats: np.ndarray) -> int:
    """``solve_position`` with the board's arrays from :func:`prepare` and a book (nothing allocated per
    call): ``prepared = prepare(...) + (book_arrays(...),)``; ``current`` and ``mask`` as
    :func:`board_words` gives them."""
    order, colmask, work, book = prepared
    cur, msk = as_board(current), as_board(mask)
    geo = board_constants_of(rows, cols, k, table.shape[0], like(item(colmask, 0), 0))  # the arrays' width
    return _solve(cur, msk, popcnt(msk), weak, (geo, table, order, colmask, work, book), stats)


@_released
def solve_many(
    currents: np.ndarray,
    masks: np.ndarray,
    rows: int,
    cols: int,
    k: int,
    weak: bool,
    prepared: Prepared,
    table: np.ndarray,
    scores: np.ndarray,
    nodes: np.ndarray,
    stats: np.ndarray,
    start: int,
) -> int:
    """Solve positions ``start, start + 1, ...`` in one compiled call: ``scores[i]`` and ``nodes[i]``.

    Returns the index of the first position not finished: ``len(currents)`` once all are.  With a node
    limit in ``stats[1]`` (a ``STATS_SIZE`` array) it may stop early; called again with that index and
    the same ``stats`` it goes on exactly where it stopped.
    """
    order, colmask, work, book = prepared
    run = (board_constants_of(rows, cols, k, table.shape[0], like(item(colmask, 0), 0)), table, order, colmask,
           work, book)
    for i in range(start, currents.shape[0]):
        if stats[2] == 0:  # not a stopped search going on: position i starts here
            stats[8] = stats[0]
        cur, msk = as_board(currents[i]), as_board(masks[i])
        r = _solve(cur, msk, popcnt(msk), weak, run, stats)
        if r == ABORTED:
            return i
        scores[i] = r
        nodes[i] = stats[0] - stats[8]
    return int(currents.shape[0])


def solve_position(current: int, mask: int, rows: int, cols: int, k: int, weak: bool,
                   table: np.ndarray, stats: np.ndarray, wide: bool = False) -> int:
    """The score of a position nobody has won yet and that is not full (``stats[0] += nodes``), its arrays
    made for this call.

    With ``stats[1] > 0`` the search stops once ``stats[0]`` reaches it and returns ``ABORTED``.
    """
    wide = wide or cols * (rows + 1) > 64
    prepared = (*prepare(rows, cols, k, table.shape[0], wide), _no_book())
    return int(solve_prepared(board_words(int(current), wide), board_words(int(mask), wide), rows, cols, k, weak,
                              prepared, table, stats))


# A numba (0.68) quirk: when a cached caller such as ``_setup`` is loaded first, the dispatchers of the
# array-returning kernels it calls can no longer box arrays for a Python caller ("In
# 'NRT_adapt_ndarray_to_python', 'descr' is NULL").  Resolving them from Python first, once, avoids it.
centre_order(1)
column_masks(1, 1)
