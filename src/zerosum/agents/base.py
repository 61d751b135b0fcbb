"""Agents: the calling convention, search budgets, search results, and spec strings.

An agent is called the way the classic course code calls a player: ``agent(game, state) -> action``.  Agents
that search also offer ``agent.search(game, state) -> SearchResult``.  Budgets are one small value,
:class:`Limits`; each agent documents which fields it honours and never exceeds a node or simulation budget.

Every numeric option has a documented range (the ``MAX_*`` constants below, named in each option's help);
:class:`Limits` built from Python is checked against the same ranges.  :func:`kernels` loads the numba
kernels of :mod:`zerosum.agents.kernels` on first use, or answers None when numba is missing: the agents then
search in pure Python.  :meth:`Agent.warm_up` loads (or compiles) them before a clock starts.

Values are from the side to move's view; their algebra (``WIN``, ``win_value``, ``is_proven``, ...) lives in
:mod:`zerosum.values` and their words in :mod:`zerosum.core.words`, re-exported here.  What an agent declares
about itself (its label, whether its search can be traced, the unit of its values, what the server may ask
of it) is its ``TRAITS`` (:mod:`zerosum.agents.traits`); :func:`server_options` derives the server's option
ranges from the agent's own.
"""

from __future__ import annotations

import numbers
from types import ModuleType
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, fields
from typing import Any, Callable, ClassVar, Protocol

from ..core.checks import check_flag, check_whole, safe_repr
from ..core.words import class_words, describe_value
from ..errors import AgentError, InvalidSpecError
from ..game import Game
from ..spec import between, quoted
from ..values import HEURISTIC_BOUND, WIN, is_proven, loss_value, plies_to_end, win_value
from .described import Made, call, label
from .positions import course_entry, taking_positions
from .traits import AgentTraits

__all__ = [
    "Agent", "SearchAgent", "Limits", "SearchResult", "Tracer", "Option", "AgentTraits", "server_options", "WIN",
    "HEURISTIC_BOUND", "win_value", "loss_value", "is_proven", "plies_to_end", "describe_value", "kernels", "bounded",
    "flag", "check_range", "check_search", "check_game", "check_agent", "MAX_DEPTH", "MAX_NODES", "MAX_SIMULATIONS",
    "MAX_TIME", "MAX_SEED",
]

#: the documented maxima of the budget options (spec options and ``Limits`` built from Python alike)
MAX_DEPTH = 10_000  # plies: more than any supported game lasts (64 x 64 Connect-X has 4,096 cells)
MAX_NODES = 10**9
MAX_SIMULATIONS = 10**9
MAX_TIME = 3600.0  # seconds per move
MAX_SEED = 2**63 - 1

@dataclass(frozen=True, kw_only=True, slots=True)
class Limits:
    """A search budget; every field is optional.  ``time`` is in seconds per move."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    simulations: int | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            lo, hi, expect = _LIMIT_RANGES[f.name]
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise AgentError(f"Limits({f.name}={quoted(value)}): expected {expect}")
            if f.name != "time" and not isinstance(value, int):
                raise AgentError(f"Limits({f.name}={quoted(value)}): expected {expect}")
            if not (lo < value <= hi if f.name == "time" else lo <= value <= hi):  # False for nan
                raise AgentError(f"Limits({f.name}={quoted(value)}) is out of range: expected {expect}")

    def __repr__(self) -> str:
        parts = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self) if getattr(self, f.name) is not None]
        return f"Limits({', '.join(parts)})"

    def replace(self, **changes: Any) -> "Limits":
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return Limits(**values)


@dataclass(frozen=True, kw_only=True)
class SearchResult:
    """What a search found: the move, its value (side to move's view), and how hard it looked.

    ``exact``: the value is the game-theoretic one (a solver's answer, a proven win or loss, a search that
    reached every end); a proven value is always exact.  ``outcome``: a win (+1) or loss (-1) proven without
    its distance (value ``+/-HEURISTIC_BOUND``, not exact: ``win (distance not yet proven)``), else None.
    """

    action: Any
    value: float = 0
    nodes: int = 0
    depth: int = 0
    elapsed: float = 0.0
    pv: tuple[Any, ...] = ()
    #: one value per root action, from the root's side to move's view (alpha-beta: exact for the best
    #: move, a bound for a refuted one; MCTS: the mean reward)
    scores: dict[Any, float] = field(default_factory=dict)
    exact: bool = False
    #: evaluation calls made by the search (0 for a search that evaluates nothing, and on the numba paths,
    #: which do not count them)
    evals: int = 0
    #: which root scores are bounds: action -> ``"exact"`` (the move's searched value, or MCTS's mean),
    #: ``"upper"`` (at most: alpha-beta's refuted moves) or ``"lower"`` (at least); :mod:`.kinds`
    score_kinds: dict[Any, str] = field(default_factory=dict)
    #: figures not reported (``"nodes"``, ``"value"``, ``"depth"``: an external engine's): 0 here, None in records
    unknown: tuple[str, ...] = ()
    outcome: int | None = None

    def __post_init__(self) -> None:
        if self.outcome is not None and (type(self.outcome) is not int or self.outcome not in (1, -1)):
            raise AgentError(f"SearchResult: outcome is 1 (a win), -1 (a loss) or None, not {safe_repr(self.outcome)}")
        if isinstance(self.value, bool) or not isinstance(self.value, numbers.Real):
            raise AgentError(f"SearchResult: value is a number (the side to move's view), not {safe_repr(self.value)}")
        check_flag(self.exact, "SearchResult: exact", AgentError)
        if not self.exact and is_proven(self.value):
            object.__setattr__(self, "exact", True)

    @property
    def proven(self) -> bool:
        return is_proven(self.value)

    def describe(self) -> str:
        """The value in words (:func:`zerosum.core.words.describe_value`): ``win in 4 moves``, ``draw``,
        ``+0.35 est.``; ``win (distance not yet proven)`` for an ``outcome``; ``no value`` for a search that
        claims none (``"value"`` in :attr:`unknown`: an MCTS move made before any simulation)."""
        if "value" in self.unknown and self.outcome is None and not self.exact:
            return "no value"
        return class_words(self.outcome) if self.outcome is not None and not self.exact else describe_value(
            self.value, self.exact)


class Tracer(Protocol):
    """What a traced search reports (``search(game, state, tracer=...)``; :mod:`zerosum.trace` builds trees).

    A traced search takes its generic (Game-protocol) path; without a tracer the cost is one ``is not None``
    test per node.  Every ``enter`` of a finished search has one ``leave`` (an iteration abandoned by a
    node budget or a deadline leaves its open nodes unleft).
    """

    def enter(self, state: Any, action: Any, depth: int, alpha: float | None, beta: float | None) -> None:
        """A node is entered (the root: action None, depth 0); ``alpha``/``beta``: the window on entry
        (None for minimax, which has no window)."""

    def leave(self, value: float, cutoff: str | None = None, evals: int = 0) -> None:
        """The node entered last and not yet left is left with its value (side to move's view there);
        ``cutoff``: None, ``"beta"`` (a fail-high), ``"table"`` (answered by the transposition table),
        ``"depth"`` (evaluated at the depth limit) or ``"terminal"``; ``evals``: evaluations at this node."""

    def mcts(self, parent: Any, action: Any, state: Any, visits: int, total: float) -> Any:
        """After an MCTS search, one call per tree node, parents first (the root: parent None); the handle
        returned is passed as ``parent`` for the node's children.  ``total``: the sum of rewards for the
        player who moved into the node."""


@dataclass(frozen=True)
class Option:
    """One spec option an agent accepts: converter, help text, and an optional range check (``lo..hi`` when
    it is a range: :func:`server_options` reads it)."""

    kind: Callable[[str], Any]
    help: str
    check: Callable[[Any], bool] | None = None
    expect: str = ""
    lo: float | None = None
    hi: float | None = None


def flag(text: str) -> bool:
    """A yes/no option: 1/true/yes/on or 0/false/no/off."""
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def bounded(kind: Callable[[str], Any], text: str, lo: float, hi: float) -> Option:
    """An option whose value must lie in ``lo..hi``; the range is named in its help and its error."""
    what = "a whole number" if kind is int else "a number"
    return Option(kind, f"{text} ({lo:g}..{hi:g})" if kind is not int else f"{text} ({lo}..{hi})", between(lo, hi),
                  f"{what} in {lo:g}..{hi:g}" if kind is not int else f"{what} in {lo}..{hi}", lo, hi)


def check_range(owner: str, name: str, value: Any, lo: float, hi: float, *, whole: bool = True) -> Any:
    """``value`` if it is a number in ``lo..hi`` (a whole one when ``whole``), else one AgentError line.

    For options given from Python (constructor arguments), which do not pass through :func:`convert`.
    """
    ok = not isinstance(value, bool) and isinstance(value, int if whole else (int, float))
    what = "a whole number" if whole else "a number"
    if not ok:  # 2.5, '3', True: no number of the kind, whatever its size
        raise AgentError(f"{owner}: {name}={quoted(value)} is not {what}: expected {what} in {lo}..{hi}")
    if not lo <= value <= hi:
        raise AgentError(f"{owner}: {name}={quoted(value)} is out of range: expected {what} in {lo}..{hi}")
    return value


def check_agent(owner: str, limits: Any, seed: Any) -> None:
    """An agent's ``limits`` (None or a :class:`Limits`) and ``seed`` (None or a whole number 0..MAX_SEED),
    checked where an agent is made: one AgentError line naming the one that is wrong."""
    if limits is not None and not isinstance(limits, Limits):
        raise AgentError(f"{owner}: limits are a zerosum.Limits such as Limits(depth=4), not {safe_repr(limits)}")
    if seed is not None:
        check_whole(seed, f"{owner}: seed", 0, MAX_SEED, AgentError)


def check_search(owner: str, game: Any, state: Any, tracer: Any = None,
                 calls: tuple[str, ...] = ("enter", "leave")) -> None:
    """What an agent is handed, checked once where its move or search starts (never inside the search):
    ``game`` a zerosum :class:`~zerosum.game.Game`, ``state`` one of its positions
    (:meth:`~zerosum.game.Game.check_state`), ``tracer`` None or an object with the :class:`Tracer`'s
    methods that this search ``calls`` (a student's tracer for minimax needs only ``enter`` and ``leave``;
    MCTS calls ``mcts``).  One :class:`~zerosum.errors.GameError` line naming what is wrong."""
    check_game(owner, game).check_state(state)
    if tracer is not None and not all(callable(getattr(tracer, name, None)) for name in calls):
        raise AgentError(f"{owner}: a tracer has the methods {' and '.join(calls)} (zerosum.trace.Recorder), "
                         f"not {safe_repr(tracer)}")


def check_game(owner: str, game: Any) -> Game[Any, Any]:
    """``game`` when it is a zerosum :class:`~zerosum.game.Game`; else one InvalidSpecError line."""
    if not isinstance(game, Game):
        raise InvalidSpecError(f"{owner}: the game is a zerosum Game such as zerosum.get_game('connect4'), "
                               f"not {safe_repr(game)}")
    return game


#: (low, high, what is expected) of each ``Limits`` field; time is above its low end, the others from it
_LIMIT_RANGES: dict[str, tuple[float, float, str]] = {
    "depth": (0, MAX_DEPTH, f"a whole number in 0..{MAX_DEPTH}"),
    "nodes": (1, MAX_NODES, f"a whole number in 1..{MAX_NODES}"),
    "time": (0.0, MAX_TIME, f"a number of seconds above 0 and at most {MAX_TIME:g}"),
    "simulations": (1, MAX_SIMULATIONS, f"a whole number in 1..{MAX_SIMULATIONS}"),
}


def _limit_option(kind: Callable[[str], Any], text: str, name: str) -> Option:
    lo, hi, expect = _LIMIT_RANGES[name]
    check = (lambda v: lo < v <= hi) if name == "time" else between(lo, hi)
    return Option(kind, f"{text}: {expect}", check, expect, lo, hi)


#: the budget options every agent may accept, mapped to ``Limits`` fields
LIMIT_OPTIONS: dict[str, tuple[str, Option]] = {
    "depth": ("depth", _limit_option(int, "search depth in plies", "depth")),
    "nodes": ("nodes", _limit_option(int, "node budget per move", "nodes")),
    "time": ("time", _limit_option(float, "seconds per move", "time")),
    "sims": ("simulations", _limit_option(int, "simulations per move", "simulations")),
}
SEED_OPTION = bounded(int, "random seed (reproducible play)", 0, MAX_SEED)

#: the server's kinds of number (:func:`server_options`)
INT, REAL = "int", "real"


def server_options(cls: "type[Agent]", caps: dict[str, tuple[float, float]] | None = None
                   ) -> dict[str, tuple[str, float, float] | None] | None:
    """What the server lets a person ask of agent class ``cls``: option -> (``"int"`` or ``"real"``, lowest,
    highest), or None for an option the agent checks itself (a flag, a name); None when the server does not
    offer the agent at all (``TRAITS.server`` is None).

    Derived from the agent's own options (its budget options, its ``OPTIONS``, ``seed``), each range narrowed
    by the server-wide ``caps`` and the agent's own ``TRAITS.server.caps``; ``TRAITS.server.refuses`` are left
    out.  Options without a range of their own take the caps' range when there is one.
    """
    served = cls.TRAITS.server
    if served is None:
        return None
    own = {key: opt for key, (field_name, opt) in LIMIT_OPTIONS.items() if field_name in cls.LIMITS}
    own.update(cls.OPTIONS)
    own["seed"] = SEED_OPTION
    out: dict[str, tuple[str, float, float] | None] = {}
    for key, opt in own.items():
        if key in served.refuses:
            continue
        kind = INT if opt.kind is int else REAL if opt.kind is float else None
        ranges = [r for r in ((caps or {}).get(key), served.caps.get(key)) if r is not None]
        if opt.lo is not None and opt.hi is not None:
            ranges.append((opt.lo, opt.hi))
        if kind is None or not ranges:
            out[key] = None
            continue
        out[key] = (kind, max(lo for lo, _ in ranges), min(hi for _, hi in ranges))
    return out


class Agent(ABC, metaclass=Made):
    """Base class: ``agent(game, state) -> action``.

    Subclasses set ``name``, the budget fields they honour in ``LIMITS`` (names of ``Limits`` fields) and
    their own spec options in ``OPTIONS``; :func:`make_agent` builds them from spec strings.  ``spec``: the
    spec string that made it, else (made from its class) the arguments it was made with in the spec's form
    (:mod:`.described`).
    """

    name: ClassVar[str] = "agent"
    description: ClassVar[str] = ""
    LIMITS: ClassVar[tuple[str, ...]] = ()
    OPTIONS: ClassVar[dict[str, Option]] = {}
    #: what the agent declares about itself for the faces (:mod:`zerosum.agents.traits`)
    TRAITS: ClassVar[AgentTraits] = AgentTraits()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)  # __call__ and search take a course game object too, and __call__
        for name in set(cls.__dict__) & {"__call__", "search"}:  # a move string or a list of moves (search: below)
            own = cls.__dict__[name]
            setattr(cls, name, course_entry(taking_positions(own) if name == "__call__" else own))

    def __init__(self, *, limits: Limits | None = None, seed: int | None = None) -> None:
        check_agent(self.name, limits, seed)
        self.limits = limits if limits is not None else Limits()
        self.seed = seed

    @property
    def spec(self) -> str:
        """The spec string that made it, else ``name`` with its arguments (:func:`.described.label`)."""
        given = vars(self).get("_spec")
        return str(given) if given is not None else label(self.name, vars(self).get("_made_with", {}))

    @spec.setter
    def spec(self, value: str) -> None:
        vars(self)["_spec"] = value

    @abstractmethod
    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        """Choose an action for the side to move; never changes ``state``."""

    def reset(self) -> None:
        """Forget anything learned during a game (called before a new game)."""

    def use_cores(self, cores: int) -> None:
        """Let the agent search on up to ``cores`` cores when its spec did not say how many.

        Agents search on one core unless told otherwise, so matches stay fair (one core an engine, as
        engine testers run them); the faces (``zerosum play``, the server) offer the machine's cores through
        this.  Agents that search on one core only ignore it.
        """

    def warm_up(self, game: Game[Any, Any]) -> None:
        """Load (or compile) whatever compiled code searching ``game`` needs, so that no clock pays for it.

        Call it before a game's clock starts (after the first time in a process it costs nothing).  A search
        loads what it needs itself: first, without a time limit; within its time limit otherwise, searching
        without compiled code that is not loaded in time (:mod:`zerosum.agents.prepare`).
        """

    def needs_budget(self) -> tuple[str, ...]:
        """The budget options (``depth``, ``nodes``) of which this agent, as configured, needs one to stop by
        itself; () when it keeps its own clock or has a budget (the faces refuse a search only a hard limit
        would end: the textbook alpha-beta ignores ``time``)."""
        return ()

    def __repr__(self) -> str:
        made = vars(self).get("_spec") is None  # made from its class: the call that made it
        return call(type(self), vars(self).get("_made_with", {})) if made else f"make_agent({self.spec!r})"


class SearchAgent(Agent):
    """An agent that searches: ``search`` returns a :class:`SearchResult`, calling returns its action.

    ``search(game, state)`` takes the position as a state, a move string (``"4453"``) or a list of actions
    (``[3, 3, 4, 2]``), alike (:mod:`zerosum.agents.positions`): every subclass's ``search`` is wrapped, where
    the class is made, so that it is handed a state.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        own = cls.__dict__.get("search")
        if own is not None and not getattr(own, "__isabstractmethod__", False):
            setattr(cls, "search", taking_positions(own))
        super().__init_subclass__(**kwargs)  # after: what Agent wraps around search is called first

    @abstractmethod
    def search(self, game: Game[Any, Any], state: Any, tracer: Tracer | None = None) -> SearchResult:
        """Search ``state`` within this agent's limits, reporting to ``tracer`` when one is given."""

    def __call__(self, game: Game[Any, Any], state: Any) -> Any:
        return self.search(game, state).action


# ---- the numba kernels, loaded on first use ---------------------------------------------------------

_KERNELS: list[ModuleType | None] = []  # empty: not tried yet


def kernels() -> ModuleType | None:
    """:mod:`zerosum.agents.kernels` (importing numba), or None when numba cannot be imported.

    Tried once per process; without numba every agent takes its pure-Python path.
    """
    if not _KERNELS:
        try:
            from . import kernels as package
        except ImportError:  # numba (or a compatible numpy) is missing
            _KERNELS.append(None)
        else:
            _KERNELS.append(package)
    return _KERNELS[0]
