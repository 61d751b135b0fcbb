"""Numba kernels that run alpha-beta and MCTS on Connect-X.

They compute exactly what the generic (Game-protocol) searches compute -- the same values, the same
evaluation numbers -- and they are compiled once and cached on disk (``cache=True``).  Numba cannot reload
a cached recursive function safely, so the alpha-beta kernel is a small machine with an explicit stack;
that also lets it pause every few thousand nodes for the caller to read the clock.

* Alpha-beta (:func:`ab_run`) works on cell arrays with Zobrist keys, so it runs on every Connect-X board
  (the 8 x 8 school board does not fit a 64-bit bitboard with its sentinel row).
* MCTS (:func:`mcts_run`) keeps its tree in arrays and plays random or greedy playouts on the bitboards of
  :mod:`zerosum.solver.bitboard`, for boards that fit in 64 bits.

Values are from the side to move's view and relative to the node, as in :mod:`zerosum.agents.minimax`:
``WIN - n`` is a win in ``n`` plies.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..solver.bitboard import geometry, has_line, rng_next, winning_cells

from .base import HEURISTIC_BOUND, WIN

__all__ = ["ab_run", "make_tables", "mcts_init", "mcts_init_grid", "mcts_run", "mcts_run_grid"]

U64 = np.uint64
ONE = np.uint64(1)
ZERO = np.uint64(0)
INF = WIN + 1
BOUND = HEURISTIC_BOUND

# cfg (int64) slots
ROWS, COLS, K, EVAL, THREE, TWO, BUDGET, TT_BITS = range(8)
# stats (int64) slots
NODES, ABORTED, CUT = range(3)
N_STATS = 8
# tt flags
EXACT, LOWER, UPPER = 1, 2, 3
# evaluation ids
EVAL_WINDOW, EVAL_THREATS = 0, 1
# the numbers of zerosum.agents.heuristics, repeated here for the kernels (a test checks they agree)
THREAT_GOOD, THREAT_OTHER, THREAT_DECISIVE, CENTRE_WEIGHT, THREAT_STACKED = 120, 40, 100_000, 4, 200


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



# ---- alpha-beta on cell arrays (any Connect-X board) -------------------------------------------
#
# The position is a grid of cells (``cell = col * rows + row``, row 0 at the bottom; 0 empty, else the
# player), the height of every column, the side to move and a Zobrist key for the transposition table.
# Moves are made and unmade in place; the evaluation scans the lines of k cells (``windows``).

DC = (0, 1, 1, 1)
DR = (1, 0, 1, -1)


def make_tables(rows: int, cols: int, k: int) -> dict[str, np.ndarray]:
    """The arrays the alpha-beta kernel needs for a board: windows, centre columns, Zobrist keys."""
    wins = []
    for c in range(cols):
        for r in range(rows):
            for dc, dr in zip(DC, DR):
                if 0 <= c + dc * (k - 1) < cols and 0 <= r + dr * (k - 1) < rows:
                    wins.append([(c + dc * i) * rows + r + dr * i for i in range(k)])
    is_centre = np.zeros(cols, dtype=np.int64)
    for c in {(cols - 1) // 2, cols // 2}:
        is_centre[c] = 1
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
def _place(cell: int, p: int, step: int, cell_windows: np.ndarray, wcnt: np.ndarray, contrib: np.ndarray) -> int:
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
            p = game.cell(state, r, c)
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
                    if scratch[empty] == 0:
                        marks[nm] = empty
                        nm += 1
                    scratch[empty] |= 1
            elif a == k - 2:
                score += two
        if a == 0:
            if b == k - 1:
                score -= three
                if threats:
                    if scratch[empty] == 0:
                        marks[nm] = empty
                        nm += 1
                    scratch[empty] |= 2
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


@njit(cache=True)
def _tt_index(key: np.uint64, bits: int) -> np.int64:
    """The slot of a key in a table of ``2**bits`` entries (0 when there is no table)."""
    if bits <= 0:
        return np.int64(0)
    return np.int64((key * U64(0x9E3779B97F4A7C15)) >> U64(64 - bits))


# search-machine registers (stats slots after NODES, ABORTED, CUT)
SP, PHASE, RET, RESULT_VALUE, RESULT_MOVE = range(3, 8)
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
           contrib: np.ndarray, wscore: np.ndarray, pause_at: int) -> int:
    """Fail-soft negamax alpha-beta as a machine with an explicit stack (numba caches it; no recursion).

    Set up frame 0 (depth, alpha=-INF, beta=INF), ``keys[0]``, ``stats[SP]=0``, ``stats[PHASE]=ENTER``,
    ``wcnt``/``wscore`` hold the window counts and score of the root (:func:`window_counts`), kept up to date
    move by move, so the ``window`` evaluation costs nothing at the leaves.
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
                if cfg[EVAL] == EVAL_WINDOW:
                    ret = _clamp(wscore[0] if to_move == 1 else -wscore[0])
                else:
                    ret = _clamp(grid_eval(grid, heights, to_move, cfg, windows, is_centre, scratch, marks))
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
            wscore[0] += _place(cell, to_move, 1, cell_windows, wcnt, contrib)
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
            wscore[0] += _place(cell, root_to_move if sp % 2 == 0 else 3 - root_to_move, -1, cell_windows, wcnt,
                                contrib)
            v = to_parent(ret)
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


# ---- MCTS with the tree in arrays (Connect-X boards that fit in 64 bits) --------------------------
#
# Node i: ``pos[i, 0]`` the side to move's stones, ``pos[i, 1]`` all stones; ``ints[F, i]`` for the
# fields below; ``total[i]`` the sum of rewards for the player who moved into node i.  Node 0 is the root.
T_PARENT, T_FIRST, T_NCH, T_MOVE, T_VISITS, T_PROOF, T_PLIES = range(7)
T_FIELDS = 7
P_UNKNOWN, P_WON, P_LOST, P_DRAWN = 0, 1, -1, 2  # proofs, for the player who moved into the node


@njit(cache=True, inline="always")
def _shuffle(cand: np.ndarray, n: int, rng: np.ndarray) -> None:
    """Fisher-Yates on ``cand[:n]`` with the xorshift stream ``rng``."""
    for i in range(n - 1, 0, -1):
        j = int(rng_next(rng) % U64(i + 1))
        tmp = cand[i]
        cand[i] = cand[j]
        cand[j] = tmp


@njit(cache=True)
def _expand(node: int, used: int, pos: np.ndarray, ints: np.ndarray, rows: int, cols: int, k: int,
            bottom: np.uint64, board: np.uint64, allowed: np.ndarray, rng: np.ndarray) -> int:
    """Create the children of ``node`` (columns in ``allowed``, or every playable one when it is empty) in a
    random order; returns the new number of nodes used."""

    cur = pos[node, 0]
    mask = pos[node, 1]
    h = rows + 1
    cand = np.empty(cols, dtype=np.int64)
    n = 0
    if allowed.shape[0] > 0:
        for i in range(allowed.shape[0]):
            cand[n] = allowed[i]
            n += 1
    else:
        for c in range(cols):
            if not (mask & (ONE << U64(c * h + rows - 1))):
                cand[n] = c
                n += 1
    _shuffle(cand, n, rng)  # unvisited children are tried in this order
    ints[node, T_FIRST] = used
    ints[node, T_NCH] = n
    play = (mask + bottom) & board
    threats = winning_cells(cur ^ mask, mask, rows, board, k)  # cells that would give the opponent a line
    for i in range(n):
        c = cand[i]
        move = play & (((ONE << U64(rows)) - ONE) << U64(c * h))
        child = used + i
        new_mask = mask | move
        pos[child, 0] = cur ^ mask
        pos[child, 1] = new_mask
        ints[child, T_PARENT] = node
        ints[child, T_FIRST] = -1
        ints[child, T_NCH] = 0
        ints[child, T_MOVE] = c
        ints[child, T_VISITS] = 0
        ints[child, T_PLIES] = 0
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
def _prove(node: int, ints: np.ndarray) -> None:
    """Carry a proof at ``node`` up the tree as far as it goes (MCTS-Solver)."""
    while node > 0 and ints[node, T_PROOF] != P_UNKNOWN:
        parent = ints[node, T_PARENT]
        if ints[parent, T_PROOF] != P_UNKNOWN or ints[parent, T_FIRST] < 0:
            return
        if ints[node, T_PROOF] == P_WON:
            ints[parent, T_PROOF] = P_LOST
            ints[parent, T_PLIES] = ints[node, T_PLIES] + 1
        else:
            first = ints[parent, T_FIRST]
            all_proven = True
            any_draw = False
            longest = 0
            for ch in range(first, first + ints[parent, T_NCH]):
                p = ints[ch, T_PROOF]
                if p == P_UNKNOWN:
                    all_proven = False
                    break
                if p == P_DRAWN:
                    any_draw = True
                longest = max(longest, ints[ch, T_PLIES])
            if not all_proven:
                return
            if any_draw:
                ints[parent, T_PROOF] = P_DRAWN
            else:
                ints[parent, T_PROOF] = P_WON
                ints[parent, T_PLIES] = longest + 1
        node = parent


@njit(cache=True)
def greedy_playout(cur: np.uint64, mask: np.uint64, rows: int, cols: int, k: int, rng: np.ndarray) -> int:
    """A playout that takes a win, else blocks the opponent's win in one, else plays a random column:
    +1 if the side to move now wins, -1 if it loses, 0 for a draw.  The position must not be over."""

    h = rows + 1
    bottom, board = geometry(rows, cols)
    sign = 1
    free = np.empty(cols, dtype=np.int64)
    while True:
        if mask == board:
            return 0
        play = (mask + bottom) & board
        if winning_cells(cur, mask, rows, board, k) & play:
            return sign
        theirs = winning_cells(cur ^ mask, mask, rows, board, k) & play
        if theirs:
            move = theirs & (~theirs + ONE)
        else:
            n = 0
            for c in range(cols):
                if not (mask & (ONE << U64(c * h + rows - 1))):
                    free[n] = c
                    n += 1
            c = free[int(rng_next(rng) % U64(n))]
            move = play & (((ONE << U64(rows)) - ONE) << U64(c * h))
        opp = cur ^ mask
        mask = mask | move
        cur = opp
        sign = -sign


@njit(cache=True)
def fast_random_playout(cur: np.uint64, mask: np.uint64, rows: int, cols: int, k: int, bottom: np.uint64,
                        board: np.uint64, rng: np.ndarray) -> int:
    """:func:`zerosum.solver.bitboard.random_playout` without its per-call allocations: +1 if the side to
    move now wins, -1 if it loses, 0 for a draw (a uniformly random non-full column each move)."""
    h = rows + 1
    sign = 1
    while True:
        n = 0
        for c in range(cols):
            if (mask >> U64(c * h + rows - 1)) & ONE == ZERO:
                n += 1
        if n == 0:
            return 0
        pick = int(rng_next(rng) % U64(n))
        c = 0
        while True:
            if (mask >> U64(c * h + rows - 1)) & ONE == ZERO:
                if pick == 0:
                    break
                pick -= 1
            c += 1
        move = (mask + (ONE << U64(c * h))) & (((ONE << U64(rows)) - ONE) << U64(c * h))
        mine = cur | move
        if has_line(mine, rows, k):
            return sign
        mask |= move
        cur = mine ^ mask
        sign = -sign


@njit(cache=True, inline="always")
def _select_child(node: int, ints: np.ndarray, total: np.ndarray, c: float) -> int:
    """UCT selection below an expanded, unproven node.

    Children proven lost (for the player who would move into them) are skipped; the first unvisited child
    in the order fixed at expansion comes first; otherwise the highest ``q + c * sqrt(ln N / n)`` with
    ``q`` the mean reward mapped to 0..1 (a proven draw counts 0.5), ties to the earlier child.
    """
    first = ints[node, T_FIRST]
    log_n = np.log(max(ints[node, T_VISITS], 1))
    best = -1
    best_score = -1e300
    for ch in range(first, first + ints[node, T_NCH]):
        p = ints[ch, T_PROOF]
        if p == P_LOST:
            continue
        v = ints[ch, T_VISITS]
        if v == 0:
            return ch
        q = 0.5 if p == P_DRAWN else (total[ch] / v + 1.0) / 2.0
        score = q + c * np.sqrt(log_n / v)
        if score > best_score:
            best = ch
            best_score = score
    return best


@njit(cache=True, inline="always")
def _settle_expansion(node: int, ints: np.ndarray) -> int:
    """After expanding ``node``: carry the children's proofs up, and return the first unproven child
    (the one the playout starts from; the first child when all are proven)."""
    first = ints[node, T_FIRST]
    for ch in range(first, first + ints[node, T_NCH]):
        if ints[ch, T_PROOF] != P_UNKNOWN:
            _prove(ch, ints)
    for ch in range(first, first + ints[node, T_NCH]):
        if ints[ch, T_PROOF] == P_UNKNOWN:
            return ch
    return int(first)


@njit(cache=True, inline="always")
def _proof_reward(p: int) -> float:
    """The reward of a proven node for the player who moved into it."""
    if p == P_WON:
        return 1.0
    if p == P_LOST:
        return -1.0
    return 0.0


@njit(cache=True, inline="always")
def _backup(node: int, reward: float, ints: np.ndarray, total: np.ndarray) -> None:
    """Add one visit and ``reward`` from ``node`` up to the root, flipping the sign at each ply."""
    while node >= 0:
        ints[node, T_VISITS] += 1
        total[node] += reward
        reward = -reward
        node = ints[node, T_PARENT]


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
    done = 0
    while done < sims and ints[0, T_PROOF] == P_UNKNOWN:
        done += 1
        node = 0
        depth = 0
        # selection: an unvisited child first (in the order fixed at expansion), else the best UCT score
        while ints[node, T_FIRST] >= 0 and ints[node, T_PROOF] == P_UNKNOWN:
            node = _select_child(node, ints, total, c)
            depth += 1
        if depth > meta[1]:
            meta[1] = depth
        p = ints[node, T_PROOF]
        if p == P_UNKNOWN and ints[node, T_VISITS] > 0 and meta[0] + cols <= capacity:
            # expansion of a leaf seen before: every child at once, then a playout from the first one not proven
            meta[0] = _expand(node, meta[0], pos, ints, rows, cols, k, bottom, board, empty, rng)
            child = _settle_expansion(node, ints)
            p = ints[node, T_PROOF]
            if p == P_UNKNOWN:
                node = child
                p = ints[node, T_PROOF]
        if p != P_UNKNOWN:
            reward = _proof_reward(p)
        else:
            if greedy:
                r = greedy_playout(pos[node, 0], pos[node, 1], rows, cols, k, rng)
            else:
                r = fast_random_playout(pos[node, 0], pos[node, 1], rows, cols, k, bottom, board, rng)
            reward = -float(r)  # r is for the side to move at ``node``; the reward for who moved into it
        _backup(node, reward, ints, total)
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
    ints[0, T_PARENT] = -1
    ints[0, T_FIRST] = -1
    ints[0, T_NCH] = 0
    ints[0, T_MOVE] = -1
    ints[0, T_VISITS] = 0
    ints[0, T_PROOF] = P_UNKNOWN
    ints[0, T_PLIES] = 0
    meta[0] = _expand(0, 1, pos, ints, rows, cols, k, bottom, board, allowed, rng)
    meta[1] = 0
    for ch in range(1, meta[0]):
        if ints[ch, T_PROOF] != P_UNKNOWN:
            _prove(ch, ints)


# ---- MCTS on cell arrays (any Connect-X board) -------------------------------------------------
#
# The same tree (``ints``, ``total``) without stored positions: every simulation replays the moves from
# the root on a scratch grid.  Slower than the bitboards, but it runs the boards that do not fit 64 bits.


@njit(cache=True)
def _expand_grid(node: int, used: int, ints: np.ndarray, grid: np.ndarray, heights: np.ndarray, to_move: int,
                 stones: int, rows: int, cols: int, k: int, allowed: np.ndarray, rng: np.ndarray) -> int:
    """Create the children of ``node`` (whose position is on the grid) in a random order; the new count."""
    cand = np.empty(cols, dtype=np.int64)
    n = 0
    if allowed.shape[0] > 0:
        for i in range(allowed.shape[0]):
            cand[n] = allowed[i]
            n += 1
    else:
        for c in range(cols):
            if heights[c] < rows:
                cand[n] = c
                n += 1
    _shuffle(cand, n, rng)  # unvisited children are tried in this order
    ints[node, T_FIRST] = used
    ints[node, T_NCH] = n
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
        ints[child, T_PARENT] = node
        ints[child, T_FIRST] = -1
        ints[child, T_NCH] = 0
        ints[child, T_MOVE] = c
        ints[child, T_VISITS] = 0
        ints[child, T_PLIES] = 0
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
            node = _select_child(node, ints, total, c)
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
            child = _settle_expansion(node, ints)
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
            reward = _proof_reward(p)
        else:
            reward = -float(grid_playout(grid, heights, to_move, stones, rows, cols, k, greedy, rng))
        _backup(node, reward, ints, total)
    return done


@njit(cache=True)
def mcts_init_grid(root_grid: np.ndarray, root_heights: np.ndarray, root_to_move: int, root_stones: int,
                   allowed: np.ndarray, ints: np.ndarray, total: np.ndarray, meta: np.ndarray, rows: int, cols: int,
                   k: int, rng: np.ndarray) -> None:
    """Make node 0 the root (the position on the grid) with children for the ``allowed`` columns (the arrays
    must be fresh zeros, as for :func:`mcts_init`)."""
    ints[0, T_PARENT] = -1
    ints[0, T_FIRST] = -1
    ints[0, T_NCH] = 0
    ints[0, T_MOVE] = -1
    ints[0, T_VISITS] = 0
    ints[0, T_PROOF] = P_UNKNOWN
    ints[0, T_PLIES] = 0
    meta[0] = _expand_grid(0, 1, ints, root_grid, root_heights, root_to_move, root_stones, rows, cols, k, allowed,
                           rng)
    meta[1] = 0
    for ch in range(1, meta[0]):
        if ints[ch, T_PROOF] != P_UNKNOWN:
            _prove(ch, ints)
