"""The words of a wait on the engines' preparation (:mod:`zerosum.agents.prepare`): seconds, about how long a
compile has left, and the line that says it, fitted to a width.

A wait line is one line under the board.  On a wide terminal it says everything (``preparing the engine (the
solver's search), first run only: compiling for 45 s, about 10 s more; waiting 3.0 s``); where that does not
fit, shorter words say the same, the estimate first (``preparing the engine, first run only: about 10 s
more; compiled 45 s``, or ``preparing the engine (first run): about 10 s more; compiled 45 s, waited 3.0 s``),
then less and less, so a narrow terminal never sees the line cut before the
estimate (:func:`fit`; 80 columns keep every figure, 60 the estimate).

Whether a step compiles (a first run, and the words say so) or loads from numba's cache is :func:`compiling`:
numba tells of each compile as it begins (:func:`hear_compiles`), so a first run is said as soon as it shows.

This module knows nothing of the steps but their fields (``ready``, ``running``, ``started``, ``owner``, ``cold``,
``key``), so that :mod:`.prepare` imports it and never the other way round.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

__all__ = ["seconds", "remaining", "compile_words", "fit", "compiling", "heard", "hear_compiles", "keep_streams",
           "on_stderr"]

#: a step running longer than this is compiling, not loading from the cache: a first run (when numba has not
#: said so before: :func:`hear_compiles`)
COMPILING_AFTER = 1.5
#: thread -> when numba last began a compile in it (a miss of its cache: a load from the cache is none)
_COMPILED: dict[int, float] = {}


def seconds(x: float) -> str:
    """A wait in words: ``0.4 s``, ``12 s``."""
    return f"{x:.1f} s" if x < 9.95 else f"{x:.0f} s"


def hear_compiles() -> None:
    """From now on numba tells :data:`_COMPILED` of each compile as it begins (its ``numba:compile`` event), so
    a step is known to compile -- a first run -- at once, not :data:`COMPILING_AFTER` seconds in.  Once a process
    (numba's start, :func:`~.prepare.numba_step`: numba is imported)."""
    from numba.core import event

    class Heard(event.Listener):
        def on_start(self, _: Any) -> None:
            _COMPILED[threading.get_ident()] = time.perf_counter()

        def on_end(self, _: Any) -> None:
            pass

    event.register("numba:compile", Heard())  # type: ignore[no-untyped-call]


def keep_streams() -> None:
    """numba words its errors -- also the hundreds it raises and catches itself in one compile -- inside
    colorama's ``init()`` and ``deinit()``, which replace ``sys.stdout`` and ``sys.stderr`` for the whole process,
    then put back the streams they found.  A compile in the background (a step) so undid what the main thread
    redirected meanwhile: a notebook's ``redirect_stdout``, a capture, a test's (whose output then went to the
    run's own capture).  The words are made as before, colour codes and all; only the swap is gone: nothing is
    written while it lasts.  Once a process (numba's start)."""
    import contextlib

    from numba.core import errors

    if hasattr(errors, "ColorShell"):  # colorama is installed (numba's plain scheme has no shell)
        errors.ColorShell = contextlib.nullcontext


def heard(step: Any) -> bool:
    """Whether numba began a compile in the thread running ``step`` since it started (:func:`hear_compiles`)."""
    started = step.started
    return bool(step.running and started is not None and _COMPILED.get(step.owner or 0, -1.0) >= started)


def compiling(steps: Iterable[Any], now: float) -> bool:
    """Whether one of ``steps`` (numba's own start aside) is compiling (a first run): numba said so
    (:func:`heard`), or it has run longer than a load takes."""
    return any(s.running and s.key != "numba" and (heard(s) or now - (s.started or now) > COMPILING_AFTER)
               for s in steps)


def _load_factor() -> float:
    """About how much slower than on an idle machine a compile runs now: the square root of the load per
    core, at least 1 (measured: about 2 at a load of 9 on two cores)."""
    try:
        load = os.getloadavg()[0]
    except OSError:  # not available on this system
        return 1.0
    return float(max(1.0, load / (os.cpu_count() or 1)) ** 0.5)


def remaining(steps: Iterable[Any], now: float | None = None) -> float:
    """About how many more seconds ``steps`` (:class:`~zerosum.agents.prepare.Step`) take on a cold cache, on
    this machine as loaded now."""
    now = time.perf_counter() if now is None else now
    factor = _load_factor()
    left = 0.0
    for s in steps:
        if s.ready:
            continue
        ran = now - s.started if s.started is not None else 0.0
        left += max(0.0, s.cold * factor - ran)
    return left


#: while a wait goes on, it is said again this often (seconds): no long silence
UPDATE_EVERY = 10.0
#: a wait longer than this is said (:func:`said_while`)
SAY_AFTER = 2.0


@contextlib.contextmanager
def said_while(what: str | Callable[[float], str | None], after: float | None = None) -> Iterator[None]:
    """While inside: once ``after`` seconds (default :data:`SAY_AFTER`) have passed, ``zerosum: {what}: 2.0 s``
    on standard error (:func:`on_stderr`), then again every :data:`UPDATE_EVERY` seconds, so that a long wait is
    said and a quick one says nothing.  ``what`` may be a function of the seconds waited that makes the whole
    line, or None for nothing to say yet (asked again a moment later).  Where no thread can be had, nothing is
    said."""
    done, began = threading.Event(), time.perf_counter()

    def say() -> None:
        pause = SAY_AFTER if after is None else after
        while not done.wait(pause):
            waited = time.perf_counter() - began
            line = f"{what}: {seconds(waited)}" if isinstance(what, str) else what(waited)
            if line is None:
                pause = 0.2
                continue
            on_stderr(line)
            pause = UPDATE_EVERY

    thread: threading.Thread | None = threading.Thread(target=say, name="zerosum-wait-words", daemon=True)
    try:
        thread.start()  # type: ignore[union-attr]
    except RuntimeError:  # no thread to be had: the wait goes on unsaid
        thread = None
    try:
        yield
    finally:
        done.set()
        if thread is not None:
            thread.join()


def on_stderr(text: str) -> None:
    """``zerosum: text``, a line on standard error (if there is one to write to): a command's words of a wait
    (:func:`~.prepare.announce`), where no screen is redrawn."""
    try:
        if sys.stderr is not None:
            print(f"zerosum: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # standard error closed
        pass


def fit(variants: Sequence[str], width: int | None) -> str:
    """The first of ``variants`` (longest and fullest first) at most ``width`` characters long; the last, cut
    to ``width``, when none is; the first when ``width`` is None (no screen: a log line, a page)."""
    if width is None:
        return variants[0]
    width = max(1, width)
    return next((v for v in variants if len(v) <= width), variants[-1][:width])


def compile_words(label: str, ran: float, waited: float, left: float, width: int | None = None) -> str:
    """A compile's wait line: ``label`` is what compiles, ``ran`` its seconds so far, ``waited`` the person's
    (said apart when the wait began a second or more after the compile), ``left`` about how many seconds it
    has left (under a second: it is taking longer than usual).  Fitted to ``width`` (:func:`fit`)."""
    more = f"about {left:.0f} s more" if left >= 1 else "taking longer than usual"
    apart = abs(ran - waited) >= 1
    wait = f"; waiting {seconds(waited)}" if apart else ""
    only, short = "preparing the engine, first run only", "preparing the engine (first run)"
    counts = f"compiled {seconds(ran)}" + (f", waited {seconds(waited)}" if apart else "")
    latest = f"waited {seconds(waited)}" if apart else f"compiled {seconds(ran)}"
    return fit([f"preparing the engine ({label}), first run only: compiling for {seconds(ran)}, {more}{wait}",
                f"{only}: {more}; {counts}",
                f"{short}: {more}; {counts}",
                f"{only}: {more}; {latest}",
                f"{only}: {more}",
                f"{short}: {more}",
                f"preparing the engine: {more}"], width)
