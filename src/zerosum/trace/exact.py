"""Explaining an agent of exact values (the solver), whose own search is compiled code and is not traced.

Its "why" is its exact analysis (:func:`analysed`: the analysis service's, as the page's why? asks it), every
legal move scored -- not its move's progressive search, which scores only the moves that may be best.  On
a board the solver does not take its agent hands the move to alpha-beta (:func:`hands_off`), so there is
nothing of the solver's to explain: :func:`handed_on` is the one-line refusal, which says whom to ask.
Both faces (``zerosum explain`` and the page's ``/api/explain``) word these the same.
"""

from __future__ import annotations

from typing import Any

__all__ = ["hands_off", "handed_on", "ask_instead", "fallback_time", "analysed"]

#: alpha-beta's seconds a move where the solver hands a board on and its spec sets no time (the agent's own)
FALLBACK_SECONDS = 1.0


def hands_off(agent: Any, game: Any) -> str:
    """Why ``agent`` does not move itself on ``game`` (an agent of exact values on a game the solver does not
    take hands it to its fallback), or ""."""
    from ..agents.registry import agent_class

    traits = agent.TRAITS
    if not traits.exact or game.traits.solver:
        return ""
    fallback = agent_class(traits.fallback) if traits.fallback else None
    who = (fallback.TRAITS.label if fallback is not None else "") or traits.fallback or "another search"
    return f"{traits.label or agent.name} plays {traits.plays or 'only what the solver takes'}, not {game.title}: " \
           f"{who} moves for it here"


def fallback_time(agent: Any, default: float = FALLBACK_SECONDS) -> float:
    """The seconds the agent's fallback searches a move for: its spec's time, else ``default``."""
    return agent.limits.time or default


def handed_on(agent: Any, game: Any, default: float = FALLBACK_SECONDS) -> str:
    """The refusal to explain ``agent`` on ``game`` where it hands its moves on (:func:`hands_off`), or ""."""
    why = hands_off(agent, game)
    if not why:
        return ""
    return f"{why}, {ask_instead(agent, default)}"


def ask_instead(agent: Any, default: float = FALLBACK_SECONDS) -> str:
    """Whom to ask why, where ``agent`` hands its move to its fallback: ``so ask alphabeta:time=1 why``."""
    return f"so ask {agent.TRAITS.fallback}:time={fallback_time(agent, default):g} why"


def analysed(agent: Any, game: Any, state: Any, seconds: float | None = None,
             default: float = FALLBACK_SECONDS) -> Any:
    """The exact analysis that explains ``agent`` (an agent of exact values) in ``state``: every legal move's
    value from the analysis service (:class:`~zerosum.analysis.Analysis`).  ``seconds``: at most that long
    (progressively; the answer may then not be :attr:`~zerosum.analysis.Analysis.done`), None: until every
    move is scored -- except out of the solver's reach (an early position past 64 bits, hours of proof), where
    alpha-beta's estimates come at once, as the agent moves there.  Where the solver does not answer,
    alpha-beta estimates for the agent's time."""
    from ..analysis import service

    return service(game).analyse(state, seconds=seconds, time=fallback_time(agent, default))
