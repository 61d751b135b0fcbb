"""Agents for test_cold_move.py's quick tests, importable by the server's worker processes: a stand-in for an
engine whose compiled code takes :data:`COMPILE` seconds to prepare in a new process (a first run's compile),
listed as its agent's preparation as the real engines list theirs (``agent.preparation(game, state)``), and
one whose code is compiled during its search all the same (in the background, as a timed search that could
not wait leaves it: :func:`zerosum.agents.prepare.settle_search`)."""

from __future__ import annotations

import time
from typing import Any

from zerosum.agents.base import SearchAgent, SearchResult
from zerosum.agents.prepare import Step, start, step

#: seconds the stand-in's code "compiles": twice the quick tests' hard limit
COMPILE = 6.0


def _code() -> Step:
    return step("test: a stand-in's code", "a stand-in's code", lambda: time.sleep(COMPILE), COMPILE)


class PreparedAgent(SearchAgent):
    """Plays the first legal move; its value says whether its code was ready when its search began (1) or not
    (-1)."""

    name = "test-prepared"
    LIMITS = ("time",)

    def preparation(self, game: Any, state: Any = None) -> list[Step]:
        return [_code()]

    def search(self, game: Any, state: Any, tracer: Any = None) -> SearchResult:
        ready = all(s.ready for s in self.preparation(game, state))
        return SearchResult(action=game.actions(state)[0], value=1.0 if ready else -1.0, nodes=1)


class LateAgent(SearchAgent):
    """Lists no preparation, but its search starts its code's compile in the background and goes without it."""

    name = "test-late"
    LIMITS = ("time",)

    def search(self, game: Any, state: Any, tracer: Any = None) -> SearchResult:
        start([step("test: late code", "a late stand-in's code", lambda: time.sleep(1.0), 1.0)])
        return SearchResult(action=game.actions(state)[0], value=0.0, nodes=1)
