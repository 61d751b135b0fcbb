"""Moved: the Connect-X bit tricks live in :mod:`zerosum.kernels.connectx` (one definition each).

A thin re-export while the solver's modules switch their imports; import from ``zerosum.kernels.connectx``.
"""

from __future__ import annotations

from ..kernels.bits import column_order
from ..kernels.connectx import (ONE, U64, ZERO, geometry, has_line, line_bits, playable, popcnt, random_playout,
                                random_playouts, rng_next, shl, shr, win_cells)

__all__ = ["ONE", "U64", "ZERO", "geometry", "has_line", "line_bits", "playable", "popcnt", "random_playout",
           "random_playouts", "rng_next", "shl", "shr", "win_cells", "column_order"]
