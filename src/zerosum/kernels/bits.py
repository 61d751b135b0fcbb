"""Connect-X bit tricks on Python ints: every board size, no numba (see :mod:`zerosum.kernels`).

:mod:`zerosum.kernels.connectx` compiles :func:`nth_column` as it is and has the ``uint64`` twins of
the others (where shifts past 64 bits need a guard that Python ints do not).
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "nth_column",
    "column_order",
    "centre_columns",
    "lines",
    "line_masks",
    "line_bits",
    "win_cells",
    "mirror",
]

#: the four directions of a line, as (column step, row step): vertical, horizontal, both diagonals
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def nth_column(i: int, cols: int) -> int:
    """The ``i``-th column in centre-first order: the centre, then outwards alternately, the left one
    first at equal distance (7 columns: 3 2 4 1 5 0 6; 6 columns: 2 3 1 4 0 5).  Plain integer arithmetic,
    so numba compiles it as it is."""
    centre = (cols - 1) // 2
    if cols % 2:
        return centre - (i + 1) // 2 if i % 2 else centre + i // 2
    return centre + (i + 1) // 2 if i % 2 else centre - i // 2


def column_order(cols: int) -> list[int]:
    """Every column, centre first (:func:`nth_column`)."""
    return [nth_column(i, cols) for i in range(cols)]


def centre_columns(cols: int) -> list[int]:
    """The centre column, or the two centre columns of an even width."""
    return sorted({(cols - 1) // 2, cols // 2})


@lru_cache(maxsize=64)
def lines(rows: int, cols: int, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every line of ``k`` cells as ``((col, row), ...)``, row 0 at the bottom; ordered by the first cell
    (column, then row), then by direction (vertical, horizontal, rising, falling)."""
    out = []
    for c in range(cols):
        for r in range(rows):
            for dc, dr in DIRECTIONS:
                if 0 <= c + dc * (k - 1) < cols and 0 <= r + dr * (k - 1) < rows:
                    out.append(tuple((c + dc * i, r + dr * i) for i in range(k)))
    return tuple(out)


@lru_cache(maxsize=64)
def line_masks(rows: int, cols: int, k: int) -> tuple[int, ...]:
    """:func:`lines` as bitboard masks."""
    h = rows + 1
    return tuple(sum(1 << (c * h + r) for c, r in line) for line in lines(rows, cols, k))


def line_bits(stones: int, step: int, k: int) -> int:
    """Bits ``i`` such that ``stones`` holds ``i, i+step, ..., i+(k-1)*step`` (k in a row from ``i``):
    the run doubles each time."""
    run, length = stones, 1
    while length < k:
        grow = min(length, k - length)
        run &= run >> (step * grow)
        length += grow
    return run


def win_cells(stones: int, mask: int, h: int, k: int, board: int) -> int:
    """The empty cells of ``board`` where one more stone gives ``stones`` ``k`` in a row (``h``: bits per
    column).  Per direction ``d``, ``up[m]`` marks the cells with ``m`` stones right after them along ``d``
    and ``down[m]`` those with ``m`` right before; a cell wins when ``up[m] & down[k-1-m]`` for some m."""
    result = 0
    for d in (1, h, h - 1, h + 1):
        up, down = [-1], [-1]
        for m in range(1, k):
            up.append(up[-1] & (stones >> (m * d)))
            down.append(down[-1] & (stones << (m * d)))
        for m in range(k):
            result |= up[m] & down[k - 1 - m]
    return result & board & ~mask


def mirror(bits: int, rows: int, cols: int) -> int:
    """The bitboard mirrored left to right."""
    h = rows + 1
    col = (1 << h) - 1
    out = 0
    for c in range(cols):
        out |= ((bits >> (c * h)) & col) << ((cols - 1 - c) * h)
    return out
