"""Jobs for test_cold_wide_board.py's quick tests, importable by the server's worker processes (and light:
a worker imports this module within the job's time): a job whose solver code "compiles" for longer than its
time limit, told to the server as the real steps are (:func:`zerosum.solver.steps.telling`), and a job that
needs nothing."""

from __future__ import annotations

import time
from typing import Any

#: seconds the stand-in's code "compiles": twice the quick tests' hard limit
COMPILE = 6.0
_COMPILED: list[float] = []  # in a worker: when the stand-in's compile ended


class Stand:
    """The solver as its steps make it (``make(game, tt_size=..., book=...)``, then a search of a few nodes): the
    first one made in a process takes :data:`COMPILE` seconds, a compile's stand-in; the others none."""

    def __init__(self, game: Any, tt_size: int, book: bool) -> None:
        if not _COMPILED:
            time.sleep(COMPILE)
            _COMPILED.append(time.time())

    def lanes(self, count: int) -> list[None]:
        return [None] * count

    def search_on(self, lane: Any, current: int, mask: int, weak: bool, limit: int) -> int:
        return 0


def compiling_job(game: Any) -> float:
    """A job on ``game`` whose solver code compiles first (the stand-in's steps, for the board's width, told to
    the server as a real compile is); when the compile ended."""
    from zerosum.agents.prepare import warm
    from zerosum.solver.steps import solver_steps

    warm(solver_steps(game, Stand))
    return _COMPILED[0]


def started_job(game: Any) -> float:
    """A job on ``game`` that needs nothing: when it started."""
    return time.time()
