"""The textbook's line test for Connect-X negamaxes written in the review's tests: whether the stone at
column ``c``, row ``r`` of ``grid`` (``grid[col]``: the column's stones, bottom first) is one of ``k`` or more
of player ``p``'s in a row, across, up or on either diagonal."""

from __future__ import annotations


def completes_line(grid: tuple, c: int, r: int, p: int, k: int) -> bool:
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            x, y = c + sign * dc, r + sign * dr
            while 0 <= x < len(grid) and 0 <= y < len(grid[x]) and grid[x][y] == p:
                run, x, y = run + 1, x + sign * dc, y + sign * dr
        if run >= k:
            return True
    return False
