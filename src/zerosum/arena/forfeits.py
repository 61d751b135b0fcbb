"""What the results say about forfeits and uncounted nodes, in one short line each.

:func:`short_reason` turns a forfeit's stored reason into the line the Forfeits table shows (the whole
reason stays in the records, ``zerosum report FILE --export``); :func:`nodes_cell` and :func:`not_counted_note`
say where a run with a node limit could not count an agent's nodes (:mod:`zerosum.arena.counting`) and which
CPU time bounded its moves instead.
"""

from __future__ import annotations

import math
import re
from typing import Any, Collection, Sequence

from ..spec import visible

__all__ = ["REASON_CHARS", "whole_reason", "short_reason", "why", "run_move_cpu", "nodes_cell", "not_counted_note", "counted_labels",
           "declares_counter"]

#: the longest reason the Forfeits table shows
REASON_CHARS = 90


def whole_reason(reason: Any) -> str:
    """A forfeit's reason whole, on one line, every character printing (a file stored before reasons were
    escaped: :mod:`.reasons`)."""
    return visible(" ".join(str(reason).split()))


def short_reason(reason: str, width: int = REASON_CHARS) -> str:
    """A forfeit's reason in one short line: ``error: player() takes 1 positional argument but 2 were given
    (TypeError)`` for ``error: TypeError: player() takes ...`` (and for ``error: hw.py:player(board) raised
    TypeError: ... at the start position``: the table's agent column names the function, the records keep the
    whole reason); other reasons as they are; at most ``width`` characters (the message is cut, the
    exception's name kept)."""
    text = whole_reason(reason)
    kind, sep, rest = text.partition(": ")
    suffix = ""
    named = re.match(r"\S+\([^)]*\) raised (.*?)(?: at (?:the start position|the position .*))?$", rest)
    if sep and kind == "error" and named:  # the function named: the table's agent column names it already
        rest = named.group(1)
        text = f"error: {rest}"
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


def declares_counter(spec: str) -> bool:
    """Whether the agent file of ``spec`` declares its search function (``NODES_COUNTED_BY = ...`` at its top
    level, read from its syntax: nothing of it runs), so its moves are counted as that function's calls."""
    from ..agents.homework import DECLARATION
    from ..agents.registry import file_agent_parts

    parts = file_agent_parts(spec)
    if parts is None:
        return False
    import ast

    from ..core.files import python_syntax

    try:
        tree = python_syntax(parts[0], "agent file")
    except Exception:  # noqa: BLE001 - a file gone or changed since the run: nothing to say of it
        return False
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id == DECLARATION for t in targets):
            return True
    return False


def counted_labels(forfeits: dict[tuple[str, str], int], specs: dict[str, str]) -> set[str]:
    """The agents whose nodes were counted even where no move of theirs was: one forfeited over its node
    limit (its count passed the limit), or whose file declares its search function (``NODES_COUNTED_BY``)."""
    counted = {label for (label, kind), n in forfeits.items() if kind == "node limit" and n}
    return counted | {label for label, spec in specs.items() if declares_counter(spec)}


def nodes_cell(nodes: float, games: int, move_cpu: float | None, counted: bool = False) -> str:
    """The ranking's nodes/move: the mean, ``not counted`` in a run with a node limit where no move of the
    agent was and nothing of it could be (``counted``: its nodes were counted, but no move was played: a
    forfeit over the node limit on its first move), else ``-``."""
    from .counting import NOT_COUNTED

    if not math.isnan(nodes):
        return f"{nodes:,.0f}"
    return NOT_COUNTED if move_cpu is not None and games and not counted else "-"


def not_counted_note(standings: Sequence[Any], specs: dict[str, str], move_cpu: float | None,
                     counted: Collection[str] = (), functions: Collection[str] = (),
                     option: str = "--move-cpu") -> str | None:
    """The line after the tables of a run with a node limit naming the plain functions whose nodes were not
    counted (the file agents, and ``functions``: the labels of those handed over in Python that declare no
    search function, ``zerosum.match``) and the CPU time that held each of their moves instead; None when
    there are none.  An agent in ``counted`` (:func:`counted_labels`), or whose file declares
    ``NODES_COUNTED_BY``, is never named.  ``option``: what sets that time where the note is read (the
    command's ``--move-cpu``, ``zerosum.match``'s ``move_cpu=``)."""
    from ..agents.registry import file_agent_parts

    if move_cpu is None:
        return None
    files = [st.label for st in standings if math.isnan(st.nodes) and st.games and st.label not in counted
             and (st.label in functions or file_agent_parts(specs.get(st.label, st.label)) is not None
                  and not declares_counter(specs.get(st.label, st.label)))]
    if not files:
        return None
    return (f"nodes: not counted for {', '.join(files)} (no zerosum state expanded and no NODES_COUNTED_BY): "
            f"each of its moves was held to {move_cpu:g} s of CPU time instead ({option})")
