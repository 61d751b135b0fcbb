"""The perfect Connect-X solver: numba bitboard kernels, the search, the opening book, the agent.

``from zerosum.solver import Solver`` (or ``from zerosum import Solver``).  The numba-heavy modules load
only when first used, so importing this package (e.g. for the command line) stays quick.

Modules: :mod:`.bitboard` (kernels), :mod:`.search` (the compiled negamax), :mod:`.book` (opening book),
:mod:`.solver` (the ``Solver`` class), :mod:`.agent` (the ``solver`` agent), :mod:`.bench` (benchmark
files); the commands are in :mod:`zerosum.commands.solver`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Solver"]


def __getattr__(name: str) -> Any:
    if name == "Solver":
        from .solver import Solver

        return Solver
    raise AttributeError(f"module 'zerosum.solver' has no attribute {name!r}")
