"""Where the solver does not go: every move's value from alpha-beta searches of the positions after the moves
(negamax: the child's value seen from the mover, a ply added to a proven one).

The moves are compared at one depth.  The children are searched in lockstep (:func:`lockstep_values`): every
child to depth 1, then every child to depth 2, and so on; when the budget (time, nodes) runs out in the middle
of a round, each move keeps its value from the deepest round that *every* child completed.  Values from
different depths -- a later child searching deeper thanks to the table an earlier one filled, a heuristic
figure of an even depth ranked against one of an odd depth -- are never compared, so a position that is
symmetric (the empty board) gets a symmetric estimate.  A child whose search is proven, or saw every end of
the game, keeps that value: searching it deeper would not change it.  Alpha-beta's table changes speed, never
values (:mod:`zerosum.agents.alphabeta`), so the rounds share one agent and its table, and a round searches
its depth at once (``first_depth``), the shallower ones being done: the rounds cost about what one iterative
deepening of each move to the last round's depth costs (Tic-Tac-Toe's empty board, proven: 17 k nodes, where
deepening from 1 in every round took 47 k, and one deepening of each move 20 k).
"""

from __future__ import annotations

import time as _time
from typing import Any

from ..agents.base import MAX_TIME, Limits, SearchAgent
from ..errors import UsageError
from ..game import Game, safe_repr
from ..values import is_proven, loss_value, win_value
from .result import Analysis, best_action, centre_order

__all__ = ["estimated", "estimating_agent", "child_values", "lockstep_values"]

#: the deepest round the lockstep search goes to (``Limits(depth=)``'s own maximum)
MAX_DEPTH = 10_000


def estimated(game: Game[Any, Any], state: Any, actions: list[Any], seconds: float, *,
              depth: int | None = None) -> Analysis:
    """Alpha-beta's analysis in about ``seconds``, every move valued at one common depth (the deepest that
    every move's search completed in time: :attr:`Analysis.depth`); exact when every search says its value is
    a proof.  ``depth``: search every move to exactly that depth, with no clock (a deterministic estimate, for
    tests and benchmarks).  ``engine`` is ``alphabeta:time=S`` (``alphabeta:depth=D`` given ``depth``)."""
    start = _time.perf_counter()
    agent = estimating_agent(max(seconds / len(actions), 0.01))
    if agent is None:
        return Analysis("", note="no search agent is installed yet, so there is no hint")
    if depth is not None:
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
            raise UsageError(f"depth is a whole number 1..{MAX_DEPTH}, not {safe_repr(depth, 40)}")
        agent.limits, agent.spec = Limits(depth=depth), f"alphabeta:depth={depth}"
        engine = agent.spec
    else:  # its time a move (at least 0.01 s), shared among the moves in lockstep: about ``seconds`` in all
        engine = f"alphabeta:time={seconds:g}"
    values, exact, nodes, reached = lockstep_values(game, state, actions, agent)
    best = best_action(values, centre_order(game, state, actions))
    if not exact:
        exact = all(is_proven(v) for v in values.values())
    return Analysis(engine, exact, dict(values), dict(values), best, nodes, _time.perf_counter() - start,
                    depth=reached)


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
    every search said it was exact, and their nodes.

    Alpha-beta with a time or node budget (``alphabeta:time=S``: S seconds a move) searches the moves in
    lockstep (:func:`lockstep_values`), the budget of all the moves shared among them, so that every value
    comes from one depth; any other agent (or a fixed ``depth``) searches each move once, within its limits."""
    values, exact, nodes, _ = lockstep_values(game, state, actions, agent)
    return values, exact, nodes


def lockstep_values(game: Game[Any, Any], state: Any, actions: list[Any],
                    agent: SearchAgent) -> tuple[dict[Any, float], bool, int, int | None]:
    """:func:`child_values` and the depth the values were compared at (None: each move searched once, by an
    agent that is not alpha-beta with a budget of time or nodes; 0: every move ends the game).

    Alpha-beta's ``time=S`` / ``nodes=N`` are a move's share: the rounds spend at most S times (N times) the
    moves searched in all, ``depth=D`` caps the rounds (alone, it is the one round at depth D).  The first
    round (depth 1) is always completed, whatever the clock (a few evaluations a move), so an estimate is never
    empty; with a clock, compiled code not loaded within most of the time is not waited for again: the rounds
    then search on the generic path."""
    mover = game.player(state)
    values: dict[Any, float] = {}
    open_: dict[Any, Any] = {}
    for a in actions:
        child = game.result(state, a)
        out = game.outcome(child)
        if out is not None:
            values[a] = 0 if out.winner is None else win_value(1) if out.winner == mover else loss_value(1)
        else:
            open_[a] = child
    if not _lockstep(agent):
        exact, nodes = True, 0
        for a, child in open_.items():
            found = agent.search(game, child)
            nodes += found.nodes
            values[a] = _negated(found.value)
            exact = exact and found.exact  # the search's own word: a proof, or every end reached
        return values, exact, nodes, None
    if not open_:
        return values, True, 0, 0
    searcher: Any = agent  # alpha-beta (_lockstep)
    limits, fast, first = searcher.limits, searcher.fast, searcher.first_depth
    try:
        own, exact, nodes, reached = _rounds(game, open_, searcher, limits)
    finally:  # the caller's agent keeps its own budget, path and deepening
        searcher.limits, searcher.fast, searcher.first_depth = limits, fast, first
    values.update(own)
    return values, exact, nodes, reached


def _lockstep(agent: SearchAgent) -> bool:
    """Whether ``agent`` is alpha-beta (not the textbook recursion) searching by iterative deepening."""
    try:
        from ..agents.alphabeta import AlphaBetaAgent
    except ImportError:  # pragma: no cover - alpha-beta ships with zerosum
        return False
    return isinstance(agent, AlphaBetaAgent) and not agent.plain and agent.limits.depth != 0


def _rounds(game: Game[Any, Any], open_: dict[Any, Any], agent: Any,
            limits: Limits) -> tuple[dict[Any, float], bool, int, int]:
    """The lockstep rounds over the children ``open_`` (action -> position), with ``agent``; see
    :func:`lockstep_values`.  Returns the values at the deepest complete round, whether every one of them is
    exact, the nodes, and that round's depth."""
    moves = len(open_)
    seconds = limits.time
    if limits.time is None and limits.nodes is None and limits.depth is None:
        seconds = 1.0  # alpha-beta's own default: 1 s a search
    deadline = None if seconds is None else _time.perf_counter() + seconds * moves
    node_budget = None if limits.nodes is None else limits.nodes * moves
    top = MAX_DEPTH if limits.depth is None else limits.depth
    budgeted = deadline is not None or node_budget is not None
    settled: dict[Any, tuple[float, bool]] = {}  # proven, or every end seen: its value at every depth
    per_depth: dict[int, dict[Any, tuple[float, bool]]] = {}  # each round's value (and exactness) per child
    nodes, reached = 0, 0
    depth = 1 if budgeted else top  # a fixed depth alone: one round at that depth
    if deadline is not None and agent.fast:  # compiled code not loaded yet: waited for once, not by each search
        from ..agents.prepare import SPARE, settle

        now = _time.perf_counter()
        steps = agent.preparation(game)
        if steps and not settle(steps, now + (1 - SPARE) * max(0.0, deadline - now)):
            agent.fast = False  # this estimate on the generic path (the loading goes on in the background)
    while depth <= top and len(settled) < moves:
        row: dict[Any, tuple[float, bool]] = {}
        complete = True
        for a, child in open_.items():
            if a in settled:
                row[a] = settled[a]
                continue
            left_time = None if deadline is None else deadline - _time.perf_counter()
            left_nodes = None if node_budget is None else node_budget - nodes
            spent = (left_time is not None and left_time <= 0) or (left_nodes is not None and left_nodes < 1)
            if depth > 1 and spent:
                complete = False
                break
            # a round deepens from its own depth: the rounds before it searched the shallower ones
            agent.first_depth = depth if budgeted else 1
            if depth == 1:  # whatever the clock: a few evaluations (compiled code ready, or not asked for)
                agent.limits = Limits(depth=1)
            else:
                agent.limits = Limits(depth=depth, time=None if left_time is None else min(left_time, MAX_TIME),
                                      nodes=None if left_nodes is None else min(left_nodes, 10**9))
            found = agent.search(game, child)
            nodes += found.nodes
            done = found.exact or is_proven(found.value)
            if budgeted and depth > 1 and found.depth < depth and not done:  # the budget ran out in this round
                complete = False
                break
            row[a] = (_negated(found.value), found.exact)
            if done:
                settled[a] = row[a]
        if not complete:
            break
        per_depth[depth] = row
        reached = depth
        depth = depth + 1 if depth < top else top + 1
    found_row = per_depth[reached]  # round 1, and a lone round at a fixed depth, always complete
    return ({a: v for a, (v, _) in found_row.items()}, all(e for _, e in found_row.values()), nodes, reached)


def _negated(value: float) -> float:
    """A child's value (its mover's view) as the parent's mover sees it: the child's "wins in p" is our
    "loses in p + 1"; a heuristic figure is negated."""
    if is_proven(value):
        return -value + 1 if value > 0 else -value - 1
    return -value
