"""The move sorter: which move of a node the search tries first.

Alpha-beta cuts off as soon as one move refutes the window, so a node's cost is mostly the order of its
moves.  The order, best first:

0. when the window asks for no more than a draw or a slow win (``beta <= (rows + 1) // 2``), a move after
   which claimeven (:mod:`.bounds`) bounds the opponent low enough to cut ends the node at once, before the
   other moves are looked at and without entering the child (its sort key is ``CUT - bound``);
1. the column that refuted the position last time (the table remembers it);
2. the moves that create the most winning cells for the mover -- less those right above an opponent's
   winning cell, which the mover could never fill before the opponent wins; in a window about the sign
   (``-1 <= beta <= 1``: every window of a weak solve) a cell right above one playable at once counts
   five times, since the opponent can never play under it (Steininger's weighting; Test_L1_R3's first
   20, weak: -31% nodes, -15% to -25% CPU; strong: -15% nodes);
3. centre first between equals (``kernels.connectx.centre_order``), the centre columns being in more
   lines.

While it looks at each move, the sorter also:

* asks the CPU to load the child's table slot (:func:`.table.prefetch`): the search reads it a few
  microseconds later, and the memory round trip overlaps the sorting;
* spots a move after which the opponent has no move that does not lose at once: it wins with our next
  stone, the best score left, so the node ends there (Steininger's static look-ahead: -40% to -57% nodes
  on the easy sets, -20% to -28% on the others);
* skips the right half of a position equal to its mirror image (near the root only).

A move's sort key is ``winning cells * 64 + 63 - centre rank`` (plus ``2**20`` for the remembered column),
so the column comes back from the key alone (:func:`column_of`); ``_negamax`` keeps the moves sorted by
insertion, at most ``cols`` of them, in its frame.  (The loop over the columns lives there too: a numba
piece handed arrays counts references to them with atomic operations, which inside a loop would cost more
than everything else here.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.connectx import ONE, non_losing, popcnt, win_cells
from ..kernels.wide import like
from .bounds import claimeven_upper

__all__ = ["sort_key", "column_of", "CUT"]

#: a sort key at or below this says the move cuts off by claimeven: the node's score is at least
#: ``CUT - key`` (:func:`sort_key`)
CUT = -2


@njit(cache=True, inline="always")
def column_of(key: int, order: np.ndarray, flip: int, cols: int) -> int:
    """The column of a move from its sort key, mirrored when the table keys the mirror image (``flip``)."""
    col = int(order[63 - (key & 63)])
    return cols - 1 - col if flip else col


@njit(cache=True, inline="always")
def sort_key(cur, msk, m, rank, remembered, threats, geo, moves, beta):  # type: ignore[no-untyped-def]
    """``(w, key)`` of move ``m`` (one bit), the ``rank``-th column centre first: ``w`` the mover's winning
    cells once it is played, ``key`` its sort key -- or -1 when no reply survives it (we win with our
    next stone), or ``CUT - bound`` (at most ``CUT``) when claimeven proves the node at least ``bound >=
    beta``.  ``threats``: the opponent's winning cells; ``remembered``: the table's column."""
    rows, k, bottom, board = geo[0], geo[2], like(cur, geo[4]), like(cur, geo[5])  # uint64 from Python too
    w = win_cells(cur | m, msk, rows + 1, k, board)
    if non_losing(msk | m, w & ~m, bottom, board) == like(cur, 0):
        return w, -1
    # the winning cells it makes, less those right above an opponent's (never playable by us without the
    # opponent winning first); the centre-first rank breaks ties
    useful = w & ~(threats << ONE)
    above = like(cur, 0)  # in a window about the sign, threats right above a playable cell count 5 times
    if -1 <= beta <= 1:
        above = (((msk | m) + bottom) & board) << ONE
    key = (popcnt(useful) + 4 * popcnt(useful & above)) * 64 + 63 - rank
    if remembered:
        key += 1 << 20
    if beta <= (rows + 1) // 2:
        bound = -claimeven_upper(cur ^ msk, msk | m, moves + 1, geo)
        if bound >= beta:  # claimeven (bounds.py) refutes every reply: a cut-off without entering the child
            return w, CUT - bound
    return w, key
