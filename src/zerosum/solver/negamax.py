"""One window of the solver's search: negamax with alpha-beta on 64-bit Connect-X bitboards, compiled by numba.

``_negamax`` answers one question -- is the position's score below, inside or above ``(alpha, beta)``? --
and :mod:`.search` asks it the sequence of null-window questions that finds the exact score.  A position is
``(current, mask, moves)``: the side to move's stones, all stones, and the number of stones played, always
seen from the side to move.  Each trick the search uses is one piece in a file of its own (the bit tricks
in :mod:`zerosum.kernels.connectx`, :mod:`.table`, :mod:`.order`, :mod:`.frames`, :mod:`.bounds`, the
book's lookup :func:`.table.book_find`); here are only the window clamped by the scores still possible
(``_score_range``) and enhanced transposition cut-offs near the root.

The search runs on an explicit stack (:mod:`.frames`) and allocates nothing; given a node budget
(``stats[1]``) it stops when the budget is spent and, called again with ``resume=True``, goes on exactly
where it stopped.  The pieces are compiled into ``_negamax`` (``inline="always"``), without reference
counts (:func:`_without_refcounts`).  numba's disk cache checks only the file of the function it compiled;
``import zerosum`` drops the cached kernels when any of the pieces changed (:mod:`zerosum.core.kernel_cache`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit

from ..kernels.connectx import non_losing, open_line, win_cells
from ..kernels.wide import like
from .bounds import claimeven_upper
from .frames import ALPHA, BETA, COUNT, CUR, FLIP, MASK, PART, SLOT, START, THREATS, TRYING, get, item, put_board
from .order import CUT, column_of, sort_key
from .table import (NEAR_EMPTY, NO_ENTRY, book_find, child_upper, lower_bound, narrow, prefetch, probe, put, slot,
                    table_key, tables, upper_bound, work_of)

__all__ = ["Geo", "Frames", "BookArrays", "Run", "ABORTED", "STATS_SIZE", "HALT", "HALT_EVERY"]

_F = TypeVar("_F", bound=Callable[..., Any])

#: the board's constants (:func:`.frames.board_constants`)
Geo = tuple[int, int, int, int, np.uint64, np.uint64, np.uint64, int, np.uint64]
#: the search's stack (:func:`.frames.new_frames`)
Frames = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
#: an opening book as the search probes it: ``(sorted canonical keys, scores, depth)``; no book: ``([], [], -1)``
BookArrays = tuple[np.ndarray, np.ndarray, int]
#: what a search runs on besides the position: ``(geo, table, order, colmask, work, book)``
Run = tuple[Geo, np.ndarray, np.ndarray, np.ndarray, Frames, BookArrays]

#: what a search returns when it ran out of its node budget (``stats[1]``), beyond every score
ABORTED = 1 << 20
#: the length of a ``stats`` array that lets a search stop and go on later (shorter ones just stop):
#: ``[0]`` nodes searched, ``[1]`` stop once ``[0]`` reaches it (0: no limit), ``[2]`` the stopped
#: frame + 1 (0: not stopped), ``[3]`` its node count, ``[4:8]`` the stopped solve's lo, hi, phase and
#: window (:mod:`.search`'s ``_solve``), ``[8]`` (``solve_many``) the value of ``[0]`` when the current
#: position began, ``[9]`` halt: nonzero stops the search (``ABORTED``) within ``HALT_EVERY`` nodes --
#: another thread sets it (lazy SMP, a parallel analysis ending); the search itself never clears it
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
    zero, one = like(board, 0), like(board, 1)  # the bitboards' type: uint64, or U128 past 64 bits
    pausable = stats.shape[0] >= STATS_SIZE
    if resume and pausable and stats[2] > 0:  # go on where the last call stopped
        d, nodes = stats[2] - 1, stats[3]
        stats[2] = 0
    else:
        put_board(fb, 0, CUR, current)
        put_board(fb, 0, MASK, mask)
        fi[0, ALPHA], fi[0, BETA] = alpha0, beta0
        put_board(fb, 0, THREATS, win_cells(current ^ mask, mask, rows + 1, k, board))
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
        cur, msk, moves = get(fb, d, CUR), get(fb, d, MASK), moves0 + d
        alpha, beta = fi[d, ALPHA], fi[d, BETA]
        fi[d, START] = nodes
        nodes += 1
        done = True
        threats = get(fb, d, THREATS)
        nxt = non_losing(msk, threats, bottom, board)
        booked = book_find(bkeys, cur, msk, rows + 1, cols) if moves <= bdepth else -1  # no book: depth -1
        if nxt == zero:
            v = -((cells - moves) // 2)  # the opponent wins with its next stone
        elif moves >= cells - 2:
            v = 0  # the opponent cannot win with the last stone, and we could not win before
        elif booked >= 0:
            v = int(bscores[booked])  # the book's exact score: a true value whatever the window
        else:
            lo, hi = _score_range(cur, msk, moves, geo)
            if beta > -((rows + 1) // 2):  # bounds.py: at most 0 (or a loss) if the other side claims even
                hi = min(hi, claimeven_upper(cur, msk, moves, geo))
            single = (nxt & (nxt - one)) == zero  # one move (a forced block): straight on, without the table
            in_near = cells - moves <= NEAR_EMPTY  # the small table holds this position
            idx, part, flip, sym, hint = NO_ENTRY, zero, 0, False, -1
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
                    put_board(mv, d, 0, nxt)
                    put_board(wc, d, 0, win_cells(cur | nxt, msk, rows + 1, k, board))
                    sc[d, 0] = 0
                    n = 1
                for i in range(0 if single else cols):
                    c = order[i]
                    m = nxt & item(colmask, c)
                    if m == zero or (sym and 2 * c > cols - 1):  # a symmetric position: one half only
                        continue
                    ckey, _, _ = table_key(cur ^ msk, msk | m, moves + 1, rows + 1, cols)
                    prefetch(table, near, tt, ckey, cells - moves - 1 <= NEAR_EMPTY)  # read a little later
                    w, s = sort_key(cur, msk, m, i, c == hint, threats, geo, moves, beta)
                    if s < 0:  # no reply survives (we win with our next stone), or claimeven refutes them all
                        win = c
                        cutv = (cells - 1 - moves) // 2 if s == -1 else CUT - s
                        break
                    j = n
                    while j > 0 and sc[d, j - 1] < s:
                        put_board(mv, d, j, get(mv, d, j - 1))
                        put_board(wc, d, j, get(wc, d, j - 1))
                        sc[d, j] = sc[d, j - 1]
                        j -= 1
                    put_board(mv, d, j, m)
                    put_board(wc, d, j, w)
                    sc[d, j] = s
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
                        ckey, _, _ = table_key(cur ^ msk, msk | get(mv, d, i), moves + 1, rows + 1, cols)
                        cslot, cpart = slot(tt, ckey, False)
                        t = child_upper(probe(table, near, tt, cslot, cpart, False))
                        if t >= beta:
                            col = column_of(sc[d, i], order, flip, cols)
                            put(table, near, tt, False, idx, part, lower_bound(t, col), 0)
                            v, done = t, True
                            break
                put_board(fb, d, SLOT, like(zero, idx))
                put_board(fb, d, PART, part)
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
                slot_d = like(NO_ENTRY, get(fb, d, SLOT))
                if slot_d != NO_ENTRY:
                    col = column_of(sc[d, fi[d, TRYING]], order, fi[d, FLIP], cols)
                    put(table, near, tt, near_end, slot_d, get(fb, d, PART), lower_bound(score, col),
                        work_of(nodes - fi[d, START]))
                v = score
                continue
            fi[d, ALPHA] = max(fi[d, ALPHA], score)
            if fi[d, TRYING] + 1 < fi[d, COUNT]:
                fi[d, TRYING] += 1
                done = False
            else:  # every move tried: alpha is an upper bound
                slot_d = like(NO_ENTRY, get(fb, d, SLOT))
                if slot_d != NO_ENTRY:
                    put(table, near, tt, near_end, slot_d, get(fb, d, PART), upper_bound(fi[d, ALPHA]),
                        work_of(nodes - fi[d, START]))
                v = fi[d, ALPHA]
        # ---- descend into the move frame d is trying
        i = fi[d, TRYING]
        m = get(mv, d, i)
        put_board(fb, d + 1, CUR, get(fb, d, CUR) ^ get(fb, d, MASK))
        put_board(fb, d + 1, MASK, get(fb, d, MASK) | m)
        put_board(fb, d + 1, THREATS, get(wc, d, i) & ~m)  # the mover's winning cells: the opponent's, one ply down
        fi[d + 1, ALPHA] = -fi[d, BETA]
        fi[d + 1, BETA] = -fi[d, ALPHA]
        d += 1
