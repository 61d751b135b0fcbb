"""The two bounds of a traced search, checked before it starts and while it runs.

A traced search keeps every node it visits, so it is bounded twice: ``max_nodes`` nodes (memory) and
``max_time`` seconds.  Before the search (:func:`check_budget`), a spec whose own budget is larger is refused:
a time limit above ``max_time``, or more simulations than ``max_nodes`` (each MCTS simulation adds at least a
node to the tree: on Connect Four about two).  While the search runs, the recorder
(:class:`~zerosum.trace.nodes.Recorder`) stops minimax and alpha-beta at the first node past either bound.
A search that reports its tree only when it ends (MCTS, which honours ``simulations``) is given ``max_time``
as its time limit when it has none (:func:`time_bound`), and a search that ran into it is refused in the
same words; so is an exact search whose tree lives in compiled code (the solver): given ``max_time`` as its
time control, it is refused when it proved nothing by then (``last_fallback``: another search moved for it),
and, in other words, when the solver does not answer this board at all (``fallback_reason``: its compiled
code is not installed) -- no time ran out there.
Every refusal is one :class:`~zerosum.errors.AgentError` line; a search that ran out of time is told what
makes it smaller where its agent has such a budget (``depth=``, ``sims=``), else only to raise ``max_time``.

``max_time`` is the search's: the compiled code an untraced search runs (the solver's, tens of seconds to
compile on a first run) is prepared before it, outside that time (:func:`compiled_first`), and said while it is.
"""

from __future__ import annotations

import dataclasses
import time
from contextlib import contextmanager
from typing import Any, Iterator

from ..errors import AgentError
from .exact import ask_instead, handed_on

__all__ = ["TraceBound", "MAX_TRACE_NODES", "DEFAULT_MAX_NODES", "MAX_TRACE_TIME", "DEFAULT_MAX_TIME", "check_budget",
           "time_bound", "too_many_nodes", "too_long", "smaller", "compiled_first"]

#: the most nodes one trace may record, and the default (a node takes about 700 bytes with a Connect Four
#: state: the default about 140 MB, the most about 700 MB), so a notebook never runs out of memory
MAX_TRACE_NODES = 1_000_000
DEFAULT_MAX_NODES = 200_000
#: the most seconds one traced search may run, and the default
MAX_TRACE_TIME = 3600.0
DEFAULT_MAX_TIME = 60.0
#: a search given ``max_time`` stops a little before it (the agent's own margin): this share of it counts
_RAN_INTO = 0.9
#: the budgets that make a traced search's tree smaller, by the ``Limits`` field an agent honours: its option
_SMALLER = {"depth": "depth=", "simulations": "sims="}


class TraceBound(AgentError):
    """A traced search refused for a bound: ``bound`` is ``"nodes"`` (it visits more than ``limit`` nodes),
    ``"time"`` (it did not end within ``limit`` seconds), ``"search time"`` (the spec's own time is past
    ``limit`` seconds) or ``"simulations"`` (the spec's simulations are past ``limit`` nodes); ``spec`` is the
    agent's, quoted, where the spec is at fault.  The message speaks to a caller of :func:`zerosum.trace` and
    of ``zerosum explain`` (its options); a face with bounds of its own words it from these fields.  ``smaller``:
    what makes the search smaller (:func:`smaller`: ``a lower depth= or sims=``; "" when its agent has no such
    budget, the solver: then only more time helps)."""

    def __init__(self, message: str, bound: str, limit: float, amount: float | None = None, spec: str = "",
                 smaller: str = "") -> None:
        super().__init__(message)
        self.bound, self.limit, self.amount, self.spec, self.smaller = bound, limit, amount, spec, smaller


def _spec(agent: Any) -> str:
    spec = str(getattr(agent, "spec", agent))
    return repr(spec if len(spec) <= 80 else spec[:77] + "...")


def too_many_nodes(limit: int) -> AgentError:
    """The error of a search that visits more than ``limit`` nodes."""
    return TraceBound(f"trace: the search visits more than {limit:,} nodes (max_nodes, --max-nodes): trace a "
                      f"smaller search (a lower depth= or sims=) or raise max_nodes (at most {MAX_TRACE_NODES:,})",
                      "nodes", limit)


def smaller(agent: Any = None) -> str:
    """What makes ``agent``'s traced search smaller, in words: ``a lower depth= or sims=``, of the budgets it
    honours (None: any agent's); "" for an agent with none of them (the solver, whose budget is its time)."""
    honours = _SMALLER if agent is None else [f for f in _SMALLER if f in getattr(agent, "LIMITS", ())]
    options = [_SMALLER[f] for f in honours]
    return f"a lower {' or '.join(options)}" if options else ""


def too_long(seconds: float, agent: Any = None) -> AgentError:
    """The error of a search (``agent``'s; None: any) that runs past ``seconds``: what to change fits the agent
    (:func:`smaller`; the solver, which has no depth or simulations, needs more time)."""
    advice = smaller(agent)
    change = (f"trace a smaller search ({advice}) or raise max_time" if advice
              else f"{_label(agent)} needs more time for this position: raise max_time")
    return TraceBound(f"trace: the search did not end within {seconds:g} s (max_time, --max-time): {change} (at "
                      f"most {MAX_TRACE_TIME:g} s)", "time", seconds, smaller=advice)


def _label(agent: Any) -> str:
    traits = getattr(agent, "TRAITS", None)
    return str(getattr(traits, "label", "") or getattr(agent, "name", "") or "the search")


def compiled_first(agent: Any, game: Any, state: Any) -> list[Any]:
    """The steps (:mod:`zerosum.agents.prepare`) of the compiled code to prepare before tracing ``agent``'s
    search of ``state``, so that ``max_time`` bounds the search and not a first run's compile: an untraced
    search's (an agent of exact values, the solver: its search is compiled code) where the trace runs it;
    none for a traced search (the trace follows its generic, pure-Python path), nor where the trace refuses
    at once (the game over, a board the solver does not take, a position out of its reach)."""
    from ..agents.base import SearchAgent
    from ..agents.prepare import steps_of

    if not isinstance(agent, SearchAgent) or not agent.TRAITS.exact or handed_on(agent, game):
        return []
    if game.is_terminal(state):
        return []
    from ..analysis import service

    if not service(game).reaches(state):  # hours of proof: refused (zerosum.trace)
        return []
    return steps_of(agent, game, state)


def check_budget(agent: Any, max_nodes: int, max_time: float) -> None:
    """Refuse, before it starts, a search whose own budget is past a bound (see the module docstring)."""
    limits = agent.limits
    if limits.time is not None and limits.time > max_time:
        raise TraceBound(f"trace: {_spec(agent)} searches for {limits.time:g} s, more than max_time allows "
                         f"({max_time:g} s, --max-time): give it less time= or raise max_time (at most "
                         f"{MAX_TRACE_TIME:g} s)", "search time", max_time, limits.time, _spec(agent))
    sims = limits.simulations
    if sims is not None and "simulations" in agent.LIMITS and sims > max_nodes:
        raise TraceBound(f"trace: {_spec(agent)} runs {sims:,} simulations, each adding a node to its tree: more "
                         f"than max_nodes allows ({max_nodes:,}, --max-nodes): trace fewer sims= or raise "
                         f"max_nodes (at most {MAX_TRACE_NODES:,})", "simulations", max_nodes, sims, _spec(agent))


@contextmanager
def time_bound(agent: Any, max_time: float) -> Iterator[None]:
    """Run the search inside: an agent that honours simulations and time, given simulations and no time,
    searches with ``max_time`` as its time limit (its own limits come back afterwards); if it ran into it,
    :func:`too_long` is raised, in words that fit the agent (the recorder's, which does not know it, too)."""
    try:
        with _bounded(agent, max_time):
            yield
    except TraceBound as exc:
        if exc.bound != "time" or exc.smaller == smaller(agent):
            raise
        raise too_long(exc.limit, agent) from None


@contextmanager
def _bounded(agent: Any, max_time: float) -> Iterator[None]:
    limits = agent.limits
    if limits.time is None and "time" in agent.LIMITS and agent.TRAITS.exact:  # the solver: untraced, compiled
        agent.limits = dataclasses.replace(limits, time=max_time)
        try:
            yield
        finally:
            agent.limits = limits
        fallback = getattr(agent, "last_fallback", None)
        if fallback and fallback == getattr(agent, "fallback_reason", None):  # the solver does not answer here
            reason = fallback.rpartition(": playing ")[0] or fallback
            raise AgentError(f"trace: {reason}: alpha-beta moves for it here, {ask_instead(agent)}")
        if fallback:  # nothing proven within max_time: another search moved
            raise too_long(max_time, agent)
        return
    if limits.time is not None or limits.simulations is None or not {"simulations", "time"} <= set(agent.LIMITS):
        yield
        return
    agent.limits = dataclasses.replace(limits, time=max_time)
    start = time.perf_counter()
    try:
        yield
    finally:
        agent.limits = limits
    if time.perf_counter() - start >= _RAN_INTO * max_time:
        raise too_long(max_time, agent)
