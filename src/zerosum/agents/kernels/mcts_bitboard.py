"""MCTS on 64-bit bitboards (Connect-X boards that fit): node i's position is ``pos[i, 0]`` (the side to
move's stones) and ``pos[i, 1]`` (all stones); random or greedy playouts from :mod:`zerosum.kernels.connectx`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...kernels.connectx import (ONE, U64, geometry, greedy_playout, has_line, random_playout,
                                 win_cells)
from .tree import (P_DRAWN, P_LOST, P_UNKNOWN, P_WON, T_FIRST, T_PLIES, T_PROOF,
                   T_VISITS, backup, copy_allowed, init_child, init_root, open_children, proof_reward, prove, select_child, settle_expansion)

__all__ = ["mcts_init", "mcts_run"]


@njit(cache=True)
def _expand(node: int, used: int, pos: np.ndarray, ints: np.ndarray, rows: int, cols: int, k: int,
            bottom: np.uint64, board: np.uint64, allowed: np.ndarray, rng: np.ndarray) -> int:
    """Create the children of ``node`` (columns in ``allowed``, or every playable one when it is empty) in a
    random order; returns the new number of nodes used."""

    cur = pos[node, 0]
    mask = pos[node, 1]
    h = rows + 1
    cand = np.empty(cols, dtype=np.int64)
    n = copy_allowed(allowed, cand)
    if n == 0:  # every column not full
        for c in range(cols):
            if not (mask & (ONE << U64(c * h + rows - 1))):
                cand[n] = c
                n += 1
    open_children(node, used, cand, n, ints, rng)
    play = (mask + bottom) & board
    threats = win_cells(cur ^ mask, mask, h, k, board)  # cells that would give the opponent a line
    for i in range(n):
        c = cand[i]
        move = play & (((ONE << U64(rows)) - ONE) << U64(c * h))
        child = used + i
        new_mask = mask | move
        pos[child, 0] = cur ^ mask
        pos[child, 1] = new_mask
        init_child(ints, child, node, c)
        if has_line(cur | move, rows, k):
            ints[child, T_PROOF] = P_WON
        elif threats & ~move & ((play ^ move) | ((move << ONE) & board)):
            # the opponent wins at once after this move (an unblocked threat, or one just made playable)
            ints[child, T_PROOF] = P_LOST
            ints[child, T_PLIES] = 1
        elif new_mask == board:
            ints[child, T_PROOF] = P_DRAWN
        else:
            ints[child, T_PROOF] = P_UNKNOWN
    return used + n


@njit(cache=True)
def mcts_run(pos: np.ndarray, ints: np.ndarray, total: np.ndarray, meta: np.ndarray, sims: int, rows: int,
             cols: int, k: int, c: float, greedy: bool, rng: np.ndarray) -> int:
    """Run up to ``sims`` simulations on the tree; returns how many ran.

    ``meta[0]`` is the number of nodes used, ``meta[1]`` the deepest selection so far.  The arrays bound the
    tree: a leaf whose children would not fit is not expanded, its playout starts from the leaf itself (the
    caller grows the arrays up to its memory bound before each call).  Stops early once the root is proven.
    """

    bottom, board = geometry(rows, cols)
    capacity = pos.shape[0]
    empty = np.empty(0, dtype=np.int64)
    free = np.empty(cols, dtype=np.int64)  # the random playouts' scratch space
    done = 0
    while done < sims and ints[0, T_PROOF] == P_UNKNOWN:
        done += 1
        node = 0
        depth = 0
        # selection: an unvisited child first (in the order fixed at expansion), else the best UCT score
        while ints[node, T_FIRST] >= 0 and ints[node, T_PROOF] == P_UNKNOWN:
            node = select_child(node, ints, total, c)
            depth += 1
        if depth > meta[1]:
            meta[1] = depth
        p = ints[node, T_PROOF]
        if p == P_UNKNOWN and ints[node, T_VISITS] > 0 and meta[0] + cols <= capacity:
            # expansion of a leaf seen before: every child at once, then a playout from the first one not proven
            meta[0] = _expand(node, meta[0], pos, ints, rows, cols, k, bottom, board, empty, rng)
            child = settle_expansion(node, ints)
            p = ints[node, T_PROOF]
            if p == P_UNKNOWN:
                node = child
                p = ints[node, T_PROOF]
        if p != P_UNKNOWN:
            reward = proof_reward(p)
        else:
            if greedy:
                r = greedy_playout(pos[node, 0], pos[node, 1], rows, cols, k, rng)
            else:
                r = random_playout(pos[node, 0], pos[node, 1], rows, cols, k, rng, free)
            reward = -float(r)  # r is for the side to move at ``node``; the reward for who moved into it
        backup(node, reward, ints, total)
    return done


@njit(cache=True)
def mcts_init(cur: np.uint64, mask: np.uint64, allowed: np.ndarray, pos: np.ndarray, ints: np.ndarray,
              total: np.ndarray, meta: np.ndarray, rows: int, cols: int, k: int, rng: np.ndarray) -> None:
    """Make node 0 the root at (cur, mask) with children for the ``allowed`` columns.

    The arrays must be fresh zeros (``np.zeros``): ``total`` is not cleared here, so that a large, lazily
    committed allocation only takes memory as the tree grows."""

    bottom, board = geometry(rows, cols)
    pos[0, 0] = cur
    pos[0, 1] = mask
    init_root(ints)
    meta[0] = _expand(0, 1, pos, ints, rows, cols, k, bottom, board, allowed, rng)
    meta[1] = 0
    for ch in range(1, meta[0]):
        if ints[ch, T_PROOF] != P_UNKNOWN:
            prove(ch, ints)
