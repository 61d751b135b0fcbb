"""The arena: fair matches and tournaments between agents, with honest statistics.

Games come in pairs from one opening with colours swapped; each game runs in a worker process under a hard
per-move deadline, and an agent that raises, hangs, or returns an illegal or malformed action forfeits with
the reason recorded.  Every finished game is committed to SQLite at once, so a killed run resumes without
playing any game twice.  ``zerosum match``, ``zerosum tournament``, ``zerosum report`` and
``zerosum openings`` drive it from the command line (:mod:`zerosum.commands.arena`).

Modules: :mod:`.stats` (Elo, intervals, LOS, pentanomial, SPRT, ratings), :mod:`.openings`,
:mod:`.match` (configuration, plan, running score), :mod:`.runner` (worker processes, Ray),
:mod:`.play` (one game inside a worker), :mod:`.store` (SQLite), :mod:`.report` (tables, plots).
"""

from __future__ import annotations

from .match import ArenaConfig, plan_games, run_arena
from .runner import LocalRunner, RayRunner
from .stats import Sprt, elo, los, pentanomial, ratings, sprt_llr, trinomial
from .store import GameRecord, PlannedGame, Store

__all__ = [
    "ArenaConfig",
    "plan_games",
    "run_arena",
    "LocalRunner",
    "RayRunner",
    "Store",
    "PlannedGame",
    "GameRecord",
    "Sprt",
    "elo",
    "los",
    "trinomial",
    "pentanomial",
    "sprt_llr",
    "ratings",
]
