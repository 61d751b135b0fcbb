"""MCTS on cell arrays (any Connect-X board): the tree of :mod:`.tree` without stored positions; every
simulation replays the moves from the root on a scratch grid.  Slower than the bitboards, but it runs the
boards that do not fit 64 bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...kernels.connectx import U64, rng_next
from .grid import makes_line
from .tree import (P_DRAWN, P_LOST, P_UNKNOWN, P_WON, T_FIRST, T_MOVE, T_PLIES, T_PROOF,
                   T_VISITS, backup, copy_allowed, init_child, init_root, open_children, proof_reward, prove, select_child, settle_expansion)

__all__ = ["mcts_init_grid", "mcts_run_grid"]


@njit(cache=True)
def _expand_grid(node: int, used: int, ints: np.ndarray, grid: np.ndarray, heights: np.ndarray, to_move: int,
                 stones: int, rows: int, cols: int, k: int, allowed: np.ndarray, rng: np.ndarray) -> int:
    """Create the children of ``node`` (whose position is on the grid) in a random order; the new count."""
    cand = np.empty(cols, dtype=np.int64)
    n = copy_allowed(allowed, cand)
    if n == 0:  # every column not full
        for c in range(cols):
            if heights[c] < rows:
                cand[n] = c
                n += 1
    open_children(node, used, cand, n, ints, rng)
    # the opponent's wins at once: by playing a column now, or in the cell a move of ours there uncovers
    opp = 3 - to_move
    now = np.zeros(cols, dtype=np.bool_)
    above = np.zeros(cols, dtype=np.bool_)
    n_now = 0
    for cc in range(cols):
        if heights[cc] < rows:
            if makes_line(grid, rows, cols, k, cc, heights[cc], opp):
                now[cc] = True
                n_now += 1
            if heights[cc] + 1 < rows and makes_line(grid, rows, cols, k, cc, heights[cc] + 1, opp):
                above[cc] = True
    for i in range(n):
        c = cand[i]
        child = used + i
        init_child(ints, child, node, c)
        if makes_line(grid, rows, cols, k, c, heights[c], to_move):
            ints[child, T_PROOF] = P_WON
        elif n_now - (1 if now[c] else 0) > 0 or above[c]:  # the opponent wins at once after this move
            ints[child, T_PROOF] = P_LOST
            ints[child, T_PLIES] = 1
        elif stones + 1 == rows * cols:
            ints[child, T_PROOF] = P_DRAWN
        else:
            ints[child, T_PROOF] = P_UNKNOWN
    return used + n


@njit(cache=True)
def grid_playout(grid: np.ndarray, heights: np.ndarray, to_move: int, stones: int, rows: int, cols: int, k: int,
                 greedy: bool, rng: np.ndarray) -> int:
    """Random (or greedy: win, else block, else random) moves on the grid to the end: +1 if the side to
    move now wins, -1 if it loses, 0 for a draw.  Changes the grid (a scratch copy)."""
    sign = 1
    free = np.empty(cols, dtype=np.int64)
    while True:
        if stones == rows * cols:
            return 0
        c = -1
        if greedy:
            for cc in range(cols):
                if heights[cc] < rows and makes_line(grid, rows, cols, k, cc, heights[cc], to_move):
                    return sign
            for cc in range(cols):
                if heights[cc] < rows and makes_line(grid, rows, cols, k, cc, heights[cc], 3 - to_move):
                    c = cc
                    break
        if c < 0:
            n = 0
            for cc in range(cols):
                if heights[cc] < rows:
                    free[n] = cc
                    n += 1
            c = free[int(rng_next(rng) % U64(n))]
            if not greedy and makes_line(grid, rows, cols, k, c, heights[c], to_move):
                return sign
        grid[c * rows + heights[c]] = to_move
        heights[c] += 1
        stones += 1
        to_move = 3 - to_move
        sign = -sign


@njit(cache=True)
def mcts_run_grid(ints: np.ndarray, total: np.ndarray, meta: np.ndarray, sims: int, rows: int, cols: int, k: int,
                  c: float, greedy: bool, rng: np.ndarray, root_grid: np.ndarray, root_heights: np.ndarray,
                  root_to_move: int, root_stones: int) -> int:
    """:func:`mcts_run` on cell arrays: the same selection, expansion (bounded by the arrays), proofs and
    backup."""
    capacity = ints.shape[0]
    empty = np.empty(0, dtype=np.int64)
    grid = root_grid.copy()
    heights = root_heights.copy()
    done = 0
    while done < sims and ints[0, T_PROOF] == P_UNKNOWN:
        done += 1
        grid[:] = root_grid
        heights[:] = root_heights
        to_move = root_to_move
        stones = root_stones
        node = 0
        depth = 0
        while ints[node, T_FIRST] >= 0 and ints[node, T_PROOF] == P_UNKNOWN:
            node = select_child(node, ints, total, c)
            col = ints[node, T_MOVE]
            grid[col * rows + heights[col]] = to_move
            heights[col] += 1
            stones += 1
            to_move = 3 - to_move
            depth += 1
        if depth > meta[1]:
            meta[1] = depth
        p = ints[node, T_PROOF]
        if p == P_UNKNOWN and ints[node, T_VISITS] > 0 and meta[0] + cols <= capacity:
            meta[0] = _expand_grid(node, meta[0], ints, grid, heights, to_move, stones, rows, cols, k, empty, rng)
            child = settle_expansion(node, ints)
            p = ints[node, T_PROOF]
            if p == P_UNKNOWN:
                node = child
                p = ints[node, T_PROOF]
                col = ints[node, T_MOVE]
                grid[col * rows + heights[col]] = to_move
                heights[col] += 1
                stones += 1
                to_move = 3 - to_move
        if p != P_UNKNOWN:
            reward = proof_reward(p)
        else:
            reward = -float(grid_playout(grid, heights, to_move, stones, rows, cols, k, greedy, rng))
        backup(node, reward, ints, total)
    return done


@njit(cache=True)
def mcts_init_grid(root_grid: np.ndarray, root_heights: np.ndarray, root_to_move: int, root_stones: int,
                   allowed: np.ndarray, ints: np.ndarray, total: np.ndarray, meta: np.ndarray, rows: int, cols: int,
                   k: int, rng: np.ndarray) -> None:
    """Make node 0 the root (the position on the grid) with children for the ``allowed`` columns (the arrays
    must be fresh zeros, as for :func:`mcts_init`)."""
    init_root(ints)
    meta[0] = _expand_grid(0, 1, ints, root_grid, root_heights, root_to_move, root_stones, rows, cols, k, allowed,
                           rng)
    meta[1] = 0
    for ch in range(1, meta[0]):
        if ints[ch, T_PROOF] != P_UNKNOWN:
            prove(ch, ints)
