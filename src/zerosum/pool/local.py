"""The engine pool on this machine: long-lived worker processes, killed and replaced when they overrun.

A search that runs past its limit cannot be stopped from outside in a thread, so every engine job runs
in a worker process (:mod:`zerosum.pool.worker`).  When a job takes longer than its limit the worker is
killed and replaced; when every worker is busy for longer than ``wait`` seconds the caller is told the
pool is busy.  ``mode="inline"`` runs jobs in the calling thread (no limit: for tests and debugging).

Bounds (the numbers are the defaults of :class:`Pool`; ``None`` turns one off):

* memory: a worker may map at most :data:`MEMORY_LIMIT` bytes of data (``RLIMIT_DATA``, set by the worker
  itself at start); past it the job fails with :class:`EngineMemory` and the worker is replaced.  A worker
  whose resident memory is above :data:`RSS_LIMIT` after a job (a table it keeps) is replaced too.
* life: a worker dies with the process that started it, even when that one is killed with SIGKILL.
  Workers are started from one long-lived thread of the pool, because Linux sends the parent-death
  signal when the *thread* that started the child ends.
* descendants: a worker leads a process group of its own, killed whole with it (replaced, retired, or the
  pool closed): what a job started (a student's ``subprocess.Popen``) goes too, unless it left the group.

No thread of the pool prints a traceback: a worker that cannot start fails the job waiting for it with one
:class:`EngineFailed` line (the next job tries a fresh one), and anything else a thread did not expect is one
line on standard error (:func:`~zerosum.pool.base.start_thread`).
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Iterable

from ..core.files import describe_exception
from .base import (EngineBusy, EngineCrashed, EngineFailed, OnEvent, Reply, check_function, run_job, set_sink,
                   start_thread, unpack)
from .worker import Worker, rss

__all__ = ["Pool", "MEMORY_LIMIT", "RSS_LIMIT", "run_each"]

MiB = 2**20
#: the most data memory a worker may map (bytes; RLIMIT_DATA): an engine that needs more fails, cleanly
MEMORY_LIMIT = 1536 * MiB
#: a worker above this resident size after a job is replaced (a fresh worker is about 20 MB, and about
#: 230 MB once the numba kernels are loaded)
RSS_LIMIT = 768 * MiB


class Pool:
    """Run jobs (an importable function and its arguments) in ``size`` long-lived worker processes, each
    job under a time limit and memory bounds.

    Workers start at :meth:`start` (or the first job) and are replaced, in the background, whenever one is
    killed or retired; each runs ``warmup`` (a function without arguments: imports, compiled kernels) before
    it takes a job, so a job's time limit is never spent loading code.  The pool's first warm-up runs
    alone: the other workers wait for it (at most ``warmup_limit``) and then load what it compiled from the
    cache, so a cold compile cache is compiled once, not once a worker.  What the warm-up reports
    (:func:`~zerosum.pool.base.report`) is kept for :attr:`preparing`.  A job waits ``wait`` seconds for a
    worker (None: as long as it takes), and ``ready_wait`` seconds when no worker is warm yet (the first ones
    are warming up: seconds to a minute on a cold compile cache), so that a pool just started is slow to
    answer, never busy.
    """

    def __init__(self, size: int = 2, wait: float | None = 10.0, mode: str = "process", *,
                 memory_limit: int | None = MEMORY_LIMIT, rss_limit: int | None = RSS_LIMIT,
                 warmup: Callable[[], Any] | None = None, warmup_limit: float = 120.0, quiet: bool = False,
                 ready_wait: float | None = None) -> None:
        if mode not in ("process", "inline"):
            raise ValueError(f"mode is 'process' or 'inline', not {mode!r}")
        if warmup is not None:
            check_function(warmup)
        self.size, self.wait, self.mode = max(1, size), wait, mode
        self.memory_limit, self.rss_limit, self.quiet = memory_limit, rss_limit, quiet
        self.warmup, self.warmup_limit = warmup, warmup_limit
        self.ready_wait = wait if ready_wait is None or wait is None else max(wait, ready_wait)
        self._warming: dict[int, tuple[float, str]] = {}  # id of a warming worker -> (since, what it prepares)
        self._first_warm_up: threading.Event | None = None  # set once the pool's first warm-up has ended
        # the idle workers, the last one back taken first: a worker that just answered (its tables warm, a
        # progressive analysis kept: zerosum.analysis) answers the next job when it is free; a str: why a worker
        # could not start
        self._idle: queue.Queue[Worker | str | None] = queue.LifoQueue()
        self._lock = threading.Lock()
        self._all: list[Worker] = []
        self._started = self._closed = False
        # one thread starts every worker and lives as long as the pool (see the module docstring)
        self._spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zerosum-engine-spawner")

    @property
    def ready(self) -> int:
        """How many workers are up and warm (busy or idle)."""
        with self._lock:
            return sum(1 for w in self._all if w.warm)

    @property
    def preparing(self) -> tuple[float, str] | None:
        """While no worker is warm: how long the first has been warming up (seconds) and what it prepares now
        (what its warm-up last reported, "" before anything); None once one is warm, or none is warming."""
        with self._lock:
            if any(w.warm for w in self._all) or not self._warming:
                return None
            since, doing = min(self._warming.values())
        return time.monotonic() - since, doing

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers alive now."""
        with self._lock:
            return [w.pid for w in self._all]

    def start(self) -> None:
        """Start the workers now, in the background (the first job does it otherwise)."""
        with self._lock:
            if self._started or self._closed or self.mode == "inline":
                return
            self._started = True
        for _ in range(self.size):
            self._replace()

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...] = (), timeout: float | None = None,
            on_event: OnEvent | None = None) -> Any:
        """``fn(*args)`` run in a worker: its result; raises its GameError again, or EngineTimeout /
        EngineBusy / EngineMemory / EngineFailed (EngineCrashed when the worker died)."""
        check_function(fn)
        if self.mode == "inline":
            set_sink(on_event)
            try:
                reply = run_job(fn, tuple(args))
            finally:
                set_sink(None)
        else:
            reply = self._run_in_worker(fn, tuple(args), timeout, on_event)
        return unpack(reply, self.memory_limit)

    def each(self, supervise: Callable[["Pool", Any], Any], items: Iterable[Any],
             on_result: Callable[[Any, Any], None], stop: Callable[[], bool] = lambda: False) -> bool:
        """``supervise(self, item)`` for every item, ``size`` at a time (see :func:`run_each`)."""
        return run_each(lambda item: supervise(self, item), self.size, items, on_result, stop, self.close)

    def _replace(self) -> None:
        """Start a worker in the background; it joins the idle ones once warm."""
        start_thread(self._new_worker, "zerosum-engine-warmup")

    def _spawn(self) -> Worker | None:
        """A new worker, started by the spawner thread; None once the pool is closed, or when no process could
        be started (a job waiting for a worker is then told why)."""
        try:
            worker = self._spawner.submit(Worker, self.memory_limit, self.quiet).result()
        except Exception as exc:  # noqa: BLE001 - closed (RuntimeError, CancelledError), or no process
            if not self._closed:  # the next job waiting for a worker fails with why, in one line
                self._idle.put(f"an engine process could not start: {describe_exception(exc)}")
            return None
        with self._lock:
            if not self._closed:
                self._all.append(worker)
                return worker
        worker.kill()
        return None

    def _new_worker(self) -> None:  # in a thread of its own: warm-ups run side by side
        worker = self._spawn()
        if worker is None:
            return
        if self.warmup is not None:
            first = self._follow_first_warm_up()
            key = id(worker)

            def progress(message: Any) -> None:
                if isinstance(message, tuple) and len(message) == 2 and message[0] == "preparing":
                    with self._lock:
                        self._warming[key] = (self._warming[key][0], str(message[1]))

            with self._lock:
                self._warming[key] = (time.monotonic(), "")
            try:
                if worker.call(self.warmup, (), self.warmup_limit, progress)[0] == "memory":
                    raise MemoryError
            except BaseException:  # noqa: BLE001 - a worker that cannot warm up is replaced by a cold one
                self._discard(worker)
                worker = self._spawn()
                if worker is None:
                    return
            finally:
                with self._lock:
                    self._warming.pop(key, None)
                if first is not None:
                    first.set()
        worker.warm = True
        self._idle.put(worker)

    def _follow_first_warm_up(self) -> threading.Event | None:
        """The event to set after this warm-up when it is the pool's first (None otherwise), after waiting for
        the first one to end, at most ``warmup_limit`` seconds, when it is not."""
        with self._lock:
            first = self._first_warm_up
            if first is None:
                self._first_warm_up = threading.Event()
                return self._first_warm_up
        first.wait(self.warmup_limit)
        return None

    def _take(self) -> Worker:
        """An idle live worker, waiting up to ``wait`` seconds for one (``ready_wait`` while none is warm)."""
        self.start()
        starting = self.ready == 0
        wait = self.ready_wait if starting else self.wait
        deadline = None if wait is None else time.monotonic() + wait
        while True:
            try:
                worker = self._idle.get(timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                if starting:
                    raise EngineBusy(f"the engines are still starting after {wait:g} s; try again in a moment") from None
                raise EngineBusy("every engine is busy; try again in a moment") from None
            if worker is None or self._closed:
                self._idle.put(None)  # wakes the next waiter too
                if isinstance(worker, Worker):
                    worker.kill()
                raise EngineBusy("the pool is stopping")
            if isinstance(worker, str):  # a worker that could not start: this job fails, the next tries again
                self._replace()
                raise EngineFailed(worker)
            if worker.alive():
                return worker
            self._discard(worker)  # died while idle
            self._replace()

    def _run_in_worker(self, fn: Callable[..., Any], args: tuple[Any, ...], timeout: float | None,
                       on_event: OnEvent | None) -> Reply:
        worker = self._take()
        try:
            reply = worker.call(fn, args, timeout, on_event)
        except (EngineCrashed, OSError, ValueError) as exc:
            self._retire(worker)
            if self._closed:
                raise EngineBusy("the pool is stopping") from None
            if isinstance(exc, EngineCrashed):
                raise
            raise EngineFailed("the engine process stopped unexpectedly") from None
        except BaseException:
            self._retire(worker)  # overran or broke: never reuse it
            raise
        size = rss(worker.pid) if self.rss_limit else None
        if reply[0] == "memory" or (size is not None and self.rss_limit and size > self.rss_limit) or self._closed:
            self._retire(worker)  # a worker past its bound is replaced
        else:
            self._idle.put(worker)
        return reply

    def _retire(self, worker: Worker) -> None:
        self._discard(worker)
        if not self._closed:
            self._replace()

    def _discard(self, worker: Worker) -> None:
        worker.kill()
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)

    def close(self) -> None:
        """Stop every worker (jobs asked for afterwards are refused as busy)."""
        with self._lock:
            self._closed = True
            workers, self._all = self._all, []
        if self._first_warm_up is not None:
            self._first_warm_up.set()  # no worker waits for it any more
        for worker in workers:  # first: the spawner thread's end kills them (the parent-death signal), and what
            worker.kill()  # their jobs started outside their group is then out of reach (core.processes.kill_tree)
        self._spawner.shutdown(wait=False, cancel_futures=True)  # a spawn under way: killed by _spawn (closed)
        self._idle.put(None)  # wakes a caller waiting for a worker (each one passes it on)

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_DONE = object()


def run_each(task: Callable[[Any], Any], size: int, items: Iterable[Any], on_result: Callable[[Any, Any], None],
             stop: Callable[[], bool], close: Callable[[], None]) -> bool:
    """``task(item)`` for every item in ``size`` threads; ``on_result(item, result)`` is called in the
    calling thread, in finishing order.  An exception of a task is raised here.  Returns False when
    ``stop()`` turned true first.  Whenever it returns before every item is done, ``close()`` ends whatever
    is still in flight."""
    todo: queue.Queue[Any] = queue.Queue()
    for item in items:
        todo.put(item)
    total = todo.qsize()
    results: queue.Queue[tuple[Any, Any, BaseException | None]] = queue.Queue()

    def loop() -> None:
        while True:
            try:
                item = todo.get_nowait()
            except queue.Empty:
                return
            try:
                results.put((item, task(item), None))
            except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
                results.put((item, None, exc))
                return

    threads = [start_thread(loop, "zerosum-pool-job") for _ in range(min(size, total))]
    done = 0
    finished = False
    try:
        while done < total:
            if stop():
                return False
            try:
                item, result, exc = results.get(timeout=0.25)
            except queue.Empty:
                if not any(t.is_alive() for t in threads) and results.empty():
                    raise EngineFailed("the pool's job threads ended with jobs left")  # pragma: no cover
                continue
            if exc is not None:
                raise exc
            done += 1
            on_result(item, result)
        finished = True
        return True
    finally:
        if not finished:
            while True:  # nothing more starts
                try:
                    todo.get_nowait()
                except queue.Empty:
                    break
            close()
