"""The web server's engines: one pool of worker processes (:mod:`zerosum.pool`), its bounds and its readiness.

:class:`Engines` runs every engine call of ``zerosum serve`` -- a move (:func:`zerosum.pool.choose_move`), an
analysis, a "why?", the reading of a record -- in a worker under a hard time limit (the engine time plus a
margin), with at most ``max_engine_requests`` running or waiting at once (more: a 503 at once).

While the workers warm up (loading the engines' compiled code: about two seconds with a warm compile cache;
with a cold one, on the first run after installing, a compile of about a minute and a half on two busy
cores, done by the first worker alone while the others wait to load it from the cache), a request waits for
the first warm worker, up to :data:`READY_WAIT` seconds, rather than being refused; :meth:`Engines.health`
says whether they are ready and, while they are not, what they are doing (:func:`preparing_words`).

**Boards past 64 bits** (8 x 8, 9 x 7, 7 x 9) have compiled code of their own, which the workers' warm-up does
not load; on a first run it is prepared after it, in the background (:mod:`.warmup`).  A request on such a
board waits for that preparation on the event loop, as for the first warm worker (its client's going ends the
wait), holding no worker.  A job with an agent (a move, a "why?") has its agent's code for its position
prepared in its worker before it starts (:func:`.warmup.prepare_job`), so that the agent's time is spent
searching.  A job whose code compiles in its worker all the same says so as it starts and ends
(:func:`zerosum.solver.steps.telling`): it gets :data:`WARM_UP_LIMIT` while it compiles, its time limit counts
from the end of the compile, and a client gone meanwhile stops it only then (a compile killed at a request's
limit was lost, and every later request started it again).  While a request waits for either,
:meth:`Engines.health` says the engines are not ready and what they prepare; its answer's note says how long it
waited for a preparation in all (:func:`.warmup.job_note`), wherever it waited: for the engines' start (until a
worker was first seen warm), for the code past 64 bits, in its worker (its job's own code: :func:`tracked_job`).

When the server stops (Ctrl-C), :meth:`Engines.stop` ends every engine request waiting for its answer at once:
each raises :class:`~zerosum.pool.EngineBusy` "the server is stopping" (a 503), its worker left to be killed
by :meth:`Engines.close`, rather than holding the server up until uvicorn cancels it.

**Clients that go.** A request takes a worker in turn (first come, first served: at most one request a worker
is in the pool at once, and only once a warm worker is free there; the others wait on the event loop), and
while it waits or runs its connection is watched (:data:`zerosum.ui.requests.CURRENT`, the request being
answered).  A client that hangs up (a page that moved on to another position, or was closed; ``curl -m``)
loses its place at once: its job never starts, and the requests behind it move up.  A job already running
when its client goes gets :data:`KILL_GRACE` seconds to end (a page's analysis slice, a short search: most end
well within it); past them its worker is killed and replaced (a job that had not started by then is stopped as
it starts).  Killing at once would cost more than it saves for short jobs: a new worker takes about two
seconds of a core to load the engines, the pool a worker short meanwhile, and a page stepped through a game
abandons a slice at every step.  The request ends with :class:`~zerosum.ui.requests.ClientGone` (its answer
reaches nobody).  ``GET /api/health`` counts the engine requests running or waiting (``engine_requests``).
"""

from __future__ import annotations

import functools
import os
import threading
import time
from typing import Any, Callable

from ..pool import EngineBusy, Pool, report
from ..pool.moves import warm_up
from ..solver.steps import PREPARED, PREPARING, telling
from . import service
from .connections import STOPPING
from .position import DEFAULT_GAME
from .requests import CURRENT, ClientGone
from .warmup import COMPILING_AFTER, Heard, WideCode, job_note, noted, past_64, prepare_job

__all__ = ["Engines", "READY_WAIT", "WARM_UP_LIMIT", "MARGIN", "MAX_ENGINE_REQUESTS", "KILL_GRACE", "preparing_words",
           "tracked_job"]

MARGIN = 3.0  # seconds a worker may overrun its agent's time budget before it is killed
MAX_ENGINE_REQUESTS = 32  # engine requests running or waiting at once; more get 503 at once
#: seconds a worker's warm-up may take (past it the worker is replaced by one that loads nothing first)
WARM_UP_LIMIT = 240.0
#: seconds a request waits for the first warm worker while the engines start (the warm-up's limit, and the
#: seconds a worker takes to start); a request past it gets a 503
READY_WAIT = 300.0
#: seconds a running job whose client has gone may take to end before its worker is killed (module docstring)
KILL_GRACE = 3.0
#: what :func:`tracked_job` reports: ``(_JOB, pid)`` as it starts in a worker, ``(_JOB, None)`` as it ends
_JOB = "zerosum.ui.engines job"
#: and before it ends ``(_WAITED, (seconds, late))``: the seconds its own code took to prepare in its worker, what
#: compiled during its search all the same
_WAITED = "zerosum.ui.engines waited"
_POLL = 0.05  # seconds between two looks at the pool while a request with its turn waits for a free worker


def tracked_job(job: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """``job(*args)``, in a worker, saying to the server which process runs it and when it ends (so that the
    server kills that worker only while it runs this job), and when its code compiles (the server waits for a
    compile rather than kill it: :func:`zerosum.solver.steps.telling`).  The compiled code of the job's agent
    is prepared first (:func:`.warmup.prepare_job`), so that its time is spent searching; the seconds that took
    (a job without an agent, an analysis: those its own code took to compile during it), and what compiled
    during its search all the same, are told to the server, which says them in the answer's note with its own
    waits (:meth:`Engines.run`)."""
    from ..agents.prepare import pending

    report((_JOB, os.getpid()))
    heard = Heard()  # what compiled during the job itself
    try:
        with telling(report):
            prepared = prepare_job(args, report)
            before = pending()
            with telling(heard):
                result = job(*args)
        if prepared is None:  # a job without an agent: what compiled during it was waited for
            report((_WAITED, (heard.seconds, [])))
        else:  # a search that went without its code: it compiles still
            report((_WAITED, (prepared, heard.labels + [s.label for s in pending() if s not in before])))
        return result
    finally:
        report((_JOB, None))


class _Call:
    """One engine request's state, shared by its wait, its watcher and its pool thread."""

    def __init__(self) -> None:
        import anyio

        self.waiting = anyio.CancelScope()  # the wait for a worker (cancelled when the client goes)
        self.running = False  # it went into the pool: its job runs, or is about to
        self.gone = False  # its client has gone
        self.lock = threading.Lock()  # the three below are also read and written in its pool thread
        self.pid: int | None = None  # the worker running the job, while it runs it
        self.ended = False  # the job has ended in its worker
        self.kill_on_start = False  # the grace passed before the job started: it is stopped as it starts
        self.compiling = 0  # the solver steps whose work runs in the job now (steps.telling)
        self.started: float | None = None  # when the job started in its worker
        # its answer's note (job_note): since when it waits for the engines' start (none was warm when it came),
        # while it does; the seconds it waited for a preparation on the server, and those its job's own code took
        # in its worker, and what compiled during its search (tracked_job)
        self.since: float | None = None
        self.waited = self.prepared = 0.0
        self.late: list[str] = []


def preparing_words(seconds: float, doing: str) -> str:
    """What the engines are doing while none is ready, for people: ``preparing the engine (the solver), first
    run only: 12 s`` (``doing``: what the first worker's warm-up prepares now; "" before it has said)."""
    what = f"preparing the engine ({doing})" if doing else "starting the engine"
    if seconds >= COMPILING_AFTER:
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
        specs = tuple(spec for spec, *_ in service.offered_opponents())
        warmup = functools.partial(warm_up, DEFAULT_GAME, specs)
        self.pool = Pool(size=workers, wait=busy_wait, mode=mode, warmup=warmup, warmup_limit=WARM_UP_LIMIT,
                         ready_wait=ready_wait)
        self.busy_wait = busy_wait
        self.waiting = 0  # engine requests running or waiting (read and written on the event loop only)
        self.reading = 0  # records being read (on the event loop only)
        self.agents: list[str] = []  # the installed agents the server offers, found at the start
        self._limiter: Any = None  # the engine requests' own threads (made on the event loop, at first use)
        self._turns: Any = None  # a worker each: the requests that have one (made on the event loop, at first use)
        self._in_pool = 0  # requests whose job is in the pool (on the event loop only)
        self._waits: set[Any] = set()  # the cancel scopes of the engine requests waiting for their answer
        self.stopping = False  # the server stops: engine requests are refused
        self.wide = WideCode(self.pool, specs, WARM_UP_LIMIT)  # the code of boards past 64 bits
        self._held = 0  # requests waiting for it (on the event loop only)
        self._warm_at = float("-inf")  # when a worker was last seen warm after none was (on the event loop only)

    async def run(self, job: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``job(*args)`` in a worker, under the hard time limit (raises the pool's errors, EngineBusy when the
        server stops meanwhile, and ClientGone when the client of the request being answered hangs up first)."""
        import asyncio

        import anyio

        if self.stopping:
            raise EngineBusy(STOPPING)
        if self.waiting >= self.max_engine_requests:
            raise EngineBusy(f"{self.waiting} engine requests are waiting already; try again in a moment")
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self.max_engine_requests)
            self._turns = anyio.Semaphore(self.workers)
        self.waiting += 1
        scope = anyio.CancelScope()
        self._waits.add(scope)
        call = _Call()
        request = CURRENT.get()
        watcher = None if request is None else asyncio.ensure_future(self._watch(request, call))
        try:
            with scope:  # cancelled by stop() alone: the thread is left to finish (or be killed) on its own
                return await self._run(job, args, call)
        finally:
            if watcher is not None:
                watcher.cancel()
            self._waits.discard(scope)
            self.waiting -= 1
        raise EngineBusy(STOPPING)  # reached only when stop() cancelled the wait

    async def _run(self, job: Callable[..., Any], args: tuple[Any, ...], call: _Call) -> Any:
        """The request's turn, then its job in a worker (see :meth:`run`): it waits here, on the event loop, where
        its client's going ends the wait, and goes into the pool only once a warm worker is free there."""
        import anyio
        import anyio.to_thread

        starting = self.mode != "inline" and self.pool.ready == 0
        if starting:
            call.since = time.monotonic()
        wide = self.mode != "inline" and past_64(args)
        held = wide and self.wide.under_way() is not None
        wait = self.ready_wait if starting or held else self.busy_wait
        turn = free = False
        try:
            with anyio.move_on_after(wait), call.waiting:
                while not free:
                    if wide:
                        await self._wait_for_preparation(call)
                    await self._turns.acquire()
                    turn = True
                    while not self._worker_free(call):  # a worker killed or retired is being replaced
                        await anyio.sleep(_POLL)
                    free = not wide or self.wide.admit(id(call))
                    if not free:  # the code of its board began to be prepared meanwhile: waited for first
                        self._turns.release()
                        turn = False
        finally:
            if turn and not free:  # its turn given back: past the wait, its client gone, or the server stopping
                self._turns.release()
        if not free:
            if call.gone:
                raise ClientGone("the client went away before a worker was free")
            if held:
                raise EngineBusy(f"the engine of this board is still being prepared after {wait:g} s; try again in "
                                 "a moment")
            if starting:
                raise EngineBusy(f"the engines are still starting after {wait:g} s; try again in a moment")
            raise EngineBusy("every engine is busy; try again in a moment")
        call.running = True
        self._in_pool += 1
        try:
            result = await anyio.to_thread.run_sync(self._in_worker, job, args, call, limiter=self._limiter,
                                                    abandon_on_cancel=True)
        except Exception:
            if call.gone:  # stopped, or failed, after its client went: nobody to tell, nothing to fall back on
                raise ClientGone("the client went away before its answer was ready") from None
            raise
        finally:
            self._in_pool -= 1
            self._turns.release()
        self._warm(call, call.started)  # it went into the pool while none was warm: it waited there
        return noted(result, job_note(call.waited + call.prepared, call.late))

    def _worker_free(self, call: _Call) -> bool:
        """Whether a request with its turn goes into the pool now: a warm worker is free there, or none is being
        prepared (nothing to wait for here: the pool starts one, or says why it cannot).  A warm one seen ends
        ``call``'s wait for the engines' start (:meth:`_warm`)."""
        if self.mode == "inline":
            return True
        ready = self.pool.ready
        if ready:
            self._warm(call)
        return ready > self._in_pool or (ready == 0 and self.pool.preparing is None)

    def _warm(self, call: _Call, started: float | None = None) -> None:
        """A worker is warm (seen now, or when ``call``'s job started in one): ``call``'s wait for the engines'
        start, if it came while none was, ended when one was first seen warm after it came (by any request)."""
        if call.since is None:
            return
        if self._warm_at < call.since:  # none was seen warm since it came: one is now (or was as its job started)
            self._warm_at = time.monotonic() if started is None else started
        call.waited += max(0.0, (self._warm_at if started is None else min(self._warm_at, started)) - call.since)
        call.since = None

    async def _wait_for_preparation(self, call: _Call) -> None:
        """Wait, on the event loop, while the code of boards past 64 bits is prepared (:mod:`.warmup`): a
        request on such a board started then would compile it again, in its worker.  The seconds are counted
        in the preparations ``call`` waited for (after the engines' start: one is warm)."""
        import anyio

        if self.wide.under_way() is None:
            return
        self._warm(call)
        began = time.monotonic()
        self._held += 1
        try:
            while self.wide.under_way() is not None:
                await anyio.sleep(_POLL)
        finally:
            self._held -= 1
            call.waited += time.monotonic() - began

    def _in_worker(self, job: Callable[..., Any], args: tuple[Any, ...], call: _Call) -> Any:
        """In the request's thread: the job in a worker of the pool, noting which one runs it while it runs."""

        def started_or_ended(message: Any) -> float | None:
            if not (isinstance(message, tuple) and len(message) == 2):
                return None
            if message[0] in (PREPARING, PREPARED):
                return self._compile_event(call, message[0] == PREPARING, str(message[1]))
            if message[0] == _WAITED:  # read on the event loop once the job has ended
                call.prepared, call.late = message[1]
            if message[0] != _JOB:
                return None
            with call.lock:
                call.pid, call.ended = message[1], message[1] is None
                if call.pid is not None:
                    call.started = time.monotonic()
                if call.pid is not None and call.kill_on_start:
                    return 0.0  # a new time limit of nothing: the pool stops the job (its worker killed) at once
            return None

        try:
            return self.pool.run(tracked_job, (job, args), self.hard_limit, started_or_ended)
        finally:
            self.wide.done(id(call))

    def _compile_event(self, call: _Call, starts: bool, label: str) -> float | None:
        """In the request's thread: the job's solver code starts or ends compiling (or loading).  While it
        does, the job's time limit is the warm-up's; after, the hard limit counts again from there -- or, its
        client gone meanwhile, the grace (the kill put off while it compiled: :meth:`_kill`)."""
        if self.mode == "inline":
            return None
        with call.lock:
            call.compiling = max(0, call.compiling + (1 if starts else -1))
            compiling = call.compiling > 0
        if compiling:
            if starts:  # what it prepares now (one step inside another: the whole preparation)
                self.wide.compiling(id(call), label)
            return WARM_UP_LIMIT
        self.wide.compiling(id(call), None)
        return KILL_GRACE if call.gone else self.hard_limit

    async def _watch(self, request: Any, call: _Call) -> None:
        """Wait for the client to hang up: then drop the request's wait, or kill its job after the grace."""
        import anyio

        try:
            while (await request.receive())["type"] != "http.disconnect":
                pass  # the (empty) body of a request the route has not read
        except Exception:  # noqa: BLE001 - a connection that cannot say: taken as still there
            return
        call.gone = True
        if not call.running:
            call.waiting.cancel()
            return
        await anyio.sleep(KILL_GRACE)
        self._kill(call)

    def _kill(self, call: _Call) -> None:
        """Kill the worker running ``call``'s job, if it runs it now, or have the job stopped as it starts (never
        in inline mode: no worker).  The pool sees its worker die, fails the job and starts a new worker."""
        import signal

        if self.mode == "inline":
            return
        with call.lock:  # the job cannot end (and its worker take another) meanwhile
            if call.compiling:  # its code compiles: kept, and the job stopped after (_compile_event)
                return
            if call.pid is not None and call.pid in self.pool.pids:
                try:
                    os.kill(call.pid, signal.SIGKILL)
                except OSError:  # gone already
                    pass
            elif call.pid is None and not call.ended:
                call.kill_on_start = True

    def stop(self) -> int:
        """The server stops (on the event loop): every engine request waiting ends at once with EngineBusy
        "the server is stopping", and later ones are refused so; how many were waiting."""
        self.stopping = True
        waits = list(self._waits)
        for scope in waits:
            scope.cancel()
        return len(waits)

    def health(self) -> dict[str, Any]:
        """``engines`` (workers), ``engines_ready`` (warm ones), ``ready`` (at least one, and no request waits for
        the code of a board past 64 bits: a request is answered without waiting for a warm-up), ``preparing``
        (while not ready: what the engines are doing, in words; else None), ``ready_wait`` (how long a request
        waits for the first warm engine) and ``engine_requests`` (engine requests running or waiting now)."""
        ready = self.workers if self.mode == "inline" else self.pool.ready
        preparing = None
        if not ready:
            warming = self.pool.preparing
            preparing = preparing_words(*warming) if warming is not None else "starting the engine"
        elif self._held or self.wide.jobs_compiling():  # a request waits for the code past 64 bits
            under_way = self.wide.under_way()
            if under_way is not None:
                preparing = preparing_words(time.monotonic() - under_way[0], under_way[1])
        return {"engine_time": self.engine_time, "engines": self.workers, "engines_ready": ready,
                "ready": ready > 0 and preparing is None, "preparing": preparing, "ready_wait": self.ready_wait,
                "engine_requests": self.waiting}

    def start(self) -> None:
        """Start the workers in the background: they load the engines while the page is served (on a first run,
        the code of boards past 64 bits is prepared after them: :mod:`.warmup`)."""
        self.pool.start()
        if self.mode != "inline":
            self.wide.start()

    def close(self) -> None:
        self.wide.close()
        self.pool.close()
