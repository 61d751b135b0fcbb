"""The solver's search: negamax with alpha-beta on 64-bit Connect-X bitboards, compiled by numba.

A position is ``(current, mask, moves)``: the side to move's stones, all stones, and the number of stones
played -- always seen from the side to move, so the search has one code path.  The score convention is
DESIGN.md's: a win with the stone of ply ``p`` (plies counted from 1) scores ``(cells + 2 - p) // 2``, a
loss is the negative of the opponent's win, a draw 0.

``_negamax`` is the algorithm; each trick it uses is one piece in a file of its own:

* :mod:`zerosum.kernels.connectx`: the bit tricks -- winning cells, the moves that do not lose at once,
  mirror images, the centre-first column order;
* :mod:`.table`: the transposition tables (a big one, and a small one for positions near the end);
* :mod:`.order`: the move sorter (the refuting column first, then the most winning cells, centre first),
  which also spots a move that wins with our next stone;
* :mod:`.frames`: the explicit stack the search runs on, with its named fields;
* :mod:`.book`: an opening book's exact scores, looked up (:func:`.table.book_find`) at every node up to
  its depth (``run``'s last item; no book costs one comparison a node);
* here: the window clamped by the best and worst scores still possible (``_score_range``), enhanced
  transposition cut-offs near the root, and ``_solve``: the exact score by a sequence of
  null-window searches (a weak solve asks for a quick win and a quick loss first, then only for the sign).

Everything per solve runs in compiled code; Python only prepares arrays.  A search given a node budget
(``stats[1]``) stops when it is spent and, called again, goes on exactly where it stopped: ``Solver``
runs every search in slices of ``Solver.slice_nodes`` nodes this way, so Ctrl-C is seen between them.

The pieces are small numba functions compiled into ``_negamax`` (``inline="always"``): the split costs
nothing at run time, and the loop allocates nothing.  numba's disk cache checks only the file of the
function it compiled, so after editing a piece in another file, delete the ``__pycache__/*.nbi``/``*.nbc``
files of ``solver/`` or the search keeps running the old copy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from ..kernels.connectx import (ONE, ZERO, centre_order, column_masks, non_losing, open_line, popcnt,
                                win_cells)
from .bounds import claimeven_upper
from .frames import (ALPHA, BETA, COUNT, CUR, FLIP, MASK, PART, SLOT, START, THREATS, TRYING, board_constants,
                     new_frames)
from .order import CUT, column_of, sort_key
from .table import (DEFAULT_LOG_SIZE, MAX_PART_BITS, NEAR_EMPTY, NO_ENTRY, book_find, child_upper, lower_bound,
                    make_table, narrow, position_key, prefetch, probe, put, slot, table_key, table_size, tables, upper_bound,
                    work_of)

__all__ = [
    "solve_position",
    "prepare",
    "solve_prepared",
    "solve_many",
    "make_table",
    "table_size",
    "position_key",
    "DEFAULT_LOG_SIZE",
    "MAX_PART_BITS",
    "ABORTED",
    "STATS_SIZE",
    "book_arrays",
]

_F = TypeVar("_F", bound=Callable[..., Any])

#: the board's constants (:func:`.frames.board_constants`)
Geo = tuple[int, int, int, int, np.uint64, np.uint64, np.uint64, int, np.uint64]
#: the search's stack (:func:`.frames.new_frames`)
Frames = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
#: an opening book as the search probes it: ``(sorted canonical keys, scores, depth)``; no book: ``([], [], -1)``
BookArrays = tuple[np.ndarray, np.ndarray, int]
#: what a search runs on besides the position: ``(geo, table, order, colmask, work, book)``
Run = tuple[Geo, np.ndarray, np.ndarray, np.ndarray, Frames, BookArrays]
#: what :func:`solve_prepared` and :func:`solve_many` take besides the table: ``(order, colmask, work, book)``
Prepared = tuple[np.ndarray, np.ndarray, Frames, BookArrays]

#: what a search returns when it ran out of its node budget (``stats[1]``), beyond every score
ABORTED = 1 << 20
#: the length of a ``stats`` array that lets a search stop and go on later (shorter ones just stop):
#: ``[0]`` nodes searched, ``[1]`` stop once ``[0]`` reaches it (0: no limit), ``[2]`` the stopped
#: frame + 1 (0: not stopped), ``[3]`` its node count, ``[4:8]`` the stopped solve's lo, hi, phase and
#: window, ``[8]`` (``solve_many``) the value of ``[0]`` when the current position began, ``[9]`` halt:
#: nonzero stops the search (``ABORTED``) within ``HALT_EVERY`` nodes -- another thread sets it (lazy SMP,
#: a parallel analysis ending); the search itself never clears it
STATS_SIZE = 10
HALT = 9
#: a running search looks at its halt flag once every this many nodes (a power of two)
HALT_EVERY = 1 << 10
#: from this ply on, a side that has no line left open is known not to win
_DRAW_PLY = 20
#: enhanced transposition cut-offs are tried at nodes with at least this many empty cells
_ETC_EMPTY = 16
# enhanced transposition cut-offs look children up in the main table only
assert _ETC_EMPTY - 1 > NEAR_EMPTY


@njit(cache=True, inline="always")
def _score_range(cur: np.uint64, msk: np.uint64, moves: int, geo):  # type: ignore[no-untyped-def]
    """``(lo, hi)``: the worst and best scores still possible at a node where neither side wins with its
    next stone; from ply ``_DRAW_PLY``, 0 for a side with no line left open even filling every empty cell."""
    rows, k, cells, board = geo[0], geo[2], geo[3], geo[5]
    lo = -((cells - 2 - moves) // 2)  # the opponent cannot win with its next stone
    hi = (cells - 1 - moves) // 2  # we cannot win with this stone
    if moves >= _DRAW_PLY:
        empty = board ^ msk
        if hi > 0 and not open_line(cur | empty, rows + 1, k, rows):
            hi = 0
        if lo < 0 and not open_line((cur ^ msk) | empty, rows + 1, k, rows):
            lo = 0
    return lo, hi


def _released(fn: _F) -> _F:
    """``njit`` for an entry point called from Python: the GIL is released while it runs (``nogil``), so
    threads of one process search at once (each with its own frames and stats, over one shared table)."""
    return cast(_F, njit(cache=True, nogil=True)(fn))


def _without_refcounts(fn: _F) -> _F:
    """``njit`` with numba's reference counting off (``_nrt=False``) for a function that allocates nothing.

    numba counts references to every array a variable holds, with atomic operations, and the counts it
    cannot prove useless stay in the loop: with the pieces inlined they cost ``_negamax`` a third of its
    time.  The search only borrows arrays its caller holds, so it needs no counts; a numba without the
    option compiles it as usual.
    """
    options: dict[str, Any] = {"cache": True, "_nrt": False}
    try:
        return cast(_F, njit(**options)(fn))
    except (KeyError, TypeError, ValueError):  # pragma: no cover - a numba that dropped the option
        return cast(_F, njit(cache=True)(fn))


@_without_refcounts
def _negamax(
    current: np.uint64,
    mask: np.uint64,
    moves0: int,
    alpha0: int,
    beta0: int,
    run: Run,
    stats: np.ndarray,
    resume: bool,
) -> int:
    """The score of a position whose side to move cannot win at once, within ``(alpha0, beta0)``.

    Fail-soft alpha-beta: a result ``<= alpha0`` is an upper bound, ``>= beta0`` a lower bound, else exact.
    It runs on the frames of ``work`` (:mod:`.frames`; frame ``d`` is the position ``d`` plies below the
    root).  Out of budget it returns ``ABORTED``, leaving its frames in ``work`` and its depth and node
    count in ``stats`` (see ``STATS_SIZE``); ``resume=True`` goes on from there, exactly as if it had never
    stopped.
    """
    geo, table, order, colmask, work, book = run
    rows, cols, k, cells, bottom, board, bmask, shift, pmask = geo
    mv, sc, wc, fb, fi, near = work
    bkeys, bscores, bdepth = book
    tt = tables(near, bmask, shift, pmask)
    pausable = stats.shape[0] >= STATS_SIZE
    if resume and pausable and stats[2] > 0:  # go on where the last call stopped
        d, nodes = stats[2] - 1, stats[3]
        stats[2] = 0
    else:
        fb[0, CUR], fb[0, MASK], fi[0, ALPHA], fi[0, BETA] = current, mask, alpha0, beta0
        fb[0, THREATS] = win_cells(current ^ mask, mask, rows + 1, k, board)
        d, nodes = 0, 0
    base = nodes
    # the node count at which to stop; -1: no limit
    budget = base + max(stats[1] - stats[0], 0) if stats.shape[0] > 1 and stats[1] > 0 else -1
    while True:
        if nodes == budget or (pausable and (nodes & (HALT_EVERY - 1)) == 0 and stats[HALT] != 0):
            stats[0] += nodes - base
            if pausable:
                stats[2], stats[3] = d + 1, nodes
            return ABORTED  # the table keeps only proven bounds, so it stays valid
        # ---- enter the node of frame d: either its value v at once, or its moves in order
        cur, msk, moves = fb[d, CUR], fb[d, MASK], moves0 + d
        alpha, beta = fi[d, ALPHA], fi[d, BETA]
        fi[d, START] = nodes
        nodes += 1
        done = True
        nxt = non_losing(msk, fb[d, THREATS], bottom, board)
        booked = book_find(bkeys, cur, msk, rows + 1, cols) if moves <= bdepth else -1  # no book: depth -1
        if nxt == ZERO:
            v = -((cells - moves) // 2)  # the opponent wins with its next stone
        elif moves >= cells - 2:
            v = 0  # the opponent cannot win with the last stone, and we could not win before
        elif booked >= 0:
            v = int(bscores[booked])  # the book's exact score: a true value whatever the window
        else:
            lo, hi = _score_range(cur, msk, moves, geo)
            if beta > -((rows + 1) // 2):  # bounds.py: at most 0 (or a loss) if the other side claims even
                hi = min(hi, claimeven_upper(cur, msk, moves, geo))
            single = (nxt & (nxt - ONE)) == ZERO  # one move (a forced block): straight on, without the table
            in_near = cells - moves <= NEAR_EMPTY  # the small table holds this position
            idx, part, flip, sym, hint = NO_ENTRY, ZERO, 0, False, -1
            if not single:
                key, flip, sym = table_key(cur, msk, moves, rows + 1, cols)
                idx, part = slot(tt, key, in_near)
                lo, hi, hint = narrow(probe(table, near, tt, idx, part, in_near), lo, hi, flip, cols)
            alpha, beta = max(alpha, lo), min(beta, hi)
            if alpha >= beta:
                v = alpha if alpha == lo else beta
            else:
                # order the moves (order.py): the remembered column, then the most winning cells, centre first
                n, win, cutv = 0, -1, 0
                if single:
                    mv[d, 0], sc[d, 0], wc[d, 0] = nxt, 0, win_cells(cur | nxt, msk, rows + 1, k, board)
                    n = 1
                for i in range(0 if single else cols):
                    c = order[i]
                    m = nxt & colmask[c]
                    if m == ZERO or (sym and 2 * c > cols - 1):  # a symmetric position: one half only
                        continue
                    ckey, _, _ = table_key(cur ^ msk, msk | m, moves + 1, rows + 1, cols)
                    prefetch(table, near, tt, ckey, cells - moves - 1 <= NEAR_EMPTY)  # read a little later
                    w, s = sort_key(cur, msk, m, i, c == hint, fb[d, THREATS], geo, moves, beta)
                    if s < 0:  # no reply survives (we win with our next stone), or claimeven refutes them all
                        win = c
                        cutv = (cells - 1 - moves) // 2 if s == -1 else CUT - s
                        break
                    j = n
                    while j > 0 and sc[d, j - 1] < s:
                        mv[d, j], sc[d, j], wc[d, j] = mv[d, j - 1], sc[d, j - 1], wc[d, j - 1]
                        j -= 1
                    mv[d, j], sc[d, j], wc[d, j] = m, s, w
                    n += 1
                fi[d, COUNT] = n
                v = 0
                if win >= 0:  # we win with our next stone (the best score left), or claimeven cuts off
                    v = cutv
                    put(table, near, tt, in_near, idx, part, lower_bound(v, cols - 1 - win if flip else win), 0)
                elif not single and beta > (cells - 3 - moves) // 2:
                    beta = (cells - 3 - moves) // 2  # no move wins with our next stone: the one after at best
                    if alpha >= beta:
                        v = beta
                        put(table, near, tt, in_near, idx, part, upper_bound(v), 0)
                    else:
                        done = False
                else:
                    done = False
                if not done and cells - moves >= _ETC_EMPTY and not single:
                    # enhanced transposition cut-off: a child whose stored upper bound already proves >= beta
                    for i in range(n):
                        ckey, _, _ = table_key(cur ^ msk, msk | mv[d, i], moves + 1, rows + 1, cols)
                        cslot, cpart = slot(tt, ckey, False)
                        t = child_upper(probe(table, near, tt, cslot, cpart, False))
                        if t >= beta:
                            col = column_of(sc[d, i], order, flip, cols)
                            put(table, near, tt, False, idx, part, lower_bound(t, col), 0)
                            v, done = t, True
                            break
                fb[d, SLOT], fb[d, PART] = idx, part
                fi[d, ALPHA], fi[d, BETA], fi[d, TRYING], fi[d, FLIP] = alpha, beta, 0, flip
        # ---- return v to the parents until one has another move to try
        while done:
            if d == 0:
                stats[0] += nodes - base
                return int(v)
            d -= 1
            near_end = cells - moves0 - d <= NEAR_EMPTY
            score = -v
            if score >= fi[d, BETA]:  # a cut-off: the move tried refutes the window
                if fb[d, SLOT] != NO_ENTRY:
                    col = column_of(sc[d, fi[d, TRYING]], order, fi[d, FLIP], cols)
                    put(table, near, tt, near_end, fb[d, SLOT], fb[d, PART], lower_bound(score, col),
                        work_of(nodes - fi[d, START]))
                v = score
                continue
            fi[d, ALPHA] = max(fi[d, ALPHA], score)
            if fi[d, TRYING] + 1 < fi[d, COUNT]:
                fi[d, TRYING] += 1
                done = False
            else:  # every move tried: alpha is an upper bound
                if fb[d, SLOT] != NO_ENTRY:
                    put(table, near, tt, near_end, fb[d, SLOT], fb[d, PART], upper_bound(fi[d, ALPHA]),
                        work_of(nodes - fi[d, START]))
                v = fi[d, ALPHA]
        # ---- descend into the move frame d is trying
        i = fi[d, TRYING]
        m = mv[d, i]
        fb[d + 1, CUR] = fb[d, CUR] ^ fb[d, MASK]
        fb[d + 1, MASK] = fb[d, MASK] | m
        fb[d + 1, THREATS] = wc[d, i] & ~m  # the mover's winning cells: the opponent's, one ply down
        fi[d + 1, ALPHA] = -fi[d, BETA]
        fi[d + 1, BETA] = -fi[d, ALPHA]
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
def _setup(rows: int, cols: int, k: int, size: int) -> tuple[Geo, np.ndarray, np.ndarray, Frames]:
    """``(geo, order, colmask, work)``: everything a search on this board needs besides the table."""
    return board_constants(rows, cols, k, size), centre_order(cols), column_masks(rows, cols), new_frames(rows, cols, size)


@njit(cache=True)
def _no_book() -> BookArrays:
    """The book of a search without one: nothing in it, and a depth no position is at."""
    return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int8), -1


def book_arrays(keys: np.ndarray | None = None, scores: np.ndarray | None = None, depth: int = -1) -> BookArrays:
    """A book as the search probes it (:meth:`zerosum.solver.book.Book.probe`); none by default."""
    if keys is None or scores is None or depth < 0:
        return _no_book()
    return keys, scores, int(depth)


@njit(cache=True)
def prepare(rows: int, cols: int, k: int, table_size: int) -> tuple[np.ndarray, np.ndarray, Frames]:
    """The arrays a solve needs besides the table and the book, made once per board: ``(order, colmask,
    work)``; :func:`solve_prepared` takes them with a book (:func:`book_arrays`) added."""
    _, order, colmask, work = _setup(rows, cols, k, table_size)
    return order, colmask, work


@_released
def solve_prepared(current: np.uint64, mask: np.uint64, rows: int, cols: int, k: int, weak: bool,
                   prepared: Prepared, table: np.ndarray, stats: np.ndarray) -> int:
    """``solve_position`` with the board's arrays from :func:`prepare` and a book (nothing allocated per
    call): ``prepared = prepare(...) + (book_arrays(...),)``."""
    order, colmask, work, book = prepared
    geo = board_constants(rows, cols, k, table.shape[0])
    return _solve(current, mask, popcnt(mask), weak, (geo, table, order, colmask, work, book), stats)


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
    run = (board_constants(rows, cols, k, table.shape[0]), table, order, colmask, work, book)
    for i in range(start, currents.shape[0]):
        if stats[2] == 0:  # not a stopped search going on: position i starts here
            stats[8] = stats[0]
        r = _solve(currents[i], masks[i], popcnt(masks[i]), weak, run, stats)
        if r == ABORTED:
            return i
        scores[i] = r
        nodes[i] = stats[0] - stats[8]
    return int(currents.shape[0])


@_released
def solve_position(current: np.uint64, mask: np.uint64, rows: int, cols: int, k: int, weak: bool,
                   table: np.ndarray, stats: np.ndarray) -> int:
    """The score of a position nobody has won yet and that is not full (``stats[0] += nodes``).

    With ``stats[1] > 0`` the search stops once ``stats[0]`` reaches it and returns ``ABORTED``.
    """
    geo, order, colmask, work = _setup(rows, cols, k, table.shape[0])
    return _solve(current, mask, popcnt(mask), weak, (geo, table, order, colmask, work, _no_book()), stats)


# A numba (0.68) quirk: when a cached caller such as ``_setup`` is loaded first, the dispatchers of the
# array-returning kernels it calls can no longer box arrays for a Python caller ("In
# 'NRT_adapt_ndarray_to_python', 'descr' is NULL").  Resolving them from Python first, once, avoids it.
centre_order(1)
column_masks(1, 1)
