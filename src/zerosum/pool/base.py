"""What every backend of the pool shares: its errors, how a job runs, and how a job reports progress.

A job is an importable function and its arguments (both plain, picklable values): the pool never takes
``"module:function"`` strings.  While it runs, a job may call :func:`report` with a small message; the
caller of :meth:`Pool.run <zerosum.pool.local.Pool.run>` sees it through its ``on_event`` callback (the
arena uses this to run a clock per move).
"""

from __future__ import annotations

import sys
import threading
from typing import Any, Callable

__all__ = ["EngineTimeout", "EngineBusy", "EngineMemory", "EngineFailed", "EngineCrashed", "report",
           "run_job", "check_function", "start_thread", "hush_owner_warnings", "Reply", "OnEvent"]

#: what a worker answers for one job: ``(status, payload, message)``; see :func:`run_job`
Reply = tuple[str, Any, str]
#: called with each message a job reports; returns a new time limit (seconds from now) or None
OnEvent = Callable[[Any], "float | None"]


class EngineTimeout(Exception):
    """The engine did not answer within the time limit (its worker was killed)."""

    def __init__(self, message: str, limit: float = 0.0) -> None:
        super().__init__(message)
        self.limit = limit


class EngineBusy(Exception):
    """Every worker stayed busy for longer than the pool's wait (or the pool is closed)."""


class EngineMemory(EngineBusy):
    """The engine needed more memory than a worker may have (the worker is replaced)."""


class EngineFailed(Exception):
    """The engine raised something that is not a :class:`GameError` (a bug, reported without traceback)."""


class EngineCrashed(EngineFailed):
    """The worker process died in the middle of a job (a crash in native code, ``os._exit``)."""

    def __init__(self, message: str, exitcode: int | None = None) -> None:
        super().__init__(message)
        self.exitcode = exitcode


_sink = threading.local()  # where report() sends, in this thread: a worker's pipe or an inline caller


def report(message: Any) -> None:
    """Tell the caller of the running job something (a no-op outside a pool job)."""
    send = getattr(_sink, "send", None)
    if send is not None:
        send(message)


def set_sink(send: Callable[[Any], Any] | None) -> None:
    """Where :func:`report` sends in this thread (the worker loop and inline runs set it)."""
    _sink.send = send


def start_thread(target: Callable[[], Any], name: str) -> threading.Thread:
    """A started daemon thread running ``target``.  An exception it lets out (a bug: the pool's threads hand
    their failures on) is one line on standard error, never a traceback."""

    def guarded() -> None:
        try:
            target()
        except Exception as exc:  # noqa: BLE001 - reported in one line
            from ..core.files import describe_exception

            try:
                sys.stderr.write(f"zerosum: thread {name}: {describe_exception(exc)}\n")
            except (AttributeError, OSError, ValueError):  # no standard error, or closed
                pass

    thread = threading.Thread(target=guarded, name=name, daemon=True)
    thread.start()
    return thread


def hush_owner_warnings() -> None:
    """In a worker, for its whole life: no :class:`~zerosum.agents.unbounded.SearchLimitWarning` (a search
    that cannot end), which the worker's owner said before its first job (``match``, ``zerosum tournament``),
    so that a search in a worker never says it again beside it."""
    import warnings

    from ..agents.unbounded import SearchLimitWarning

    warnings.filterwarnings("ignore", category=SearchLimitWarning)


def check_function(fn: Any) -> None:
    """Refuse anything but a function object as a job (a ``"module:function"`` string above all)."""
    if isinstance(fn, str) or not callable(fn):
        raise TypeError(f"a pool job is an importable function, not {type(fn).__name__} {fn!r}")


def run_job(fn: Callable[..., Any], args: tuple[Any, ...]) -> Reply:
    """Run ``fn(*args)``: ``("ok", result, "")``, ``("game", ErrorClassName, message)`` for a
    :class:`GameError`, ``("memory", None, message)`` when memory ran out, ``("error", None, message)``
    for anything else (one line, never a traceback)."""
    from ..core.files import describe_exception
    from ..errors import GameError

    try:
        return "ok", fn(*args), ""
    except GameError as exc:
        return "game", type(exc).__name__, str(exc)
    except MemoryError:
        return "memory", None, "the engine ran out of memory"
    except Exception as exc:  # reported as a failure of the engine, never a traceback
        return "error", None, describe_exception(exc)


def unpack(reply: Reply, memory_limit: int | None) -> Any:
    """The result of a reply, or its error raised again."""
    status, payload, message = reply
    if status == "ok":
        return payload
    if status == "game":
        from ..errors import GameError

        found, stack = GameError, [GameError]  # the GameError subclass of that name (every one in the tree)
        while stack:
            cls = stack.pop()
            if cls.__name__ == payload:
                found = cls
                break
            stack.extend(cls.__subclasses__())
        raise found(message)
    if status == "memory":
        bound = f" (a worker may use {memory_limit // 2**20} MB)" if memory_limit else ""
        raise EngineMemory(f"{message}{bound}: ask for a smaller search")
    raise EngineFailed(message)
