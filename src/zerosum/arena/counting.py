"""Node limits a contest can trust: what a plain player function's move costs, counted or bounded.

A search agent keeps its own node budget (``alphabeta:nodes=N``) and reports the nodes it searched.  A plain
player function (``f(game, state)``, or the homework's ``player(board)``, :mod:`zerosum.agents.homework`)
cannot be asked to, so the arena measures its moves itself, each move afresh, with a :class:`Meter`:

**A declared search function.**  An agent file that names its search function (``NODES_COUNTED_BY =
"minMax"``) has the calls of that function counted: every global binding of it is replaced by a counting
wrapper, so the recursion's own calls count.  That is the homework's rule ("the number of calls to
``minMax``"), and with a declaration it is the only thing counted.  Under a node limit N, the first N calls
are nodes; a call beyond the N-th is allowed only as the homework's pseudo-code makes it, returning at once:
the call made while such a call is running (the search going on past the limit) raises
:class:`NodeLimitExceeded` and the game is forfeited, ``node limit: ...``.  The move's nodes are the calls,
at most N.

**Any zerosum game object.**  Without a declaration, under a node limit, the states the function expands
through any zerosum :class:`~zerosum.game.Game` are counted: the game it is handed, and any other it builds
(``get_game(game.spec)``, ``ConnectX(8, 8)``, a subclass of its own).  ``result`` counts one state,
``states_of(actions)`` one per action, ``place`` one; a call made inside a counted call (a subclass's
``super().result``) is not counted again.  Nothing else counts (``actions``, ``outcome``, the evaluations, boards
built from nothing).  The call that would pass the limit raises :class:`NodeLimitExceeded` before anything is
computed; catching it does not help (every later counted call raises again, and the move is forfeited even
when the function answers).

**Nothing to count.**  A function that searches on a board of its own (a numpy array) expands no zerosum
state, so a move of an undeclared function with no counted state is recorded as *not counted* (its nodes
None, never 0), and every move of an undeclared function under a node limit runs under a CPU-time limit
(:func:`cpu_limit`, the run's ``--move-cpu``, by default :func:`default_move_cpu` of the node limit):
the process CPU time of the move, measured in the worker, is bounded by a profiling timer; past it the
function is interrupted and the game forfeited, ``cpu time limit: ...``.
"""

from __future__ import annotations

import contextlib
import functools
import signal
import threading
import time
from typing import Any, Callable, Iterator

from ..errors import AgentError

__all__ = ["Meter", "NodeLimitExceeded", "CpuTimeExceeded", "node_limit_reason", "cpu_limit_reason",
           "metered", "install_counter", "cpu_limit", "default_move_cpu", "CPU_PER_NODE", "MIN_MOVE_CPU",
           "MAX_MOVE_CPU", "NOT_COUNTED"]

#: the default CPU time of a move per node of the node limit (a pure-Python search on a numpy board, with
#: the homework's evaluation, spends 0.1-0.5 ms a node): ``--nodes 10000`` allows 10 s of CPU a move
CPU_PER_NODE = 0.001
#: the least default CPU time of a move, seconds
MIN_MOVE_CPU = 1.0
#: the longest CPU time of a move (``--move-cpu``, ``zerosum.match(move_cpu=)``), seconds
MAX_MOVE_CPU = 3600.0
#: how the results name the nodes of a move nothing could count
NOT_COUNTED = "not counted"


class NodeLimitExceeded(AgentError):
    """Raised inside a player function at the counted call that goes beyond its node limit."""


class CpuTimeExceeded(AgentError):
    """Raised inside a player function whose move passed its CPU-time limit."""


def node_limit_reason(limit: int) -> str:
    """The reason stored for a game forfeited over the node limit (its kind, before the colon: ``node limit``)."""
    return f"node limit: more than {limit:,} states expanded in one move"


def cpu_limit_reason(seconds: float) -> str:
    """The reason stored for a game forfeited over the CPU-time limit (kind ``cpu time limit``)."""
    return f"cpu time limit: more than {seconds:g} s of CPU time in one move (its nodes are not counted)"


def default_move_cpu(nodes: int) -> float:
    """The CPU seconds a move may take under ``--nodes`` when its nodes cannot be counted: ``nodes`` x
    :data:`CPU_PER_NODE`, at least :data:`MIN_MOVE_CPU`."""
    return max(MIN_MOVE_CPU, round(nodes * CPU_PER_NODE, 3))


class Meter:
    """One player's count: ``limit`` (None: count without a limit), ``declared`` (its search function's calls
    are counted, not game objects)."""

    def __init__(self, limit: int | None, declared: bool) -> None:
        self.limit, self.declared = limit, declared
        self.count = 0
        self.exceeded = False
        self._over = 0  # calls beyond the limit now running
        self._inside = False  # within a counted game call

    def start_move(self) -> None:
        """A new move: the count starts again from zero."""
        self.count, self.exceeded, self._over, self._inside = 0, False, 0, False

    def _refuse(self) -> None:
        self.exceeded = True
        raise NodeLimitExceeded(f"{node_limit_reason(self.limit or 0)} (the contest's --nodes)")

    def spend(self, n: int) -> None:
        """``n`` states expanded through a game object."""
        if self.exceeded or (self.limit is not None and self.count + n > self.limit):
            self._refuse()
        self.count += n

    def nodes(self) -> int | None:
        """The move's nodes as stored: the count, or None (not counted) for an undeclared function that
        expanded no zerosum state."""
        return self.count if self.declared or self.count else None

    # ---- the declared function's calls -----------------------------------------------------------------

    def call(self, function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self.exceeded or self._over:  # the search goes on past the limit
            self._refuse()
        if self.limit is not None and self.count >= self.limit:  # beyond: allowed only as a call that returns at once
            self._over += 1
            try:
                return function(*args, **kwargs)
            finally:
                self._over -= 1
        self.count += 1
        return function(*args, **kwargs)


#: the meter of the move each thread is playing (a worker plays in one thread; a notebook may run more)
_ACTIVE: dict[int, Meter] = {}


def _meter() -> Meter | None:
    return _ACTIVE.get(threading.get_ident()) if _ACTIVE else None


def install_counter(declared: Any) -> None:
    """Replace the declared search function (:class:`zerosum.agents.homework.Declared`) by a wrapper that
    counts its calls for the meter of the move being played (and calls it as it is outside a metered move)."""
    original = declared.function
    if getattr(original, "__zerosum_counted__", False):
        return

    @functools.wraps(original)
    def counted(*args: Any, **kwargs: Any) -> Any:
        meter = _meter()
        if meter is None:
            return original(*args, **kwargs)
        return meter.call(original, args, kwargs)

    counted.__zerosum_counted__ = True  # type: ignore[attr-defined]
    for space in declared.namespaces:
        if space.get(declared.name) is original:
            space[declared.name] = counted


# ---- counting through every game object ----------------------------------------------------------------

_COUNTED = ("result", "states_of", "place")  # the game methods that make a new state from a given one


def _game_classes() -> list[type]:
    from ..game import Game

    found: list[type] = []
    todo: list[type] = [Game]
    while todo:
        sub: type
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.append(sub)
                todo.append(sub)
    return found


def _counting(original: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``original`` (a game class's method ``name``), counting for the active meter."""

    def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        meter = _meter()
        if meter is None or meter._inside:
            return original(self, *args, **kwargs)
        n = 1
        if name == "states_of":  # one state per action (a generator is read once, here)
            if args:
                args = (list(args[0]), *args[1:])
                n = len(args[0])
            elif "actions" in kwargs:
                kwargs["actions"] = list(kwargs["actions"])
                n = len(kwargs["actions"])
        meter.spend(n)
        meter._inside = True
        try:
            return original(self, *args, **kwargs)
        finally:
            meter._inside = False

    return functools.wraps(original)(counted)


_PATCH_LOCK = threading.Lock()
_patched: list[tuple[type, str, Any]] = []  # (class, method name, its own function) while any move counts games
_counting_moves = [0]  # metered moves now counting game objects (in any thread)


def _patch_games() -> None:
    """The first metered move in: every zerosum game class's ``result``, ``states_of`` and ``place`` count
    for the meter of the calling thread (and call through for every other thread)."""
    with _PATCH_LOCK:
        _counting_moves[0] += 1
        if _counting_moves[0] > 1:
            return
        for cls in _game_classes():
            for name in _COUNTED:
                original = cls.__dict__.get(name)
                if callable(original) and not isinstance(original, type):  # plain functions, not static ones
                    _patched.append((cls, name, original))
                    setattr(cls, name, _counting(original, name))


def _unpatch_games() -> None:
    """The last metered move out: every game class as it was."""
    with _PATCH_LOCK:
        _counting_moves[0] -= 1
        if _counting_moves[0]:
            return
        while _patched:
            cls, name, original = _patched.pop()
            setattr(cls, name, original)


@contextlib.contextmanager
def metered(meter: Meter) -> Iterator[Meter]:
    """One move of the player ``meter`` counts, in this thread: its declared function's calls, else the
    states it expands through any zerosum game object."""
    meter.start_move()
    me = threading.get_ident()
    _ACTIVE[me] = meter
    games = not meter.declared
    try:
        if games:
            _patch_games()
        yield meter
    finally:
        if games:
            _unpatch_games()
        _ACTIVE.pop(me, None)


# ---- the CPU-time limit ------------------------------------------------------------------------------------


class CpuGuard:
    """What :func:`cpu_limit` measured: ``used`` CPU seconds, ``exceeded`` the limit."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.used = 0.0
        self.fired = False

    @property
    def exceeded(self) -> bool:
        return self.fired or self.used > self.seconds


@contextlib.contextmanager
def cpu_limit(seconds: float) -> Iterator[CpuGuard]:
    """Within: at most ``seconds`` of this process's CPU time (user + system, ``time.process_time``).

    In the main thread a profiling timer (``ITIMER_PROF``) interrupts the function when it passes the limit
    (and every 50 ms of CPU after, should it catch the exception); elsewhere (a thread) the time is measured
    and the move judged when it ends.  Either way ``guard.exceeded`` tells, after the block."""
    guard = CpuGuard(seconds)
    timer = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    previous: Any = None

    def interrupt(signum: int, frame: Any) -> None:
        guard.fired = True
        raise CpuTimeExceeded(cpu_limit_reason(seconds))

    start = time.process_time()
    if timer:
        previous = signal.signal(signal.SIGPROF, interrupt)
        signal.setitimer(signal.ITIMER_PROF, seconds, 0.05)
    try:
        yield guard
    finally:
        if timer:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
        guard.used = time.process_time() - start
