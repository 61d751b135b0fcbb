"""Run planned games in the engine pool (:mod:`zerosum.pool`) under a hard per-move deadline.

Each game is one job of the pool, :func:`~zerosum.arena.play.run_game`, in a long-lived worker process.
The game reports every step, and :func:`play_supervised` keeps its clock: when the agent to move has not
answered by its deadline, the worker is killed (the pool starts a fresh one), the agent forfeits
(``timeout: ...``) and the next game goes on.  Under a game clock (``--tc``, :mod:`.clock`) the supervisor also
keeps both players' clocks, charging each move from its ``think`` to its ``move`` (an external engine's with
the time its own deadline measured, the ``move``'s seconds: the messages' latency is not its time): an agent
still thinking when its clock runs out is killed the same way and loses (``time forfeit: no move within the 0.50 s left on
its clock``); the time spent adjudicating
between moves (:mod:`.adjudicate`) is nobody's.  A worker that dies (a crash in native code, ``os._exit``
in an agent) forfeits the game for the agent that was thinking (``crash: ...``); one that dies while no agent
thinks (before the game began, as it started; between moves) is nobody's forfeit: the run stops with a
:class:`~zerosum.errors.GameError`, and nothing is stored for that game.  An external engine stops
itself at its deadline and its clock (:mod:`zerosum.external.agent`): the worker says so with its ``think``
(a margin, :data:`~zerosum.external.agent.KILL_MARGIN`), and the supervisor waits that much longer before
killing it, so the engine's own reason (``timeout: no bestmove within 5.5 s (stop sent after 5.33 s)``) is the
one recorded, every run.  Each agent's first move in a worker process gets ``grace`` extra seconds, for
imports and just-in-time compilation; an external engine's deadline has none (it prepares for a game at its
``isready``, before any clock runs), the grace only widens its worker's kill.  An agent that cannot be built
(it raises, or takes more than ``setup`` seconds) means the game never started: that is no result, so nothing is stored and the run stops
with a :class:`~zerosum.errors.GameError` (the games not played stay in the plan for ``--resume``); but an
external engine that runs (its handshake passed) and breaks a rule while its game is set up forfeits that
game (:func:`~zerosum.arena.play.play_game`).

:class:`LocalRunner` uses worker processes on this machine; :class:`RayRunner` runs the same supervision
on long-lived Ray actors, each one a worker (``--ray-address`` or ``RAY_ADDRESS`` for a cluster).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..errors import GameError
from ..pool import EngineCrashed, EngineFailed, EngineTimeout, Pool, RayPool
from ..spec import quoted
from .clock import TIME_FORFEIT, Clock
from .play import GameTask, run_game
from .store import GameRecord

__all__ = ["LocalRunner", "RayRunner", "make_runner", "play_supervised", "LONG_GAME"]

OnRecord = Callable[[GameTask, GameRecord], None]
ShouldStop = Callable[[], bool]
#: ``watch(task, plies)``: a game in flight has lasted ``plies`` moves, a multiple of :data:`LONG_GAME`
Watch = Callable[[GameTask, int], None]

#: every this many plies of a game in flight, ``watch`` hears of it (a game from a file or a class that never
#: ends plays on to :data:`zerosum.games.course.MAX_PLIES`: hours at a second a move)
LONG_GAME = 1_000

_RESULT = {1: "1-0", 2: "0-1", None: "1/2-1/2"}
_NO_LIMIT = float("inf")


@dataclass
class _Game:
    """What the supervisor knows of a game in flight; called with each step the game reports, it returns
    the time limit of the next step (seconds)."""

    task: GameTask
    grace: float
    setup: float
    started: float = field(default_factory=time.perf_counter)
    seat: int | None = None  # the seat setting up or thinking
    building: bool = False  # the seat's agent is being built (the game has not started)
    since: float = 0.0
    limit: float = 0.0  # seconds allowed for the current step
    margin: float = 0.0  # seconds waited beyond it before the worker is killed (an engine's own kill path)
    moves: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    nodes: list[Any] = field(default_factory=list)
    vals: list[Any] = field(default_factory=list)
    depths: list[Any] = field(default_factory=list)
    exacts: list[bool] = field(default_factory=list)
    clock: Clock | None = None  # the game clock that counts (--tc): each move from its think to its move
    spare: float = 0.0  # the grace of the current move (not charged to the clock)
    by_clock: bool = False  # the current move's limit is what its clock has left
    left: float = 0.0  # what the thinking seat's clock had left when its move began
    watch: Watch | None = None

    def __post_init__(self) -> None:
        if self.task.tc:
            self.clock = Clock(*self.task.tc)

    def __call__(self, msg: tuple[Any, ...]) -> float:
        kind = msg[0]
        if kind == "setup":
            self.seat, self.since, self.limit, self.building = msg[1], time.perf_counter(), self.setup, True
            self.margin = 0.0
        elif kind == "think":
            seat, cold = msg[1], msg[2]
            self.margin = float(msg[3]) if len(msg) > 3 else 0.0  # the engine is stopped at its deadline itself
            self.spare = self.grace if cold else 0.0
            limit = self.task.deadlines[seat - 1] + self.spare
            self.left = self.clock.left[seat] if self.clock is not None else 0.0
            self.by_clock = self.clock is not None and self.left + self.spare < limit
            if self.clock is not None and self.by_clock:
                limit = self.clock.left[seat] + self.spare  # the flag falls first: the worker is killed then
            self.seat, self.since, self.limit, self.building = seat, time.perf_counter(), limit, False
        elif kind == "move":
            _, seat, text, elapsed, nodes, value, depth, exact = msg
            took = time.perf_counter() - self.since
            if self.seat == seat and took > self.limit + self.margin:  # too late, however close (an engine's own
                # deadline judged its answer: it was killed at its deadline and cannot answer past it)
                raise _Late
            # an engine's move (a margin) is charged as its own deadline measured it, in the worker, without the
            # pipes' latency (its deadline is its limit: it has no grace); anyone else's by this wall clock
            charged = float(elapsed) if self.margin > 0 else took - self.spare
            if self.seat == seat and self.margin > 0 and charged > self.limit - self.spare:
                self.limit -= self.spare  # past its own deadline: the reason states that deadline
                raise _Late
            if self.clock is not None and self.seat == seat and not self.clock.charge(seat, charged):
                self.by_clock = True
                raise _Late
            self.seat = None
            self.moves.append(text)
            self.times.append(round(elapsed, 6))
            self.nodes.append(nodes)
            self.vals.append(value)
            self.depths.append(depth)
            self.exacts.append(exact is True)
            if self.watch is not None and len(self.moves) % LONG_GAME == 0:
                self.watch(self.task, len(self.moves))
            return _NO_LIMIT
        return self.limit + self.margin

    def record(self, winner: int | None, reason: str, forfeit: bool) -> GameRecord:
        return GameRecord(
            self.task.idx, _RESULT[winner], winner, reason, forfeit, self.moves, self.times, self.nodes,
            self.vals, self.depths, time.perf_counter() - self.started, time.time(), self.exacts,
        )

    def late(self) -> GameRecord:
        """The record of a game whose agent to move ran past its deadline or its clock."""
        if self.by_clock:  # as an engine's own deadline words it, whichever notices first
            reason = f"{TIME_FORFEIT}: no move within the {self.left:.2f} s left on its clock"
        else:
            reason = f"timeout: no move within {self.limit:g} s"
        return self.record(3 - (self.seat or 1), reason, True)

    def lost(self, exitcode: int | None) -> GameError:
        """A game whose worker process died while no agent was thinking: no agent's doing, so no result."""
        when = "between moves, while no agent was thinking" if self.moves else "before the game began"
        return GameError(f"game {self.task.idx + 1} could not be played: its worker process died {when} (exit code "
                         f"{exitcode}; nothing was stored for it: carry on with --resume)")

    def unstarted(self, why: str) -> GameError:
        """A game whose agent could not be built: no result, so the run stops and stores nothing for it.  When
        the system refused it a thread or a process (a process limit, too little memory: ``why`` says so), the
        advice is fewer games at once, not a fix of the agent."""
        from ..external.process import is_refusal

        spec = self.task.first if self.seat == 1 else self.task.second
        then = "play fewer games at once (--jobs) or raise the limit" if is_refusal(why) else "fix the agent"
        return GameError(f"game {self.task.idx + 1} could not start: agent {spec!r}: {why} "
                         f"(nothing was stored for it: {then}, then carry on with --resume)")


class _Late(Exception):
    """A move that arrived after its deadline (the worker is killed like a timeout)."""


def play_supervised(pool: Any, task: GameTask, grace: float = 30.0, setup: float = 120.0,
                    watch: Watch | None = None) -> GameRecord:
    """Play ``task`` in a worker of ``pool`` under its clock; its record (forfeits included).  ``watch`` hears
    of the game every :data:`LONG_GAME` plies (called in the supervising thread)."""
    g = _Game(task, grace, setup, watch=watch)
    try:
        final = pool.run(run_game, (task,), None, g)
    except (EngineTimeout, _Late):
        if g.building:
            raise g.unstarted(f"no agent within {g.limit:g} s") from None
        return g.late()
    except EngineCrashed as exc:
        if g.building:
            raise g.unstarted(f"its process died while building it (exit code {exc.exitcode})") from None
        if g.seat is None:  # the worker failed, not a player
            raise g.lost(exc.exitcode) from None
        return g.record(3 - g.seat, f"crash: the agent's process died (exit code {exc.exitcode})", True)
    except EngineFailed as exc:
        raise GameError(f"game {task.idx + 1} could not be played: {exc}") from None
    if final[0] == "unstarted":
        g.seat = final[1]
        raise g.unstarted(final[2])
    _, winner, reason, forfeit = final
    return g.record(winner, reason, forfeit)


class LocalRunner:
    """Plays games in ``jobs`` worker processes of the engine pool on this machine."""

    def __init__(self, jobs: int | None = None, grace: float = 30.0, setup: float = 120.0) -> None:
        import os

        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.grace = grace
        self.setup = setup  # seconds allowed to build an agent

    def run(self, tasks: Iterable[GameTask], on_record: OnRecord, stop: ShouldStop = lambda: False,
            watch: Watch | None = None) -> bool:
        """Play every task unless ``stop()`` turns true; returns False when stopped early.

        ``on_record`` is called in this thread, in finishing order, once per finished game; ``watch`` (from the
        games' threads) every :data:`LONG_GAME` plies of a game in flight.  A thread the system refuses the pool
        (a process limit counts threads; ``ulimit -v``) stops the run with a GameError saying so: every game
        played is stored, and ``--resume`` carries on.
        """
        todo = list(tasks)
        if not todo:
            return True
        try:  # no memory bound: the command line may give an agent a large table on purpose
            with Pool(min(self.jobs, len(todo)), wait=None, memory_limit=None, rss_limit=None, quiet=True) as pool:
                return pool.each(functools.partial(play_supervised, grace=self.grace, setup=self.setup, watch=watch),
                                 todo, on_record, stop)
        except RuntimeError as exc:  # can't start new thread: the pool's own (a process limit, ulimit -v)
            from ..external.process import is_refusal

            if not is_refusal(str(exc)):
                raise
            raise GameError(f"the games cannot go on: the system refused a new thread ({exc}): too many processes "
                            f"or threads, or too little memory: play fewer games at once (--jobs) or raise the limit "
                            f"(ulimit -u, ulimit -v), then carry on with --resume (every game played is stored)") \
                from None


class RayRunner:
    """Plays games on ``jobs`` long-lived Ray actors (default: the cluster's CPUs), each playing its games in
    its own process (supervised from here; killed and replaced when a job overruns); ``address`` names a running cluster (else ``$RAY_ADDRESS``, else a local one)."""

    def __init__(self, jobs: int | None = None, grace: float = 30.0, address: str | None = None,
                 setup: float = 120.0) -> None:
        self.pool = RayPool(jobs, address, memory_limit=None, rss_limit=None, quiet=True)
        self.jobs = self.pool.size
        self.grace, self.setup = grace, setup

    def run(self, tasks: Iterable[GameTask], on_record: OnRecord, stop: ShouldStop = lambda: False,
            watch: Watch | None = None) -> bool:
        return self.pool.each(functools.partial(play_supervised, grace=self.grace, setup=self.setup, watch=watch),
                              tasks, on_record, stop)


def make_runner(backend: str, jobs: int | None, grace: float, address: str | None = None) -> LocalRunner | RayRunner:
    if backend == "local":
        return LocalRunner(jobs, grace)
    if backend == "ray":
        return RayRunner(jobs, grace, address)
    raise GameError(f"unknown backend {quoted(backend)}: choose local or ray")
