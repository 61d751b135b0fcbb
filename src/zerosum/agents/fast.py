"""Numba kernels that run alpha-beta and MCTS on Connect-X boards that fit in 64 bits.

They compute exactly what the generic (Game-protocol) searches compute -- the same values, the same
evaluation numbers -- on the bitboards of :mod:`zerosum.solver.bitboard` (whose primitives they import),
and they are compiled once and cached on disk (``cache=True``).

Values are from the side to move's view and relative to the node, as in :mod:`zerosum.agents.minimax`:
``WIN - n`` is a win in ``n`` plies.  Budgets: ``stats[NODES]`` counts nodes and a search stops (setting
``stats[ABORTED]``) before it would pass ``cfg[BUDGET]`` nodes or, checked every ``CHECK_EVERY`` nodes,
the deadline.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit, objmode

from ..solver.bitboard import has_line, popcount, winning_cells
from .base import HEURISTIC_BOUND, WIN

__all__ = ["ab_root", "fast_eval", "make_tables"]

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)
INF = WIN + 1
BOUND = HEURISTIC_BOUND
CHECK_EVERY = 2048

# cfg (int64) slots
ROWS, COLS, K, EVAL, THREE, TWO, BUDGET, ROOT_PLAYER, TT_BITS = range(9)
# geo (uint64) slots
BOTTOM, BOARD, EVEN_ROWS, CENTRE = range(4)
# stats (int64) slots
NODES, ABORTED, CUT = range(3)
# tt flags
EXACT, LOWER, UPPER = 1, 2, 3
# evaluation ids
EVAL_WINDOW, EVAL_THREATS = 0, 1
# the numbers of zerosum.agents.heuristics, repeated here for the kernels (a test checks they agree)
THREAT_GOOD, THREAT_OTHER, THREAT_DECISIVE, CENTRE_WEIGHT = 120, 40, 100_000, 4


def make_tables(rows: int, cols: int, windows: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(geo, windows) arrays for a board: bottom, board, the cells of even 0-based rows, centre columns."""
    h = rows + 1
    bottom = sum(1 << (c * h) for c in range(cols))
    board = bottom * ((1 << rows) - 1)
    even = sum(1 << (c * h + r) for c in range(cols) for r in range(0, rows, 2))
    centre = 0
    for c in {(cols - 1) // 2, cols // 2}:
        centre |= ((1 << rows) - 1) << (c * h)
    geo = np.array([bottom, board, even, centre], dtype=np.uint64)
    return geo, np.array(windows, dtype=np.uint64)


@njit(cache=True)
def _clamp(v: int) -> int:
    if v > BOUND:
        return BOUND
    if v < -BOUND:
        return -BOUND
    return v


@njit(cache=True, inline="always")
def to_parent(v: int) -> int:
    if v > BOUND:
        return -v + 1
    if v < -BOUND:
        return -v - 1
    return -v


@njit(cache=True, inline="always")
def to_child(b: int) -> int:
    if b >= INF or b <= -INF:
        return -b
    if b > BOUND:
        return -b - 1
    if b < -BOUND:
        return -b + 1
    return -b


@njit(cache=True)
def _window_score(mine: np.uint64, theirs: np.uint64, windows: np.ndarray, k: int, three: int, two: int) -> int:
    score = 0
    for i in range(windows.shape[0]):
        w = windows[i]
        a = popcount(mine & w)
        b = popcount(theirs & w)
        if b == 0:
            if a == k - 1:
                score += three
            elif a == k - 2:
                score += two
        if a == 0:
            if b == k - 1:
                score -= three
            elif b == k - 2:
                score -= two
    return score


@njit(cache=True)
def _threat_score(threats: np.uint64, player: int, even: np.uint64) -> int:
    on_even = popcount(threats & even)  # 0-based even rows = 1-based odd rows: player 1's parity
    on_odd = popcount(threats & ~even)
    if player == 1:
        return THREAT_GOOD * on_even + THREAT_OTHER * on_odd
    return THREAT_GOOD * on_odd + THREAT_OTHER * on_even


@njit(cache=True)
def fast_eval(cur: np.uint64, mask: np.uint64, to_move: int, cfg: np.ndarray, geo: np.ndarray,
              windows: np.ndarray) -> int:
    """The evaluation ``cfg[EVAL]`` of a position for the side to move (unclamped, as the heuristics)."""
    rows, k = cfg[ROWS], cfg[K]
    opp = cur ^ mask
    score = _window_score(cur, opp, windows, k, cfg[THREE], cfg[TWO])
    if cfg[EVAL] == EVAL_THREATS:
        board = geo[BOARD]
        play = (mask + geo[BOTTOM]) & board
        t_mover = winning_cells(cur, mask, rows, board, k)
        t_waiter = winning_cells(opp, mask, rows, board, k)
        if t_mover & play:
            return THREAT_DECISIVE
        if popcount(t_waiter & play) >= 2:
            return -THREAT_DECISIVE
        score += _threat_score(t_mover, to_move, geo[EVEN_ROWS]) - _threat_score(t_waiter, 3 - to_move, geo[EVEN_ROWS])
        centre = geo[CENTRE]
        score += CENTRE_WEIGHT * (popcount(cur & centre) - popcount(opp & centre))
    return score


@njit(cache=True)
def _tt_index(key: np.uint64, bits: int) -> int:
    return int((key * U64(0x9E3779B97F4A7C15)) >> U64(64 - bits))


@njit(cache=True)
def _check_time(deadline: float) -> bool:
    with objmode(now="float64"):
        now = time.perf_counter()
    return now >= deadline


@njit(cache=True)
def negamax(cur: np.uint64, mask: np.uint64, depth: int, alpha: int, beta: int, ply: int,
            cfg: np.ndarray, geo: np.ndarray, windows: np.ndarray, order: np.ndarray, deadline: float,
            tt_key: np.ndarray, tt_val: np.ndarray, tt_depth: np.ndarray, tt_flag: np.ndarray,
            tt_move: np.ndarray, killers: np.ndarray, history: np.ndarray, stats: np.ndarray) -> int:
    """Alpha-beta (fail-soft negamax) on a position that is not over; node-relative values."""
    if stats[ABORTED]:
        return 0
    budget = cfg[BUDGET]
    if budget > 0 and stats[NODES] >= budget:
        stats[ABORTED] = 1
        return 0
    stats[NODES] += 1
    if deadline > 0.0 and stats[NODES] % CHECK_EVERY == 0 and _check_time(deadline):
        stats[ABORTED] = 1
        return 0
    board = geo[BOARD]
    if mask == board:
        return 0
    rows, cols, k = cfg[ROWS], cfg[COLS], cfg[K]
    to_move = cfg[ROOT_PLAYER] if ply % 2 == 0 else 3 - cfg[ROOT_PLAYER]
    if depth == 0:
        stats[CUT] = 1
        return _clamp(fast_eval(cur, mask, to_move, cfg, geo, windows))
    h = rows + 1
    play = (mask + geo[BOTTOM]) & board
    # a win in one is the best value there is: no need to look further
    for c in range(cols):
        move = play & (((ONE << U64(rows)) - ONE) << U64(c * h))
        if move and has_line(cur | move, rows, k):
            return WIN - 1
    bits = cfg[TT_BITS]
    key = cur + mask
    idx = _tt_index(key, bits)
    best_move = -1
    alpha0 = alpha
    if tt_key[idx] == key:
        best_move = tt_move[idx]
        if tt_depth[idx] == depth:
            v = tt_val[idx]
            f = tt_flag[idx]
            if f == EXACT:
                return v
            if f == LOWER and v > alpha:
                alpha = v
            elif f == UPPER and v < beta:
                beta = v
            if alpha >= beta:
                return v
    # order: the table's move, the two killers, then by history (centre first among equals)
    moves = np.empty(cols, dtype=np.int64)
    scores = np.empty(cols, dtype=np.int64)
    n = 0
    for i in range(cols):
        c = order[i]
        if play & (((ONE << U64(rows)) - ONE) << U64(c * h)):
            s = history[c]
            if c == best_move:
                s = 1 << 60
            elif c == killers[ply, 0]:
                s = 1 << 50
            elif c == killers[ply, 1]:
                s = 1 << 49
            j = n
            while j > 0 and scores[j - 1] < s:
                scores[j] = scores[j - 1]
                moves[j] = moves[j - 1]
                j -= 1
            scores[j] = s
            moves[j] = c
            n += 1
    best = -INF
    best_move = -1
    for i in range(n):
        c = moves[i]
        move = play & (((ONE << U64(rows)) - ONE) << U64(c * h))
        new_mask = mask | move
        v = to_parent(negamax(cur ^ mask, new_mask, depth - 1, to_child(beta), to_child(alpha), ply + 1, cfg, geo,
                              windows, order, deadline, tt_key, tt_val, tt_depth, tt_flag, tt_move, killers,
                              history, stats))
        if stats[ABORTED]:
            return 0
        if v > best:
            best = v
            best_move = c
        if v > alpha:
            alpha = v
        if alpha >= beta:
            if killers[ply, 0] != c:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = c
            history[c] += depth * depth
            break
    flag = EXACT
    if best <= alpha0:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    tt_key[idx] = key
    tt_val[idx] = best
    tt_depth[idx] = depth
    tt_flag[idx] = flag
    tt_move[idx] = best_move
    return best


@njit(cache=True)
def ab_root(cur: np.uint64, mask: np.uint64, depth: int, root_order: np.ndarray,
            cfg: np.ndarray, geo: np.ndarray, windows: np.ndarray, order: np.ndarray, deadline: float,
            tt_key: np.ndarray, tt_val: np.ndarray, tt_depth: np.ndarray, tt_flag: np.ndarray,
            tt_move: np.ndarray, killers: np.ndarray, history: np.ndarray, stats: np.ndarray) -> tuple[int, int]:
    """One iteration at ``depth`` >= 1: (value, best column); the root's moves are tried in ``root_order``.

    The first move reaching the best value wins ties.  ``stats[ABORTED]`` says the result is unusable.
    """
    budget = cfg[BUDGET]
    if budget > 0 and stats[NODES] >= budget:
        stats[ABORTED] = 1
        return 0, -1
    stats[NODES] += 1
    rows, k = cfg[ROWS], cfg[K]
    h = rows + 1
    board = geo[BOARD]
    play = (mask + geo[BOTTOM]) & board
    alpha = -INF
    best_move = -1
    for i in range(root_order.shape[0]):
        c = root_order[i]
        move = play & (((ONE << U64(rows)) - ONE) << U64(c * h))
        if not move:
            continue
        if has_line(cur | move, rows, k):
            v = WIN - 1
        else:
            v = to_parent(negamax(cur ^ mask, mask | move, depth - 1, -INF, to_child(alpha), 1, cfg, geo, windows,
                                  order, deadline, tt_key, tt_val, tt_depth, tt_flag, tt_move, killers, history,
                                  stats))
            if stats[ABORTED]:
                return 0, -1
        if v > alpha:
            alpha = v
            best_move = c
    return alpha, best_move


@njit(cache=True)
def tt_probe(key: np.uint64, bits: int, tt_key: np.ndarray, tt_move: np.ndarray) -> int:
    """The stored best column for a position key, or -1."""
    idx = _tt_index(key, bits)
    if tt_key[idx] == key:
        return tt_move[idx]
    return -1
