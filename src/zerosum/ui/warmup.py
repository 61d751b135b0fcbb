"""The web server's preparation of the code of boards past 64 bits (8 x 8, 9 x 7, 7 x 9).

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
* a job whose solver code compiles in its worker all the same (a cache filled before that code was, or that
  process stopped) is noted while it does (:meth:`WideCode.compiling`; the job tells it:
  :func:`zerosum.solver.steps.telling`).
"""

from __future__ import annotations

import threading
import time
from typing import Any

from ..pool import MEMORY_LIMIT, Pool
from ..pool.base import start_thread
from ..pool.moves import warm_up
from ..pool.worker import Worker

__all__ = ["WideCode", "COLD_WARM_UP", "WIDE_GAME"]

#: a first warm-up at least this long compiled (a cold cache: a first run), so the code of boards past 64 bits
#: is prepared next; a warm cache loads the default game's code in about 2 s (10 on a busy machine)
COLD_WARM_UP = 20.0
#: the game whose warm-up prepares the code of every board past 64 bits (one width: 8 x 8, 9 x 7, 7 x 9)
WIDE_GAME = "connect4-8x8"
_WATCH = 0.25  # seconds between two looks at the pool while its first worker warms up


class WideCode:
    """The preparation of the code of boards past 64 bits for ``pool``'s workers, with the engines of
    ``specs``; ``limit``: the seconds its process may take (past them it is killed, and a request compiles
    what is missing in its worker)."""

    def __init__(self, pool: Pool, specs: tuple[str, ...], limit: float) -> None:
        self.pool, self.specs, self.limit = pool, specs, limit
        self._lock = threading.Lock()  # all below: written in the server's threads, read on its event loop
        self._apart: tuple[float, str] | None = None  # while the process of its own prepares: since, what
        self._jobs: dict[int, tuple[float, str]] = {}  # the jobs whose solver code compiles: since, what
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
        """Job ``job``'s solver code compiles (``label``: what) or no longer does (None)."""
        with self._lock:
            if label is not None:
                self._jobs.setdefault(job, (time.monotonic(), label))
            else:
                self._jobs.pop(job, None)

    def _after_first_warm_up(self) -> None:
        began = time.monotonic()
        while self.pool.ready == 0:
            if self._closed:
                return
            time.sleep(_WATCH)
        if time.monotonic() - began < COLD_WARM_UP:  # loaded from the cache: a first run prepared it all
            return
        while self.jobs_compiling():  # a request came first: its job compiles the solver's part, once
            if self._closed:
                return
            time.sleep(_WATCH)
        with self._lock:
            if self._closed:
                return
            self._apart = (time.monotonic(), "")
            self._preparer = preparer = Worker(MEMORY_LIMIT)

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
