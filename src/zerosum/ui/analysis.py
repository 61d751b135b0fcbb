"""The engine's insight for the terminal and the browser: a hint (every move's score) and an engine move.

:func:`analyze` asks the perfect solver for every column's score where it can go (Connect-X boards that fit
in 64 bits) and otherwise a time-limited alpha-beta search (Tic-Tac-Toe, Migration, big boards, or no solver
installed).  Scores keep their engine's convention -- the solver's are Pascal Pons' integers (+1 for the
empty 7 x 6 board), alpha-beta's are agent values -- and :attr:`Analysis.values` holds every one as an agent
value (``win_value(plies)`` / ``loss_value(plies)`` / heuristic) so it can be put in words the same way.

An analysis speaks for itself, so the faces need not know which engine answered: :attr:`Analysis.engine`
names it for people, :attr:`Analysis.exact` says whether its scores are proofs (:meth:`Analysis.estimate`
for one move), and :meth:`Analysis.point` is each move's short figure (the solver's own score, else the
words in short: ``W7``, ``L4``), with :attr:`Analysis.legend` saying what those figures mean.
"""

from __future__ import annotations

import time as _time
from dataclasses import dataclass, field
from typing import Any, Callable

from ..agents.base import Agent, Limits, SearchAgent, SearchResult, describe_value, is_proven, loss_value, win_value
from ..agents.registry import make_agent
from ..errors import AgentError, InvalidPositionError, InvalidSpecError
from ..game import Game
from ..values import HEURISTIC_BOUND

__all__ = ["Analysis", "EngineMove", "analyze", "live_analyze", "partial_analysis", "MOVE_TIME", "engine_move", "solver_value", "value_words",
           "load_solver", "keeps_no_clock", "solver_available"]

#: the budget of the alpha-beta search that stands in where the solver cannot go
HINT_TIME = 1.0
#: how long a hint waits for the solver (it has no time limit of its own) before alpha-beta answers instead
SOLVER_TIME = 10.0
#: who answers when the solver does, and what its figures mean
SOLVER_NAME = "the solver"
SOLVER_LEGEND = "the solver's score: + wins (the larger, the sooner), - loses, 0 draws"
SOLVER_SHORT = "+ wins (the larger, the sooner), - loses, 0 draws"
#: what the short figures of words mean (:meth:`Analysis.point`)
WORDS_LEGEND = "W n: wins in n plies, L n: loses in n plies, 0: a draw"
#: a move proven only in win/draw/loss: its words, its short figure, and what that figure means
CLASS_WORDS = {1: "wins (distance not yet known)", 0: "draw", -1: "loses (distance not yet known)"}
CLASS_POINTS = {1: "W", 0: "0", -1: "L"}
CLASS_LEGEND = "W / L: proven, distance not yet known"
#: how long an engine move may look for the exact distance once its win/draw/loss is proven (seconds)
MOVE_TIME = 1.0

_SOLVERS: dict[str, Any] = {}


def _solver_module() -> Any | None:
    """The solver's module, or None when it is not installed (no numba)."""
    try:
        from ..solver import solver as module
    except ImportError:
        return None
    return module


def solver_available(game: Game[Any, Any]) -> bool:
    """Whether the solver can answer for ``game`` (it is installed and says it takes the game)."""
    module = _solver_module()
    return module is not None and bool(module.supports(game))


def load_solver(game: Game[Any, Any]) -> Any | None:
    """A (cached) ``Solver`` for ``game``, or None when no solver is installed or it does not take the game."""
    if not solver_available(game):
        return None
    if game.spec in _SOLVERS:
        return _SOLVERS[game.spec]
    try:
        from .. import solver as solver_package

        Solver = solver_package.Solver  # the contract's public name (resolved lazily by the package)
    except (ImportError, AttributeError):
        return None
    try:
        from ..solver.parallel import default_threads

        solver = Solver(game, threads=default_threads())  # both cores, over one table, where there are two
    except InvalidSpecError:
        solver = None
    _SOLVERS[game.spec] = solver
    return solver


def solver_value(game: Game[Any, Any], state: Any, score: int) -> int:
    """A solver score (side to move's view) as an agent value (:func:`zerosum.values.score_to_value`)."""
    module = _solver_module()
    if module is None:
        raise InvalidSpecError("the solver is not installed")
    return int(module.score_value(game, state, score))


def value_words(value: float, exact: bool = False) -> str:
    """A value in words: ``wins in 7``, ``loses in 4``, ``draw`` (exact 0), ``+0.35``."""
    if not is_proven(value) and value == 0:
        return "draw" if exact else "even"
    return describe_value(value)


def _short(words: str) -> str:
    """``wins in 11`` -> ``W11``, ``loses in 4`` -> ``L4``, ``draw``/``even`` -> ``0``, others as they are."""
    head, _, plies = words.partition(" in ")
    if head in ("wins", "loses") and plies.isdigit():
        return ("W" if head == "wins" else "L") + plies
    return "0" if words in ("draw", "even") else words


@dataclass
class Analysis:
    """Every legal move's score from one engine, best first in :attr:`best` (see the module docstring)."""

    engine: str  # who answered, for people ("the solver", the alpha-beta spec), or "" when nothing could
    exact: bool = False  # every score is a proof (the engine's own word)
    scores: dict[Any, float] = field(default_factory=dict)  # in the engine's own convention
    values: dict[Any, float] = field(default_factory=dict)  # as agent values (for words)
    best: Any = None
    nodes: int = 0
    elapsed: float = 0.0
    note: str = ""
    points: dict[Any, str] = field(default_factory=dict)  # the engine's own short figure per move, if it has one
    legend: str = WORDS_LEGEND  # what the short figures (:meth:`point`) mean
    #: moves proven to win (+1), draw (0) or lose (-1) whose exact score is not known yet (a progressive
    #: analysis stopped early, :func:`live_analyze`); their value is ``±HEURISTIC_BOUND``, never a guess
    classes: dict[Any, int] = field(default_factory=dict)
    done: bool = True  # every legal move has its exact score (or the engine's own estimate)
    exact_moves: set[Any] = field(default_factory=set)  # moves scored exactly in an analysis not exact as a whole

    def words(self, action: Any) -> str:
        if action in self.classes:
            return CLASS_WORDS[self.classes[action]]
        if action not in self.values:
            return ""
        return value_words(self.values[action], self.exact or action in self.exact_moves)

    def estimate(self, action: Any) -> bool:
        """Whether ``action``'s score is a heuristic estimate rather than a proof."""
        return action in self.values and action not in self.classes and not (
            self.exact or action in self.exact_moves or is_proven(self.values[action]))

    def point(self, action: Any) -> str:
        """``action``'s short figure for a narrow slot (see :attr:`legend`): the engine's own, else its words
        in short (``W7``, ``L4``, ``0``, ``+0.35``); "" for a move without a score."""
        if action in self.points:
            return self.points[action]
        return _short(self.words(action))

    @property
    def value(self) -> float | None:
        """The position's value for the side to move (its best move's), when known."""
        return None if self.best is None or self.best not in self.values else self.values[self.best]


def _best(values: dict[Any, float], order: list[Any]) -> Any:
    """The best action; ties go to the first of ``order`` (centre-most first on boards with gravity)."""
    top = max(values.values())
    return next(a for a in order if values.get(a) == top)


def _centre_order(game: Game[Any, Any], state: Any, actions: list[Any]) -> list[Any]:
    """``actions`` centre-most first where the board has gravity (a move is a column), else as listed."""
    view = game.board_view(state)
    if not view.gravity:
        return list(actions)
    mid = (view.cols - 1) / 2
    column = {game.action_at(state, r, c): c for c in range(view.cols) for r in range(view.rows)}
    return sorted(actions, key=lambda a: (abs(column.get(a, mid) - mid), column.get(a, mid)))


def analyze(game: Game[Any, Any], state: Any, *, time: float = HINT_TIME, use_solver: bool = True) -> Analysis:
    """Score every legal move of ``state`` (see the module docstring for which engine answers)."""
    actions = game.actions(state)
    if not actions:
        raise InvalidPositionError("the game is over: there is nothing to analyse")
    start = _time.perf_counter()
    solver = load_solver(game) if use_solver else None
    if solver is not None:
        return _solved(game, state, actions, solver.analyze(state), start)
    # alpha-beta gives one value per search, so every move's position is searched, the time shared out
    spec = f"alphabeta:time={time:g}"
    try:
        per_move = make_agent(f"alphabeta:time={max(time / len(actions), 0.01):g}")
    except AgentError:
        return Analysis("", note="no search agent is installed yet, so there is no hint")
    assert isinstance(per_move, SearchAgent)
    values, exact, nodes = _child_values(game, state, actions, per_move)
    best = _best(values, _centre_order(game, state, actions))
    if not exact:
        exact = all(is_proven(v) for v in values.values())
    return Analysis(spec, exact, dict(values), dict(values), best, nodes, _time.perf_counter() - start)


def _solved(game: Game[Any, Any], state: Any, actions: list[Any], raw: Any, start: float) -> Analysis:
    """The analysis of the solver's scores ``raw`` (one per column, None for a full one)."""
    scores: dict[Any, float] = {c: int(s) for c, s in enumerate(raw) if s is not None and c in actions}
    values = {c: float(solver_value(game, state, int(s))) for c, s in scores.items()}
    points = {c: f"{int(s):+d}" if s else "0" for c, s in scores.items()}
    best = _best(values, _centre_order(game, state, actions)) if values else None
    return Analysis(SOLVER_NAME, True, scores, values, best, elapsed=_time.perf_counter() - start, points=points,
                    legend=SOLVER_LEGEND, exact_moves=set(scores))


def live_analyze(game: Game[Any, Any], state: Any, seconds: float, report: Callable[[Analysis], None] | None = None,
                 *, clock: Callable[[], float] = _time.perf_counter, time: float = HINT_TIME) -> Analysis:
    """:func:`analyze`, filling in: the solver proves each column's win/draw/loss, then its exact score, for at
    most ``seconds`` (:mod:`zerosum.solver.progressive`), and ``report`` sees the analysis so far after each
    result.  What is not proven by then is left out (``done`` False); nothing is ever guessed on a board the
    solver takes.  Other games: :func:`analyze` (alpha-beta, ``time`` seconds)."""
    solver = load_solver(game)
    if solver is None:
        return analyze(game, state, time=time, use_solver=False)
    from ..solver.progressive import Progressive

    actions = game.actions(state)
    if not actions:
        raise InvalidPositionError("the game is over: there is nothing to analyse")
    start = clock()
    run = Progressive(solver, state, clock=clock)
    found = partial_analysis(game, state, actions, run.wdl, run.exact, 0.0)
    for _ in run.events(deadline=start + seconds):
        found = partial_analysis(game, state, actions, run.wdl, run.exact, clock() - start, run.nodes)
        if report is not None:
            report(found)
    found = partial_analysis(game, state, actions, run.wdl, run.exact, clock() - start, run.nodes)
    if not found.done:
        found.note = f"not every column is proven within {seconds:g} s"
    return found


def partial_analysis(game: Game[Any, Any], state: Any, actions: list[Any], wdl: dict[int, int],
                     exact: dict[int, int], elapsed: float, nodes: int = 0) -> Analysis:
    """The analysis of what the solver has proven so far: exact scores ``exact`` and win/draw/loss ``wdl``
    (+1 / 0 / -1) by column.  Exact only when every legal column has its score."""
    found = _solved(game, state, actions, [exact.get(c) for c in range(max(actions) + 1)], _time.perf_counter())
    found.elapsed, found.nodes = elapsed, nodes
    found.classes = {c: v for c, v in wdl.items() if c in actions and c not in exact}
    for c, v in found.classes.items():
        found.values[c] = v * HEURISTIC_BOUND
        found.points[c] = CLASS_POINTS[v]
    found.scores.update(found.classes)  # a proven win/draw/loss: its sign, marked as such by ``classes``
    found.done = found.exact = all(c in exact for c in actions)
    if found.values:
        found.best = _best(found.values, _centre_order(game, state, actions))
    if not found.done:
        found.legend = f"{SOLVER_SHORT}; {CLASS_LEGEND}"
    return found


def _child_values(game: Game[Any, Any], state: Any, actions: list[Any], agent: SearchAgent) -> tuple[dict[Any, float], bool, int]:
    """Each move's value from searching the position after it (negamax, a ply added to proven values)."""
    values: dict[Any, float] = {}
    exact, nodes = True, 0
    mover = game.player(state)
    for a in actions:
        child = game.result(state, a)
        out = game.outcome(child)
        if out is not None:
            values[a] = 0 if out.winner is None else win_value(1) if out.winner == mover else loss_value(1)
            continue
        found = agent.search(game, child)
        nodes += found.nodes
        v = found.value
        if is_proven(v):
            values[a] = -v + 1 if v > 0 else -v - 1  # the child's "wins in p" is our "loses in p + 1"
        else:
            values[a] = -v
        exact = exact and found.exact  # the search's own word: a proof, or every end reached
    return values, exact, nodes


@dataclass
class EngineMove:
    """What an agent played and what it found (``found`` is None for agents that do not search)."""

    action: Any
    found: SearchResult | None
    elapsed: float
    exact: bool = False  # the value is a proof (``SearchResult.exact``: the solver, a proven value)
    #: the agent's own words for a move proven only in win/draw/loss (the solver's ``last_proof``), else ""
    proof: str = ""

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
    checks the move is legal (raises AgentError if not)."""
    start = _time.perf_counter()
    found: SearchResult | None = None
    if isinstance(agent, SearchAgent):
        found = (search or agent.search)(game, state)
        action = found.action
    else:
        action = agent(game, state)
    elapsed = _time.perf_counter() - start
    if action not in game.actions(state):
        raise AgentError(f"{agent.spec} chose {action!r}, which is not a legal move")
    exact = found is not None and found.exact
    proof = "" if exact else str(getattr(agent, "last_proof", None) or "")
    return EngineMove(action, found, found.elapsed if found is not None and found.elapsed else elapsed, exact, proof)


def keeps_no_clock(agent: Agent) -> bool:
    """Whether ``agent`` was given no budget although it honours a time budget: nothing but the agent itself
    ends its search (the solver), so a face must give it a time of its own (the server's default time:
    :func:`zerosum.ui.service.checked_agent`)."""
    return "time" in agent.LIMITS and agent.limits == Limits()
