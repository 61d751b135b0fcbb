"""Preparing the engines: their compiled code loaded (or compiled) before it is needed, in the background.

An engine with numba code (alpha-beta and MCTS on Connect-X, the solver) has it loaded before its first search:
about a second with a warm cache (mostly numba's own start), a compile of seconds to a minute with a cold one
(the first run after installing or changing the code).  A :class:`Step` is one piece of that work, done once
per process.  An agent lists the steps a search needs (``agent.preparation(game, state)``; :func:`steps_of`):

* :func:`warm` does them here and now (waiting for the background when it is already doing one);
* :func:`start` queues them for one background thread, so that whatever the process does meanwhile -- a
  person thinking over a move, the opening book's moves -- hides them;
* :func:`settle` waits for them until a deadline, for a search whose time limit counts from its call;
* :func:`status` says what is under way (of what a wait needs, or what runs ahead of it: :func:`preparing`),
  for a face to show during any wait: ``preparing the engine (the solver's search), first run only: compiling
  for 12 s, about 30 s more`` (in shorter words, the estimate first, on a narrow screen: :mod:`.prepare_words`);
  :func:`announce` says it in a line or two, for a command that has no screen to redraw;
* :func:`tell` says it to a person using zerosum from Python (a notebook's first search; :func:`warm` and a
  :class:`zerosum.Solver`'s search call it) through the ``zerosum.agents.prepare`` logger (with no logging set
  up, Python prints warnings on standard error): whoever waits says it, whoever started the compile (a timed
  search that went without it, silent), once; so do the commands but those that say it their own way
  (``zerosum play``, ``serve``...: :data:`SPEAK` off); a worker process, whose waits are its host's, never does.

A thread, not a process: a search's steps run one after another (the solver's search is compiled in one
piece), a compile costs in a thread what it costs in a process, and what it compiles is loaded when it ends.
Every numba call from the foreground waits on numba's compiler lock while a compile runs, so a foreground that
must not wait uses only :func:`ready` steps (benchmarks/first_search.py measures both).  A server prepares its
engines so too: ``start(steps_of(agent, game))`` at start-up, :func:`ready` (or :func:`pending`) for a health
check, :func:`status` for a page's wait message, :func:`warm` before a request that must not run cold.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from .prepare_words import (UPDATE_EVERY, compile_words, compiling, fit, hear_compiles, heard, keep_streams, remaining,
                            seconds)

__all__ = ["Step", "step", "numba_step", "numba_usable", "steps_of", "ready", "pending", "start", "warm", "settle",
           "settle_search", "status", "preparing", "remaining", "seconds", "announce", "tell", "leave", "hold",
           "MESSAGE_AFTER", "SPARE", "SPEAK", "LOG", "UPDATE_EVERY"]

#: a wait longer than this (seconds) says what it waits for: the faces' rule is a message before a second
MESSAGE_AFTER = 0.4
#: seconds between two looks of a thread that says what a wait prepares
_LOOK = 0.2
#: the share of a search's time limit kept for searching without compiled code that is not loaded in time
SPARE = 0.4


class Step:
    """One piece of preparation (loading or compiling some compiled code), done at most once per process.

    ``label`` says what it prepares, for people; ``cold`` is about how long it takes on a cold cache (seconds,
    on an idle two-core machine), for :func:`remaining`.  A step that fails is done all the same (``error``
    keeps why): the search that needs it meets the same failure and reports it.
    """

    def __init__(self, key: str, label: str, work: Callable[[], object], cold: float) -> None:
        self.key, self.label, self.cold, self._work = key, label, cold, work
        self._lock = threading.Lock()
        self._done = threading.Event()
        #: when it started (``time.perf_counter``), while it runs or after; None before
        self.started: float | None = None
        #: how long it took, once done
        self.seconds: float | None = None
        self.error: Exception | None = None
        #: the thread doing the work, while it does (:func:`~.prepare_words.compiling`)
        self.owner: int | None = None

    def __repr__(self) -> str:
        state = "ready" if self.ready else "running" if self.running else "waiting"
        return f"Step({self.key!r}, {state})"

    @property
    def ready(self) -> bool:
        return self._done.is_set()

    @property
    def running(self) -> bool:
        return self.started is not None and not self._done.is_set()

    def run(self) -> None:
        """Do the work here, once: returns at once when done, or when called from within its own work (a
        solver's search warming the solver), and waits while another thread does it."""
        if self._done.is_set() or self.owner == threading.get_ident():
            return
        with self._lock:
            if self._done.is_set():
                return
            self.started = time.perf_counter()
            self.owner = threading.get_ident()
            try:
                self._work()
            except Exception as exc:  # noqa: BLE001 - kept: the search that needs it says why
                self.error = exc
            except BaseException:  # Ctrl-C: not done, the next caller starts again
                self.started = None
                raise
            finally:
                self.owner = None
            self.seconds = time.perf_counter() - self.started
            self._done.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Whether it is done, after waiting at most ``timeout`` seconds (None: until it is)."""
        return self._done.wait(timeout)


_STEPS: dict[str, Step] = {}
_LOCK = threading.Lock()


def step(key: str, label: str, work: Callable[[], object], cold: float) -> Step:
    """The process's step named ``key``: made with ``work`` the first time, the same object after."""
    with _LOCK:
        if key not in _STEPS:
            _STEPS[key] = Step(key, label, work, cold)
        return _STEPS[key]


def _numba_start() -> None:
    from ..kernels.connectx import geometry
    from .base import kernels

    if kernels() is None:
        raise ImportError("numba cannot be imported here")
    keep_streams()  # a compile here or in the background leaves sys.stdout and sys.stderr alone
    hear_compiles()  # from now on a compile is known as it begins (a first run)
    geometry(1, 1)  # numba's compiler set up, and one small cached kernel loaded


def numba_step() -> Step:
    """numba itself: imported and its compiler set up (about a second, cold or warm), the first step of
    every engine with compiled code."""
    return step("numba", "starting numba", _numba_start, 1.0)


def numba_usable() -> bool:
    """Whether compiled code can run here: numba started, or (not tried yet) is installed.  Cheap: it
    imports nothing (numba's start is a step)."""
    numba = numba_step()
    if numba.ready:
        return numba.error is None
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # ``sys.modules["numba"] = None``, a broken install
        return False


def steps_of(agent: Any, game: Any, state: Any = None) -> list[Step]:
    """The steps ``agent``'s search of ``state`` (None: of any position of ``game``) needs; none for an
    agent without compiled code (one without a ``preparation`` method)."""
    preparation = getattr(agent, "preparation", None)
    return list(preparation(game, state)) if preparation is not None else []


def ready(steps: Iterable[Step]) -> bool:
    return all(s.ready for s in steps)


# ---- the background thread ----------------------------------------------------------------------------

_QUEUE: list[Step] = []
_WAKE = threading.Condition(_LOCK)
_THREAD: list[threading.Thread] = []  # the running background thread, if any
_CURRENT: list[Step] = []  # the step the background thread took last
_HELD: list[threading.Thread] = []  # threads doing an engine's work a person quit (its search): :func:`hold`


def start(steps: Iterable[Step]) -> None:
    """Queue ``steps`` (those not done or queued already, in order) for the background thread, started when
    none runs.  It is a daemon: a process that ends waits only for the step under way (:func:`_finish`), and
    a command not even for that (:func:`leave`).  A thread that cannot start (a full process limit counts
    threads) raises ``RuntimeError`` and leaves nothing queued: the next call tries again."""
    with _WAKE:
        _QUEUE.extend(s for s in steps if not s.ready and s not in _QUEUE)
        if _QUEUE and not _THREAD:
            _THREAD.append(threading.Thread(target=_background, name="zerosum-prepare", daemon=True))
            try:
                _THREAD[0].start()
            except BaseException:  # no thread, the only one to run them: nothing waits for it
                del _THREAD[:], _QUEUE[:]
                raise


def _stop_starting() -> list[Step]:
    """No queued step starts any more; the steps under way (or taken by the background thread, not begun)."""
    with _WAKE:
        _QUEUE.clear()
        return [s for s in _STEPS.values() if s.running] + [s for s in _CURRENT if not s.ready]


def _finish() -> None:
    """At the interpreter's exit: no step starts any more, and the one under way is waited for (said after a
    second, through :data:`LOG`): numba's compiler stopped midway by the interpreter ends the process with an
    LLVM assertion or a segfault (``zerosum analyze 44``, answered by the book meanwhile: 134 in 4 of 6)."""
    for s in _stop_starting():
        if not s.wait(1.0):  # a compile (a first run): say why the exit waits
            LOG.warning("zerosum: finishing %s before exiting (a first run: what it compiles is kept)", s.label)
            s.wait()


def leave(status: int, grace: float = 1.0, signum: int | None = None) -> None:
    """For a command that is done (the console script, not Python's own exit): when a step is still under
    way after ``grace`` seconds (a first run's compile), end the process at once with ``status`` (or killed by
    ``signum``, the signal that stopped the command) rather than wait for it (:func:`_finish`: 20 s when
    ``zerosum play`` was quit during the solver's first compile).  Streams are flushed first; the interpreter's
    teardown, which crashed with numba's compiler midway, is skipped.  The compile is lost (the next run does it
    again) but nothing half-written is kept (numba renames a cache file into place).  Returns when no step runs."""
    held = [t for t in _HELD if t.join(grace) is None and t.is_alive()]  # type: ignore[func-returns-value]
    if all(s.wait(grace) for s in _stop_starting()) and not held:
        return
    for stream in filter(None, (sys.stdout, sys.stderr)):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    logging.shutdown()
    if signum is not None:  # killed by it, as when nothing is under way (cli.entry)
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)
    os._exit(status)


def hold(thread: threading.Thread) -> None:
    """A daemon thread (an engine's search a person quit) :func:`leave` treats as a step under way."""
    _HELD[:] = [t for t in _HELD if t.is_alive()] + [thread]


atexit.register(_finish)


def _background() -> None:
    while True:
        with _WAKE:
            if not _QUEUE:
                _THREAD.clear()
                return
            next_step = _QUEUE.pop(0)
            _CURRENT[:] = [next_step]
        next_step.run()


def pending() -> list[Step]:
    """The steps queued or running, not done yet (in the background or here)."""
    with _LOCK:
        steps, queued = list(_STEPS.values()), list(_QUEUE)
    return [s for s in steps if s.running] + [s for s in queued if not s.running and not s.ready]


def warm(steps: Iterable[Step]) -> None:
    """Do ``steps`` here and now, in order (each waits for the background thread when it is doing it); a wait
    of over a second says what it is for (:func:`tell`)."""
    steps = list(steps)
    tell(steps)
    for s in steps:
        s.run()


def settle(steps: list[Step], until: float) -> bool:
    """Whether ``steps`` are done by ``until`` (a ``time.perf_counter`` time): they are started in the
    background and waited for until then, no longer.  What they have not finished goes on after (False at once
    when no thread can start for them)."""
    if ready(steps):
        return True
    try:
        start(steps)
    except RuntimeError:  # no thread to be had (a full process limit): the search goes without them
        return False
    return all(s.wait(max(0.0, until - time.perf_counter())) for s in steps)


def settle_search(steps: list[Step], start: float, deadline: float | None) -> bool:
    """Whether a search called at ``start`` with ``deadline`` (None: no time limit) can use the compiled
    code of ``steps``: without a time limit they are done here first (a budget of nodes or depth searches
    the same either way); with one they are waited for while ``SPARE`` of the time is still left, and a
    search that cannot wait longer goes without them (they go on in the background)."""
    if deadline is None:
        warm(steps)
    elif not settle(steps, deadline - SPARE * max(0.0, deadline - start)):
        return False
    return numba_usable()


# ---- what people are told ---------------------------------------------------------------------------


def _waited_on(needs: list[Step] | None) -> tuple[list[Step], list[Step]]:
    """The steps a wait for ``needs`` (None: any step) has left, and those under way that it waits on: its own,
    or, none of them running yet, what runs instead (they are queued behind it), or, none of them compiling, a
    step that does (numba's compiler is its until then: what they load or compile waits for it)."""
    steps = pending() if needs is None else [s for s in needs if not s.ready]
    running = [s for s in steps if s.running]
    ahead = [s for s in pending() if s.running and s not in running] if steps else []
    if ahead and (not running or not any(map(heard, running)) and any(map(heard, ahead))):
        running = [s for s in ahead if heard(s)] or ahead
        steps += running
    return steps, running


def preparing(needs: list[Step] | None = None) -> Step | None:
    """The step under way that a wait for ``needs`` (None: any) waits on (:func:`_waited_on`); None when none."""
    return next(iter(_waited_on(needs)[1]), None)


def status(since: float | None = None, now: float | None = None, needs: list[Step] | None = None,
           width: int | None = None) -> str | None:
    """What the preparation ``needs`` (None: any step) is doing, for a person who has waited since ``since``:
    ``preparing the engine (the solver's search), first run only: compiling for 12 s, about 30 s more`` (``;
    waiting 3.0 s`` when the wait began later than the compile), in shorter words where that is wider than
    ``width`` (:func:`~.prepare_words.compile_words`); None when none of them (nor a step ahead of them:
    :func:`preparing`) is under way."""
    steps, running = _waited_on(needs)
    if not running:
        return None
    now = time.perf_counter() if now is None else now
    ran = now - min((s.started for s in running if s.started is not None), default=now)
    waited = now - since if since is not None else ran
    if not compiling(running, now):
        return fit([f"preparing the engine ({running[0].label}): {seconds(waited)}",
                    f"preparing the engine: {seconds(waited)}"], width)
    return compile_words(running[0].label, ran, waited, remaining(steps, now), width)


def _compiles(steps: list[Step]) -> bool:
    return compiling(_waited_on(steps)[1], time.perf_counter())


#: step -> the thread of :func:`tell` or :func:`announce` that says its wait (while alive): another tell is silent
_TOLD: dict[Step, threading.Thread] = {}


def _told(steps: list[Step], say: Callable[[str], object], since: float | None = None,
          stop: threading.Event | None = None, after: float = float("inf"), name: str = "zerosum-tell",
          unless_told: bool = False) -> None:
    """In a thread of its own (:data:`_TOLD`): ``say`` :func:`status` ``after`` seconds from ``since`` (None: from
    now, the wait's seconds a compile's), or as soon as ``steps`` (or a step ahead of them) turn out to compile (a
    first run), then again every :data:`UPDATE_EVERY` seconds while they compile, until all done or ``stop``.
    ``unless_told``: nothing when a thread still at it says every one of ``steps`` already (looked at, and this
    one registered and started, under one hold of the lock: two waits at once start one, not two)."""
    stop, began = stop or threading.Event(), time.perf_counter() if since is None else since

    def watch() -> None:
        said = None
        while said is None or "first run only" not in said:
            if stop.wait(_LOOK) or ready(steps):
                return
            if (_compiles(steps) or said is None and time.perf_counter() - began >= after) and (
                    now := status(since, needs=steps)) is not None:
                say(said := now)
        while not stop.wait(UPDATE_EVERY) and not ready(steps):
            if (said := status(since, needs=steps)) is not None:
                say(said)

    thread = threading.Thread(target=watch, name=name, daemon=True)
    with _LOCK:  # (start does not wait for watch, which takes the lock: only for the thread to be running)
        if unless_told and all(s in _TOLD and _TOLD[s].is_alive() for s in steps):
            return
        _TOLD.update(dict.fromkeys(steps, thread))
        thread.start()


def announce(steps: list[Step], say: Callable[[str], object], after: float = 1.0,
             until: threading.Event | None = None) -> None:
    """Start ``steps`` in the background and, while they are not all done, ``say`` what is being prepared
    (a command's lines on standard error, no screen to redraw, :func:`status`): ``after`` seconds from now, or
    as soon as a step turns out to compile (a first run), with about how long it takes, and again every
    :data:`UPDATE_EVERY` seconds while it does; nothing more once ``until`` is set (the wait is over)."""
    if not ready(steps):
        start(steps)
        _told(steps, say, time.perf_counter(), until, after, "zerosum-announce")


#: whether :func:`tell` speaks in this process (off while a command that says it its own way runs:
#: ``zerosum.cli.OWN_WAITS``)
SPEAK = True
#: the logger :func:`tell` speaks through
LOG = logging.getLogger(__name__)  # zerosum.agents.prepare


def tell(steps: Iterable[Step]) -> None:
    """Tell a person using zerosum from Python what a wait for ``steps`` prepares (started in the background if
    they are not): should one compile (a first run, not a load from the cache), a warning of :data:`LOG` says so,
    with about how long it takes (``zerosum: preparing the engine (the solver's search), first run only:
    compiling for 1.6 s, about 25 s more``), and again every :data:`UPDATE_EVERY` seconds.  Whoever waits says
    it (a timed search that started them, :func:`settle`, did not), unless a wait said already (:data:`_TOLD`);
    nothing when :data:`SPEAK` is off or in a worker process."""
    steps, me = [s for s in steps if not s.ready], threading.get_ident()
    if not SPEAK or not steps or any(s.owner == me for s in steps) or multiprocessing.parent_process() is not None:
        return  # (a step's own work, a solver's search warming the solver: its waiter says it)
    start(steps)  # (queued again while under way elsewhere: done once all the same, Step.run)
    _told(steps, lambda said: LOG.warning("zerosum: %s", said), unless_told=True)
