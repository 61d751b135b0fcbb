"""Engine calls with hard limits: a small pool of worker processes, killed when they overrun.

A search that runs past its limit (a deep ``minimax:depth=12``, a solver on a hard position) cannot be
stopped from outside in a thread, so every engine call of the server runs in a worker process.  When a
call takes longer than its limit the worker is killed and replaced; when every worker is busy for longer
than ``wait`` seconds the caller is told the server is busy.  Workers are plain ``python -m zerosum.ui.worker``
processes started lazily (no fork of a threaded server), speaking one JSON line per job and per reply;
``mode="inline"`` runs calls in the calling thread (no limit: for tests and debugging).

Bounds (the numbers are the defaults of :class:`EnginePool`):

* memory: a worker may map at most :data:`MEMORY_LIMIT` bytes of data (``RLIMIT_DATA``, set by the worker
  itself at start); past it the job fails with :class:`EngineMemory` and the worker is replaced.  A worker
  whose resident memory is above :data:`RSS_LIMIT` after a job (a table it keeps) is replaced too.
* life: a worker dies with the process that started it, even when that one is killed with SIGKILL
  (:func:`zerosum.core.processes.die_with_parent`: on Linux the kernel's parent-death signal, elsewhere a
  thread watching the parent).  Workers are started from one long-lived thread of the pool, because Linux
  sends the parent-death signal when the *thread* that started the child ends.
"""

from __future__ import annotations

import importlib
import os
import queue
import select
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

__all__ = ["EnginePool", "EngineTimeout", "EngineBusy", "EngineFailed", "EngineMemory", "MEMORY_LIMIT", "RSS_LIMIT"]

MiB = 2**20
#: the most data memory a worker may map (bytes; RLIMIT_DATA): an engine that needs more fails, cleanly
MEMORY_LIMIT = 1536 * MiB
#: a worker above this resident size after a job is replaced (a fresh worker is about 20 MB, and about
#: 230 MB once the numba kernels are loaded)
RSS_LIMIT = 768 * MiB


class EngineTimeout(Exception):
    """The engine did not answer within the time limit."""


class EngineBusy(Exception):
    """Every worker stayed busy for longer than the pool's wait (or the pool is closed)."""


class EngineMemory(EngineBusy):
    """The engine needed more memory than a worker may have (the worker is replaced)."""


class EngineFailed(Exception):
    """The engine raised something that is not a :class:`GameError` (a bug, reported without traceback)."""


def _resolve(target: str) -> Any:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def run_job(target: str, args: tuple[Any, ...]) -> tuple[str, Any, str]:
    """Run ``module:function`` on ``args``: ``("ok", result, "")``, ``("game", ErrorClassName, message)``
    for a :class:`GameError`, ``("memory", None, message)`` when memory ran out, ``("error", None, message)``
    for anything else."""
    from ..errors import GameError

    try:
        return "ok", _resolve(target)(*args), ""
    except GameError as exc:
        return "game", type(exc).__name__, str(exc)
    except MemoryError:
        return "memory", None, "the engine ran out of memory"
    except Exception as exc:  # reported as a failure of the engine, never a traceback
        return "error", None, f"{type(exc).__name__}: {exc}"


def _limit_memory(limit: int) -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not POSIX, or a lower hard limit
        pass


def main() -> None:  # pragma: no cover - runs in the worker process
    """The worker: ``python -m zerosum.ui.worker PARENT_PID MEMORY_LIMIT``; one JSON job a line on
    standard input, one JSON reply a line on standard output."""
    import json
    import signal

    from ..core.processes import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's: it stops the workers
    parent = int(sys.argv[1]) if len(sys.argv) > 1 else os.getppid()
    die_with_parent(parent)
    if len(sys.argv) > 2 and int(sys.argv[2]) > 0:
        _limit_memory(int(sys.argv[2]))
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # anything else printed goes to standard error, never into the protocol
    for line in sys.stdin:  # ends when the server closes the pipe (or dies)
        try:
            target, args = json.loads(line)
            reply = run_job(str(target), tuple(args))
        except ValueError as exc:
            reply = ("error", None, f"bad job: {exc}")
        try:
            text = json.dumps(reply)
        except (TypeError, ValueError):
            text = json.dumps(("error", None, f"{target} returned {type(reply[1]).__name__}, which is not JSON"))
        protocol.write(text + "\n")
        protocol.flush()


def rss(pid: int) -> int | None:
    """The resident memory of process ``pid`` in bytes (Linux ``/proc``), None where unknown."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class _Worker:
    """One worker process (``python -m zerosum.ui.worker``), talked to through pipes."""

    def __init__(self, memory_limit: int) -> None:
        self.warm = False  # ran the pool's warm-up
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "zerosum.ui.worker", str(os.getpid()), str(memory_limit)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    @property
    def pid(self) -> int:
        return self.proc.pid

    def call(self, target: str, args: tuple[Any, ...], timeout: float) -> tuple[str, Any, str]:
        import json

        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([target, list(args)]) + "\n")
        self.proc.stdin.flush()
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            raise EngineTimeout(f"the engine did not answer within {timeout:g} s")
        line = self.proc.stdout.readline()
        if not line:
            raise EOFError("the worker stopped")
        status, payload, message = json.loads(line)
        return status, payload, message

    def kill(self) -> None:
        self.proc.kill()
        try:
            self.proc.wait(2)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass


class EnginePool:
    """Run ``module:function`` jobs in ``size`` worker processes with a per-call time limit and memory bounds.

    Workers start at :meth:`start` (or the first job) and are replaced, in the background, whenever one is
    killed or retired; each runs ``warmup`` (a job without arguments: imports, compiled kernels) before it
    takes a job, so a job's time limit is never spent loading code.
    """

    def __init__(self, size: int = 2, wait: float = 10.0, mode: str = "process", *,
                 memory_limit: int = MEMORY_LIMIT, rss_limit: int = RSS_LIMIT,
                 warmup: str | None = None, warmup_limit: float = 120.0) -> None:
        if mode not in ("process", "inline"):
            raise ValueError(f"mode is 'process' or 'inline', not {mode!r}")
        self.size, self.wait, self.mode = size, wait, mode
        self.memory_limit, self.rss_limit = memory_limit, rss_limit
        self.warmup, self.warmup_limit = warmup, warmup_limit
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._lock = threading.Lock()
        self._all: list[_Worker] = []
        self._started = self._closed = False
        # one thread starts every worker and lives as long as the pool (see the module docstring)
        self._spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="zerosum-engine-spawner")

    @property
    def ready(self) -> int:
        """How many workers are up and warm (busy or idle)."""
        with self._lock:
            return sum(1 for w in self._all if w.warm)

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

    def run(self, target: str, args: tuple[Any, ...], timeout: float) -> Any:
        """The job's result; raises its GameError again, or EngineTimeout / EngineBusy / EngineMemory /
        EngineFailed."""
        if self.mode == "inline":
            reply = run_job(target, args)
        else:
            reply = self._run_in_worker(target, args, timeout)
        status, payload, message = reply
        if status == "ok":
            return payload
        if status == "game":
            from .. import errors

            cls = getattr(errors, payload, None) or errors.GameError
            raise cls(message)
        if status == "memory":
            raise EngineMemory(f"{message} (a worker may use {self.memory_limit // MiB} MB): ask for a smaller search")
        raise EngineFailed(message)

    def _replace(self) -> None:
        """Start a worker in the background; it joins the idle ones once warm."""
        threading.Thread(target=self._new_worker, name="zerosum-engine-warmup", daemon=True).start()

    def _spawn(self) -> _Worker | None:
        """A new worker, started by the spawner thread; None once the pool is closed."""
        try:
            worker = self._spawner.submit(_Worker, self.memory_limit).result()
        except RuntimeError:  # closed
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
        if self.warmup:
            try:
                worker.call(self.warmup, (), self.warmup_limit)
            except BaseException:  # noqa: BLE001 - a worker that cannot warm up is replaced by a cold one
                self._discard(worker)
                worker = self._spawn()
                if worker is None:
                    return
        worker.warm = True
        self._idle.put(worker)

    def _take(self) -> _Worker:
        """An idle live worker, waiting up to ``wait`` seconds for one."""
        self.start()
        while True:
            try:
                worker = self._idle.get(timeout=self.wait)
            except queue.Empty:
                raise EngineBusy("every engine is busy; try again in a moment") from None
            if self._closed:
                raise EngineBusy("the server is stopping")
            if worker.proc.poll() is None:
                return worker
            self._discard(worker)  # died while idle
            self._replace()

    def _run_in_worker(self, target: str, args: tuple[Any, ...], timeout: float) -> tuple[str, Any, str]:
        worker = self._take()
        try:
            reply = worker.call(target, args, timeout)
        except (EOFError, OSError, ValueError):
            self._retire(worker)
            if self._closed:
                raise EngineBusy("the server is stopping") from None
            raise EngineFailed("the engine process stopped unexpectedly") from None
        except BaseException:
            self._retire(worker)  # overran or broke: never reuse it
            raise
        size = rss(worker.pid)
        if reply[0] == "memory" or (size is not None and size > self.rss_limit) or self._closed:
            self._retire(worker)  # a worker past its bound is replaced
        else:
            self._idle.put(worker)
        return reply

    def _retire(self, worker: _Worker) -> None:
        self._discard(worker)
        if not self._closed:
            self._replace()

    def _discard(self, worker: _Worker) -> None:
        worker.kill()
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)

    def close(self) -> None:
        """Stop every worker (jobs asked for afterwards are refused as busy)."""
        with self._lock:
            self._closed = True
            workers, self._all = self._all, []
        self._spawner.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.kill()


if __name__ == "__main__":  # pragma: no cover
    main()
