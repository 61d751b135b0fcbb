"""One engine pool for every face: long-lived, killable worker processes, on this machine or on Ray actors.

The arena plays its games here, the web server answers its moves and analyses here, and book generation
solves its positions here.  A job is an importable function and plain arguments (never a
``"module:function"`` string); the engine jobs take a :class:`Job` -- (game spec, moves, agent spec,
limits), checked once by the caller.  Every job has a deadline past which its worker is killed and
replaced; workers have bounded memory and die with their owner.

* :class:`Pool` -- worker processes on this machine (``mode="inline"`` runs jobs in the calling thread);
* :class:`RayPool` -- the same jobs on long-lived Ray actors (``address`` or ``$RAY_ADDRESS``);
* :func:`make_pool` -- one of them by backend name.
"""

from __future__ import annotations

from .actors import RayPool
from .backends import BACKENDS, make_pool
from .base import EngineBusy, EngineCrashed, EngineFailed, EngineMemory, EngineTimeout, report
from .jobs import Job, PositionSolver, choose_move, solve_position
from .local import MEMORY_LIMIT, RSS_LIMIT, Pool

__all__ = ["Pool", "RayPool", "make_pool", "Job", "PositionSolver", "choose_move", "solve_position", "report",
           "EngineTimeout", "EngineBusy", "EngineMemory", "EngineFailed", "EngineCrashed", "MEMORY_LIMIT", "RSS_LIMIT", "BACKENDS"]
