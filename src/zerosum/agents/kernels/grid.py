"""The cell-array Connect-X board of the alpha-beta and cell MCTS kernels (any board size).

The position is a grid of cells (``cell = col * rows + row``, row 0 at the bottom; 0 empty, else the
player), the height of every column, the side to move and a Zobrist key.  The evaluation scans the lines of
k cells (``windows``, :func:`zerosum.kernels.bits.lines`) with the numbers of
:mod:`zerosum.agents.heuristics`, so it returns exactly what the Python evaluations return.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...kernels.bits import centre_columns, lines
from ...games.connectx_eval import CENTRE_WEIGHT, THREAT_DECISIVE, THREAT_GOOD, THREAT_OTHER, THREAT_STACKED

__all__ = ["make_tables", "window_contributions", "window_counts", "place", "grid_of", "makes_line", "grid_eval"]

# cfg (int64) slots
ROWS, COLS, K, EVAL, THREE, TWO, BUDGET, TT_BITS = range(8)
# evaluation ids
EVAL_WINDOW, EVAL_THREATS = 0, 1
#: the directions of a line as (column step, row step): vertical, horizontal, both diagonals
DC = (0, 1, 1, 1)
DR = (1, 0, 1, -1)


def make_tables(rows: int, cols: int, k: int) -> dict[str, np.ndarray]:
    """The arrays the alpha-beta kernel needs for a board: windows, centre columns, Zobrist keys."""
    wins = [[c * rows + r for c, r in line] for line in lines(rows, cols, k)]
    is_centre = np.zeros(cols, dtype=np.int64)
    is_centre[centre_columns(cols)] = 1
    rng = np.random.default_rng(20261121)
    zob = rng.integers(1, 2**63, size=(2, rows * cols), dtype=np.int64).astype(np.uint64)
    windows = np.array(wins, dtype=np.int64).reshape(len(wins), k)
    # the windows through each cell (padded with -1), for the incremental window score
    through: list[list[int]] = [[] for _ in range(rows * cols)]
    for w, cells in enumerate(wins):
        for cell in cells:
            through[cell].append(w)
    width = max(len(t) for t in through)
    cell_windows = np.full((rows * cols, width), -1, dtype=np.int64)
    for cell, ws in enumerate(through):
        cell_windows[cell, : len(ws)] = ws
    return {"windows": windows, "is_centre": is_centre, "zob": zob, "cell_windows": cell_windows}


def window_contributions(k: int, three: int, two: int) -> np.ndarray:
    """``table[a, b]``: what one window with ``a`` of player 1's stones and ``b`` of player 2's adds to the
    window score from player 1's view (the rule of :func:`zerosum.agents.heuristics.window_eval`)."""
    table = np.zeros((k + 1, k + 1), dtype=np.int64)
    for a in range(k + 1):
        for b in range(k + 1):
            v = 0
            if b == 0:
                v += three if a == k - 1 else two if a == k - 2 else 0
            if a == 0:
                v -= three if b == k - 1 else two if b == k - 2 else 0
            table[a, b] = v
    return table


@njit(cache=True)
def window_counts(grid: np.ndarray, windows: np.ndarray, contrib: np.ndarray, wcnt: np.ndarray) -> int:
    """Fill ``wcnt[w, p]`` (stones of player p in window w) and return the window score for player 1."""
    score = 0
    for w in range(windows.shape[0]):
        wcnt[w, 1] = 0
        wcnt[w, 2] = 0
        for j in range(windows.shape[1]):
            v = grid[windows[w, j]]
            if v:
                wcnt[w, v] += 1
        score += contrib[wcnt[w, 1], wcnt[w, 2]]
    return score


@njit(cache=True, inline="always")
def place(cell: int, p: int, step: int, cell_windows: np.ndarray, wcnt: np.ndarray, contrib: np.ndarray) -> int:
    """Add (``step=1``) or remove (``step=-1``) a stone of ``p`` in the window counts; the score change."""
    delta = 0
    for i in range(cell_windows.shape[1]):
        w = cell_windows[cell, i]
        if w < 0:
            break
        before = contrib[wcnt[w, 1], wcnt[w, 2]]
        wcnt[w, p] += step
        delta += contrib[wcnt[w, 1], wcnt[w, 2]] - before
    return delta


def grid_of(game, state, zob: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.uint64]:  # type: ignore[no-untyped-def]
    """(grid, heights, Zobrist key) of a Connect-X state."""
    rows, cols = game.rows, game.cols
    grid = np.zeros(rows * cols, dtype=np.int8)
    heights = np.zeros(cols, dtype=np.int64)
    key = 0
    for c in range(cols):
        for r in range(rows):
            p = game.cell(state, r, c, origin="bottom")
            if p:
                grid[c * rows + r] = p
                heights[c] = r + 1
                key ^= int(zob[p - 1, c * rows + r])
    return grid, heights, np.uint64(key)


@njit(cache=True)
def makes_line(grid: np.ndarray, rows: int, cols: int, k: int, c: int, r: int, p: int) -> bool:
    """Whether a stone of ``p`` at (column ``c``, row ``r``) would complete k in a row."""
    for d in range(4):
        dc = DC[d]
        dr = DR[d]
        n = 1
        cc = c + dc
        rr = r + dr
        while 0 <= cc < cols and 0 <= rr < rows and grid[cc * rows + rr] == p:
            n += 1
            cc += dc
            rr += dr
        cc = c - dc
        rr = r - dr
        while 0 <= cc < cols and 0 <= rr < rows and grid[cc * rows + rr] == p:
            n += 1
            cc -= dc
            rr -= dr
        if n >= k:
            return True
    return False


@njit(cache=True)
def _threat_weight(player: int, row: int) -> int:
    good = row % 2 == 0 if player == 1 else row % 2 == 1
    return THREAT_GOOD if good else THREAT_OTHER


@njit(cache=True, inline="always")
def _mark(cell: int, side: int, scratch: np.ndarray, marks: np.ndarray, nm: int) -> int:
    """Flag a threat of ``side`` (1: the side to move, 2: the other) on ``cell``, listing the cell in
    ``marks`` the first time; the new number of listed cells."""
    if scratch[cell] == 0:
        marks[nm] = cell
        nm += 1
    scratch[cell] |= side
    return nm


@njit(cache=True)
def grid_eval(grid: np.ndarray, heights: np.ndarray, to_move: int, cfg: np.ndarray, windows: np.ndarray,
              is_centre: np.ndarray, scratch: np.ndarray, marks: np.ndarray) -> int:
    """``window`` or ``threats`` (``cfg[EVAL]``) for the side to move; the numbers of the heuristics module."""
    rows, cols, k = cfg[ROWS], cfg[COLS], cfg[K]
    three, two = cfg[THREE], cfg[TWO]
    threats = cfg[EVAL] == EVAL_THREATS
    score = 0
    nm = 0
    for i in range(windows.shape[0]):
        a = 0
        b = 0
        empty = -1
        for j in range(k):
            cell = windows[i, j]
            v = grid[cell]
            if v == 0:
                empty = cell
            elif v == to_move:
                a += 1
            else:
                b += 1
        if b == 0:
            if a == k - 1:
                score += three
                if threats:
                    nm = _mark(empty, 1, scratch, marks, nm)
            elif a == k - 2:
                score += two
        if a == 0:
            if b == k - 1:
                score -= three
                if threats:
                    nm = _mark(empty, 2, scratch, marks, nm)
            elif b == k - 2:
                score -= two
    if not threats:
        return score
    mover_now = 0
    waiter_now = 0
    ts = 0
    for i in range(nm):
        cell = marks[i]
        f = scratch[cell]
        c = cell // rows
        r = cell % rows
        now = heights[c] == r
        for side in (1, 2):
            if not f & side:
                continue
            owner = to_move if side == 1 else 3 - to_move
            weight = _threat_weight(owner, r)
            for rb in range(r):  # an opponent threat below in the column comes first
                if scratch[c * rows + rb] & (3 - side):
                    weight //= 4
                    break
            if r > 0 and scratch[cell - 1] & side:
                weight += THREAT_STACKED
            if side == 1:
                ts += weight
                if now:
                    mover_now += 1
            else:
                ts -= weight
                if now:
                    waiter_now += 1
    for i in range(nm):
        scratch[marks[i]] = 0
    if mover_now:
        return THREAT_DECISIVE
    if waiter_now >= 2:
        return -THREAT_DECISIVE
    centre = 0
    for c in range(cols):
        if is_centre[c]:
            for r in range(heights[c]):
                centre += 1 if grid[c * rows + r] == to_move else -1
    return score + ts + CENTRE_WEIGHT * centre
