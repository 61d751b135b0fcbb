"""The solver on several cores: threads of one process searching over one shared transposition table.

The compiled search releases the GIL (``nogil``), so Python threads search at once.  Each thread runs on
its own :class:`Lane` -- its frames, its small near-end table and its ``stats`` (nodes, budget, halt flag)
-- while the big table and the book are the solver's, shared: :mod:`.table` explains why racing writes can
lose an entry but never make a score wrong.

* :func:`analyze_columns`: a full analysis with the columns taken from one queue by ``threads`` threads
  (the calling thread is one of them, so Ctrl-C is seen between its slices); a thread that finds the queue
  empty helps with a column still searched (lazy SMP).  Exactly the scores of one thread, since every score
  is exact whatever the table holds.
* :func:`race`: lazy SMP for one solve: a helper searches the same root with another column order, filling
  the shared table; the first to finish answers and halts the other (``stats[HALT]``, looked at every
  ``HALT_EVERY`` nodes).
* :func:`default_threads`: what the faces use: 2 where this process may run on 2 cores or more.
* :class:`PerThread`: what a call found (``Solver.nodes``, ``elapsed``, ``node_counts``), seen by each
  calling thread for itself, so that threads sharing a solver each read their own call's figures.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Generic, Sequence, TypeVar, overload

import numpy as np

import zerosum.solver.search as search

from ..core.checks import check_whole
from ..core.processes import FACE_THREADS, MAX_JOBS, default_threads
from ..errors import GameError, UsageError


class BudgetExceeded(GameError):
    """A solve given a node limit ran out of nodes before it knew the answer (the table stays valid)."""


class Halted(BudgetExceeded):
    """A search on a lane another thread halted (:meth:`Lane.halt`) stopped before its answer."""

__all__ = ["BudgetExceeded", "Halted", "Lane", "PerThread", "TakesTurns", "retire", "default_threads", "check_threads", "analyze_columns", "race", "helper_order", "MAX_THREADS",
           "FACE_THREADS"]

#: ``Solver(threads=N)``: 1..MAX_THREADS
MAX_THREADS = MAX_JOBS
#: whether a lane with no column left helps with one still searched (:func:`analyze_columns`)
HELP = True


def check_threads(threads: Any) -> int:
    """``threads`` checked: a whole number 1..MAX_THREADS; a one-line UsageError otherwise."""
    return check_whole(threads, "threads", 1, MAX_THREADS, UsageError)


def retire(lanes: Sequence["Lane"], threads: Sequence[threading.Thread], halt: bool = True) -> None:
    """End a parallel search: halt its lanes (when ``halt``), wait for its threads, clear the lanes' state."""
    if halt:
        for lane in lanes:
            lane.halt()
    for thread in threads:
        thread.join()
    for lane in lanes:
        lane.clear()


def helper_order(order: np.ndarray) -> np.ndarray:
    """A lazy-SMP helper's column order: centre first like the main one, but the right-hand column of each
    pair before the left one, so the two threads start in different subtrees."""
    out = order.copy()
    for i in range(1, len(out) - 1, 2):
        out[i], out[i + 1] = out[i + 1], out[i]
    return out


class Lane:
    """One searching thread's own memory: ``board = (order, colmask, work)`` (:func:`search.prepare`: the
    frames and the small table) and ``stats`` (``search.STATS_SIZE``; ``stats[HALT]`` stops it)."""

    def __init__(self, board: tuple[np.ndarray, np.ndarray, Any], stats: np.ndarray | None = None) -> None:
        self.board = board
        self.stats = np.zeros(search.STATS_SIZE, dtype=np.int64) if stats is None else stats
        #: nodes of the lane's last search
        self.nodes = 0

    def halt(self) -> None:
        """Stop the lane's running search within ``HALT_EVERY`` nodes, and every search it starts until
        :meth:`clear`."""
        self.stats[search.HALT] = 1

    def clear(self) -> None:
        self.stats[search.HALT] = 0

    @property
    def halted(self) -> bool:
        return bool(self.stats[search.HALT])


T = TypeVar("T")
_UNSET = object()


class PerThread(Generic[T]):
    """An attribute of an object (a :class:`~zerosum.solver.solver.Solver`'s ``nodes``...) that a thread
    reads as its own last call set it, whatever other threads' calls set meanwhile; a thread that set none
    reads the last value any thread set (``make()`` before any).  Each object keeps its threads' values in
    a ``threading.local`` of its own."""

    def __init__(self, make: Callable[[], T]) -> None:
        self.make = make
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type) -> "PerThread[T]": ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> "T | PerThread[T]":
        if obj is None:
            return self
        values = vars(obj)
        own = getattr(values.get("_per_thread"), self.name, _UNSET)  # this thread's
        if own is not _UNSET:
            return own  # type: ignore[return-value]
        return values[self.name] if self.name in values else self.make()

    def __set__(self, obj: object, value: T) -> None:
        values = vars(obj)
        own = values.get("_per_thread")
        if own is None:  # made once an object (setdefault: two threads at once keep the same one)
            own = values.setdefault("_per_thread", threading.local())
        setattr(own, self.name, value)
        values[self.name] = value  # the last value any thread set


class TakesTurns:
    """An object whose calls take turns on a reentrant lock, ``turn`` (a :class:`~zerosum.solver.solver.Solver`),
    pickled and copied without it or its threads' own values (:class:`PerThread`): a copy, here or in another
    process, takes turns of its own, and reads the last values any thread set."""

    turn: Any

    def __getstate__(self) -> dict[str, Any]:
        state = dict(vars(self))
        state.pop("turn", None)
        state.pop("_per_thread", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        vars(self).update(state)
        self.turn = threading.RLock()


def _start(target: Callable[[], None]) -> threading.Thread:
    thread = threading.Thread(target=target, name="zerosum-solver", daemon=True)
    thread.start()
    return thread


def race(solver: Any, current: int, mask: int, weak: bool, node_limit: int | None) -> int:
    """Lazy SMP: the score of one position (``search.ABORTED`` past ``node_limit``, counted on the main
    lane), searched by the main lane and a helper with :func:`helper_order`; ``solver.nodes``: both's."""
    main, helper = solver.lanes(2)
    main.clear()
    helper.clear()
    found: dict[str, Any] = {}

    def help_out() -> None:
        try:
            score = solver.search_on(helper, current, mask, weak, None)
            if score != search.ABORTED:
                found["score"] = score
                main.halt()
        except BaseException as exc:  # pragma: no cover - surfaced in the caller
            found["error"] = exc
            main.halt()

    thread = _start(help_out)
    try:
        score = solver.search_on(main, current, mask, weak, node_limit)
    finally:
        helper.halt()
        thread.join()
        main.clear()
        helper.clear()
    if "error" in found:  # pragma: no cover - a helper never fails where the main lane does not
        raise found["error"]
    if score == search.ABORTED and "score" in found:
        score = found["score"]
    solver.nodes = main.nodes + helper.nodes
    return int(score)


def analyze_columns(solver: Any, children: Sequence[tuple[int, int, int]], weak: bool, threads: int,
                    scores: dict[int, int] | None = None) -> tuple[dict[int, int], int]:
    """The scores of ``children`` (``(column, current, mask)``, in the order they are taken), searched by
    ``threads`` lanes taking them from one queue: ``({column: score of the child for its side to move},
    nodes)``, the scores filled into ``scores`` when given (so that the caller keeps the columns proven
    before a Ctrl-C).  A lane that finds the queue empty helps with a column still searched (lazy SMP: the
    same position, its own column order, the shared table); the first answer counts and halts the others on
    it.  The calling thread searches too; an exception or Ctrl-C in it halts the others."""
    lanes = solver.lanes(min(threads, max(1, len(children))))
    todo = list(children)
    lock = threading.Lock()
    scores = {} if scores is None else scores
    failed: list[BaseException] = []
    nodes = [0]
    stopping = [False]
    on: dict[int, list[Lane]] = {}  # the lanes searching each unfinished column

    def take(lane: Lane) -> tuple[int, int, int] | None:  # under ``lock``
        if todo:
            task = todo.pop(0)
        elif not HELP:
            return None
        else:
            left = [c for c in children if c[0] in on and c[0] not in scores]
            if not left:
                return None
            task = min(left, key=lambda c: len(on[c[0]]))  # help where the fewest lanes search
        on.setdefault(task[0], []).append(lane)
        return task

    def work(lane: Lane) -> None:
        while True:
            with lock:
                if failed or stopping[0]:
                    return
                task = take(lane)
                if task is None:
                    return
            column, current, mask = task
            score: int | None = None
            try:
                score = solver.solve_on(lane, current, mask, weak, None)
            except Halted:
                pass  # another lane answered first (or the caller stops: seen at the loop's top)
            with lock:
                nodes[0] += lane.nodes
                on[column].remove(lane)
                if score is not None and column not in scores:
                    scores[column] = score
                    for other in on[column]:
                        other.halt()
                if not stopping[0]:
                    lane.clear()  # no one halts a lane that searches no column

    def helper(lane: Lane) -> None:
        try:
            work(lane)
        except BaseException as exc:  # pragma: no cover - surfaced in the caller
            with lock:
                failed.append(exc)

    for lane in lanes:
        lane.clear()
    helpers = [_start(lambda lane=lane: helper(lane)) for lane in lanes[1:]]  # type: ignore[misc]
    finished = False
    try:
        work(lanes[0])
        finished = True
    finally:
        if not finished:  # the caller was interrupted or failed: stop the others
            with lock:
                stopping[0] = True
        retire(lanes, helpers, halt=not finished)
    if failed:  # pragma: no cover - a helper never fails where the caller does not
        raise failed[0]
    return scores, nodes[0]
