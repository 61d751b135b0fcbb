"""The textbook alpha-beta recursion (``alphabeta:plain=1``), for students to compare their own with.

As in the textbook: terminal utilities as they are (``WIN``, 0 or ``-WIN``: the game's utility times
``WIN``, whenever the game ends; a course's own game class keeps its own utilities, 3 or 12 as AIMA's
Figure 5.2 has them: :meth:`~zerosum.games.course.CourseGame.payoff`), no depth discount, no move ordering, no transposition table; actions in
``game.actions`` order; a node fails high as soon as a child's value reaches beta (``v >= beta``), and at the
root ties go to the first action reaching the best value.  It is written in negamax form (one function,
values from the side to move's view), which visits exactly the states the max/min form visits.

``depth=N``: a node N plies below the root is evaluated (unless the game is over there: a finished game
is always scored by its utility); no depth: to the end of the game.  ``nodes`` counts the states visited,
the root included (one per call of the recursion).  ``scores``: the value of the best root action is exact,
that of every other an upper bound (it was refuted).

**A node budget** (``nodes=N``) follows the 8 x 8 homework's rule: examine at most N nodes, then stop and
play the best move found so far.  The node that would be the (N+1)-th is not visited; the search stops
there, and what "found so far" means is this:

- with a depth (``plain=1,depth=D,nodes=N``): one search to depth D; the move is the best of the root
  actions whose subtrees were searched to the end (ties: the first in ``game.actions`` order), the first
  action when none was.  Unlike the homework's pseudo-code, whose calls past the limit return a value of 0,
  a root action that was not searched never counts as an even position;
- without a depth (``plain=1,nodes=N``): iterative deepening, a whole textbook search to depth 1, then 2,
  ... (each from scratch, their nodes added up): the move of the deepest completed iteration (the first
  iteration, if even it was stopped, by the rule above).  An iteration that met no depth limit searched to
  the end of the game: its value is exact, and the deepening stops there.

A stopped search reports ``exact=False``, the nodes it visited (at most N) and the depth of the move it
plays.  Traced, a stopped iteration's unfinished nodes are left without a value (the trace shows the
deepest finished iteration).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..game import Game
from ..values import INF
from .base import SearchResult, Tracer
from .kinds import root_kinds

__all__ = ["plain_alphabeta"]


class _Stop(Exception):
    """The node budget is spent: the search stops where it is."""


class _Textbook:
    """One textbook search to a depth, within what is left of a node budget."""

    def __init__(self, game: Game[Any, Any], evaluate: Callable[[Game[Any, Any], Any, int], Any],
                 budget: int | None, tracer: Tracer | None, leave_root: bool = True) -> None:
        self.game, self.evaluate, self.budget, self.tracer = game, evaluate, budget, tracer
        self.leave_root = leave_root  # a stopped search leaves its root with what it found (not a stopped iteration)
        self.nodes = self.evals = 0
        self.scores: dict[Any, Any] = {}
        self.best: Any = None  # the best root action among those searched to the end
        self.stopped = False

    def run(self, state: Any, depth: int) -> Any:
        """The root's value (of the root actions searched, when the budget stopped it)."""
        try:
            return self.negamax(state, depth, -INF, INF, None, 0)
        except _Stop:
            self.stopped = True
            return None

    def negamax(self, s: Any, depth: int, alpha: Any, beta: Any, a: Any, ply: int) -> Any:
        from .minimax import depth_leaf, open_node

        if self.budget is not None and self.nodes >= self.budget:  # this node would be one past the budget
            raise _Stop
        self.nodes += 1
        game, tracer = self.game, self.tracer
        done = open_node(game, s, a, ply, alpha, beta, tracer, True)
        if done is not None:
            return done
        if depth == 0:
            self.evals += 1
            return depth_leaf(game, s, self.evaluate, tracer)
        best: Any = -INF
        cut = None
        for b in game.actions(s):
            try:
                v = -self.negamax(game.result(s, b), depth - 1, -beta, -alpha, b, ply + 1)
            except _Stop:
                if ply == 0 and self.leave_root and self.best is not None and tracer is not None:
                    tracer.leave(best, "stopped")  # the root is left with what was found so far
                raise
            if ply == 0:
                self.scores[b] = v
            if v > best:
                best = v
                if ply == 0:
                    self.best = b
            if best >= beta:
                cut = "beta"
                break
            if best > alpha:
                alpha = best
        if tracer is not None:
            tracer.leave(best, cut)
        return best


def plain_alphabeta(game: Game[Any, Any], state: Any, evaluate: Callable[[Game[Any, Any], Any, int], Any],
                    depth_limit: int | None, budget: int | None, tracer: Tracer | None = None) -> SearchResult:
    """The textbook alpha-beta search of ``state`` (see the module doc); ``evaluate(game, s, mover)``."""
    start = time.perf_counter()
    first = game.actions(state)[0]
    if depth_limit is not None or budget is None:  # one search: to the depth, or to the end of the game
        search = _Textbook(game, evaluate, budget, tracer)
        limit = 10**9 if depth_limit is None else depth_limit
        value = search.run(state, limit)
        action = first if depth_limit == 0 or search.best is None else search.best  # depth 0 only evaluates
        if search.stopped:
            value = search.scores.get(action, 0)
        full = depth_limit is None and not search.stopped
        return SearchResult(action=action, value=value, nodes=search.nodes, depth=limit if depth_limit is not None else 1,
                            elapsed=time.perf_counter() - start, pv=(action,), scores=search.scores,
                            exact=full, evals=search.evals, score_kinds=root_kinds(search.scores.items()))
    # a node budget and no depth: iterative deepening, the deepest completed iteration's move
    nodes = evals = 0
    found: tuple[Any, Any, dict[Any, Any], int] | None = None  # action, value, scores, depth
    exact = False
    depth = 0
    while True:
        depth += 1
        search = _Textbook(game, evaluate, budget - nodes, tracer, leave_root=False)
        value = search.run(state, depth)
        nodes, evals = nodes + search.nodes, evals + search.evals
        if search.stopped:
            if found is None:  # even depth 1 was stopped: the best root action searched, else the first
                action = search.best if search.best is not None else first
                found = (action, search.scores.get(action, 0), search.scores, depth)
            break
        found = (search.best if search.best is not None else first, value, search.scores, depth)
        if search.evals == 0:  # no depth limit met: searched to the end of the game
            exact = True
            break
    action, value, scores, reached = found
    return SearchResult(action=action, value=value, nodes=nodes, depth=reached, elapsed=time.perf_counter() - start,
                        pv=(action,), scores=scores, exact=exact, evals=evals, score_kinds=root_kinds(scores.items()))
