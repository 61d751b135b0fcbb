"""The textbook alpha-beta recursion (``alphabeta:plain=1``), for students to compare their own with.

As in the textbook: terminal utilities as they are (``WIN``, 0 or ``-WIN``: the game's utility times
``WIN``, whenever the game ends), no depth discount, no move ordering, no transposition table, no iterative
deepening; actions in ``game.actions`` order; a node fails high as soon as a child's value reaches beta
(``v >= beta``), and at the root ties go to the first action reaching the best value.  It is written in
negamax form (one function, values from the side to move's view), which visits exactly the states the
max/min form visits.

``depth=N``: a node N plies below the root is evaluated (unless the game is over there: a finished game
is always scored by its utility); no depth: to the end of the game.  ``nodes`` counts the states visited,
the root included (one per call of the recursion); ``nodes=N`` caps them (a search that would pass it
raises :class:`AgentError`: the textbook has no partial answer).  ``scores``: the value of the best root
action is exact, that of every other an upper bound (it was refuted).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..errors import AgentError
from ..game import Game
from ..values import INF
from .base import SearchResult, Tracer

__all__ = ["plain_alphabeta"]


def plain_alphabeta(game: Game[Any, Any], state: Any, evaluate: Callable[[Game[Any, Any], Any, int], Any],
                    depth_limit: int | None, budget: int | None, tracer: Tracer | None = None) -> SearchResult:
    """The textbook alpha-beta search of ``state`` (see the module doc); ``evaluate(game, s, mover)``."""
    from .minimax import depth_leaf, open_node

    start = time.perf_counter()
    result, actions_of = game.result, game.actions
    nodes = evals = 0
    scores: dict[Any, Any] = {}
    best_pv: dict[int, tuple[Any, ...]] = {}

    def negamax(s: Any, depth: int, alpha: Any, beta: Any, a: Any, ply: int) -> Any:
        nonlocal nodes, evals
        if budget is not None and nodes >= budget:  # this node would be one past the budget
            raise AgentError(f"alphabeta:plain=1 passed its node budget of {budget}: give it a depth")
        nodes += 1
        done = open_node(game, s, a, ply, alpha, beta, tracer)
        if done is not None:
            return done
        if depth == 0:
            evals += 1
            return depth_leaf(game, s, evaluate, tracer)
        v: Any
        best = -INF
        cut = None
        for b in actions_of(s):
            v = -negamax(result(s, b), depth - 1, -beta, -alpha, b, ply + 1)
            if ply == 0:
                scores[b] = v
            if v > best:
                best = v
                if ply == 0:
                    best_pv[0] = (b,)
            if best >= beta:
                cut = "beta"
                break
            if best > alpha:
                alpha = best
        if tracer is not None:
            tracer.leave(best, cut)
        return best

    full = depth_limit is None
    limit = 10**9 if depth_limit is None else depth_limit
    value = negamax(state, limit, -INF, INF, None, 0)
    if depth_limit == 0:  # depth 0 only evaluates: play the first action
        best_pv[0] = (actions_of(state)[0],)
    pv = best_pv[0]
    return SearchResult(action=pv[0], value=value, nodes=nodes, depth=len(pv) if full else limit,
                        elapsed=time.perf_counter() - start, pv=pv, scores=scores, exact=full, evals=evals)
