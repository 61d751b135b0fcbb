"""The engine's insight for the terminal and the browser: how long a face waits for it, and an engine move.

Analyses come from the analysis service (:mod:`zerosum.analysis`: ``service(game).analyse(state)``), one per
process and game, which owns the solver, its table and its book; its :class:`~zerosum.analysis.Analysis`
speaks for itself (who answered, exact or estimated, each move's words and short figure), so the faces need
not know which engine answered.  Here: the faces' clock policy (:data:`HINT_TIME`, :data:`SOLVER_TIME`,
:data:`MOVE_TIME`), and an agent's move as a face shows it (:func:`engine_move`).  Every word comes from
:mod:`zerosum.core.words` (distances in moves of the side concerned).
"""

from __future__ import annotations

import time as _time
from dataclasses import dataclass
from typing import Any, Callable

from ..agents.base import Agent, Limits, SearchAgent, SearchResult
from ..analysis import Analysis
from ..core.words import CLASS_LEGEND, class_words, value_words
from ..errors import AgentError
from ..game import Game

__all__ = ["Analysis", "EngineMove", "MOVE_TIME", "HINT_TIME", "SOLVER_TIME", "engine_move", "keeps_no_clock",
           "proof_words", "summary"]

#: the budget of the alpha-beta search that stands in where the solver cannot go
HINT_TIME = 1.0
#: how long a hint waits for the solver (it has no time limit of its own) before alpha-beta answers instead
SOLVER_TIME = 10.0
#: how long an engine move may look for the exact distance once its win/draw/loss is proven (seconds)
MOVE_TIME = 1.0


@dataclass
class EngineMove:
    """What an agent played and what it found (``found`` is None for agents that do not search)."""

    action: Any
    found: SearchResult | None
    elapsed: float
    exact: bool = False  # the value is a proof (``SearchResult.exact``: the solver, a proven value)
    #: a move proven only in win/draw/loss (the solver's ``last_proof``): its words (:func:`proof_words`), else ""
    proof: str = ""
    #: why another search chose the move for the agent (the solver's ``last_fallback``: an early position of a
    #: board past 64 bits, or nothing proven within a time control), else ""
    fallback: str = ""

    @property
    def words(self) -> str:
        if self.proof:
            return self.proof
        if self.found is None:
            return ""
        return value_words(self.found.value, self.exact)


def engine_move(game: Game[Any, Any], state: Any, agent: Agent,
                search: Callable[[Game[Any, Any], Any], SearchResult] | None = None) -> EngineMove:
    """Let ``agent`` choose a move in ``state`` (``search``: how to ask it, default its own ``search``);
    checks the move is legal (raises AgentError if not, in the arena's words:
    :func:`zerosum.pool.moves.refusal`)."""
    from ..games.course_bugs import changed_words, handed

    given, changed = handed(game, state)  # a course game's state: a copy, for the agent to read, not change
    start = _time.perf_counter()
    found: SearchResult | None = None
    if isinstance(agent, SearchAgent):
        found = (search or agent.search)(game, given)
        action = found.action
    else:
        action = agent(game, given)
    elapsed = _time.perf_counter() - start
    if changed():
        raise AgentError(f"{agent.spec}: {changed_words(None, state)}")
    from ..pool.moves import refusal

    why = refusal(game, state, action, agent.spec)  # the arena's words: the answer, its type, the position
    if why is not None:
        raise AgentError(why)
    exact = found is not None and found.exact
    proven = not exact and found is not None and bool(getattr(agent, "last_proof", None))
    proof = proof_words(found.value) if proven else ""  # type: ignore[union-attr]
    fallback = "" if exact else str(getattr(agent, "last_fallback", None) or "")
    return EngineMove(action, found, found.elapsed if found is not None and found.elapsed else elapsed, exact, proof,
                      fallback)


def proof_words(value: float | None) -> str:
    """A move proven only in win/draw/loss, by the sign of its value, in the one vocabulary
    (:data:`~zerosum.core.words.CLASS_WORDS`: ``win (distance not yet proven)``), whatever words the agent has."""
    return class_words(0 if not value else 1 if value > 0 else -1)


def summary(found: Analysis, game: Game[Any, Any], state: Any) -> str:
    """The one line a page shows under the board for ``found`` (the API's ``summary``, shown as it is):
    ``Exact, from the solver: best 4 (win in 19 moves) · 0.03 s``, ``Estimate, from alphabeta:time=1: ...``,
    or, while a progressive analysis fills in, how many moves are proven so far."""
    if not found.engine:
        return f"No analysis: {found.note}"
    actions = game.actions(state)
    if not found.done:
        known = sum(1 for a in actions if a in found.scores)
        return (f"Proving, {found.engine}: {known} of {len(actions)} moves known ({CLASS_LEGEND}; ?: not yet)"
                f" · {found.elapsed:.2f} s")
    best = game.format_action(found.best) if found.best is not None else "none"
    counted = f" · {found.nodes:,} nodes" if found.nodes else ""
    note = f" ({found.note})" if found.note else ""
    legend = f" · {found.legend}" if found.legend and game.board_view(state).gravity else ""  # under the columns
    return (f"{'Exact' if found.exact else 'Estimate'}, from {found.engine}: best {best} ({found.words(found.best)})"
            f" · {found.elapsed:.2f} s{counted}{note}{legend}")


def keeps_no_clock(agent: Agent) -> bool:
    """Whether ``agent`` was given no budget although it honours a time budget: nothing but the agent itself
    ends its search (the solver), so a face must give it a time of its own (the server's default time:
    :func:`zerosum.ui.service.checked_agent`)."""
    return "time" in agent.LIMITS and agent.limits == Limits()
