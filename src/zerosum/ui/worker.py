"""Engine calls with a hard time limit: a small pool of worker processes, killed when they overrun.

A search that runs past its limit (a deep ``minimax:depth=12``, a solver on a hard position) cannot be
stopped from outside in a thread, so every engine call of the server runs in a worker process.  When a
call takes longer than its limit the worker is killed and replaced; when every worker is busy for longer
than ``wait`` seconds the caller is told the server is busy.  Workers are plain ``python -m zerosum.ui.worker`` processes
started lazily (no fork of a threaded server), speaking one JSON line per job and per reply;
``mode="inline"`` runs calls in the calling thread (no limit: for tests and debugging).
"""

from __future__ import annotations

import importlib
import queue
import select
import subprocess
import sys
import threading
from typing import Any

__all__ = ["EnginePool", "EngineTimeout", "EngineBusy", "EngineFailed"]


class EngineTimeout(Exception):
    """The engine did not answer within the time limit."""


class EngineBusy(Exception):
    """Every worker stayed busy for longer than the pool's wait."""


class EngineFailed(Exception):
    """The engine raised something that is not a :class:`GameError` (a bug, reported without traceback)."""


def _resolve(target: str) -> Any:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def run_job(target: str, args: tuple[Any, ...]) -> tuple[str, Any, str]:
    """Run ``module:function`` on ``args``: ``("ok", result, "")``, ``("game", ErrorClassName, message)``
    for a :class:`GameError`, ``("error", None, message)`` for anything else."""
    from ..errors import GameError

    try:
        return "ok", _resolve(target)(*args), ""
    except GameError as exc:
        return "game", type(exc).__name__, str(exc)
    except Exception as exc:  # reported as a failure of the engine, never a traceback
        return "error", None, f"{type(exc).__name__}: {exc}"


def main() -> None:  # pragma: no cover - runs in the worker process
    """The worker: one JSON job a line on standard input, one JSON reply a line on standard output."""
    import json
    import os

    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # anything else printed goes to standard error, never into the protocol
    for line in sys.stdin:
        try:
            target, args = json.loads(line)
            reply = run_job(str(target), tuple(args))
        except ValueError as exc:
            reply = ("error", None, f"bad job: {exc}")
        protocol.write(json.dumps(reply) + "\n")
        protocol.flush()


class _Worker:
    """One worker process (``python -m zerosum.ui.worker``), talked to through pipes."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "zerosum.ui.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

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
    """Run ``module:function`` jobs in worker processes with a per-call time limit."""

    def __init__(self, size: int = 2, wait: float = 10.0, mode: str = "process") -> None:
        if mode not in ("process", "inline"):
            raise ValueError(f"mode is 'process' or 'inline', not {mode!r}")
        self.size, self.wait, self.mode = size, wait, mode
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._slots = threading.BoundedSemaphore(size)
        self._lock = threading.Lock()
        self._all: list[_Worker] = []

    def run(self, target: str, args: tuple[Any, ...], timeout: float) -> Any:
        """The job's result; raises its GameError again, or EngineTimeout / EngineBusy / EngineFailed."""
        if self.mode == "inline":
            reply = run_job(target, args)
        else:
            if not self._slots.acquire(timeout=self.wait):
                raise EngineBusy("every engine is busy; try again in a moment")
            try:
                reply = self._run_in_worker(target, args, timeout)
            finally:
                self._slots.release()
        status, payload, message = reply
        if status == "ok":
            return payload
        if status == "game":
            from .. import errors

            cls = getattr(errors, payload, None) or errors.GameError
            raise cls(message)
        raise EngineFailed(message)

    def _run_in_worker(self, target: str, args: tuple[Any, ...], timeout: float) -> tuple[str, Any, str]:
        try:
            worker = self._idle.get_nowait()
        except queue.Empty:
            worker = _Worker()
            with self._lock:
                self._all.append(worker)
        try:
            reply = worker.call(target, args, timeout)
        except (EOFError, OSError):
            self._discard(worker)
            raise EngineFailed("the engine process stopped unexpectedly") from None
        except BaseException:
            self._discard(worker)  # overran or broke: never reuse it
            raise
        self._idle.put(worker)
        return reply

    def _discard(self, worker: _Worker) -> None:
        worker.kill()
        with self._lock:
            if worker in self._all:
                self._all.remove(worker)

    def close(self) -> None:
        """Stop every worker."""
        with self._lock:
            workers, self._all = self._all, []
        for worker in workers:
            worker.kill()
        self._idle = queue.Queue()


if __name__ == "__main__":  # pragma: no cover
    main()
