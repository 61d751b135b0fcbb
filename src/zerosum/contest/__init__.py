"""The class contest (#24): students submit, a sandbox plays each submission as an engine, a ladder ranks them,
the teacher grades (docs/contest.md).

- :mod:`.sandbox`: bubblewrap found and checked, a command wrapped with its isolation and limits;
- :mod:`.seats`: one submission as a sandboxed protocol engine (:func:`~.seats.seat_definition`).
"""

from __future__ import annotations

__all__: list[str] = []
