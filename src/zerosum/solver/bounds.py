"""Static bounds: what a position's score cannot exceed, known without searching it.

**Claimeven** (Victor Allis' rule, used as a bound in Christophe Steininger's solver).  When an even
number of cells is empty, the side *not* to move can answer every move by playing on top of it in the
same column.  Pair each column's empty cells from the top down: the upper cell of a pair goes to the
answering side.  A column with an odd number of empty cells has one cell left over at its bottom -- the
next cell to play there -- and there are an even number of such columns, so the answering side, when the
side to move plays such a cell, plays the bottom cell of another such column (and so takes more than its
share, which only hurts the side to move).  Whatever the side to move does, it ends with no more than:

    its stones, every empty cell at an odd distance from the top of its column, and every cell
    playable now

If those cells hold no line, the side to move never wins: its score is at most 0.  If, besides, the
answering side's cells (its stones and the rest of the empty cells) hold a line, it wins in the end: at
most -1 (a loss with the last stone), less when the line's top cell is low (:func:`_latest_loss`).

A line among the side to move's cells does not always spoil the rule (Steininger's refinement,
:func:`_all_under`): when it lies right above a line of the answering side in the same direction -- each
of its cells some rows above the matching cell of the other line -- it cannot be complete before that line
is, so the answering side wins first.  When every line of the side to move is so covered (and none is
vertical), the loss bound above holds.  On Test_L1_R3's first 20 positions, weak: -14% nodes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels.connectx import U64, open_line
from ..kernels.wide import like
from .frames import board_constants

__all__ = ["claimeven_upper", "NO_BOUND"]

#: shift counts below 64 (columns under 20 bits) are masked with this: a 128-bit shift then needs no test of
#: its size (LLVM sees the mask); a 64-bit shift is the same instruction
_SMALL = U64(63)

#: what :func:`claimeven_upper` returns when it proves nothing: above every score
NO_BOUND = 1 << 10


@njit(cache=True, inline="always")
def claimeven_upper(cur, msk, moves, geo):  # type: ignore[no-untyped-def]
    """The best score the side to move can still reach if the other side answers by claimeven: 0 (no
    win), negative (a loss, at the latest when the first of the other side's lines can be complete;
    never below ``-((rows + 1) // 2)``), or :data:`NO_BOUND` when the rule proves nothing (an odd number of empty cells,
    or a line left among the side to move's cells)."""
    rows, k, cells = geo[0], geo[2], geo[3]
    bottom, board = like(cur, geo[4]), like(cur, geo[5])  # the bitboards' type (geo from Python: plain ints)
    if (cells - moves) & 1:
        return NO_BOUND
    # the cells at an even distance from the top of their column (pattern 1010.. read from the top)
    top_parity = like(cur, (~U64(0) >> U64(63 - rows)) // U64(3)) * bottom  # (2**h - 1) // 3, h <= 64
    theirs = (cur ^ msk) | (board & ~msk & top_parity & ~(msk + bottom))
    mine = board & ~theirs
    h = rows + 1
    if open_line(mine, h, k, rows):
        if k != 4 or h >= 20 or not _all_under(mine, theirs, rows, board):
            return NO_BOUND
    elif not open_line(theirs, h, k, rows):
        return 0
    if k != 4 or h >= 20:
        return -1  # a loss, with the last stone at the latest
    return _latest_loss(theirs, rows, bottom, h)


@njit(cache=True, inline="always")
def _all_under(mine, theirs, rows, board):  # type: ignore[no-untyped-def]
    """Whether every four-in-a-row line of ``mine`` lies right above one of ``theirs`` in the same direction
    (each of its cells some rows above the matching cell of the other line; Steininger's refinement): the
    line of ``theirs`` is then complete before it, so ``mine``'s lines never win first.  ``False`` when
    ``mine`` holds a vertical line (k = 4, columns under 20 bits)."""
    one = U64(1)
    v = mine & (mine >> one)
    if v & (v >> U64(2)):
        return False
    h = rows + 1
    for dd in (h, h - 1, h + 1):
        d, d2 = U64(dd) & _SMALL, U64(2 * dd) & _SMALL  # below 64 (h < 20), and masked so: see _SMALL
        m = mine & (mine >> d)
        m &= m >> d2  # bit i: the cells i, i + d, i + 2d, i + 3d are all mine
        if m:
            t = theirs & (theirs >> d)
            t &= t >> d2
            up = (t << one) & board  # the cells above such a line's first cell, in its column
            for _ in range(rows - 2):
                up |= (up << one) & board
            if m & ~up:
                return False
    return True


@njit(cache=True, inline="always")
def _latest_loss(theirs, rows, bottom, h):  # type: ignore[no-untyped-def]
    """The best score left to a side that cannot stop the other side's four-in-a-row lines ``theirs``.

    A line is complete once its top cell is filled, and nothing above that cell can be filled before it:
    with its top cell on row ``r`` (0 at the bottom) it is complete with ``rows - 1 - r`` cells still
    empty at least, so the loss comes at ply ``cells - rows + 1 + r`` at the latest, the score
    ``-((rows + 1 - r) // 2)``.  The line with the lowest top cell decides.
    """
    tops = like(theirs, 0)
    for dd, top in ((1, 3), (h, 0), (h + 1, 3 * (h + 1)), (h - 1, 0)):  # its top: the last or first cell
        d, d2 = U64(dd) & _SMALL, U64(2 * dd) & _SMALL
        m = theirs & (theirs >> d)
        m &= m >> d2  # bit i: the cells i, i + d, i + 2d, i + 3d are all theirs
        tops |= m << (U64(top) & _SMALL)
    r = 0
    while r < rows - 1 and tops & (bottom << (U64(r) & _SMALL)) == like(tops, 0):
        r += 1
    return -((rows + 1 - r) // 2)


def claimeven_upper_py(cur: int, msk: int, moves: int, rows: int, cols: int, k: int) -> int:
    """:func:`claimeven_upper` of a position given as Python ints (for tests)."""
    return int(_claimeven_upper(np.uint64(cur), np.uint64(msk), moves, rows, cols, k))


@njit(cache=True)
def _claimeven_upper(cur, msk, moves, rows, cols, k):  # type: ignore[no-untyped-def]
    return claimeven_upper(cur, msk, moves, board_constants(rows, cols, k, 1 << 10))
