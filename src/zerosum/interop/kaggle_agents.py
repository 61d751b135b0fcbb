"""What :class:`.kaggle.KaggleAgent` checks of the agents it plays, and the solver's preparation for a game.

* :func:`check_keeps_time`: an agent that searches must keep to Kaggle's clock (a time limit, or a node budget
  small enough to bound it, ``MAX_NODES``: ``minimax`` raises past its node budget, so it needs a depth too);
* :func:`check_plays_alone`: never an agent that waits for a person (the submission writer's check too);
* :func:`table_step`: mapping the solver's table (256 MB on boards past 64 bits) as a background step, so the
  first move the solver searches in a game does not pay for fresh memory (0.6-0.9 s measured, against a
  budget of 0.25 s).

A submission carries this module.
"""

from __future__ import annotations

import sys
from typing import Any

from ..agents.prepare import Step, step
from ..errors import AgentError
from ..spec import quoted

__all__ = ["check_keeps_time", "check_plays_alone", "table_step"]

PACKAGE = __name__.split(".")[0]  # zerosum
#: the largest node budget of an agent that keeps no clock: 1.35 s of ``minimax`` (its threats evaluation) on
#: a 12 x 12 board, the slowest measured (3,700 nodes a second, 2 shared cores, 2026-11-29; 8,000-11,000 on
#: 7 x 6; the textbook alpha-beta 5,000-20,000), inside Kaggle's default move of 2 s less the 0.25 s kept back
MAX_NODES = 5000


def check_keeps_time(agent: Any) -> None:
    """One AgentError line for an agent that searches but keeps no time limit: Kaggle forfeits a move over its
    time, and ``minimax`` or the textbook ``alphabeta:plain=1`` on an empty board thinks for minutes.  A node
    budget of at most ``MAX_NODES`` bounds them (a larger one need not: ``minimax:depth=7,nodes=1000000000``
    took 56 s a move), but ``minimax`` raises past it (it has no partial answer: every move would be the
    fallback's centre-most column), so minimax needs a depth as well."""
    searches = getattr(agent.TRAITS, "values", None) is not None
    keeps = "time" in getattr(agent, "LIMITS", ()) and not getattr(agent, "plain", False)
    if not searches or keeps:
        return
    spec = getattr(agent, "spec", agent)
    limits = getattr(agent, "limits", None)
    nodes, depth = getattr(limits, "nodes", None), getattr(limits, "depth", None)
    if nodes is None:
        raise AgentError(f"{spec!r} keeps no time limit, and Kaggle forfeits a move over its time: give it a node "
                         f"budget (nodes={MAX_NODES} or fewer), or play alphabeta, mcts or solver")
    if getattr(agent, "name", "") == "minimax" and depth is None:
        raise AgentError(f"{spec!r} raises past its node budget (minimax has no partial answer), so every move "
                         "would be the centre-most column: give it a depth as well (minimax:depth=3,nodes=5000), "
                         "or play alphabeta, mcts or solver")
    if nodes > MAX_NODES:  # a node costs 50-270 us (the board, the evaluation): a larger budget bounds nothing
        raise AgentError(f"{quoted(spec)} keeps no time limit, and nodes={nodes} can take far longer than Kaggle's "
                         f"2 s a move (a move over it is forfeit): give it nodes={MAX_NODES} or fewer, or play "
                         "alphabeta, mcts or solver, which keep to the move's time")


def check_plays_alone(agent: Any, what: str = "agent") -> None:
    """One AgentError line for an agent that waits for a person at the keyboard (``human``): on Kaggle nobody
    answers, and its prompt goes to the captured output."""
    simple = sys.modules.get(f"{PACKAGE}.agents.simple")  # not imported: no agent of it (and no import a
    human = getattr(simple, "HumanAgent", None)              # submission would have to carry for this check)
    if human is not None and isinstance(agent, human):
        raise AgentError(f"{what} {getattr(agent, 'spec', 'human')!r} cannot play on Kaggle (nor be a Kaggle "
                         "submission): it waits for a person at the keyboard; play a search agent such as "
                         "'solver' or 'alphabeta'")


def table_step(solver: Any, game: Any) -> list[Step]:
    """The step that maps the table ``solver`` (a ``solver`` agent) searches ``game`` in, as its
    :meth:`~zerosum.solver.agent.SolverAgent.warm_up` does (after the compiled code it warms, done by then):
    one step a process, game and table size, shared by every agent that borrows that table; none for an agent
    that is not the solver or a game it does not take."""
    warm_up, tt = getattr(solver, "warm_up", None), getattr(solver, "tt", None)
    if getattr(solver, "name", "") != "solver" or warm_up is None or not isinstance(tt, int):
        return []
    if not getattr(getattr(game, "traits", None), "solver", False):  # as solver.steps.takes (not carried here)
        return []
    return [step(f"solver table {game.spec} 2**{tt}", "the solver's table, mapped", lambda: warm_up(game), 0.5)]
