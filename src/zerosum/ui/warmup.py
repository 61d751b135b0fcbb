"""The web server's preparation of its engines' compiled code: the code of boards past 64 bits (8 x 8, 9 x 7,
7 x 9), and a job's own before its search.

Each worker's warm-up (:func:`zerosum.pool.moves.warm_up`, on the default game: :mod:`.engines`) loads the code
of 64-bit boards.  Boards past 64 bits have code of their own, which it does not load: the solver's 128-bit
search (about a minute to compile on a cold cache) and MCTS's kernels on cell arrays.  :class:`WideCode`
prepares it and says when it is under way (:meth:`WideCode.under_way`), so that a request on such a board
waits for it (as a request waits for the first warm worker) rather than compile it again in its worker:

* on a first run -- the pool's first warm-up took :data:`COLD_WARM_UP` seconds or more, so it compiled -- a
  process of its own prepares it once a worker is warm (:data:`WIDE_GAME`'s warm-up), in the background, and
  leaves it in numba's cache for every worker (a warm cache has it: the run that compiled it prepared it).
  The strongest engine's code comes first (the solver's: the page's opponent and its analysis), and only that
  is waited for: the others' search without it meanwhile, as a timed search does
  (:func:`zerosum.agents.prepare.settle_search`);
* a job whose code compiles in its worker all the same (a request that took a worker before that process
  began: that process waits for the jobs on such boards to end, :meth:`WideCode.admit`; a cache filled before
  that code was, or that process stopped) is noted while it does (:meth:`WideCode.compiling`; the job tells
  it: :func:`zerosum.solver.steps.telling`), and a request on such a board waits for it as for that process.

**A job's own code.**  Whatever the warm-ups did, an engine job with an agent (a move, a "why?") has the
compiled code its agent needs for its position ready before the job starts (:func:`prepare_job`, in the
worker: ``prepare.steps_of(agent, game, state)``, each step's work told to the server as the solver's steps
tell it, so the server waits for a compile rather than kill it), so that the agent's time is spent searching:
on a first run, the solver's first 8 x 8 move had its second eaten by the compile and answered "win (distance
not yet proven)" after 28 s.  A job's own code compiled during it all the same is heard (:class:`Heard`).

**What an answer says.**  A request that waited :data:`COMPILING_AFTER` seconds or more in all for a preparation
(a compile) -- on the server, for the engines' start or the code past 64 bits (:mod:`.engines`), and in its
worker, for its job's own code -- says so in its note, with the seconds it waited, and so does one whose agent's
code compiled during its search all the same (:func:`job_note`, :func:`noted`): a first run's first move waited
half a minute for the engines' start and answered ``"note": null``, only ``/api/health`` saying why.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any, Callable

from ..agents.base import Agent
from ..game import Game
from ..pool import MEMORY_LIMIT, Pool
from ..pool.base import start_thread
from ..pool.moves import MoveReport, warm_up
from ..pool.worker import Worker
from ..solver.steps import PREPARED, PREPARING, wide

__all__ = ["WideCode", "COLD_WARM_UP", "WIDE_GAME", "COMPILING_AFTER", "past_64", "prepare_job", "Heard", "job_note",
           "noted"]

#: a first warm-up at least this long compiled (a cold cache: a first run), so the code of boards past 64 bits
#: is prepared next; a warm cache loads the default game's code in about 2 s (10 on a busy machine)
COLD_WARM_UP = 20.0
#: the game whose warm-up prepares the code of every board past 64 bits (one width: 8 x 8, 9 x 7, 7 x 9)
WIDE_GAME = "connect4-8x8"
_WATCH = 0.25  # seconds between two looks at the pool while its first worker warms up
#: a preparation still running after this many seconds is compiling, not loading from the cache: a first run
COMPILING_AFTER = 3.0


class WideCode:
    """The preparation of the code of boards past 64 bits for ``pool``'s workers, with the engines of
    ``specs``; ``limit``: the seconds its process may take (past them it is killed, and a request compiles
    what is missing in its worker)."""

    def __init__(self, pool: Pool, specs: tuple[str, ...], limit: float) -> None:
        self.pool, self.specs, self.limit = pool, specs, limit
        self._lock = threading.Lock()  # all below: written in the server's threads, read on its event loop
        self._apart: tuple[float, str] | None = None  # while the process of its own prepares: since, what
        self._jobs: dict[int, tuple[float, str]] = {}  # the jobs whose code compiles: since, what it prepares now
        self._running: set[int] = set()  # the jobs on boards past 64 bits in the pool (admitted)
        self._preparer: Worker | None = None  # that process, while it runs
        self._closed = False

    def start(self) -> None:
        """Watch the pool's first warm-up, in a thread of its own, and prepare the code after it if it compiled."""
        start_thread(self._after_first_warm_up, "zerosum-engine-wide")

    def under_way(self) -> tuple[float, str] | None:
        """The preparation a request on a board past 64 bits waits for: the process of its own, else the job
        that began compiling first (since when, ``time.monotonic``, and what it prepares now, "" before it
        said); None when neither is under way."""
        with self._lock:
            under_way = ([self._apart] if self._apart is not None else []) + list(self._jobs.values())
        return min(under_way) if under_way else None

    def jobs_compiling(self) -> bool:
        """Whether a job's solver code compiles in its worker now."""
        with self._lock:
            return bool(self._jobs)

    def compiling(self, job: int, label: str | None) -> None:
        """Job ``job``'s code compiles (``label``: what it prepares now; since its first) or no longer does
        (None)."""
        with self._lock:
            if label is not None:
                self._jobs[job] = (self._jobs.get(job, (time.monotonic(), ""))[0], label)
            else:
                self._jobs.pop(job, None)

    def admit(self, job: int) -> bool:
        """Whether job ``job``, on a board past 64 bits, goes into the pool now: not while the process of its
        own prepares (the job would compile the same code beside it: it waits for it first); admitted, it is
        waited for before that process starts (it prepares what its agent needs itself), until :meth:`done`."""
        with self._lock:
            if self._apart is not None:
                return False
            self._running.add(job)
            return True

    def done(self, job: int) -> None:
        """Job ``job`` has left the pool."""
        with self._lock:
            self._running.discard(job)
            self._jobs.pop(job, None)

    def _after_first_warm_up(self) -> None:
        began = time.monotonic()
        while self.pool.ready == 0:
            if self._closed:
                return
            time.sleep(_WATCH)
        if time.monotonic() - began < COLD_WARM_UP:  # loaded from the cache: a first run prepared it all
            return
        while True:  # a request came first: its job prepares what its agent needs, once (not twice at once)
            with self._lock:
                if self._closed:
                    return
                if not self._jobs and not self._running:
                    self._apart = (time.monotonic(), "")
                    self._preparer = preparer = Worker(MEMORY_LIMIT)
                    break
            time.sleep(_WATCH)

        def progress(message: Any) -> None:  # what warm_up prepares now
            if isinstance(message, tuple) and len(message) == 2 and message[0] == "preparing":
                with self._lock:
                    if self._apart is not None:
                        self._apart = (self._apart[0], str(message[1]))

        done = False
        try:  # the strongest engine's code first (the page's opponent and analysis: requests wait for it)
            done = preparer.call(warm_up, (WIDE_GAME, self.specs[:1]), self.limit, progress)[0] == "ok"
            with self._lock:
                self._apart = None  # the others' after it, waited for by nobody (a timed search does without)
            done = done and preparer.call(warm_up, (WIDE_GAME, self.specs[1:]), self.limit)[0] == "ok"
        except Exception:  # noqa: BLE001 - past its limit, or died: a request compiles what is missing itself
            pass
        finally:
            with self._lock:
                self._apart = self._preparer = None
            if done:
                preparer.stop()
            else:
                preparer.kill()

    def close(self) -> None:
        """No preparation starts any more, and the one under way in its process is killed."""
        with self._lock:
            self._closed = True
            preparer = self._preparer
        if preparer is not None:
            preparer.kill()


def past_64(args: tuple[Any, ...]) -> bool:
    """Whether an engine job is about a board past 64 bits (:func:`zerosum.solver.steps.wide`): its game is its
    first argument (an analysis, a review, a best line), that argument's (a "why?"), or the one its
    :class:`~zerosum.pool.moves.Job` was built with (a move); a record's text names none."""
    first = args[0] if args else None
    built = getattr(first, "built", None)
    for game in (first, getattr(first, "game", None), built[0] if isinstance(built, tuple) and built else None):
        if isinstance(game, Game):
            return wide(game)
    return False


# ---- a job's own code, in its worker --------------------------------------------------------------------


def _job_agent(args: tuple[Any, ...]) -> tuple[Game[Any, Any], Any, Agent] | None:
    """The game, position and agent of an engine job: a move's :class:`~zerosum.pool.moves.Job` (what it was
    built with) or a "why?"'s :class:`~zerosum.ui.service.MoveRequest`; None for a job without an agent (an
    analysis, a record)."""
    first = args[0] if args else None
    built = getattr(first, "built", None)
    game, state, agent = built if isinstance(built, tuple) and len(built) == 3 else (
        getattr(first, "game", None), getattr(first, "state", None), getattr(first, "agent", None))
    return (game, state, agent) if isinstance(game, Game) and isinstance(agent, Agent) else None


def prepare_job(args: tuple[Any, ...], tell: Callable[[Any], object]) -> float | None:
    """In a worker, before an engine job: the compiled code its agent needs for its position
    (``prepare.steps_of(agent, game, state)``) loaded or compiled here, each step's work told as it starts and
    ends (``tell((PREPARING, label))``, then ``(PREPARED, label)``: the server gives a compile the warm-up's
    time limit, and counts the job's own from its end).  The seconds it took; None for a job without an agent,
    and for an agent whose preparation refuses the position (its search says why, in its own words)."""
    from ..agents.prepare import steps_of
    from ..errors import GameError

    found = _job_agent(args)
    if found is None:
        return None
    game, state, agent = found
    try:
        steps = steps_of(agent, game, state)
    except GameError:
        return None
    todo = [s for s in steps if not s.ready]
    began = time.perf_counter()
    if todo:  # the whole preparation told, then each step in it: no gap where the server thinks it done
        tell((PREPARING, todo[0].label))
        try:
            for step in todo:
                tell((PREPARING, step.label))
                try:
                    step.run()
                finally:
                    tell((PREPARED, step.label))
        finally:
            tell((PREPARED, todo[-1].label))
    return time.perf_counter() - began


class Heard:
    """In a worker, what a job's own work compiled, as its steps tell it (:func:`zerosum.solver.steps.telling`,
    the listener): what they prepared (``labels``) and the seconds it took (``seconds``: a step inside another
    counted once)."""

    def __init__(self) -> None:
        self.labels: list[str] = []
        self.seconds = 0.0
        self._began: list[float] = []  # when each step under way began, the outermost first

    def __call__(self, message: Any) -> None:
        if not (isinstance(message, tuple) and len(message) == 2):
            return
        if message[0] == PREPARING:
            self.labels.append(str(message[1]))
            self._began.append(time.perf_counter())
        elif message[0] == PREPARED and self._began:
            began = self._began.pop()
            if not self._began:
                self.seconds += time.perf_counter() - began


def job_note(waited: float, late: list[str]) -> str:
    """What an answer says of its engine's preparation: ``after 28 s preparing the engine, first run only`` when
    its request waited :data:`COMPILING_AFTER` seconds or more in all for one (a compile: the engines' start, the
    code past 64 bits, its agent's code; the search's time counted after it), and the code that compiled during
    its search all the same (``late``: what it prepares), which had less of its time; "" when neither."""
    from ..agents.prepare import seconds

    said = [f"after {seconds(waited)} preparing the engine, first run only"] if waited >= COMPILING_AFTER else []
    if late:
        what = ", ".join(dict.fromkeys(late))
        said.append(f"{what} compiled during this search, first run only: it had less time to search")
    return "; ".join(said)


def noted(result: Any, note: str) -> Any:
    """An engine job's ``result`` with ``note`` said in it: a move's :class:`~zerosum.pool.moves.MoveReport` in
    its ``note`` (what the move's answer notes after who moved instead, :func:`zerosum.ui.service.move_reply`),
    a reply's ``note`` field after its own; as it is without a note, or where it has no place for one."""
    if not note:
        return result
    if isinstance(result, MoveReport):
        return dataclasses.replace(result, note="; ".join(x for x in (result.note, note) if x))
    if isinstance(result, dict) and "note" in result:
        return {**result, "note": "; ".join(x for x in (result["note"], note) if x)}
    return result
