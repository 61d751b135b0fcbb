"""See inside a search: ``zerosum.trace(agent, game, state)`` returns the :class:`Tree` it visited.

>>> import zerosum
>>> tree = zerosum.trace("alphabeta:plain=1", "tictactoe", "1 4 2 5 9 7")
>>> tree.result.action, len(tree) == tree.result.nodes, tree.pv
(2, True, (2,))
>>> tree.counts_per_depth()
[1, 3, 2]

The search runs on its generic (pure-Python) path with a recording tracer (the numba fast paths compute
the same moves and values, and are never traced).  Minimax and alpha-beta record every node they count,
so ``len(tree) == tree.result.nodes``; MCTS records its final tree (the root's visits are the simulations).
The solver's own search lives in compiled code and is not traced: its tree is the root alone.  On a board
the solver does not take, alpha-beta moves for it, so tracing it there is refused in one line that says to
trace alpha-beta (:func:`zerosum.trace.exact.handed_on`).

This module is callable: ``zerosum.trace`` is both the module (``zerosum.trace.Tree``) and the function.
"""

from __future__ import annotations

import sys
import types
from typing import Any

from ..errors import AgentError
from .bounds import (DEFAULT_MAX_NODES, DEFAULT_MAX_TIME, MAX_TRACE_NODES, MAX_TRACE_TIME, check_budget, compiled_first,
                     time_bound)
from .exact import handed_on
from .nodes import Node, Recorder
from .tree import Tree

__all__ = ["trace", "Tree", "Node", "Recorder", "DEFAULT_MAX_NODES", "MAX_TRACE_NODES", "DEFAULT_MAX_TIME",
           "MAX_TRACE_TIME"]


def trace(agent: Any, game: Any, state: Any = None, *, max_nodes: int = DEFAULT_MAX_NODES,
          max_time: float = DEFAULT_MAX_TIME) -> Tree:
    """The tree ``agent``'s search visits from ``state`` of ``game``.

    ``agent``: a search agent or its spec (``"alphabeta:plain=1,depth=3"``, ``"minimax:depth=2"``,
    ``"mcts:sims=200,seed=1"``); a plain function or an agent without a search (``random``) has no tree to
    show (one :class:`~zerosum.errors.AgentError` line).  ``game``: a Game or its spec; ``state``: a state,
    a move string in the game's notation (``"4453"``), a list of actions as Python numbers them
    (``[3, 3, 4, 2]``), or None (the start): as ``agent.search`` takes them.  ``max_nodes`` (1..1,000,000, default
    200,000) and ``max_time`` (seconds, above 0 and at most 3,600, default 60) bound the search before it
    starts and while it runs (:mod:`zerosum.trace.bounds`): a spec asking for more time or simulations is
    refused at once, and a search that records more nodes or runs longer stops with one error line asking
    for a smaller search, so a notebook never runs out of memory or waits for ever.  ``max_time`` is the
    search's: the compiled code the solver's untraced search runs is prepared before it (a first run's compile,
    tens of seconds, said through the ``zerosum.agents.prepare`` logger: :func:`.bounds.compiled_first`).  The solver on a game it
    does not take is refused (alpha-beta moves for it there: trace that).  An agent object keeps
    what it learned (alpha-beta's table), so tracing it twice may show a smaller second tree; a spec builds
    a fresh agent each time.  Wrong types and values are one :class:`~zerosum.errors.GameError` line.
    """
    from ..agents.base import SearchAgent, check_range
    from ..agents.positions import search_position
    from ..agents.prepare import warm
    from ..agents.registry import make_agent
    from ..games import get_game

    check_range("trace", "max_nodes", max_nodes, 1, MAX_TRACE_NODES)
    if isinstance(max_time, bool) or not isinstance(max_time, (int, float)) or not 0 < max_time <= MAX_TRACE_TIME:
        given = repr(max_time) if isinstance(max_time, (int, float)) else f"a {type(max_time).__name__}"
        raise AgentError(f"trace: max_time={given} is out of range: expected seconds above 0 and at most "
                         f"{MAX_TRACE_TIME:g}")
    g = get_game(game)
    if g.COURSE:  # your own game (zerosum.games.course): your own states too
        state = g.position(state)  # type: ignore[attr-defined]
    state = g.check_state(search_position(g, state))
    searcher = make_agent(agent)
    if not isinstance(searcher, SearchAgent):
        what = getattr(agent, "__name__", None) if not isinstance(agent, str) else agent
        raise AgentError(f"trace: {what or searcher.spec!r} does not search, so it has no tree: trace a search "
                         f"agent such as 'alphabeta:plain=1,depth=3', 'minimax:depth=2' or 'mcts:sims=200'")
    if g.is_terminal(state):
        raise AgentError("trace: the game is over at this position: there is nothing to search")
    handed = handed_on(searcher, g)  # the solver on a board it does not take: alpha-beta's search, not its own
    if handed:
        raise AgentError(f"trace: {handed}")
    discounted = not getattr(searcher, "plain", False) and getattr(searcher, "discount", True) is not False
    check_budget(searcher, max_nodes, max_time)
    if searcher.TRAITS.exact:  # the solver: an early position past 64 bits takes it hours
        from ..analysis import service

        engine = service(g)
        if engine.solves and not engine.reaches(state):
            board: Any = g  # a board the solver takes has cells
            empty = board.cells - state.ply
            raise AgentError(f"trace: {engine.beyond_reach()}, and this one has {empty} (hours of "
                             "search): explain a later position, or another search")
    warm(compiled_first(searcher, g, state))  # max_time is the search's: a first run's compile comes first, said
    recorder = Recorder(max_nodes, discounted, max_time)
    with time_bound(searcher, max_time):
        result = searcher.search(g, state, tracer=recorder)
    if not recorder.roots:
        raise AgentError(f"trace: {searcher.spec!r} reported nothing to its tracer")
    traits = searcher.TRAITS
    label = traits.label or searcher.name
    note = ("" if traits.traced or len(recorder.nodes) > 1 else
            f"{label}'s own search is not traced: its tree is the root alone, with {label}'s value")
    return Tree(g, searcher, state, result, recorder, discounted=discounted, note=note)


class _CallableModule(types.ModuleType):
    """``zerosum.trace(...)`` calls :func:`trace`, whether the name is the function or this module."""

    def __call__(self, agent: Any, game: Any, state: Any = None, *, max_nodes: int = DEFAULT_MAX_NODES,
                 max_time: float = DEFAULT_MAX_TIME) -> Tree:
        return trace(agent, game, state, max_nodes=max_nodes, max_time=max_time)


sys.modules[__name__].__class__ = _CallableModule
