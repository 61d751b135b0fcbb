"""Alpha-beta: minimax's values, found faster.

* Negamax with fail-soft alpha-beta; values from the side to move's view, node-relative as in
  :mod:`zerosum.agents.minimax` (a win in ``n`` plies is ``win_value(n)``), so the value equals minimax's
  at the same depth with the same evaluation (the tests check it).
* Move ordering: the transposition table's move, two killer moves per ply, then the history heuristic,
  Connect-X columns centre first among equals.
* A transposition table (``tt=`` entries, 0 turns it off) whose bounds are used only at the depth they were
  searched with, so the table changes speed, never values.
* Iterative deepening 1, 2, ... up to ``depth`` (or the end of the game).  ``nodes=N``: never more than N
  nodes in one call; ``time=S``: answers within S seconds (the clock is read every few thousand nodes).
  Either way the answer is the best move of the deepest completed iteration (the first move in the
  ordering when not even depth 1 completes).  Deepening stops early once an iteration is proven or saw
  every game end.  No limit at all means ``time=1``.
* Evaluation at the depth limit: ``eval=window|threats|mobility`` (with ``three=``/``two=``) or a callable.
* Memory: the table holds at most ``tt`` entries (``0..MAX_TT``); on the numba path it is ``2**ceil(log2
  tt)`` slots of 37 bytes (``MAX_TT``: about 155 MB), on the generic path a dict that admits no new
  position once full during a search and is emptied at the start of a search that finds it full.

``plain=1`` is the textbook recursion instead (:mod:`zerosum.agents.textbook`): no discount, ordering,
table or deepening, always on the generic path, ``nodes`` = the states visited.

What a search reports: ``nodes`` counts the nodes entered, the root once per deepening iteration,
including nodes answered by the table; ``evals`` the evaluation calls (both paths count them alike); ``scores`` every root action's value
in the last completed iteration: exact for the best, an upper bound for the others (fail-soft: each was
refuted by the window), the same on both paths.  A tracer (``search(game, state, tracer)``) sends the search down the generic
path and sees every node: ``enter`` once per node counted, so the enter calls equal ``nodes``.

Connect-X (any size) runs in the numba kernel of :mod:`zerosum.agents.kernels` when the evaluation is
``window`` or ``threats`` and numba is installed (``fast=0`` forces the generic path); the table is kept
between calls (its entries stay valid; ``reset()`` empties it).  The kernel is loaded once per process
(:mod:`.prepare`; :meth:`warm_up` loads it before a clock starts): a search without a time limit loads it
first, so a budget of nodes or depth searches the same either way; a time limit counts from the call,
loading included, and when the kernel is not loaded within ``1 - prepare.SPARE`` of the limit (a cold
cache, or numba's own start in a new process) the search takes the generic path for the time left while
the loading goes on in the background.  Ties at the root go to the first move in the search order
that reaches the best value: the previous iteration's best move, then centre first on Connect-X, else
``game.actions`` order.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..errors import AgentError
from ..game import COLUMN_BITBOARD, Game
from ..kernels.bits import column_order
from ..values import INF, clamp, is_proven, to_child, to_parent
from . import alphabeta_fast
from .base import Limits, Option, SearchResult, Tracer, bounded, check_game, check_range, check_search, flag as _flag
from .budget import deadline_of
from .kinds import root_kinds
from .minimax import EVAL_OPTIONS, SERVER_WEIGHTS, EvaluatingAgent, open_node, resolve_evaluation, terminal_value
from .prepare import Step, numba_step, numba_usable, settle_search, step, warm
from .traits import AgentTraits, ServerTraits, ValueUnit
from .unbounded import warn_search

__all__ = ["AlphaBetaAgent", "MAX_TT"]

EXACT, LOWER, UPPER = 1, 2, 3
DEFAULT_TT = 1 << 20
#: the largest transposition table, in entries (numba path: 37 bytes a slot, about 155 MB)
MAX_TT = 1 << 22
#: seconds the kernel takes to compile on a cold cache (an idle two-core machine; :mod:`.prepare`)
COLD_SECONDS = 3.5
CHECK_EVERY = 256  # generic path: nodes between clock readings, and a node of this many moves reads it too


class _Stop(Exception):
    """The node budget or the deadline was reached: the iteration is abandoned."""


class AlphaBetaAgent(EvaluatingAgent):
    """Alpha-beta with move ordering, a transposition table and iterative deepening (see module doc)."""

    name = "alphabeta"
    description = "alpha-beta with ordering, a transposition table and iterative deepening"
    TRAITS = AgentTraits(label="alpha-beta", short="ab", traced=True, values=ValueUnit(),
                         server=ServerTraits(caps={"depth": (1, 8), "tt": (0, 2**20), **SERVER_WEIGHTS}),
                         opponent=("time=1", "alpha-beta, 1 s a move"), strength=40)
    LIMITS = ("depth", "nodes", "time")
    #: the first depth of the iterative deepening (1).  The analysis's lockstep rounds set an agent's own to the
    #: round's depth: the rounds before it already searched the shallower depths and left their best moves in
    #: the table.  A fixed depth's value does not depend on the order, so only the nodes change
    first_depth = 1
    OPTIONS = {
        **EVAL_OPTIONS,
        "tt": bounded(int, "transposition table entries (0: none)", 0, MAX_TT),
        "fast": Option(_flag, "use the numba kernels on Connect-X when possible (default 1)", None, "0 or 1"),
        "plain": Option(_flag, "the textbook recursion: no discount, ordering, table or deepening (default 0)",
                        None, "0 or 1"),
    }

    def __init__(self, *, tt: int = DEFAULT_TT, fast: bool = True, plain: bool = False, **common: Any) -> None:
        """``tt``, ``fast`` and ``plain`` here; ``limits``, ``seed``, ``eval``, ``three``, ``two`` as every
        evaluating search."""
        super().__init__(**common)
        self.tt_size = check_range(self.name, "tt", tt, 0, MAX_TT)
        self.fast = fast
        self.plain = plain
        self._tt: dict[Any, tuple[int, int, int, Any, bool]] = {}
        self._fast_tables: dict[str, Any] | None = None

    def needs_budget(self) -> tuple[str, ...]:
        """The textbook recursion (``plain=1``) keeps no clock: it needs a depth or a node budget."""
        return ("depth", "nodes") if self.plain and self.limits.depth is None and self.limits.nodes is None else ()

    def reset(self) -> None:
        """Forget the transposition table (kept between moves otherwise: its entries stay valid)."""
        self._tt.clear()
        if self._fast_tables is not None:
            self._fast_tables["tt_key"][:] = 0
            self._fast_tables["tt_depth"][:] = -1

    # ---- the budget ---------------------------------------------------------------------------

    def _budget(self, game: Game[Any, Any], state: Any, start: float,
                forced: bool = False) -> tuple[int, int | None, float | None]:
        """(maximum depth, node budget, deadline) of a search called at ``start`` (``forced``: one legal action:
        a tenth of the time, :func:`~.budget.deadline_of`)."""
        limits = self.limits
        time_limit = limits.time
        if limits.depth is None and limits.nodes is None and time_limit is None:
            time_limit = 1.0
        depth = limits.depth
        if depth is None:
            cells = getattr(game, "cells", None)
            depth = cells - state.ply if cells is not None and hasattr(state, "ply") else 10**6
        return depth, limits.nodes, deadline_of(start, time_limit, forced)

    def _uses_fast_path(self, game: Game[Any, Any], name: str | None) -> bool:
        return bool(self.fast and not self.plain and game.traits.layout == COLUMN_BITBOARD
                    and name in ("window", "threats")
                    and numba_usable())

    def preparation(self, game: Game[Any, Any], state: Any = None) -> list[Step]:
        """The compiled code a search of ``game`` needs (:mod:`.prepare`): none off the numba path."""
        check_game(self.spec, game)
        name, _ = resolve_evaluation(game, self.evaluation, self.three, self.two)
        if not self._uses_fast_path(game, name):
            return []
        return [numba_step(), step("alphabeta", "alpha-beta's kernel", lambda: _probe(game), COLD_SECONDS)]

    def warm_up(self, game: Game[Any, Any]) -> None:
        """Load (or compile) the numba kernel for ``game``, once per process."""
        warm(self.preparation(game))

    def search(self, game: Game[Any, Any], state: Any, tracer: Tracer | None = None) -> SearchResult:
        check_search(self.spec, game, state, tracer)
        start = time.perf_counter()  # a time limit counts from here, loading compiled code included
        actions = game.actions(state)
        if not actions:
            raise AgentError("no legal action: the game is over")
        name, evaluate = resolve_evaluation(game, self.evaluation, self.three, self.two, state)
        warn_search(self, game)  # plain=1 without a depth or nodes cannot end on a large game: said (once)
        if self.plain or self.limits.depth == 0:  # depth=0: the evaluation of the position itself, as minimax's
            from .textbook import plain_alphabeta

            return plain_alphabeta(game, state, evaluate, self.limits.depth, self.limits.nodes, tracer)
        max_depth, budget, deadline = self._budget(game, state, start, len(actions) == 1)
        if (tracer is None and self._uses_fast_path(game, name)
                and settle_search(self.preparation(game), start, deadline)):
            return self._search_fast(game, state, name or "window", max_depth, budget, deadline, start, evaluate)
        return self._search_generic(game, state, evaluate, actions, max_depth, budget, deadline, start, tracer)

    # ---- the generic path ---------------------------------------------------------------------

    def _root_order(self, game: Game[Any, Any], actions: list[Any]) -> list[Any]:
        if game.traits.layout == COLUMN_BITBOARD:  # actions are columns: centre first
            rank = {c: i for i, c in enumerate(column_order(getattr(game, "cols")))}
            return sorted(actions, key=rank.__getitem__)
        return list(actions)

    def _search_generic(
        self,
        game: Game[Any, Any],
        state: Any,
        evaluate: Callable[[Game[Any, Any], Any, int], Any],
        actions: list[Any],
        max_depth: int,
        budget: int | None,
        deadline: float | None,
        start: float,
        tracer: Tracer | None = None,
    ) -> SearchResult:
        tt = self._tt if self.tt_size else None
        tt_size = self.tt_size
        if tt is not None and len(tt) >= tt_size:
            tt.clear()
        killers: dict[int, list[Any]] = {}
        history: dict[Any, int] = {}
        result, player, legal, is_terminal = game.result, game.player, game.actions, game.is_terminal
        centre_key = self._root_order(game, actions)
        rank = {a: i for i, a in enumerate(centre_key)}  # Connect-X: centre first among equals
        nodes = evals = 0
        cut = False

        def negamax(s: Any, depth: int, alpha: Any, beta: Any, ply: int, move: Any) -> Any:
            nonlocal nodes, cut, evals
            if budget is not None and nodes >= budget:
                raise _Stop
            nodes += 1
            if deadline is not None and nodes % CHECK_EVERY == 0 and time.perf_counter() >= deadline:
                raise _Stop
            if tracer is None:  # the untraced path makes no extra call
                if is_terminal(s):
                    return terminal_value(game, s)
            elif (done := open_node(game, s, move, ply, alpha, beta, tracer)) is not None:
                return done
            v: Any
            if depth == 0:
                cut = True
                evals += 1
                v = clamp(evaluate(game, s, player(s)))
                if tracer is not None:
                    tracer.leave(v, "depth", 1)
                return v
            tt_move = None
            alpha0 = alpha
            tt_cut = False
            if tt is not None:
                entry = tt.get(s)
                if entry is not None:
                    e_depth, e_flag, e_value, tt_move, e_cut = entry
                    if e_depth == depth:
                        tt_cut = e_cut  # the stored value may rest on evaluations
                        if e_flag == LOWER and e_value > alpha:
                            alpha = e_value
                        elif e_flag == UPPER and e_value < beta:
                            beta = e_value
                        if e_flag == EXACT or alpha >= beta:
                            cut = cut or e_cut
                            if tracer is not None:
                                tracer.leave(e_value, "table")
                            return e_value
            outer_cut, cut = cut, tt_cut
            kill = killers.get(ply, ())

            def key(a: Any) -> tuple[int, int, int]:
                first = 2 if a == tt_move else 1 if a in kill else 0
                return (-first, -history.get(a, 0), rank.get(a, 0))

            best, best_move = -INF, None
            moves = legal(s)
            if deadline is not None and len(moves) >= CHECK_EVERY and time.perf_counter() >= deadline:
                raise _Stop  # a wide node's sort alone outlasts CHECK_EVERY narrow nodes
            for a in sorted(moves, key=key):
                v = to_parent(negamax(result(s, a), depth - 1, to_child(beta), to_child(alpha), ply + 1, a))
                if v > best:
                    best, best_move = v, a
                if v > alpha:
                    alpha = v
                if alpha >= beta:
                    slot = killers.setdefault(ply, [])
                    if a not in slot:
                        slot.insert(0, a)
                        del slot[2:]
                    history[a] = history.get(a, 0) + depth * depth
                    break
            node_cut, cut = cut, outer_cut or cut
            if tt is not None and (len(tt) < tt_size or s in tt):  # full: no new positions
                flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
                tt[s] = (depth, flag, best, best_move, node_cut)
            if tracer is not None:
                tracer.leave(best, "beta" if best >= beta else None)
            return best

        order = self._root_order(game, actions)
        best_action, best_value, done_depth, exact = order[0], 0, 0, False
        scores: dict[Any, Any] = {}
        for depth in range(min(self.first_depth, max_depth), max_depth + 1):
            cut = False
            try:
                if budget is not None and nodes >= budget:
                    raise _Stop
                nodes += 1  # the root
                if tracer is not None:
                    tracer.enter(state, None, 0, -INF, INF)
                alpha, iter_best, iter_scores = -INF, None, {}
                for a in order:
                    child = result(state, a)
                    v = to_parent(negamax(child, depth - 1, -INF, to_child(alpha), 1, a))
                    iter_scores[a] = v
                    if v > alpha:
                        alpha, iter_best = v, a
                if tracer is not None:
                    tracer.leave(alpha, None)
            except _Stop:
                break
            best_action, best_value, done_depth, scores = iter_best, alpha, depth, iter_scores
            order = [iter_best] + [a for a in order if a != iter_best]
            exact = not cut  # no evaluation below: the game's value
            if is_proven(alpha) or exact:
                break
        pv = self._generic_pv(game, state, best_action, done_depth) if tt is not None else (best_action,)
        return SearchResult(
            action=best_action,
            value=best_value,
            nodes=nodes,
            depth=done_depth,
            elapsed=time.perf_counter() - start,
            pv=pv,
            scores={a: scores[a] for a in actions if a in scores},
            exact=exact,
            evals=evals,
            score_kinds=root_kinds(scores.items()),  # in the order searched: refuted moves are upper bounds
        )

    def _generic_pv(self, game: Game[Any, Any], state: Any, first: Any, depth: int) -> tuple[Any, ...]:
        pv = [first]
        s = game.result(state, first)
        seen = {state}
        while len(pv) < depth and not game.is_terminal(s) and s not in seen:
            seen.add(s)
            entry = self._tt.get(s)
            if entry is None or entry[3] is None:
                break
            pv.append(entry[3])
            s = game.result(s, entry[3])
        return tuple(pv)

    # ---- the numba path (any Connect-X board): :mod:`.alphabeta_fast` -------------------------------

    def _search_fast(self, game: Any, state: Any, name: str, max_depth: int, budget: int | None,
                     deadline: float | None, start: float, evaluate: Callable[..., Any] | None = None) -> SearchResult:
        """The numba search in this agent's tables; ``evaluate`` None: no scores."""
        self._fast_tables = alphabeta_fast.tables(game, name, self.tt_size, self._fast_tables)
        return alphabeta_fast.search(game, state, name, max_depth, budget, deadline, start, evaluate,
                                     t=self._fast_tables, three=self.three, two=self.two, tt_size=self.tt_size,
                                     first=min(self.first_depth, max_depth))


def _probe(game: Game[Any, Any]) -> None:
    """A depth-2 search of ``game``'s start on the numba path: its kernel compiled (or loaded)."""
    probe = AlphaBetaAgent(limits=Limits(depth=2), tt=16)
    state = game.initial_state
    if game.actions(state):
        probe._search_fast(game, state, "window", 2, None, time.perf_counter() + 3600, 0.0)
