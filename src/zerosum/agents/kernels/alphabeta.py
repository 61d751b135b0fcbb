"""Alpha-beta on the cell-array board (:mod:`.grid`), as a machine with an explicit stack.

Numba cannot reload a cached recursive function safely, so the search is a small machine with an explicit
stack; that also lets it pause every few thousand nodes for the caller to read the clock.  It computes
exactly what :mod:`zerosum.agents.alphabeta`'s generic search computes: the same values (node-relative, the
algebra of :mod:`zerosum.values`, compiled from there), the same evaluation numbers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...values import INF, WIN
from ...values import clamp as _py_clamp
from ...values import to_child as _py_to_child
from ...values import to_parent as _py_to_parent
from .grid import BUDGET, COLS, EVAL, EVAL_WINDOW, K, ROWS, TT_BITS, grid_eval, makes_line, place

__all__ = ["ab_run", "tt_probe"]

U64 = np.uint64
# stats (int64) slots (registers follow below; EVALS after them)
NODES, ABORTED, CUT = range(3)
N_STATS = 9
# tt flags
EXACT, LOWER, UPPER = 1, 2, 3

#: the value algebra, compiled
clamp = njit(cache=True, inline="always")(_py_clamp)
to_parent = njit(cache=True, inline="always")(_py_to_parent)
to_child = njit(cache=True, inline="always")(_py_to_child)


@njit(cache=True)
def _tt_index(key: np.uint64, bits: int) -> np.int64:
    """The slot of a key in a table of ``2**bits`` entries (0 when there is no table)."""
    if bits <= 0:
        return np.int64(0)
    return np.int64((key * U64(0x9E3779B97F4A7C15)) >> U64(64 - bits))


# search-machine registers (stats slots after NODES, ABORTED, CUT)
SP, PHASE, RET, RESULT_VALUE, RESULT_MOVE, EVALS = range(3, 9)
ENTER, NEXT, RETURN = 0, 1, 2
# frame fields (one frame per ply from the root)
F_DEPTH, F_ALPHA, F_BETA, F_ALPHA0, F_BEST, F_BESTMOVE, F_N, F_I, F_CELL, F_COL, F_CUT = range(11)
N_FIELDS = 11
#: nodes between two readings of the clock (time limits)
SLICE = 4096


@njit(cache=True)
def ab_run(grid: np.ndarray, heights: np.ndarray, root_to_move: int, root_stones: int, root_order: np.ndarray,
           cfg: np.ndarray, windows: np.ndarray, is_centre: np.ndarray, zob: np.ndarray, order: np.ndarray,
           tt_key: np.ndarray, tt_val: np.ndarray, tt_depth: np.ndarray, tt_flag: np.ndarray, tt_move: np.ndarray,
           tt_cut: np.ndarray, killers: np.ndarray, history: np.ndarray, stats: np.ndarray, scratch: np.ndarray, marks: np.ndarray,
           frames: np.ndarray, keys: np.ndarray, moves: np.ndarray, cell_windows: np.ndarray, wcnt: np.ndarray,
           contrib: np.ndarray, wscore: np.ndarray, root_vals: np.ndarray, pause_at: int) -> int:
    """Fail-soft negamax alpha-beta as a machine with an explicit stack (numba caches it; no recursion).

    Set up frame 0 (depth, alpha=-INF, beta=INF), ``keys[0]``, ``stats[SP]=0``, ``stats[PHASE]=ENTER``,
    ``wcnt``/``wscore`` hold the window counts and score of the root (:func:`window_counts`), kept up to date
    move by move, so the ``window`` evaluation costs nothing at the leaves.  ``root_vals[c]`` receives the
    value of each root column as its search returns (from the root's view; fail-soft, so an upper bound for
    a refuted column), and ``stats[EVALS]`` counts the evaluations made at the depth limit.
    Then call until it returns 0 (done: ``stats[RESULT_VALUE]``, ``stats[RESULT_MOVE]``); it returns 1
    when it paused at ``pause_at`` nodes (call again to resume: the caller reads the clock meanwhile) and
    2 when the node budget ``cfg[BUDGET]`` stopped it.  Node-relative values; ties at the root go to the
    first move in ``root_order`` reaching the best value.
    """
    rows, cols, k = cfg[ROWS], cfg[COLS], cfg[K]
    cells = rows * cols
    budget = cfg[BUDGET]
    bits = cfg[TT_BITS]
    sp = stats[SP]
    phase = stats[PHASE]
    ret = stats[RET]
    rcut = 0  # whether the value being returned rests on an evaluation somewhere below
    while True:
        to_move = root_to_move if sp % 2 == 0 else 3 - root_to_move
        if phase == ENTER:
            if pause_at > 0 and stats[NODES] >= pause_at:
                stats[SP] = sp
                stats[PHASE] = phase
                stats[RET] = ret
                return 1
            if budget > 0 and stats[NODES] >= budget:
                stats[ABORTED] = 1
                return 2
            stats[NODES] += 1
            depth = frames[sp, F_DEPTH]
            rcut = 0
            if root_stones + sp == cells:
                ret = 0
                phase = RETURN
                continue
            if depth == 0:
                rcut = 1
                stats[EVALS] += 1
                if cfg[EVAL] == EVAL_WINDOW:
                    ret = clamp(wscore[0] if to_move == 1 else -wscore[0])
                else:
                    ret = clamp(grid_eval(grid, heights, to_move, cfg, windows, is_centre, scratch, marks))
                phase = RETURN
                continue
            # a win in one is the best value there is (at the root: the first winning move in root order)
            win_col = -1
            n_order = root_order.shape[0] if sp == 0 else cols
            for i in range(n_order):
                c = root_order[i] if sp == 0 else i
                r = heights[c]
                if r < rows and makes_line(grid, rows, cols, k, c, r, to_move):
                    win_col = c
                    break
            if win_col >= 0:
                frames[sp, F_BESTMOVE] = win_col
                ret = WIN - 1
                phase = RETURN
                continue
            alpha = frames[sp, F_ALPHA]
            beta = frames[sp, F_BETA]
            frames[sp, F_ALPHA0] = alpha
            key = keys[sp]
            idx = _tt_index(key, bits)
            hint = -1
            if sp > 0 and bits > 0 and tt_key[idx] == key:
                hint = tt_move[idx]
                if tt_depth[idx] == depth:
                    v = tt_val[idx]
                    f = tt_flag[idx]
                    rcut = tt_cut[idx]  # the stored value may rest on evaluations
                    if f == EXACT:
                        ret = v
                        phase = RETURN
                        continue
                    if f == LOWER and v > alpha:
                        alpha = v
                    elif f == UPPER and v < beta:
                        beta = v
                    if alpha >= beta:
                        ret = v
                        phase = RETURN
                        continue
            frames[sp, F_ALPHA] = alpha
            frames[sp, F_BETA] = beta
            frames[sp, F_CUT] = rcut
            n = 0
            if sp == 0:
                for i in range(root_order.shape[0]):
                    c = root_order[i]
                    if heights[c] < rows:
                        moves[0, n] = c
                        n += 1
            else:
                # the table's move, the two killers, then by history (centre first among equals)
                scores = marks  # scratch space: marks is only used inside grid_eval
                for i in range(cols):
                    c = order[i]
                    if heights[c] < rows:
                        s = history[c]
                        if c == hint:
                            s = 1 << 60
                        elif c == killers[sp, 0]:
                            s = 1 << 50
                        elif c == killers[sp, 1]:
                            s = 1 << 49
                        j = n
                        while j > 0 and scores[j - 1] < s:
                            scores[j] = scores[j - 1]
                            moves[sp, j] = moves[sp, j - 1]
                            j -= 1
                        scores[j] = s
                        moves[sp, j] = c
                        n += 1
            frames[sp, F_N] = n
            frames[sp, F_I] = 0
            frames[sp, F_BEST] = -INF
            frames[sp, F_BESTMOVE] = -1
            phase = NEXT
        elif phase == NEXT:
            i = frames[sp, F_I]
            if i == frames[sp, F_N]:
                best = frames[sp, F_BEST]
                if sp > 0 and bits > 0:
                    key = keys[sp]
                    idx = _tt_index(key, bits)
                    flag = EXACT
                    if best <= frames[sp, F_ALPHA0]:
                        flag = UPPER
                    elif best >= frames[sp, F_BETA]:
                        flag = LOWER
                    tt_key[idx] = key
                    tt_val[idx] = best
                    tt_depth[idx] = frames[sp, F_DEPTH]
                    tt_flag[idx] = flag
                    tt_move[idx] = frames[sp, F_BESTMOVE]
                    tt_cut[idx] = frames[sp, F_CUT]
                rcut = frames[sp, F_CUT]
                ret = best
                phase = RETURN
                continue
            c = moves[sp, i]
            cell = c * rows + heights[c]
            grid[cell] = to_move
            heights[c] += 1
            wscore[0] += place(cell, to_move, 1, cell_windows, wcnt, contrib)
            frames[sp, F_CELL] = cell
            frames[sp, F_COL] = c
            frames[sp + 1, F_DEPTH] = frames[sp, F_DEPTH] - 1
            frames[sp + 1, F_ALPHA] = to_child(frames[sp, F_BETA])
            frames[sp + 1, F_BETA] = to_child(frames[sp, F_ALPHA])
            keys[sp + 1] = keys[sp] ^ zob[to_move - 1, cell]
            sp += 1
            phase = ENTER
        else:  # RETURN: frame sp's value is ret
            if sp == 0:
                stats[CUT] = rcut
                stats[RESULT_VALUE] = ret
                stats[RESULT_MOVE] = frames[0, F_BESTMOVE]
                stats[SP] = 0
                stats[PHASE] = ENTER
                return 0
            sp -= 1
            frames[sp, F_CUT] |= rcut
            c = frames[sp, F_COL]
            cell = frames[sp, F_CELL]
            grid[cell] = 0
            heights[c] -= 1
            wscore[0] += place(cell, root_to_move if sp % 2 == 0 else 3 - root_to_move, -1, cell_windows, wcnt,
                                contrib)
            v = to_parent(ret)
            if sp == 0:
                root_vals[c] = v
            if v > frames[sp, F_BEST]:
                frames[sp, F_BEST] = v
                frames[sp, F_BESTMOVE] = c
            if v > frames[sp, F_ALPHA]:
                frames[sp, F_ALPHA] = v
            if frames[sp, F_ALPHA] >= frames[sp, F_BETA]:
                if killers[sp, 0] != c:
                    killers[sp, 1] = killers[sp, 0]
                    killers[sp, 0] = c
                d = frames[sp, F_DEPTH]
                history[c] += d * d
                frames[sp, F_I] = frames[sp, F_N]
            else:
                frames[sp, F_I] += 1
            phase = NEXT


@njit(cache=True)
def tt_probe(key: np.uint64, bits: int, tt_key: np.ndarray, tt_move: np.ndarray) -> int:
    """The stored best column for a position key, or -1."""
    idx = _tt_index(key, bits)
    if tt_key[idx] == key:
        return int(tt_move[idx])
    return -1
