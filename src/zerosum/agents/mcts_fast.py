"""The numba path of :mod:`zerosum.agents.mcts`: Connect-X searched in the kernels of
:mod:`zerosum.agents.kernels` (bitboards where the board fits in 64 bits, else cell arrays), with the
answer rebuilt from the kernel's arrays by the generic rule (:func:`zerosum.agents.mcts_tree.answer`)."""

from __future__ import annotations

import random
import time
from dataclasses import replace
from typing import Any, Callable

from ..game import Game
from .base import SearchResult, kernels
from .mcts_tree import CHECK_DEPTH, DRAWN, LOST, UNKNOWN, WON, Node

__all__ = ["search", "CHUNK", "SLICE_SECONDS", "FIRST_SLICE", "FAST_NODE_BYTES"]

CHUNK = 16384  # without a time limit: simulations per kernel call
SLICE_SECONDS = 0.005  # with a time limit: each kernel call runs about this long
FIRST_SLICE = 256  # ... the first call's simulations, before the speed is measured
FAST_NODE_BYTES = 80  # a position (16 bytes), seven int64 fields and a float64 total

#: the generic answer from a root rebuilt as nodes: (game, state, root, simulations, depth, start)
Answer = Callable[[Game[Any, Any], Any, Node, int, int, float], SearchResult]


def search(game: Any, state: Any, safe: list[int], sims: int | None, deadline: float | None, start: float, *,
           c: float, greedy: bool, cells: bool, rng: random.Random, memory: int,
           answer: Answer) -> tuple[SearchResult, int]:
    """Search ``state`` among the moves ``safe`` until ``sims`` simulations or ``deadline``, whichever comes
    first, in at most ``memory`` bytes of tree (``cells``: the cell-array kernel even where the bitboard one
    fits); the result and the size of the tree."""
    import numpy as np

    fast = kernels()
    assert fast is not None
    cols = game.cols
    # the arrays bound the tree; np.zeros takes fresh zeroed pages, so memory is used as the tree grows
    limit = memory // FAST_NODE_BYTES
    capacity = limit if sims is None else min(limit, 1 + cols * (sims + 2))
    pos = np.zeros((capacity, 2), dtype=np.uint64)
    ints = np.zeros((capacity, fast.T_FIELDS), dtype=np.int64)
    total = np.zeros(capacity, dtype=np.float64)
    meta = np.zeros(2, dtype=np.int64)
    seed = np.array([(rng.getrandbits(63) * 0x9E3779B97F4A7C15 | 1) % (1 << 64)], dtype=np.uint64)
    allowed = np.array(sorted(safe), dtype=np.int64)
    bitboards = game.fits_64 and not cells
    if bitboards:
        fast.mcts_init(np.uint64(state.current), np.uint64(state.mask), allowed, pos, ints, total, meta,
                       game.rows, cols, game.k, seed)
    else:
        grid, heights, _ = fast.grid_of(game, state, np.zeros((2, game.cells), dtype=np.uint64))
        fast.mcts_init_grid(grid, heights, state.to_move, state.ply, allowed, ints, total, meta, game.rows, cols,
                            game.k, seed)
    done = 0
    chunk = CHUNK if deadline is None else FIRST_SLICE
    while ints[0, fast.T_PROOF] == fast.P_UNKNOWN:  # whichever limit comes first stops the search
        n = chunk if sims is None else min(chunk, sims - done)
        if n <= 0:
            break
        if deadline is not None:
            t0 = time.perf_counter()
            if t0 >= deadline:
                break
        if bitboards:
            ran = fast.mcts_run(pos, ints, total, meta, n, game.rows, cols, game.k, c, greedy, seed)
        else:
            ran = fast.mcts_run_grid(ints, total, meta, n, game.rows, cols, game.k, c, greedy, seed,
                                     grid, heights, state.to_move, state.ply)
        done += ran
        if deadline is not None:  # the next slice: about SLICE_SECONDS at the speed just measured
            spent = time.perf_counter() - t0
            chunk = max(16, min(CHUNK, int(ran * SLICE_SECONDS / spent))) if spent > 0 and ran else chunk
    result = _answer_arrays(game, state, ints, total, done, int(meta[1]), start, answer)
    return result, int(meta[0])


def _node(ints: Any, total: Any, proofs: dict[int, Any], i: int, parent: Node | None, depth: int) -> Node:
    """Node ``i`` of the kernel's arrays, with its children where it is the root or proven (so
    ``mcts_tree.distance`` can check a proof's distance), down to ``CHECK_DEPTH``.  A function of the module,
    not a closure that calls itself: such a closure is a reference cycle, and it held the search's arrays (about
    200 MiB on a full tree) until Python's full garbage collection came, which a busy process seldom reaches."""
    from . import kernels as fast

    node = Node(None, parent, int(ints[i, fast.T_MOVE]))
    node.visits = int(ints[i, fast.T_VISITS])
    node.total = float(total[i])
    node.proof = proofs[int(ints[i, fast.T_PROOF])]
    node.plies = int(ints[i, fast.T_PLIES])
    first = int(ints[i, fast.T_FIRST])
    if first >= 0 and (depth == 0 or node.proof in (WON, LOST)) and depth <= CHECK_DEPTH:
        kids = range(first, first + int(ints[i, fast.T_NCH]))
        node.children = [_node(ints, total, proofs, ch, node, depth + 1) for ch in kids]
    return node


def _answer_arrays(game: Any, state: Any, ints: Any, total: Any, sims: int, depth: int, start: float,
                   answer: Answer) -> SearchResult:
    """The generic answer, rebuilt from the kernel's arrays (the same rules and tie-breaks)."""
    from . import kernels as fast

    proofs = {fast.P_UNKNOWN: UNKNOWN, fast.P_WON: WON, fast.P_LOST: LOST, fast.P_DRAWN: DRAWN}
    root = _node(ints, total, proofs, 0, None, 0)
    chosen = answer(game, state, root, sims, depth, start)
    # the principal variation: most visited children from the chosen move down
    pv = [chosen.action]
    first = int(ints[0, fast.T_FIRST])
    node = next(i for i in range(first, first + int(ints[0, fast.T_NCH])) if ints[i, fast.T_MOVE] == chosen.action)
    while ints[node, fast.T_FIRST] >= 0:
        first = int(ints[node, fast.T_FIRST])
        kids = range(first, first + int(ints[node, fast.T_NCH]))
        node = max(kids, key=lambda i: int(ints[i, fast.T_VISITS]))
        if ints[node, fast.T_VISITS] == 0:
            break
        pv.append(int(ints[node, fast.T_MOVE]))
    return replace(chosen, elapsed=time.perf_counter() - start, pv=tuple(pv))  # its value, exact and outcome
