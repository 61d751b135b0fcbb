"""The web server's engines: one pool of worker processes (:mod:`zerosum.pool`), its bounds and its readiness.

:class:`Engines` runs every engine call of ``zerosum serve`` -- a move (:func:`zerosum.pool.choose_move`), an
analysis, a "why?", the reading of a record -- in a worker under a hard time limit (the engine time plus a
margin), with at most ``max_engine_requests`` running or waiting at once (more: a 503 at once).

While the workers warm up (loading the engines' compiled code: about two seconds with a warm compile cache;
with a cold one, on the first run after installing, a compile of about a minute and a half on two busy
cores, done by the first worker alone while the others wait to load it from the cache), a request waits for
the first warm worker, up to :data:`READY_WAIT` seconds, rather than being refused; :meth:`Engines.health`
says whether they are ready and, while they are not, what they are doing (:func:`preparing_words`).

When the server stops (Ctrl-C), :meth:`Engines.stop` ends every engine request waiting for its answer at once:
each raises :class:`~zerosum.pool.EngineBusy` "the server is stopping" (a 503), its worker left to be killed
by :meth:`Engines.close`, rather than holding the server up until uvicorn cancels it.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from ..pool import EngineBusy, Pool
from ..pool.moves import warm_up
from . import service
from .connections import STOPPING
from .position import DEFAULT_GAME

__all__ = ["Engines", "READY_WAIT", "WARM_UP_LIMIT", "MARGIN", "MAX_ENGINE_REQUESTS", "preparing_words"]

MARGIN = 3.0  # seconds a worker may overrun its agent's time budget before it is killed
MAX_ENGINE_REQUESTS = 32  # engine requests running or waiting at once; more get 503 at once
#: seconds a worker's warm-up may take (past it the worker is replaced by one that loads nothing first)
WARM_UP_LIMIT = 240.0
#: seconds a request waits for the first warm worker while the engines start (the warm-up's limit, and the
#: seconds a worker takes to start); a request past it gets a 503
READY_WAIT = 300.0
#: a warm-up still running after this many seconds is compiling, not loading: a first run
_COMPILING_AFTER = 3.0


def preparing_words(seconds: float, doing: str) -> str:
    """What the engines are doing while none is ready, for people: ``preparing the engine (the solver), first
    run only: 12 s`` (``doing``: what the first worker's warm-up prepares now; "" before it has said)."""
    what = f"preparing the engine ({doing})" if doing else "starting the engine"
    if seconds >= _COMPILING_AFTER:
        return f"{what}, first run only: {seconds:.0f} s"
    return f"{what}: {seconds:.1f} s"


class Engines:
    """The pool of ``workers`` engine processes (``mode="inline"``: the server's own threads, for tests: no
    kill), and the bounds of the requests that use it."""

    def __init__(self, *, engine_time: float, workers: int, mode: str, busy_wait: float, margin: float,
                 max_engine_requests: int, max_record_requests: int, ready_wait: float = READY_WAIT) -> None:
        self.engine_time, self.workers, self.mode = engine_time, workers, mode
        self.hard_limit = engine_time + margin
        self.max_engine_requests, self.max_record_requests = max_engine_requests, max_record_requests
        self.ready_wait = max(busy_wait, ready_wait)
        # each worker prepares the engines the page offers, on the game it opens with
        warmup = functools.partial(warm_up, DEFAULT_GAME, tuple(spec for spec, *_ in service.offered_opponents()))
        self.pool = Pool(size=workers, wait=busy_wait, mode=mode, warmup=warmup, warmup_limit=WARM_UP_LIMIT,
                         ready_wait=ready_wait)
        self.waiting = 0  # engine requests running or waiting (read and written on the event loop only)
        self.reading = 0  # records being read (on the event loop only)
        self.agents: list[str] = []  # the installed agents the server offers, found at the start
        self._limiter: Any = None  # the engine requests' own threads (made on the event loop, at first use)
        self._waits: set[Any] = set()  # the cancel scopes of the engine requests waiting for their answer
        self.stopping = False  # the server stops: engine requests are refused

    async def run(self, job: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``job(*args)`` in a worker, under the hard time limit (raises the pool's errors, and EngineBusy when
        the server stops meanwhile)."""
        import anyio
        import anyio.to_thread

        if self.stopping:
            raise EngineBusy(STOPPING)
        if self.waiting >= self.max_engine_requests:
            raise EngineBusy(f"{self.waiting} engine requests are waiting already; try again in a moment")
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.max_engine_requests)
        self.waiting += 1
        scope = anyio.CancelScope()
        self._waits.add(scope)
        try:
            with scope:  # cancelled by stop() alone: the thread is left to finish (or be killed) on its own
                return await anyio.to_thread.run_sync(self.pool.run, job, args, self.hard_limit,
                                                      limiter=self._limiter, abandon_on_cancel=True)
        finally:
            self._waits.discard(scope)
            self.waiting -= 1
        raise EngineBusy(STOPPING)  # reached only when stop() cancelled the wait

    def stop(self) -> int:
        """The server stops (on the event loop): every engine request waiting ends at once with EngineBusy
        "the server is stopping", and later ones are refused so; how many were waiting."""
        self.stopping = True
        waits = list(self._waits)
        for scope in waits:
            scope.cancel()
        return len(waits)

    def health(self) -> dict[str, Any]:
        """``engines`` (workers), ``engines_ready`` (warm ones), ``ready`` (at least one: a request is answered
        without waiting for a warm-up), ``preparing`` (while not ready: what the engines are doing, in words;
        else None) and ``ready_wait`` (how long a request waits for the first warm engine)."""
        ready = self.workers if self.mode == "inline" else self.pool.ready
        preparing = None
        if not ready:
            warming = self.pool.preparing
            preparing = preparing_words(*warming) if warming is not None else "starting the engine"
        return {"engine_time": self.engine_time, "engines": self.workers, "engines_ready": ready,
                "ready": ready > 0, "preparing": preparing, "ready_wait": self.ready_wait}

    def start(self) -> None:
        """Start the workers in the background: they load the engines while the page is served."""
        self.pool.start()

    def close(self) -> None:
        self.pool.close()
