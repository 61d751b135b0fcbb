"""The class contest (#24): students submit, a sandbox plays each submission as an engine, a ladder ranks them,
the teacher grades (docs/contest.md).

- :mod:`.store`: the contest's SQLite database;
- :mod:`.sandbox`: bubblewrap found and checked, a command wrapped with its isolation and limits
  (:mod:`.jail`: its first step, a memory cgroup, and its last, the limits and the relay inside);
- :mod:`.seats`: one submission as a sandboxed protocol engine (:func:`~.seats.seat_definition`);
- :mod:`.ladder`: new submissions play the field until the entries are frozen (``start``, ``stop``,
  ``run_pending``), each game played by :mod:`.playing` on the engine pool;
- :mod:`.standings`: the leaderboard's rows, ratings with 95% intervals (``leaderboard(store)``);
- :mod:`.final`: the frozen round robin, reproducible from its seed, graded (``run_final(DIR)``).
"""

from __future__ import annotations

from .sandbox import Limits, SandboxUnavailable, require_sandbox, sandbox_problem, wrap
from .seats import seat_definition, seat_engine

__all__ = ["Limits", "SandboxUnavailable", "require_sandbox", "sandbox_problem", "wrap", "seat_definition",
           "seat_engine"]
