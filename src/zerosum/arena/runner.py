"""Run planned games in worker processes under a hard per-move deadline.

:class:`LocalRunner` keeps ``jobs`` worker processes (started with ``spawn``, safe with numba and threads),
hands each a game, and watches the clock: when the agent to move has not answered by its deadline, the
worker is killed, the agent forfeits (``timeout: ...``) and a fresh worker takes the next game.  A worker
that dies (a crash in native code, ``os._exit`` in an agent) forfeits the game for the agent that was
thinking (``crash: ...``).  Each agent's first move in a new worker gets ``grace`` extra seconds, for
imports and just-in-time compilation.  An agent that cannot be built (it raises, or takes more than
``setup`` seconds) means the game never started: that is no result, so nothing is stored and the run
stops with a :class:`~zerosum.errors.GameError` (the games not played stay in the plan for ``--resume``).

:class:`RayRunner` runs each game as a Ray task that itself supervises one local worker the same way.
"""

from __future__ import annotations

import collections
import multiprocessing
import os
import time
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any, Callable, Iterable

from ..errors import GameError
from .play import GameTask, worker_main
from .store import GameRecord

__all__ = ["LocalRunner", "RayRunner", "make_runner"]

OnRecord = Callable[[GameTask, GameRecord], None]
ShouldStop = Callable[[], bool]

_RESULT = {1: "1-0", 2: "0-1", None: "1/2-1/2"}


@dataclass
class _Game:
    """What the supervisor knows of a game in flight."""

    task: GameTask
    started: float = field(default_factory=time.perf_counter)
    seat: int | None = None  # the seat setting up or thinking
    building: bool = False  # the seat's agent is being built (the game has not started)
    since: float = 0.0
    limit: float = 0.0  # seconds allowed for the current step
    moves: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    nodes: list[Any] = field(default_factory=list)
    vals: list[Any] = field(default_factory=list)
    depths: list[Any] = field(default_factory=list)

    def record(self, winner: int | None, reason: str, forfeit: bool) -> GameRecord:
        return GameRecord(
            self.task.idx, _RESULT[winner], winner, reason, forfeit, self.moves, self.times, self.nodes,
            self.vals, self.depths, time.perf_counter() - self.started, time.time(),
        )


def _unstarted(g: _Game, why: str) -> None:
    """A game whose agent could not be built: no result, so the run stops and stores nothing for it."""
    spec = g.task.first if g.seat == 1 else g.task.second
    raise GameError(f"game {g.task.idx} could not start: agent {spec!r}: {why} "
                    f"(nothing was stored for it: fix the agent, then carry on with --resume)")


class _Worker:
    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=worker_main, args=(child, os.getpid()), daemon=True)
        self.process.start()
        child.close()
        self.warm: set[str] = set()  # agent specs that already moved in this process
        self.game: _Game | None = None

    def kill(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except OSError:
            pass
        self.process.join(2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(2)
        self.conn.close()


class LocalRunner:
    """Plays games in ``jobs`` worker processes on this machine."""

    def __init__(self, jobs: int | None = None, grace: float = 30.0, setup: float = 120.0) -> None:
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.grace = grace
        self.setup = setup  # seconds allowed to build an agent
        self.ctx = multiprocessing.get_context("spawn")

    def run(self, tasks: Iterable[GameTask], on_record: OnRecord, stop: ShouldStop = lambda: False) -> bool:
        """Play every task unless ``stop()`` turns true; returns False when stopped early.

        ``on_record`` is called in this process, in finishing order, once per finished game.
        """
        pending = collections.deque(tasks)
        workers: list[_Worker] = []
        try:
            while pending or any(w.game for w in workers):
                if stop():
                    return False
                # top up: one game per idle worker, new workers while there is work for them
                for w in workers:
                    if w.game is None and pending:
                        self._assign(w, pending.popleft())
                while pending and len(workers) < self.jobs:
                    w = _Worker(self.ctx)
                    workers.append(w)
                    self._assign(w, pending.popleft())
                busy = [w for w in workers if w.game is not None]
                now = time.perf_counter()
                timeout = min([0.25] + [max(0.0, w.game.since + w.game.limit - now) for w in busy if w.game and w.game.seat])
                wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout)
                for i, w in enumerate(workers):
                    if w.game is None:
                        continue
                    done = self._drain(w, on_record)
                    if done is None:  # the worker is gone: a fresh one replaces it
                        workers[i] = _Worker(self.ctx)
                        continue
                    g = w.game
                    if g is not None and g.seat is not None and time.perf_counter() - g.since > g.limit:
                        w.kill()
                        if g.building:
                            _unstarted(g, f"no agent within {g.limit:g} s")
                        on_record(g.task, g.record(3 - g.seat, f"timeout: no move within {g.limit:g} s", True))
                        workers[i] = _Worker(self.ctx)
            return True
        finally:
            for w in workers:
                if w.game is not None:
                    w.kill()
                else:
                    w.stop()

    def _assign(self, w: _Worker, task: GameTask) -> None:
        w.game = _Game(task)
        w.conn.send(task)

    def _drain(self, w: _Worker, on_record: OnRecord) -> bool | None:
        """Handle every message waiting from ``w``; None when the worker died."""
        g = w.game
        assert g is not None
        while True:
            try:
                if not w.conn.poll():
                    break
                msg = w.conn.recv()
            except (EOFError, OSError):
                msg = None
            if msg is None:
                break
            kind = msg[0]
            if kind == "setup":
                g.seat, g.since, g.limit, g.building = msg[1], time.perf_counter(), self.setup, True
            elif kind == "think":
                seat = msg[1]
                spec = g.task.first if seat == 1 else g.task.second
                limit = g.task.deadlines[seat - 1] + (0.0 if spec in w.warm else self.grace)
                g.seat, g.since, g.limit, g.building = seat, time.perf_counter(), limit, False
            elif kind == "move":
                _, seat, text, elapsed, nodes, value, depth = msg
                if g.seat == seat and time.perf_counter() - g.since > g.limit:  # too late, however close
                    w.kill()
                    w.game = None
                    on_record(g.task, g.record(3 - seat, f"timeout: no move within {g.limit:g} s", True))
                    return None
                w.warm.add(g.task.first if seat == 1 else g.task.second)
                g.seat = None
                g.moves.append(text)
                g.times.append(round(elapsed, 6))
                g.nodes.append(nodes)
                g.vals.append(value)
                g.depths.append(depth)
            elif kind == "end":
                _, winner, reason, forfeit = msg
                w.game = None
                on_record(g.task, g.record(winner, reason, forfeit))
                return True
            elif kind == "unstarted":
                g.seat = msg[1]
                _unstarted(g, msg[2])
            elif kind == "fail":
                raise GameError(f"game {g.task.idx} could not be played: {msg[1]}")
        if not w.process.is_alive():
            w.process.join(1)
            code = w.process.exitcode
            w.game = None
            w.conn.close()
            seat = g.seat or 1
            if g.building:
                _unstarted(g, f"its process died while building it (exit code {code})")
            on_record(g.task, g.record(3 - seat, f"crash: the agent's process died (exit code {code})", True))
            return None
        return False


# ---- Ray ------------------------------------------------------------------------------------------


def _play_one(task: GameTask, grace: float) -> GameRecord:
    """Supervise one game in a local worker process (used inside a Ray task)."""
    out: list[GameRecord] = []
    LocalRunner(jobs=1, grace=grace).run([task], lambda _t, rec: out.append(rec))
    return out[0]


class RayRunner:
    """Runs each game as a Ray task; ``ray.init()`` joins a running cluster or starts a local one."""

    def __init__(self, jobs: int | None = None, grace: float = 30.0, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise GameError("--backend ray needs Ray: pip install 'zerosum[ray]'") from None
        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
        self.jobs = jobs or int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self.grace = grace
        self.remote = ray.remote(num_cpus=1)(_play_one)

    def run(self, tasks: Iterable[GameTask], on_record: OnRecord, stop: ShouldStop = lambda: False) -> bool:
        ray = self.ray
        pending = collections.deque(tasks)
        flight: dict[Any, GameTask] = {}
        try:
            while pending or flight:
                if stop():
                    return False
                while pending and len(flight) < 2 * self.jobs:
                    task = pending.popleft()
                    flight[self.remote.remote(task, self.grace)] = task
                ready, _ = ray.wait(list(flight), num_returns=1, timeout=0.5)
                for ref in ready:
                    task = flight.pop(ref)
                    try:
                        rec = ray.get(ref)
                    except GameError as exc:  # Ray's task error is also the GameError raised in the task
                        cause = getattr(exc, "cause", exc)
                        raise GameError(str(cause) if isinstance(cause, GameError) else "a Ray task failed") from None
                    on_record(task, rec)
            return True
        finally:
            for ref in flight:
                ray.cancel(ref, force=True)


def make_runner(backend: str, jobs: int | None, grace: float) -> LocalRunner | RayRunner:
    if backend == "local":
        return LocalRunner(jobs, grace)
    if backend == "ray":
        return RayRunner(jobs, grace)
    raise GameError(f"unknown backend {backend!r}: choose local or ray")
