"""Game clocks for the arena: ``--tc BASE+INC`` (seconds), as engine testers know them.

Each player has ``BASE`` seconds for the whole game.  Every move's thinking time is taken off the mover's
clock, then ``INC`` seconds are added; a player whose clock runs out loses (forfeit, reason
``time forfeit``).  The supervisor (:mod:`.runner`) keeps the clock that counts: it measures each move from
the worker's ``think`` message to its ``move`` (an external engine's move is charged the time its own
deadline measured in the worker, the ``move``'s seconds) and kills a worker whose agent is still thinking when
its clock runs out.  The worker (:mod:`.play`) keeps a copy only to tell the agents how long to think.

An agent that takes a time limit and is not bound by a depth, node or simulation limit of its own is told,
before each move, :func:`move_budget` of its remaining time: ``remaining / 20 + increment``, at most half of
what remains (and at most its own ``time=`` or the run's ``--time``, when given: the per-move limit caps the
clock's budget).  Agents bound by depth, nodes or simulations, and plain functions, are not told: they play
as they always do and may lose on time.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from ..errors import UsageError

__all__ = ["Clock", "parse_tc", "format_tc", "tc_problem", "move_budget", "timed_agent", "tell_budget",
           "MAX_BASE", "MAX_INCREMENT", "MOVES_TO_GO", "TIME_FORFEIT"]

#: the most seconds a clock may start with (a day)
MAX_BASE = 86_400.0
#: the most seconds a move may add (an hour)
MAX_INCREMENT = 3_600.0
#: an agent is told its remaining time divided by this, plus the increment, each move
MOVES_TO_GO = 20
#: ... and never more than this share of what remains
MAX_SHARE = 0.5
#: the least time an agent is told (Limits.time must be above 0)
MIN_BUDGET = 0.001
#: the store's reason for a game lost on time
TIME_FORFEIT = "time forfeit"

_FORM = f"BASE+INC in seconds, e.g. 10+0.1 or 60 (BASE above 0 and at most {MAX_BASE:g}, INC 0..{MAX_INCREMENT:g})"


def parse_tc(text: str) -> list[float]:
    """``[base, increment]`` of a time control such as ``10+0.1`` or ``60`` (no increment); one
    :class:`~zerosum.errors.UsageError` line naming the text and the valid form otherwise."""
    from ..spec import quoted, real

    raw = text.strip() if isinstance(text, str) else ""
    splits = [i for i, ch in enumerate(raw) if ch == "+" and i > 0 and raw[i - 1] not in "eE"]
    if len(splits) > 1 or not raw:
        raise UsageError(f"time control {quoted(text)} is not {_FORM}")
    base_text, inc_text = (raw[: splits[0]], raw[splits[0] + 1:]) if splits else (raw, "0")
    try:
        tc = [real(base_text), real(inc_text)]
    except ValueError:
        raise UsageError(f"time control {quoted(text)} is not {_FORM}") from None
    why = tc_problem(tc)
    if why is not None:
        raise UsageError(f"time control {quoted(text)} is out of range: {why} (BASE+INC, e.g. 10+0.1)")
    return tc


def tc_problem(tc: Any) -> str | None:
    """What is wrong with a stored ``[base, increment]`` (types, ranges), or None."""
    if not isinstance(tc, list) or len(tc) != 2 or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in tc):
        return "expected [base, increment] in seconds"
    base, inc = tc
    if not 0 < base <= MAX_BASE:
        return f"BASE must be above 0 and at most {MAX_BASE:g} seconds"
    if not 0 <= inc <= MAX_INCREMENT:
        return f"INC must be 0..{MAX_INCREMENT:g} seconds"
    return None


def format_tc(tc: Sequence[float]) -> str:
    """``10+0.1`` (the form ``--tc`` takes, and the TimeControl tag of a record)."""
    return f"{tc[0]:g}+{tc[1]:g}"


def move_budget(remaining: float, increment: float, cap: float | None = None) -> float:
    """The seconds an agent is told it may think for its next move (see the module docstring)."""
    budget = min(remaining / MOVES_TO_GO + increment, remaining * MAX_SHARE)
    from ..agents.base import MAX_TIME

    if cap is not None:
        budget = min(budget, cap)
    return max(MIN_BUDGET, min(budget, MAX_TIME))


class Clock:
    """Both players' clocks: ``left[seat]`` seconds (seats 1 and 2)."""

    def __init__(self, base: float, increment: float) -> None:
        self.increment = increment
        self.left = {1: float(base), 2: float(base)}

    def charge(self, seat: int, seconds: float) -> bool:
        """Take a move's ``seconds`` off ``seat``'s clock; False when it ran out (no increment then)."""
        self.left[seat] -= max(0.0, seconds)
        if self.left[seat] <= 0:
            self.left[seat] = 0.0
            return False
        self.left[seat] += self.increment
        return True

    def budget(self, seat: int, cap: float | None = None) -> float:
        """What ``seat``'s agent is told it may think for its next move."""
        return move_budget(self.left[seat], self.increment, cap)


def timed_agent(agent: Any) -> bool:
    """Whether the clock tells ``agent`` a time per move: it takes a time limit and is not bound by a depth,
    node or simulation limit of its own (those play as they always do)."""
    limits = getattr(agent, "limits", None)
    if "time" not in getattr(type(agent), "LIMITS", ()) or limits is None:
        return False
    if limits.time is not None:
        return True
    return all(getattr(limits, name, None) is None for name in ("depth", "nodes", "simulations"))


def tell_budget(agent: Any, own: Any, clock: Clock, seat: int) -> None:
    """Give a timed agent (:func:`timed_agent`) its time for the next move from ``clock``; ``own``: the
    limits it was built with (their ``time``, when set, caps the clock's budget)."""
    agent.limits = own.replace(time=clock.budget(seat, own.time))
