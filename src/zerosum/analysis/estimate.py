"""Where the solver does not go: every move's value from a time-limited alpha-beta search of the position
after it (negamax: the child's value seen from the mover, a ply added to a proven one)."""

from __future__ import annotations

import time as _time
from typing import Any

from ..agents.base import MAX_TIME, Limits, SearchAgent
from ..errors import UsageError
from ..game import Game, safe_repr
from ..values import is_proven, loss_value, win_value
from .result import Analysis, best_action, centre_order

__all__ = ["estimated"]


def estimated(game: Game[Any, Any], state: Any, actions: list[Any], seconds: float) -> Analysis:
    """Alpha-beta's analysis in about ``seconds``, shared out among the moves; exact when every search says
    its value is a proof.  ``engine`` is ``alphabeta:time=S``."""
    start = _time.perf_counter()
    per_move = estimating_agent(max(seconds / len(actions), 0.01))
    if per_move is None:
        return Analysis("", note="no search agent is installed yet, so there is no hint")
    values, exact, nodes = child_values(game, state, actions, per_move)
    best = best_action(values, centre_order(game, state, actions))
    if not exact:
        exact = all(is_proven(v) for v in values.values())
    return Analysis(f"alphabeta:time={seconds:g}", exact, dict(values), dict(values), best, nodes,
                    _time.perf_counter() - start)


def estimating_agent(seconds: float) -> SearchAgent | None:
    """The engine that estimates where the solver does not go: alpha-beta with ``seconds`` a search, as
    ``make_agent("alphabeta:time=S")`` builds it (its ``spec`` says so); None when the module is not there.
    A face that needs an estimate's line asks for it here, never names the agent."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_TIME:
        raise UsageError(f"seconds is a number above 0 and at most {MAX_TIME:g}, not {safe_repr(seconds, 40)}")
    try:
        from ..agents.alphabeta import AlphaBetaAgent
    except ImportError:  # pragma: no cover - alpha-beta ships with zerosum
        return None
    text = f"{seconds:g}"
    agent = AlphaBetaAgent(limits=Limits(time=float(text)))
    agent.spec = f"alphabeta:time={text}"
    return agent


def child_values(game: Game[Any, Any], state: Any, actions: list[Any],
                 agent: SearchAgent) -> tuple[dict[Any, float], bool, int]:
    """Each move's value from searching the position after it (negamax, a ply added to proven values), whether
    every search said it was exact, and their nodes."""
    values: dict[Any, float] = {}
    exact, nodes = True, 0
    mover = game.player(state)
    for a in actions:
        child = game.result(state, a)
        out = game.outcome(child)
        if out is not None:
            values[a] = 0 if out.winner is None else win_value(1) if out.winner == mover else loss_value(1)
            continue
        found = agent.search(game, child)
        nodes += found.nodes
        v = found.value
        if is_proven(v):
            values[a] = -v + 1 if v > 0 else -v - 1  # the child's "wins in p" is our "loses in p + 1"
        else:
            values[a] = -v
        exact = exact and found.exact  # the search's own word: a proof, or every end reached
    return values, exact, nodes
