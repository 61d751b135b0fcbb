"""The server's engine calls run in the one engine pool (:mod:`zerosum.pool`); these names stay for the ui.

``EnginePool`` is :class:`zerosum.pool.Pool`: long-lived worker processes with a time limit per job (a
worker that overruns is killed and replaced), bounded memory (``RLIMIT_DATA`` and a resident bound past
which a worker is replaced), started from one long-lived thread, warm before their first job, and dead
with their server even when it is killed with SIGKILL.
"""

from __future__ import annotations

from ..pool import MEMORY_LIMIT, RSS_LIMIT, EngineBusy, EngineFailed, EngineMemory, EngineTimeout
from ..pool import Pool as EnginePool
from ..pool.worker import rss

__all__ = ["EnginePool", "EngineTimeout", "EngineBusy", "EngineFailed", "EngineMemory", "MEMORY_LIMIT", "RSS_LIMIT",
           "rss"]
