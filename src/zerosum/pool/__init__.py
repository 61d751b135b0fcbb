"""One engine pool for every face: long-lived, killable worker processes, on this machine or on Ray actors.

The arena plays its games here, the web server answers its moves and analyses here, and book generation
solves its positions here.  A job is an importable function and plain arguments (never a
``"module:function"`` string).  The one engine job is :func:`choose_move` of a :class:`Job` -- (game spec,
moves, agent spec, limits), checked once by the caller -- and it answers a :class:`MoveReport`, the report
of a move the arena's games make too (:func:`move_report`).  Every job has a deadline past which its worker is killed and
replaced; workers have bounded memory and die with their owner.

* :class:`Pool` -- worker processes on this machine (``mode="inline"`` runs jobs in the calling thread);
* :class:`RayPool` -- the same jobs on long-lived Ray actors (``address`` or ``$RAY_ADDRESS``);
* :func:`make_pool` -- one of them by backend name.
"""

from __future__ import annotations

from .actors import RayPool
from .backends import BACKENDS, make_pool
from .base import EngineBusy, EngineCrashed, EngineFailed, EngineMemory, EngineTimeout, report
from .jobs import PositionSolver, solve_position
from .local import MEMORY_LIMIT, RSS_LIMIT, Pool
from .moves import Job, MoveReport, choose_move, move_report

__all__ = ["Pool", "RayPool", "make_pool", "Job", "MoveReport", "PositionSolver", "choose_move", "move_report",
           "solve_position", "report",
           "EngineTimeout", "EngineBusy", "EngineMemory", "EngineFailed", "EngineCrashed", "MEMORY_LIMIT", "RSS_LIMIT", "BACKENDS"]
