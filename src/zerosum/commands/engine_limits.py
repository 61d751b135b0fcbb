"""The limits of a ``go`` in ``zerosum engine`` (:mod:`.engine`): the agent's own limits with the ``go``'s fields
put in.  A field replaces the agent's limit of its kind (``depth``; ``nodes``, or ``sims`` for an agent that
counts simulations; ``movetime`` and the clock become ``time``).  On a clock a move gets an even share of what is
left over the moves still to play, plus three quarters of the increment, never more than :data:`CLOCK_SHARE` of
what is left (less :data:`CLOCK_RESERVE`); a player function, which cannot pace itself, is stopped by that cap
only.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

__all__ = ["go_limits", "move_time", "CLOCK_SHARE", "CLOCK_RESERVE", "MOVES_LEFT"]

#: the clock: the share of the time left a move may take at most, and what is kept for the pipe (ms)
CLOCK_SHARE, CLOCK_RESERVE = 0.8, 20
#: the moves left assumed for a game whose length is not bounded by its cells
MOVES_LEFT = 20


def move_time(left_ms: int, inc_ms: int, moves_left: int) -> float:
    """Seconds for one move on a clock of ``left_ms`` with increment ``inc_ms``: an even share of what is
    left over the moves still to play plus most of the increment, never more than ``CLOCK_SHARE`` of what is
    left (less a reserve for the pipe), and at least a millisecond."""
    share = left_ms / max(1, moves_left) + 0.75 * inc_ms
    cap = CLOCK_SHARE * left_ms - CLOCK_RESERVE
    return max(1.0, min(share, cap)) / 1000.0


def go_limits(agent: Any, command: Any, game: Any, state: Any, ply: int) -> Any:
    """``agent``'s own limits with the fields of ``go`` ``command`` put in, for ``state`` of ``game`` (``ply``
    moves from its start)."""
    from ..agents.base import MAX_DEPTH, MAX_NODES, MAX_SIMULATIONS, MAX_TIME, Limits

    honours = getattr(agent, "LIMITS", ())
    changes: dict[str, Any] = {}
    if command.depth is not None:
        changes["depth"] = min(command.depth, MAX_DEPTH)
    if command.nodes is not None:
        counted = "nodes" if "nodes" in honours or "simulations" not in honours else "simulations"
        changes[counted] = min(command.nodes, MAX_NODES if counted == "nodes" else MAX_SIMULATIONS)
    seconds = [command.movetime / 1000.0] if command.movetime is not None else []
    clock = command.clock(game.player(state))
    if clock is not None and "time" not in honours:  # a player function cannot pace itself: only the clock
        seconds.append(max(0.001, CLOCK_SHARE * clock[0] - CLOCK_RESERVE) / 1000.0)  # stops it, not a share
    elif clock is not None:
        cells = getattr(game, "cells", None)
        moves_left = (cells - ply + 1) // 2 if isinstance(cells, int) and cells > ply else MOVES_LEFT
        seconds.append(move_time(clock[0], clock[1], moves_left))
    if seconds:
        changes["time"] = min(MAX_TIME, max(0.001, min(seconds)))
    own = getattr(agent, "limits", None)
    base = {f.name: getattr(own, f.name) for f in fields(own)} if own is not None else {}
    return Limits(**{**base, **changes})
