"""The pool on a Ray cluster: the same jobs, on long-lived actors.

Each actor holds a local :class:`~zerosum.pool.local.Pool` of one worker process for its whole life, so a
worker's imports, compiled kernels and tables serve game after game, and a job that overruns is killed
and replaced inside the actor exactly as on one machine.  ``address`` (or ``RAY_ADDRESS``) names an
existing cluster; without either, Ray starts one on this machine.  Anything Ray refuses (not installed,
no cluster at the address) is one :class:`~zerosum.errors.GameError` line.
"""

from __future__ import annotations

import collections
import logging
import os
from typing import Any, Callable, Iterable

from ..core.files import describe_exception
from ..errors import GameError
from .base import EngineBusy, EngineFailed, EngineTimeout

__all__ = ["RayPool", "connect"]

NEEDS_RAY = "--backend ray needs Ray: pip install 'zerosum[ray]'"


def _line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _probe(address: str) -> None:
    """Refuse at once an address that is not ``HOST:PORT`` (``ray://HOST:PORT``, ``auto``) or where nothing
    listens (Ray itself would retry for minutes, printing as it goes)."""
    if address in ("auto", "local"):
        return
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise GameError(f"Ray address {address!r} is not HOST:PORT, ray://HOST:PORT or auto")
    import socket

    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise GameError(_line(f"cannot reach the Ray cluster at {address!r}: {exc.strerror or exc}")) from None


def connect(address: str | None = None) -> Any:
    """The ``ray`` module, joined to the cluster at ``address`` (else ``$RAY_ADDRESS``, else a new local one)."""
    try:
        import ray
    except ImportError:
        raise GameError(NEEDS_RAY) from None
    if ray.is_initialized():
        return ray
    address = (address or os.environ.get("RAY_ADDRESS") or "").strip() or None
    if address is not None:
        _probe(address)
    options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR}
    if address is None:  # a new instance of our own: never one that happens to be recorded on this machine
        options.update(include_dashboard=False)
    try:
        ray.init(address=address or "local", **options)
    except BaseException as exc:  # noqa: BLE001 - ConnectionError, RuntimeError, ValueError, ... from Ray
        if isinstance(exc, KeyboardInterrupt):
            raise
        where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
        raise GameError(_line(f"cannot reach {where}: {describe_exception(exc)}")) from None
    return ray


class _Host:
    """A Ray actor holding one long-lived local worker process."""

    def __init__(self, options: dict[str, Any]) -> None:
        from .local import Pool

        self.pool = Pool(size=1, wait=None, **options)
        self.pool.start()

    def supervise(self, supervise: Callable[[Any, Any], Any], item: Any) -> Any:
        return supervise(self.pool, item)

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...], timeout: float | None) -> Any:
        return self.pool.run(fn, args, timeout)


class RayPool:
    """``size`` actors (default: the cluster's CPUs), each with one worker process, on a Ray cluster."""

    def __init__(self, size: int | None = None, address: str | None = None, *, memory_limit: int | None = None,
                 rss_limit: int | None = None, warmup: Callable[[], Any] | None = None, quiet: bool = True) -> None:
        self.ray = ray = connect(address)
        try:
            cpus = int(ray.cluster_resources().get("CPU", 1))
        except Exception:  # noqa: BLE001  # pragma: no cover
            cpus = 1
        self.size = max(1, size or cpus)
        options = {"memory_limit": memory_limit, "rss_limit": rss_limit, "warmup": warmup, "quiet": quiet}
        host = ray.remote(num_cpus=1, max_concurrency=1)(_Host)
        self.actors = [host.remote(options) for _ in range(self.size)]
        self._next = 0

    def _get(self, ref: Any) -> Any:
        ray = self.ray
        try:
            return ray.get(ref)
        except Exception as exc:  # a task's own error comes back wrapped (its text a traceback): the original
            cause = getattr(exc, "cause", None)
            if isinstance(cause, (GameError, EngineTimeout, EngineBusy, EngineFailed)):
                raise cause from None
            what = cause if isinstance(cause, BaseException) else exc
            raise GameError(_line(f"a Ray worker failed: {describe_exception(what)}")) from None

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...] = (), timeout: float | None = None) -> Any:
        """``fn(*args)`` on the next actor's worker (like :meth:`Pool.run`, without events)."""
        actor = self.actors[self._next % self.size]
        self._next += 1
        return self._get(actor.run.remote(fn, tuple(args), timeout))

    def each(self, supervise: Callable[[Any, Any], Any], items: Iterable[Any],
             on_result: Callable[[Any, Any], None], stop: Callable[[], bool] = lambda: False) -> bool:
        """``supervise(pool, item)`` for every item, one per actor at a time, next to the actor's worker;
        ``on_result(item, result)`` here, in finishing order.  False when ``stop()`` turned true first."""
        ray = self.ray
        pending = collections.deque(items)
        idle = list(self.actors)
        flight: dict[Any, tuple[Any, Any]] = {}
        finished = False
        try:
            while pending or flight:
                if stop():
                    return False
                while pending and idle:
                    actor, item = idle.pop(), pending.popleft()
                    flight[actor.supervise.remote(supervise, item)] = (actor, item)
                ready, _ = ray.wait(list(flight), num_returns=1, timeout=0.25)
                for ref in ready:
                    actor, item = flight.pop(ref)
                    idle.append(actor)
                    on_result(item, self._get(ref))
            finished = True
            return True
        finally:
            if not finished:
                self.close()  # the actors in the middle of a job go, with their workers

    def close(self) -> None:
        for actor in self.actors:
            try:
                self.ray.kill(actor)
            except Exception:  # noqa: BLE001 - already gone
                pass
        self.actors = []
