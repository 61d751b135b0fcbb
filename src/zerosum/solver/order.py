"""The move sorter: which move of a node the search tries first.

Alpha-beta cuts off as soon as one move refutes the window, so a node's cost is mostly the order of its
moves.  The order, best first:

1. the column that refuted the position last time (the table remembers it);
2. the moves that create the most winning cells for the mover -- less those right above an opponent's
   winning cell, which the mover could never fill before the opponent wins;
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
so the column comes back from the key alone (:func:`column_of`); moves are kept sorted by insertion, at
most ``cols`` of them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.connectx import ONE, ZERO, non_losing, popcnt, win_cells
from .table import NEAR_EMPTY, prefetch, table_key

__all__ = ["order_moves", "column_of"]


@njit(cache=True, inline="always")
def column_of(key: int, order: np.ndarray, flip: int, cols: int) -> int:
    """The column of a move from its sort key, mirrored when the table keys the mirror image (``flip``)."""
    col = int(order[63 - (key & 63)])
    return cols - 1 - col if flip else col


@njit(cache=True, inline="always")
def order_moves(d, cur, msk, threats, nxt, moves, hint, sym, geo, tt, order, colmask, work):  # type: ignore[no-untyped-def]
    """Fill frame ``d``'s moves in search order from ``nxt`` (the non-losing moves); ``(count, win)``.

    ``threats``: the opponent's winning cells.  ``win``: a column after which every reply loses at once
    (then the order is left unfinished), or -1.  ``hint``:
    the column to try first; ``sym``: the position is its own mirror image.  A single move (a forced
    block) is taken as it is.
    """
    rows, cols, k, cells, bottom, board = geo[0], geo[1], geo[2], geo[3], geo[4], geo[5]
    h = rows + 1
    mv, sc, wc = work[0], work[1], work[2]
    if (nxt & (nxt - ONE)) == ZERO:
        mv[d, 0] = nxt
        wc[d, 0] = win_cells(cur | nxt, msk, h, k, board)
        sc[d, 0] = 0
        return 1, -1
    threats_above = threats << ONE  # right above an opponent's winning cell
    child_near = cells - moves - 1 <= NEAR_EMPTY
    n = 0
    for i in range(cols):
        c = order[i]
        m = nxt & colmask[c]
        if m == ZERO or (sym and 2 * c > cols - 1):
            continue
        child_mask = msk | m
        ckey, _, _ = table_key(cur ^ msk, child_mask, moves + 1, h, cols)
        prefetch(tt, ckey, child_near)
        w = win_cells(cur | m, msk, h, k, board)
        if non_losing(child_mask, w & ~m, bottom, board) == ZERO:
            return n, c  # every reply loses at once
        s = popcnt(w & ~threats_above) * 64 + 63 - i
        if c == hint:
            s += 1 << 20
        j = n
        while j > 0 and sc[d, j - 1] < s:
            mv[d, j] = mv[d, j - 1]
            sc[d, j] = sc[d, j - 1]
            wc[d, j] = wc[d, j - 1]
            j -= 1
        mv[d, j] = m
        sc[d, j] = s
        wc[d, j] = w
        n += 1
    return n, -1
