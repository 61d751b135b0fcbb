"""Plain minimax (negamax form), to the end of the game or to a fixed depth with an evaluation.

Values are from the side to move's view and counted from the node searched: a finished game is
``loss_value(0)`` for the side to move when the opponent has just won, 0 for a draw; one ply up, a value
``v`` becomes ``-v`` moved one step towards zero when proven (``to_parent``).  So a win in ``n`` plies is
``win_value(n)``: minimax takes the fastest win and, when every move loses, the slowest loss.  At the depth
limit the evaluation (clamped to ``±HEURISTIC_BOUND``, fractions kept) stands in for the rest of the game.

``discount=0`` is the textbook minimax: a finished game is worth its utility times ``WIN`` (``WIN``, 0 or
``-WIN``, whenever it ends) and one ply up a value is just negated, so every win is as good as any other.

Ties between equally valued moves go to the first in ``game.actions`` order.  ``nodes`` counts the states
visited, the root included (one per call of the recursion); ``evals`` the evaluations at the depth limit;
``scores`` holds every root action's exact value.  A tracer (:class:`~zerosum.agents.base.Tracer`) sees
every node entered and left.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ..errors import AgentError
from ..game import Game
from ..spec import listed, quoted
from ..values import INF, WIN, clamp, to_child, to_parent
from .base import Limits, Option, SearchAgent, SearchResult, Tracer, bounded, check_range, check_search, flag
from .traits import AgentTraits, ServerTraits, ValueUnit
from .unbounded import warn_search

__all__ = ["MinimaxAgent", "EvaluatingAgent", "to_parent", "to_child", "terminal_value", "clamp", "resolve_evaluation", "MAX_WEIGHT"]

#: the largest weight ``three=`` / ``two=`` may have (either sign): sums over every window stay far from
#: the 64-bit limit of the numba kernels, and values are clamped to ``HEURISTIC_BOUND`` anyway
MAX_WEIGHT = 100_000
#: the weights the page may set (:class:`~.traits.ServerTraits`)
SERVER_WEIGHTS = {"three": (-1000, 1000), "two": (-1000, 1000)}


def terminal_value(game: Game[Any, Any], state: Any, raw: bool = False) -> Any:
    """The value of a finished game for the side to move: a loss now, a win now, or 0.  ``raw`` (the
    textbook searches): a game that keeps its own utilities (``payoff``: a course's game class, whose
    utility may be 3 or 12, AIMA's Figure 5.2) is worth that utility as it is."""
    payoff = getattr(game, "payoff", None) if raw else None
    if payoff is not None:
        return payoff(state, game.player(state))
    u = game.utility(state, game.player(state))
    return 0 if u == 0 else (WIN if u > 0 else -WIN)


def open_node(game: Game[Any, Any], s: Any, a: Any, ply: int, alpha: Any, beta: Any, tracer: Any,
              raw: bool = False) -> Any:
    """Enter node ``s`` (reached by ``a``, ``ply`` plies below the root; ``alpha``, ``beta``: its window, None
    for minimax) for ``tracer``: the value of a finished game (the node is then left, as "terminal"), else
    None.  Every recursion of minimax and alpha-beta starts a node with it."""
    if tracer is not None:
        tracer.enter(s, a, ply, alpha, beta)
    if not game.is_terminal(s):
        return None
    v = terminal_value(game, s, raw)
    if tracer is not None:
        tracer.leave(v, "terminal")
    return v


def depth_leaf(game: Game[Any, Any], s: Any, evaluate: Callable[..., Any], tracer: Any) -> Any:
    """The value of ``s`` where the depth limit stops the search: its evaluation for the side to move, kept
    within the heuristic range (the node is left for ``tracer`` as "depth", with its one evaluation)."""
    v = clamp(evaluate(game, s, game.player(s)))
    if tracer is not None:
        tracer.leave(v, "depth", 1)
    return v


def resolve_evaluation(
    game: Game[Any, Any], evaluation: "str | Callable[..., Any] | None", three: int, two: int,
    state: Any = None,
) -> tuple[str | None, Callable[[Game[Any, Any], Any, int], Any]]:
    """(name or None for a callable, the evaluation function) for ``game``, called ``f(game, s, mover)``
    and scoring for ``mover`` (a callable's declared view is adapted, the root ``state``'s side to move
    being the ``player`` view's player).

    A name is looked up among the game's own evaluations once here, so the search calls the game's
    function directly at every leaf (no lookup per node).
    """
    from .heuristics import bind_evaluation, default_evaluation, load_evaluation, student_evaluation

    if isinstance(evaluation, str) and ".py:" in evaluation:
        evaluation = load_evaluation(evaluation)
    if callable(evaluation):  # a person's function: probed once, its answers checked (agents/student.py)
        root = game.player(state) if state is not None else 1
        return None, student_evaluation(evaluation, game, root)
    name = evaluation or default_evaluation(game)
    offered = (*game.evaluations(), "mobility")  # mobility counts moves: every game has it
    if name not in offered:  # refused before the search, not one forfeit a move later
        choices = listed(dict.fromkeys(offered))
        raise AgentError(f"{game.title} has no {quoted(name)} evaluation: choose one of {choices}")
    return name, bind_evaluation(game, name, three, two)


def _eval_name(value: str) -> "str | Callable[..., Any]":
    from .heuristics import EVALUATIONS, load_evaluation

    if ".py:" in value:  # a function in a file: loaded (and checked) now, one AgentError line if it fails
        return load_evaluation(value)
    if value not in EVALUATIONS:
        raise ValueError(value)
    return value


def _eval_names() -> str:
    from .heuristics import evaluation_names

    return ", ".join(evaluation_names())


EVAL_OPTIONS = {
    "eval": Option(_eval_name, f"evaluation at the depth limit, one the game offers: {_eval_names()}; or "
                   "path/to/file.py:function", None, f"one of {_eval_names()}, or path/to/file.py:function"),
    "three": bounded(int, "window/threats: weight of a line one stone short", -MAX_WEIGHT, MAX_WEIGHT),
    "two": bounded(int, "window/threats: weight of a line two stones short", -MAX_WEIGHT, MAX_WEIGHT),
}


def check_weights(owner: str, three: int, two: int) -> tuple[int, int]:
    """The evaluation weights, range-checked (constructor arguments do not pass through the spec parser)."""
    return (check_range(owner, "three", three, -MAX_WEIGHT, MAX_WEIGHT),
            check_range(owner, "two", two, -MAX_WEIGHT, MAX_WEIGHT))


class EvaluatingAgent(SearchAgent):
    """A search that evaluates positions at its depth limit: ``eval=`` (a name the game offers, or any
    callable ``f(game, state, player)``) and the ``window``/``threats`` weights ``three=`` and ``two=``."""

    OPTIONS = EVAL_OPTIONS

    def __init__(
        self,
        *,
        limits: Limits | None = None,
        seed: int | None = None,
        eval: "str | Callable[..., Any] | None" = None,  # noqa: A002 - the spec option's name
        three: int = 50,
        two: int = 10,
    ) -> None:
        super().__init__(limits=limits, seed=seed)
        self.evaluation = eval
        self.three, self.two = check_weights(self.name, three, two)


class MinimaxAgent(EvaluatingAgent):
    """Minimax: ``minimax`` searches to the end, ``minimax:depth=N`` to N plies then evaluates.

    ``eval=`` names the evaluation (default: ``threats`` for Connect-X, ``window`` for Tic-Tac-Toe,
    ``mobility`` otherwise), a function in a file (``path/to/file.py:fn``) or is any callable ``f(game,
    state, player)``.  ``nodes=`` caps the nodes of one call: a search that would pass it raises
    :class:`AgentError` (minimax has no partial answer).  ``discount=0``: no depth discount (module doc).
    """

    name = "minimax"
    description = "plain minimax; depth=N with an evaluation, else to the end of the game"
    TRAITS = AgentTraits(label="minimax", short="mm", traced=True, values=ValueUnit(),
                         server=ServerTraits(caps={"depth": (1, 6), **SERVER_WEIGHTS}),
                         opponent=("depth=4", "minimax, depth 4"), strength=20)
    LIMITS = ("depth", "nodes")
    OPTIONS = {**EVAL_OPTIONS,
               "discount": Option(flag, "prefer faster wins and slower losses (default 1; 0: the textbook "
                                  "minimax, every win alike)", None, "0 or 1")}

    def __init__(self, *, discount: bool = True, **common: Any) -> None:
        """``discount`` here; ``limits``, ``seed``, ``eval``, ``three``, ``two`` as every evaluating search."""
        super().__init__(**common)
        self.discount = discount

    def search(self, game: Game[Any, Any], state: Any, tracer: Tracer | None = None) -> SearchResult:
        check_search(self.spec, game, state, tracer)
        start = time.perf_counter()
        actions = game.actions(state)
        if not actions:
            raise AgentError("no legal action: the game is over")
        _, evaluate = resolve_evaluation(game, self.evaluation, self.three, self.two, state)
        warn_search(self, game)  # a search that cannot end says so (once) rather than think in silence
        depth_limit = self.limits.depth
        budget = self.limits.nodes
        nodes = evals = 0
        result, is_terminal = game.result, game.is_terminal
        up: Callable[[Any], Any] = to_parent if self.discount else (lambda v: -v)
        raw = not self.discount  # the textbook minimax: a course game's utilities as they are

        def value(s: Any, depth: int, a: Any, ply: int) -> tuple[Any, tuple[Any, ...]]:
            nonlocal nodes, evals
            nodes += 1
            if budget is not None and nodes > budget:
                raise AgentError(f"minimax passed its node budget of {budget}: give it a depth")
            if tracer is None:  # the untraced path makes no extra call
                if is_terminal(s):
                    return terminal_value(game, s, raw), ()
            elif (done := open_node(game, s, a, ply, None, None, tracer, raw)) is not None:
                return done, ()
            if depth == 0:
                evals += 1
                return depth_leaf(game, s, evaluate, tracer), ()
            v: float
            best: float = -INF
            best_pv: tuple[Any, ...] = ()
            for b in game.actions(s):
                v, pv = value(result(s, b), depth - 1, b, ply + 1)
                v = up(v)
                if ply == 0:
                    scores[b] = v
                if v > best:
                    best, best_pv = v, (b, *pv)
            if tracer is not None:
                tracer.leave(best, None)
            return best, best_pv

        full = depth_limit is None
        limit = 10**9 if depth_limit is None else depth_limit
        scores: dict[Any, Any] = {}
        best_value, pv = value(state, limit, None, 0)
        if depth_limit == 0:  # depth 0 only evaluates: play the first action
            pv = (actions[0],)
        return SearchResult(
            action=pv[0],
            value=best_value,
            nodes=nodes,
            depth=len(pv) if full else limit,
            elapsed=time.perf_counter() - start,
            pv=pv,
            scores=scores,
            exact=full,  # searched to every end: the value is the game's
            evals=evals,
            score_kinds=dict.fromkeys(scores, "exact"),  # every root action searched with a full window
        )
