"""A finished search leaves none of its big arrays in reference cycles, where only Python's full garbage collection
(which a busy process seldom reaches) would free them.  An audit found the numba MCTS answer rebuilt through a
closure that called itself: a cycle holding the search's tree arrays, about 200 MiB a search on a full tree, so a
page's worker was refused as out of memory after ten 0.3 s searches, an arena's workers grew to 2 GB and lost
games on time while the collector ran, and a notebook reached 2.7 GB after five matches."""

from __future__ import annotations

import gc

import numpy as np
import pytest

from zerosum import get_game, make_agent

#: an array this large in a cycle is a search's, not a small table's
BIG = 1 << 20


def _big_arrays_in_cycles(run) -> list[int]:  # type: ignore[no-untyped-def]
    """The sizes of the big arrays that only the cycles ``run()`` left behind hold."""
    gc.collect()
    flags = gc.get_debug()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds unreachable is kept in gc.garbage, to look at
    try:
        run()
        gc.collect()
        return [x.nbytes for obj in gc.garbage for x in gc.get_referents(obj)
                if isinstance(x, np.ndarray) and x.nbytes >= BIG]
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()
        gc.enable()


@pytest.mark.parametrize("game_spec", ["connect4", "connect4-8x8"])
#: (MCTS's generic path, ``fast=0``, holds no array at all: 13 s of searches here that could find nothing)
@pytest.mark.parametrize("spec", ["mcts:sims=20000", "alphabeta:depth=6", "solver"])
def test_a_finished_search_leaves_no_big_array_in_a_cycle(game_spec: str, spec: str) -> None:
    game = get_game(game_spec)
    state = game.from_moves("4472")
    agent = make_agent(spec)
    agent.search(game, state)  # compiled, its table made: what stays on purpose is not in a cycle
    assert _big_arrays_in_cycles(lambda: [agent.search(game, state) for _ in range(2)]) == []
    assert _big_arrays_in_cycles(lambda: make_agent(spec).search(game, state)) == []
