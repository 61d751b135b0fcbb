"""One worker process of the pool and the handle its owner holds.

The worker is a fresh interpreter (``spawn``: no fork of a threaded parent) that runs jobs sent over a
pipe until the pipe closes.  It imports zerosum and nothing of its owner's: not the owner's main module,
which multiprocessing would run again in every spawned child (a script's top level, its prints and its
``zerosum.match(..., jobs=2)`` call, when the script has no ``if __name__ == "__main__":`` guard), because a
job is an importable function and plain values, never something of ``__main__`` (:func:`_skip_main`).
First thing, it starts a session (and process group) of its own, so that whatever a job starts (a
student's ``subprocess.Popen``) is in its group, and the group is killed with it
(:meth:`Worker.kill`, which every way a worker ends goes through: a job past its limit, a pool closing at
the end of a run or on Ctrl-C, a polite :meth:`Worker.stop`), and so is every descendant still below the
worker that started a session or group of its own (``start_new_session=True``); one whose parent has ended
by then (a daemon that forked twice) belongs to init and is out of reach.  It ignores Ctrl-C (its owner stops it), arranges to die with its
owner even on SIGKILL (:func:`zerosum.core.processes.die_with_parent`), bounds its data memory
(``RLIMIT_DATA``) and leaves the warnings its owner gives to the owner (:func:`~.base.hush_owner_warnings`).
Messages it sends: ``("event", message)`` for each :func:`report` of the job, then
``("done", status, payload, message)`` (see :func:`zerosum.pool.base.run_job`).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import sys
import threading
import time
from typing import Any, Callable

from ..core.processes import kill_tree
from .base import EngineCrashed, EngineTimeout, OnEvent, Reply, hush_owner_warnings, run_job, set_sink

__all__ = ["Worker", "rss", "WORKER_NAME"]

#: the name of every worker process (the one whose start leaves the owner's main module out: :func:`_skip_main`)
WORKER_NAME = "zerosum-engine-worker"
_SKIPPING = threading.Lock()


def _limit_memory(limit: int) -> None:
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, ValueError, OSError):  # pragma: no cover - not POSIX, or a lower hard limit
        pass


def _own_group() -> None:  # pragma: no cover - in a worker
    """Make this process the leader of a session and process group of its own (its id is the group's id)."""
    try:
        os.setsid()
    except (AttributeError, OSError):  # not POSIX: the worker alone is killed
        pass


def _skip_main() -> None:
    """Have multiprocessing start the processes named :data:`WORKER_NAME` without the owner's main module.

    A spawned child runs what its parent's preparation data names (``init_main_from_path`` for a script,
    ``init_main_from_name`` for ``python -m``) as ``__mp_main__`` before its target, so that a function of
    ``__main__`` can be unpickled there.  Multiprocessing has no switch for it, so its
    ``spawn.get_preparation_data`` is wrapped, once, to drop those two entries for a worker (the process name
    is its argument); every other process's data is left as it was."""
    from multiprocessing import spawn

    with _SKIPPING:
        original = spawn.get_preparation_data
        if getattr(original, "zerosum_skips_main", False):
            return

        @functools.wraps(original)
        def preparation_data(name: str) -> dict[str, Any]:
            data = original(name)
            if name == WORKER_NAME:
                data.pop("init_main_from_path", None)
                data.pop("init_main_from_name", None)
            return data

        preparation_data.zerosum_skips_main = True  # type: ignore[attr-defined]
        spawn.get_preparation_data = preparation_data


def _serve(conn: Any, parent: int, memory_limit: int | None, quiet: bool) -> None:  # pragma: no cover - a worker
    """The worker's loop: run each ``(function, args)`` received, until the pipe closes or sends None."""
    _own_group()  # before any job: everything a job starts is in the group the owner kills
    from ..core.processes import die_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the owner's: it stops the workers
    die_with_parent(parent)  # even on SIGKILL of the owner, in the middle of a job
    if memory_limit:
        _limit_memory(memory_limit)
    hush_owner_warnings()  # what the owner said before the jobs is not said again from here
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # an engine's prints never reach the owner's screen or its protocol
    if quiet:
        os.dup2(devnull, 2)
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    if quiet:
        sys.stderr = sys.stdout
    set_sink(lambda message: conn.send(("event", message)))
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        except Exception as exc:  # noqa: BLE001 - a job this process cannot load (a thing of the owner's __main__)
            job = exc
        if job is None:
            return
        reply = _answer(job)
        try:
            conn.send(("done", *reply))
        except (BrokenPipeError, EOFError, OSError):
            return
        except Exception:  # noqa: BLE001 - the result cannot be pickled
            what = type(reply[1]).__name__
            fn = job[0] if isinstance(job, tuple) and job else None
            conn.send(("done", "error", None, f"{getattr(fn, '__name__', 'the job')} returned {what}, "
                       "which cannot be sent back"))


def _answer(job: Any) -> Reply:  # pragma: no cover - in a worker
    """The reply to one job received: ``(function, args)`` run, or what stopped it from loading."""
    if isinstance(job, Exception):
        return ("error", None, f"bad job: {type(job).__name__}: {job} (a worker loads a job's function and values "
                "from their modules, never from its owner's __main__)")
    try:
        fn, args = job
        return run_job(fn, tuple(args))
    except Exception as exc:  # noqa: BLE001 - a job that cannot even be unpacked
        return ("error", None, f"bad job: {type(exc).__name__}: {exc}")


def rss(pid: int) -> int | None:
    """The resident memory of process ``pid`` in bytes (Linux ``/proc``), None where unknown."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class Worker:
    """One worker process, started at once; :meth:`call` runs a job in it under a time limit."""

    def __init__(self, memory_limit: int | None = None, quiet: bool = False) -> None:
        _skip_main()
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, os.getpid(), memory_limit, quiet), daemon=True,
                                   name=WORKER_NAME)
        self.process.start()
        child.close()
        self._pid = self.process.pid or 0
        self._exitcode: int | None = None  # once the process object is closed
        self.warm = False  # ran its pool's warm-up
        # the pipe is closed once, under this lock, and never under a call reading it: two threads closing
        # one Connection could both pass its "still open" check, and the second close would hit whatever
        # file took the descriptor number in between (a record, another worker's pipe)
        self._lock = threading.Lock()
        self._calling = False
        self._close_after_call = False
        # the process object is closed once it ended (its two pipes to the spawned child, which only a garbage
        # collection would close otherwise), under this lock, and never while a call or a kill waits on it
        self._ending = threading.RLock()
        self._closed = False
        self._group_killed = False

    @property
    def pid(self) -> int:
        return self._pid

    @property
    def exitcode(self) -> int | None:
        """The process's exit code once it ended (None while it runs)."""
        with self._ending:
            return self._exitcode if self._closed else self.process.exitcode

    def alive(self) -> bool:
        with self._ending:
            return not self._closed and self.process.is_alive()

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], timeout: float | None,
             on_event: OnEvent | None = None) -> Reply:
        """The job's reply.  ``timeout`` (seconds, None for none) counts from now; ``on_event`` may set a new
        one (seconds from the event) with each message the job reports.  Raises :class:`EngineTimeout` past
        the limit and :class:`EngineCrashed` when the process dies; the caller must then kill this worker."""
        with self._lock:
            stopped = self.conn.closed
            if not stopped:
                self._calling = True
        if stopped:  # (its exit code outside the lock: a kill takes the locks the other way round)
            raise EngineCrashed("the engine process was stopped", self.exitcode)
        try:
            return self._call(fn, args, timeout, on_event)
        finally:
            with self._lock:
                self._calling = False
                ended = self._close_after_call
                if ended:
                    self._close_pipe()
            if ended:
                self._close_process()

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...], timeout: float | None,
              on_event: OnEvent | None) -> Reply:
        self.conn.send((fn, args))
        limit = timeout
        deadline = None if timeout is None else time.perf_counter() + timeout
        while True:
            wait = None if deadline is None else deadline - time.perf_counter()
            if wait is not None and wait <= 0:
                raise EngineTimeout(f"the engine did not answer within {limit:g} s", limit or 0.0)
            if not self.conn.poll(wait):
                continue
            try:
                msg = self.conn.recv()
            except (EOFError, OSError):
                self.process.join(5)  # its pipe is closed: it is ending (1 s was short on a loaded machine: "None")
                code = self.process.exitcode
                raise EngineCrashed(f"the engine process stopped unexpectedly (exit code {code})", code) from None
            if msg[0] == "event":
                new = on_event(msg[1]) if on_event is not None else None
                if new is not None:
                    limit = new
                    deadline = None if new == float("inf") else time.perf_counter() + new
                continue
            _, status, payload, message = msg
            return status, payload, message

    def kill(self) -> None:
        """End the process and close the pipe and the process object (every descriptor the worker held here);
        safe from any thread, any number of times.  A call in progress in another thread sees the process die
        and closes them on its way out."""
        with self._ending:
            if self._closed:
                return
            self._kill_group()
            if self.process.is_alive():
                self.process.kill()
            self.process.join(2)
            with self._lock:
                if self._calling:
                    self._close_after_call = True
                    return
                self._close_pipe()
            self._close_process()

    def _kill_group(self) -> None:
        """SIGKILL the worker's process group: the worker and whatever its jobs started that is still in it or
        still below the worker (:func:`~zerosum.core.processes.kill_tree`; once; under ``_ending``).  Its id is the worker's, which the system gives no other process while the
        worker is unreaped or any process of the group lives: every caller kills as soon as it has seen the
        worker end.  No group yet (killed before it made one: no job ran) is nothing to kill."""
        if self._group_killed or self._pid <= 0:
            return
        self._group_killed = True
        kill_tree(self._pid)  # also what left the group, while the worker lives to be its ancestor

    def _close_process(self) -> None:
        """Close the ended process object (once; a process still running after the kill's wait stays open)."""
        with self._ending:
            if self._closed:
                return
            self._exitcode = self.process.exitcode
            try:
                self.process.close()
            except ValueError:  # pragma: no cover - not reaped within the wait: the next kill tries again
                return
            self._closed = True

    def _close_pipe(self) -> None:  # under the lock
        try:
            self.conn.close()
        except OSError:  # its descriptor is gone already: nothing left to close
            pass

    def stop(self) -> None:
        """End the worker politely (it finishes nothing: call between jobs): what its jobs started ends first,
        while it is still below the worker."""
        with self._ending:
            if not self._group_killed:
                kill_tree(self._pid, spare_leader=True)
        try:
            self.conn.send(None)
        except OSError:
            pass
        with self._ending:
            if not self._closed:
                self.process.join(2)
        self.kill()
