"""The contest server's validations (:mod:`zerosum.ui.contest_server`): threads that check uploads, and the
uploads' waits for them.

:class:`Validations` runs each validation in one of ``workers`` threads, in turn.  They are daemon threads,
unlike a ``ThreadPoolExecutor``'s (which the interpreter joins at exit): when the server stops (Ctrl-C,
SIGTERM), a validation in progress does not hold the process up for its seconds.  It is cut short with the
process (its seat, the submission's program, dies with it), the upload stays ``validating`` in the database,
and the next start validates it again (as after a crash: the result is written in one SQLite transaction, or
not at all).

An upload waits for its validation (:meth:`Validations.wait_for`) on the event loop, at most so many seconds;
:meth:`Validations.stop` ends every such wait at once with ``EngineBusy`` "the server is stopping" (a 503).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
from typing import Any, Callable

from ..pool import EngineBusy
from ..pool.base import start_thread
from .connections import STOPPING

__all__ = ["Validations"]


class Validations:
    """``workers`` daemon threads running validations in turn, and the uploads waiting for them."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._todo: queue.SimpleQueue[tuple[concurrent.futures.Future[Any], Callable[[], Any]] | None] = \
            queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False
        self.stopping = False  # the server stops: waits end at once
        self._waits: set[Any] = set()  # the cancel scopes of the uploads waiting (on the event loop)

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> concurrent.futures.Future[Any]:
        """``fn(*args, **kwargs)`` in a validation thread, in turn: its future (cancelled once shut down)."""
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        with self._lock:
            if self._closed:
                future.cancel()
                return future
            self._todo.put((future, lambda: fn(*args, **kwargs)))
            if len(self._threads) < self.workers:
                self._threads.append(start_thread(self._loop, "zerosum-validate"))
        return future

    def _loop(self) -> None:
        while True:
            item = self._todo.get()
            if item is None:
                return
            future, call = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = call()
            except BaseException as exc:  # noqa: BLE001 - handed to whoever waits for it
                future.set_exception(exc)
            else:
                future.set_result(result)

    def shutdown(self, wait: bool = False, cancel_futures: bool = True) -> None:
        """No more validations: those not started are cancelled (``cancel_futures``), the threads end once their
        validation has (``wait``: wait for them here)."""
        with self._lock:
            self._closed = True
            threads = list(self._threads)
        if cancel_futures:
            left = []
            with contextlib.suppress(queue.Empty):
                while True:
                    item = self._todo.get_nowait()
                    if item is not None:
                        left.append(item[0])
            for future in left:
                future.cancel()
        for _ in threads:
            self._todo.put(None)
        if wait:
            for thread in threads:
                thread.join()

    async def wait_for(self, future: concurrent.futures.Future[Any], seconds: float) -> None:
        """Wait for a validation, at most ``seconds`` (it goes on past them); EngineBusy "the server is stopping"
        at once when the server stops meanwhile (:meth:`stop`)."""
        import anyio

        if self.stopping:
            raise EngineBusy(STOPPING)
        loop = asyncio.get_running_loop()
        done = asyncio.Event()

        def finished(_: Any) -> None:  # in the validation's thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: the server stopped
                loop.call_soon_threadsafe(done.set)

        future.add_done_callback(finished)
        scope = anyio.CancelScope()
        self._waits.add(scope)
        try:
            with scope, anyio.move_on_after(seconds):
                await done.wait()
        finally:
            self._waits.discard(scope)
        if scope.cancel_called:
            raise EngineBusy(STOPPING)

    def stop(self) -> int:
        """The server stops (on the event loop): every upload waiting for its validation answers at once, later
        waits are refused; how many were waiting."""
        self.stopping = True
        waits = list(self._waits)
        for scope in waits:
            scope.cancel()
        return len(waits)
