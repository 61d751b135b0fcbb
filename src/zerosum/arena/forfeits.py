"""What the results say about forfeits and uncounted nodes, in one short line each.

:func:`short_reason` turns a forfeit's stored reason into the line the Forfeits table shows (the whole
reason stays in the records, ``zerosum report FILE --export``); :func:`nodes_cell` and :func:`not_counted_note`
say where a run with a node limit could not count an agent's nodes (:mod:`zerosum.arena.counting`) and which
CPU time bounded its moves instead.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

__all__ = ["REASON_CHARS", "short_reason", "why", "run_move_cpu", "nodes_cell", "not_counted_note"]

#: the longest reason the Forfeits table shows
REASON_CHARS = 90


def short_reason(reason: str, width: int = REASON_CHARS) -> str:
    """A forfeit's reason in one short line: ``error: player() takes 1 positional argument but 2 were given
    (TypeError)`` for ``error: TypeError: player() takes ...``; other reasons as they are; at most ``width``
    characters (the message is cut, the exception's name kept)."""
    text = " ".join(str(reason).split())
    kind, sep, rest = text.partition(": ")
    suffix = ""
    if sep and kind == "error":
        name, colon, message = rest.partition(": ")
        if colon and name.replace(".", "_").isidentifier() and len(name) <= width // 3:
            text, suffix = f"error: {message}", f" ({name})"
    room = width - len(suffix)
    if len(text) > room:
        text = text[: room - 3].rstrip() + "..."
    return text + suffix


def why(reasons: Sequence[str]) -> str:
    """The Forfeits table's reason for an agent and kind: the first game's, short, and how many other
    reasons of that kind there were."""
    more = len(reasons) - 1
    return short_reason(reasons[0]) + (f" (and {more} other reason{'s' * (more > 1)})" if more else "")


def run_move_cpu(limits: dict[str, Any], stored: Any) -> float | None:
    """The CPU seconds of an uncounted move in a run with a node limit: ``--move-cpu`` as stored, else the
    default of the node limit; None for a run without one."""
    from .counting import default_move_cpu

    nodes = limits.get("nodes")
    if nodes is None:
        return None
    if isinstance(stored, (int, float)) and not isinstance(stored, bool) and stored > 0:
        return float(stored)
    return default_move_cpu(nodes)


def nodes_cell(nodes: float, games: int, move_cpu: float | None) -> str:
    """The ranking's nodes/move: the mean, ``not counted`` in a run with a node limit where no move of the
    agent was, else ``-``."""
    from .counting import NOT_COUNTED

    if not math.isnan(nodes):
        return f"{nodes:,.0f}"
    return NOT_COUNTED if move_cpu is not None and games else "-"


def not_counted_note(standings: Sequence[Any], specs: dict[str, str], move_cpu: float | None) -> str | None:
    """The line after the tables of a run with a node limit naming the file agents whose nodes were not
    counted and the CPU time that held each of their moves instead; None when there are none."""
    from ..agents.registry import file_agent_parts

    if move_cpu is None:
        return None
    files = [st.label for st in standings if math.isnan(st.nodes) and st.games
             and file_agent_parts(specs.get(st.label, st.label)) is not None]
    if not files:
        return None
    return (f"nodes: not counted for {', '.join(files)} (no zerosum state expanded and no NODES_COUNTED_BY): "
            f"each of its moves was held to {move_cpu:g} s of CPU time instead (--move-cpu)")
