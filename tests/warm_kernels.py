"""Compile zerosum's numba kernels into numba's cache (or load them from it): ``python warm_kernels.py PART``.

The test run's controller (``conftest.py``) runs both parts side by side while its workers start; each worker
waits for them before its first test.  On a fresh checkout numba's cache is empty, and each of the three workers
that first needed a kernel compiled it again while the others did: the solver's alone took 40 s a worker.  Tests
of a cold cache use a folder of their own (``NUMBA_CACHE_DIR``) and still compile."""

import sys

import zerosum
from zerosum.agents.prepare import steps_of, warm

PARTS = {
    # two parts of about the same time (33 s and 40 s on a cold cache, side by side): the solver's tables and
    # search on 128 bits; on 64 bits, then alpha-beta's kernel and MCTS's on bitboards and on cell arrays (past 64
    # bits)
    "solver": [("solver", "connect4-8x8")],
    "search": [("solver", "connect4"), ("alphabeta:depth=2", "connect4"), ("mcts:sims=10", "connect4"),
               ("mcts:sims=10", "connect4-8x8")],
}

if __name__ == "__main__":
    for spec, game in PARTS[sys.argv[1]]:
        warm(steps_of(zerosum.make_agent(spec), zerosum.get_game(game)))
