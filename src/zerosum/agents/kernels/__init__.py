"""The agents' numba kernels, one module an engine (importing this package imports numba):

* :mod:`.grid` -- the cell-array Connect-X board (any size) and the evaluations' numbers on it;
* :mod:`.alphabeta` -- alpha-beta on that board, a machine with an explicit stack (:func:`ab_run`);
* :mod:`.tree` -- the MCTS tree in arrays: selection, proofs, backup;
* :mod:`.mcts_bitboard` -- MCTS on 64-bit bitboards (:func:`mcts_run`), playouts of
  :mod:`zerosum.kernels.connectx`;
* :mod:`.mcts_cells` -- MCTS on cell arrays for boards beyond 64 bits (:func:`mcts_run_grid`).

They compute exactly what the generic (Game-protocol) searches compute -- the same values, the same
evaluation numbers -- and are compiled once and cached on disk (``cache=True``).  Values follow
:mod:`zerosum.values`.  :func:`zerosum.agents.base.kernels` answers this package (or None without numba);
the names below are the ones the agents use.
"""

from ...values import INF
from .alphabeta import (CUT, ENTER, EVALS, F_ALPHA, F_BETA, F_DEPTH, N_FIELDS, N_STATS, NODES, PHASE, RESULT_MOVE,
                        RESULT_VALUE, SLICE, SP, ab_run, tt_probe)
from .grid import (BUDGET, COLS, EVAL, EVAL_THREATS, EVAL_WINDOW, K, ROWS, THREE, TT_BITS, TWO, grid_eval, grid_of,
                   make_tables, window_contributions, window_counts)
from .mcts_bitboard import mcts_init, mcts_run
from .mcts_cells import mcts_init_grid, mcts_run_grid
from .tree import P_DRAWN, P_LOST, P_UNKNOWN, P_WON, T_FIELDS, T_FIRST, T_MOVE, T_NCH, T_PLIES, T_PROOF, T_VISITS

__all__ = [
    "INF", "CUT", "ENTER", "EVALS", "F_ALPHA", "F_BETA", "F_DEPTH", "N_FIELDS", "N_STATS", "NODES", "PHASE", "RESULT_MOVE",
    "RESULT_VALUE", "SLICE", "SP", "ab_run", "tt_probe",
    "BUDGET", "COLS", "EVAL", "EVAL_THREATS", "EVAL_WINDOW", "K", "ROWS", "THREE", "TT_BITS", "TWO", "grid_eval",
    "grid_of", "make_tables", "window_contributions", "window_counts",
    "mcts_init", "mcts_run", "mcts_init_grid", "mcts_run_grid",
    "P_DRAWN", "P_LOST", "P_UNKNOWN", "P_WON", "T_FIELDS", "T_FIRST", "T_MOVE", "T_NCH", "T_PLIES", "T_PROOF",
    "T_VISITS",
]
