"""The pool on a Ray cluster: the same jobs, on long-lived actors that are the workers.

Each actor runs jobs in its own process, one at a time, for its whole life, so its imports, compiled
kernels and tables serve job after job.  The caller keeps the clock, as with local workers: the actor
streams every :func:`~zerosum.pool.base.report` of a job back (a Ray streaming generator), the caller's
``on_event`` sets the deadlines, and a job past its deadline is ended by killing its actor
(``ray.kill``); a fresh actor takes its seat.  Actors are asked for as soon as the pool exists, so they
start while the caller prepares its work.  ``address`` (or ``RAY_ADDRESS``) names an existing cluster;
without either, Ray starts one on this machine (:mod:`zerosum.pool.ray_connect`).  Anything Ray refuses is
one :class:`~zerosum.errors.GameError` line.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from typing import Any, Callable, Iterable

from ..core.files import describe_exception
from ..errors import GameError
from .base import (EngineBusy, EngineCrashed, EngineTimeout, check_function, hush_owner_warnings, run_job, set_sink,
                   start_thread, unpack)
from .local import run_each
from .ray_connect import NEEDS_RAY, connect, one_line
from .worker import rss

__all__ = ["RayPool", "connect", "NEEDS_RAY"]


class _Host:
    """A Ray actor: runs one job at a time in its own process (the job in a thread, its reports streamed)."""

    def __init__(self, memory_limit: int | None, warmup: Callable[[], Any] | None) -> None:
        hush_owner_warnings()  # as a local worker: the owner said it
        if memory_limit:
            from .worker import _limit_memory

            _limit_memory(memory_limit)
        if warmup is not None:
            run_job(warmup, ())

    def ready(self) -> int:
        return os.getpid()

    def stream(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """Yields lists of messages: ``("event", message)`` ..., then ``("done", status, payload, message, rss)``."""
        box: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()

        def work() -> None:
            set_sink(lambda message: box.put(("event", message)))
            try:
                reply = run_job(fn, tuple(args))
            finally:
                set_sink(None)
            box.put(("done", *reply, rss(os.getpid())))

        start_thread(work, "zerosum-ray-job")
        while True:
            batch = [box.get()]
            try:  # what follows within a few milliseconds (a move, then the next think) goes in the same message
                while batch[-1][0] != "done":
                    batch.append(box.get(timeout=0.003))
            except queue.Empty:
                pass
            yield batch
            if batch[-1][0] == "done":
                return


class _Seat:
    """One actor seen as a pool of one (``run`` like :meth:`Pool.run <zerosum.pool.local.Pool.run>`);
    the actor is replaced whenever a job overruns, breaks or its actor dies."""

    def __init__(self, owner: "RayPool") -> None:
        self.owner = owner
        self.actor = owner._start_actor()
        self.warm = False

    def replace(self) -> None:
        self.owner._kill(self.actor)
        self.actor, self.warm = self.owner._start_actor(), False

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...] = (), timeout: float | None = None,
            on_event: Callable[[Any], float | None] | None = None) -> Any:
        check_function(fn)
        if self.owner.closed:
            raise EngineBusy("the pool is stopping")
        if not self.warm:  # a job's time limit is never spent starting its actor
            self.owner.get(self.actor.ready.remote())
            self.warm = True
        try:
            reply = self._follow(fn, args, timeout, on_event)
        except BaseException:
            if not self.owner.closed:
                self.replace()  # overran, broke or died: never reused
            raise
        status, payload, message, size = reply
        if status == "memory" or (self.owner.rss_limit and size and size > self.owner.rss_limit):
            self.replace()  # an actor past its bound is replaced
        return unpack((status, payload, message), self.owner.memory_limit)

    def _follow(self, fn: Callable[..., Any], args: tuple[Any, ...], timeout: float | None,
                on_event: Callable[[Any], float | None] | None) -> tuple[Any, ...]:
        """The job's reply and the actor's resident size; its reports handed to ``on_event``, which may set a
        new limit (seconds from the event); raises EngineTimeout past the limit."""
        ray = self.owner.ray
        stream = self.actor.stream.options(num_returns="streaming").remote(fn, tuple(args))
        limit, deadline = timeout, None if timeout is None else time.perf_counter() + timeout
        while True:
            wait = None if deadline is None else deadline - time.perf_counter()
            if wait is not None and wait <= 0:
                raise EngineTimeout(f"the engine did not answer within {limit:g} s", limit or 0.0)
            ready, _ = ray.wait([stream], num_returns=1, timeout=wait)
            if not ready:
                continue
            try:
                batch = self.owner.get(next(stream))
            except StopIteration:
                raise EngineCrashed("the engine's actor stopped unexpectedly") from None
            for msg in batch:
                if msg[0] == "done":
                    return tuple(msg[1:])
                new = on_event(msg[1]) if on_event is not None else None
                if new is not None:
                    limit = new
                    deadline = None if new == float("inf") else time.perf_counter() + new


class RayPool:
    """``size`` actors (default: the cluster's CPUs), each a long-lived worker, on a Ray cluster."""

    def __init__(self, size: int | None = None, address: str | None = None, *, memory_limit: int | None = None,
                 rss_limit: int | None = None, warmup: Callable[[], Any] | None = None, quiet: bool = True) -> None:
        self.ray = ray = connect(address)
        if warmup is not None:
            check_function(warmup)
        try:
            cpus = int(ray.cluster_resources().get("CPU", 1))
        except Exception:  # noqa: BLE001  # pragma: no cover
            cpus = 1
        self.size = max(1, size or cpus)
        self.memory_limit, self.rss_limit, self.warmup = memory_limit, rss_limit, warmup
        self.closed = False
        self._host = ray.remote(num_cpus=1, max_concurrency=1)(_Host)
        self._live: set[Any] = set()
        self._lock = threading.Lock()
        self._seats: queue.Queue[_Seat] = queue.Queue()
        for _ in range(self.size):  # asked for now: they start while the caller gets its work ready
            self._seats.put(_Seat(self))

    @property
    def actors(self) -> list[Any]:
        with self._lock:
            return list(self._live)

    def _start_actor(self) -> Any:
        actor = self._host.remote(self.memory_limit, self.warmup)
        with self._lock:
            if self.closed:
                self._kill(actor)
            else:
                self._live.add(actor)
        return actor

    def _kill(self, actor: Any) -> None:
        with self._lock:
            self._live.discard(actor)
        try:
            self.ray.kill(actor, no_restart=True)
        except Exception:  # noqa: BLE001 - already gone
            pass

    def get(self, ref: Any) -> Any:
        """``ray.get(ref)``, with Ray's failures as our errors (one line, never a traceback)."""
        try:
            return self.ray.get(ref)
        except Exception as exc:
            from ray.exceptions import ActorDiedError, ActorUnavailableError, RayActorError

            if self.closed:
                raise EngineBusy("the pool is stopping") from None
            if isinstance(exc, (ActorDiedError, ActorUnavailableError, RayActorError)):
                raise EngineCrashed("the engine's actor stopped unexpectedly") from None
            cause = getattr(exc, "cause", None)
            what = cause if isinstance(cause, BaseException) else exc
            raise GameError(one_line(f"a Ray worker failed: {describe_exception(what)}")) from None

    def _seated(self, task: Callable[[_Seat], Any]) -> Any:
        seat = self._seats.get()
        try:
            return task(seat)
        finally:
            self._seats.put(seat)

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...] = (), timeout: float | None = None,
            on_event: Callable[[Any], float | None] | None = None) -> Any:
        """``fn(*args)`` on a free actor, like :meth:`Pool.run <zerosum.pool.local.Pool.run>`."""
        return self._seated(lambda seat: seat.run(fn, args, timeout, on_event))

    def each(self, supervise: Callable[[Any, Any], Any], items: Iterable[Any],
             on_result: Callable[[Any, Any], None], stop: Callable[[], bool] = lambda: False) -> bool:
        """``supervise(seat, item)`` for every item, one per actor at a time, here (the seat runs the jobs on
        its actor); ``on_result(item, result)`` in finishing order.  False when ``stop()`` turned true first."""
        return run_each(lambda item: self._seated(lambda seat: supervise(seat, item)), self.size, items,
                        on_result, stop, self.close)

    def close(self) -> None:
        """Kill every actor (jobs in flight end with them)."""
        with self._lock:
            self.closed = True
            actors, self._live = list(self._live), set()
        for actor in actors:
            try:
                self.ray.kill(actor, no_restart=True)
            except Exception:  # noqa: BLE001 - already gone
                pass

    def __enter__(self) -> "RayPool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
