"""The numba path of :mod:`zerosum.agents.alphabeta`: any Connect-X board searched in the kernel of
:mod:`zerosum.agents.kernels` (``ab_run``), in slices between clock readings (and between which Ctrl-C is heard), deepening one ply at a time;
the tables (the windows, Zobrist keys and the transposition table) are made once per game and evaluation
and kept by the agent between moves."""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from ..kernels.bits import column_order
from ..values import INF, clamp, is_proven, to_parent
from .base import SearchResult, kernels
from .kinds import root_kinds
from .minimax import terminal_value

__all__ = ["tables", "search", "UNTIMED_SLICE"]

#: the nodes of a slice of a search without a time limit (a timed one pauses every ``kernels.alphabeta.SLICE``)
UNTIMED_SLICE = 1 << 16


def tables(game: Any, name: str, tt_size: int, current: dict[str, Any] | None) -> dict[str, Any]:
    """The kernel's tables for ``game`` and evaluation ``name`` with a transposition table of ``tt_size``
    entries (at least 16, rounded up to a power of two): ``current`` when it was made for them, else new."""
    fast = kernels()
    assert fast is not None

    key = f"{game.spec}|{name}"
    if current is not None and current["key"] == key:
        return current
    bits = max(4, (max(tt_size, 16) - 1).bit_length())
    size = 1 << bits
    tables: dict[str, Any] = dict(fast.make_tables(game.rows, game.cols, game.k))
    tables.update(
        key=key,
        bits=bits,
        order=np.array(column_order(game.cols), dtype=np.int64),
        tt_key=np.zeros(size, dtype=np.uint64),
        tt_val=np.zeros(size, dtype=np.int64),
        tt_depth=np.full(size, -1, dtype=np.int32),
        tt_flag=np.zeros(size, dtype=np.int8),
        tt_move=np.full(size, -1, dtype=np.int64),
        tt_cut=np.zeros(size, dtype=np.int64),
    )
    return tables

def search(
    game: Any,
    state: Any,
    name: str,
    max_depth: int,
    budget: int | None,
    deadline: float | None,
    start: float,
    evaluate: Callable[..., Any] | None,
    *,
    t: dict[str, Any],
    three: int,
    two: int,
    tt_size: int,
    first: int = 1,
) -> SearchResult:
    """The numba search of ``state`` with evaluation ``name`` (and its weights ``three``, ``two``), iterative
    deepening from ``first`` to ``max_depth`` within ``budget`` nodes and ``deadline``, in the tables ``t``
    (:func:`tables`; ``tt_size`` 0: the kernel keeps no table); ``evaluate`` (the evaluation, for the root's
    scores) None: no scores."""
    fast = kernels()
    assert fast is not None

    cfg = np.zeros(8, dtype=np.int64)
    cfg[fast.ROWS], cfg[fast.COLS], cfg[fast.K] = game.rows, game.cols, game.k
    cfg[fast.EVAL] = fast.EVAL_THREATS if name == "threats" else fast.EVAL_WINDOW
    cfg[fast.THREE], cfg[fast.TWO] = three, two
    cfg[fast.BUDGET] = budget or 0
    cfg[fast.TT_BITS] = t["bits"] if tt_size else 0  # 0: the kernel keeps no table
    stats = np.zeros(fast.N_STATS, dtype=np.int64)
    size = game.cells + 2
    killers = np.full((size, 2), -1, dtype=np.int64)
    history = np.zeros(game.cols, dtype=np.int64)
    scratch = np.zeros(game.cells, dtype=np.int8)
    marks = np.zeros(max(game.cells, game.cols), dtype=np.int64)
    frames = np.zeros((size, fast.N_FIELDS), dtype=np.int64)
    keys = np.zeros(size, dtype=np.uint64)
    moves = np.zeros((size, game.cols), dtype=np.int64)
    grid, heights, key = fast.grid_of(game, state, t["zob"])
    contrib = fast.window_contributions(game.k, three, two)
    wcnt = np.zeros((len(t["windows"]), 3), dtype=np.int64)
    wscore = np.array([fast.window_counts(grid, t["windows"], contrib, wcnt)], dtype=np.int64)
    # the key leaves out the side to move, which grids built with strict=False may set freely
    keys[0] = key ^ np.uint64(0x5BD1E995 if (state.ply + state.to_move) % 2 == 0 else 0)
    root_vals, done_vals = np.full(game.cols, -fast.INF, dtype=np.int64), None
    order = [int(c) for c in t["order"] if not state.mask & game.top[c]]
    done_order = order
    best_action, best_value, done_depth, exact = order[0], 0, 0, False
    for depth in range(first, max_depth + 1):
        stats[fast.CUT] = 0
        stats[fast.SP] = 0
        stats[fast.PHASE] = fast.ENTER
        frames[0, fast.F_DEPTH] = depth
        frames[0, fast.F_ALPHA] = -fast.INF
        frames[0, fast.F_BETA] = fast.INF
        root_order = np.array(order, dtype=np.int64)
        root_vals[:] = -fast.INF
        while True:
            # a slice at a time, timed or not: between two the clock is read, and Ctrl-C is heard (an untimed
            # depth=22 search went 39 s deaf to it before; a slice of 65,536 nodes is a few hundredths of a second)
            pause_at = int(stats[fast.NODES]) + (fast.SLICE if deadline is not None else UNTIMED_SLICE)
            status = fast.ab_run(grid, heights, state.to_move, state.ply, root_order, cfg, t["windows"],
                                 t["is_centre"], t["zob"], t["order"], t["tt_key"], t["tt_val"],
                                 t["tt_depth"], t["tt_flag"], t["tt_move"], t["tt_cut"], killers, history,
                                 stats, scratch, marks, frames, keys, moves, t["cell_windows"], wcnt, contrib,
                                 wscore, root_vals, pause_at)
            if status != 1 or (deadline is not None and time.perf_counter() >= deadline):
                break
        if status != 0:
            break
        best_action = int(stats[fast.RESULT_MOVE])
        best_value, done_depth, done_vals = int(stats[fast.RESULT_VALUE]), depth, root_vals.copy()
        done_order = order  # the order the root searched: the kinds of its scores follow from it
        order = [best_action] + [c for c in order if c != best_action]
        exact = not stats[fast.CUT]  # no evaluation below: the game's value
        if is_proven(best_value) or exact:
            break
    pv = _pv(game, state, best_action, done_depth, t, tt_size)
    scores: dict[Any, Any] = {best_action: best_value}
    kinds: dict[Any, str] = {best_action: "exact"}
    evals = int(stats[fast.EVALS])
    if evaluate is None:
        scores, kinds = {}, {}
    elif done_vals is not None:
        scores, more = _scores(game, state, best_action, best_value, done_depth, evaluate, done_vals)
        evals += more
        searched = root_kinds((c, int(done_vals[c])) for c in done_order if done_vals[c] > -fast.INF)
        kinds = {a: searched.get(a, "exact") for a in scores}  # the rest: scored whole at depth 1 here
    return SearchResult(
        action=best_action,
        value=best_value,
        nodes=int(stats[fast.NODES]),
        depth=done_depth,
        elapsed=time.perf_counter() - start,
        pv=pv,
        scores=scores,
        exact=exact,
        evals=evals,
        score_kinds=kinds,
    )

def _scores(game: Any, state: Any, best: int, value: int, depth: int, evaluate: Callable[..., Any],
            root_vals: Any) -> tuple[dict[Any, Any], int]:
    """Each root column's value after a numba search, and the evaluations made here to find them.

    ``root_vals``: what the kernel's last completed iteration returned for each root column (``-INF``:
    not searched).  The root skips its children only when it wins at once, which the first iteration
    proves; then each other column is scored here as depth 1 scores it: a finished game by its result,
    else by the evaluation.  The chosen column's value is the result's.
    """
    scores: dict[Any, Any] = {}
    evals = 0
    for a in game.actions(state):
        if a == best:
            scores[a] = value
        elif root_vals[a] > -INF:
            scores[a] = int(root_vals[a])
        elif depth == 1:
            s = game.result(state, a)
            if game.is_terminal(s):
                scores[a] = to_parent(terminal_value(game, s))
            else:
                evals += 1
                scores[a] = -clamp(evaluate(game, s, game.player(s)))  # a heuristic value: just negated
    return scores, evals

def _pv(game: Any, state: Any, first: int, depth: int, t: dict[str, Any], tt_size: int) -> tuple[int, ...]:
    """The principal variation from ``first``, read from the transposition table."""
    fast = kernels()
    assert fast is not None

    pv = [first]
    s = game.result(state, first)
    while len(pv) < depth and not game.is_terminal(s) and tt_size:
        _, _, key = fast.grid_of(game, s, t["zob"])
        key = key ^ np.uint64(0x5BD1E995 if (state.ply + state.to_move) % 2 == 0 else 0)
        move = int(fast.tt_probe(key, t["bits"], t["tt_key"], t["tt_move"]))
        if move < 0 or s.mask & game.top[move]:
            break
        pv.append(move)
        s = game.result(s, move)
    return tuple(pv)
