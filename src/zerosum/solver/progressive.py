"""Progressive analysis: every column's result as soon as it is proven, win/draw/loss first, then the score.

>>> from zerosum.solver.solver import Solver
>>> run = Progressive(Solver(), "4455")
>>> [e.kind for e in run.events()][:2]
['wdl', 'wdl']
>>> run.done, run.scores() == Solver().analyze("4455")
(True, True)

:meth:`Progressive.events` yields an :class:`Event` (column, kind ``"wdl"`` or ``"exact"``, value, nodes,
seconds) each time a column's result is proven: first the win/draw/loss of every column (weak solves, the
sign of the score: +1 / 0 / -1, the side to move's view), then each column's exact score (strong solves).
Columns whose move ends the game are known at once.

It runs in slices: every search gets a node budget (``Solver``'s ``node_limit``); a search that runs out
(:class:`~zerosum.solver.solver.BudgetExceeded`) leaves its proven bounds in the solver's table and is tried
again later with twice the budget, after the other columns had their turn -- so the easy columns come first,
centre-most first among equals, and a hard one never holds the others back.  Between slices it stops at a
deadline, a node total or a :class:`threading.Event`; calling :meth:`Progressive.events` again goes on where
it stopped (what it proved stays proven, and the table keeps its bounds).  :meth:`Progressive.snapshot` is
what it knows as plain data, and :meth:`Progressive.restore` takes that in -- in another process too, whose
table learned nothing of it: what was proven is not searched again, and each search goes on at the budget it
had reached (:mod:`zerosum.analysis.progress`).  Pure Python over ``Solver``'s public methods.

With ``threads`` > 1 (default: the solver's own ``threads``) that many worker threads take the searches
from the one queue, each on its own lane of the solver (:mod:`.parallel`: its frames, one shared table); a
worker with no search left to start helps with a slice under way (lazy SMP: the same position and nodes, its
own move order; the first answer counts and halts the others).  The calling thread only hands on their
results.  Win/draw/loss still comes first:
an exact score a worker proves while a column's win/draw/loss is still being searched waits for it.
``seconds`` then adds up the workers' search times.

What an analysis knows -- its results, its budgets, its plain data -- is kept by its base class,
:class:`~zerosum.solver.progressive_state.ProgressiveState` (:mod:`.progressive_state`, whose :class:`Event`
and constants are re-exported here); this module searches.
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from typing import Iterable, Iterator

from .parallel import Lane, retire
from .progressive_state import EXACT, FIRST_SLICE, GROWTH, MIN_SLICE, ROOT, WDL, Event, ProgressiveState
from .solver import BudgetExceeded, Halted

__all__ = ["Event", "Progressive", "WDL", "EXACT", "ROOT", "FIRST_SLICE"]


class Progressive(ProgressiveState):
    """The progressive analysis of one position (see the module docstring); ``clock``: where time comes from
    (``time.perf_counter``; tests pass their own)."""

    # ---- searching -------------------------------------------------------------------------------

    def events(self, *, deadline: float | None = None, max_nodes: int | None = None,
               stop: threading.Event | None = None, kinds: tuple[str, ...] = (WDL, EXACT),
               columns: Iterable[int] | None = None) -> Iterator[Event]:
        """Yield each result as it is proven until every one of ``kinds`` (for ``columns``, default all) is
        known, or -- checked between slices -- the clock reaches ``deadline``, ``max_nodes`` more nodes were
        searched, or ``stop`` is set.  Win/draw/loss comes before exact scores; call again to go on."""
        wanted = None if columns is None else list(columns)
        yield from self._flush(kinds, wanted)
        if self.threads > 1:
            yield from self._parallel(deadline, max_nodes, stop, kinds, wanted)
            return
        start_nodes = self.nodes
        while True:
            task = self._next(kinds, wanted)
            if task is None:
                return
            slice_nodes = self._slice(task, deadline, max_nodes, stop, start_nodes)
            if slice_nodes is None:
                return
            event = self._try(task, slice_nodes, full=slice_nodes == self._budget.get(task, self._first))
            if event is not None:
                yield event
                yield from self._flush(kinds, wanted)

    def _slice(self, task: tuple[str, int], deadline: float | None, max_nodes: int | None,
               stop: threading.Event | None, start_nodes: int) -> int | None:
        """The nodes of ``task``'s next slice, or None when the analysis is to stop here."""
        budget = self._budget.get(task, self._first)
        slice_nodes = budget
        if max_nodes is not None:
            left = max_nodes - (self.nodes - start_nodes)
            if left <= 0:
                return None
            slice_nodes = min(slice_nodes, max(left, MIN_SLICE))
        if deadline is not None:
            left_s = deadline - self.clock()
            if left_s <= 0:
                return None
            rate = self.nodes / self.seconds if self.seconds > 0.05 else None
            if rate is not None:  # end near the deadline rather than far past it
                slice_nodes = min(slice_nodes, max(int(left_s * rate), MIN_SLICE))
        if stop is not None and stop.is_set():
            return None
        return slice_nodes

    def _flush(self, kinds: tuple[str, ...], wanted: list[int] | None) -> Iterator[Event]:
        """The results found without a search of their own (moves that end the game, draws' scores)."""
        for event in sorted(self._known, key=lambda e: e.kind != WDL):
            if event.kind in kinds and (wanted is None or event.column in wanted):
                self._known.remove(event)
                yield event

    def _next(self, kinds: tuple[str, ...], wanted: list[int] | None,
              busy: set[int] | frozenset[int] = frozenset()) -> tuple[str, int] | None:
        """The next search: win/draw/loss before exact; the smallest budget so far, centre-most among equals
        (the position itself first, when asked for); none of the columns ``busy`` (searched by a worker)."""
        for kind in (WDL, EXACT):
            if kind not in kinds:
                continue
            todo = [c for c in self.pending(kind, wanted) if c not in busy]
            if kind == WDL and todo and self._root and self.value is None and ROOT not in busy:
                todo = [ROOT, *todo]
            if todo:
                return min(((kind, c) for c in todo), key=lambda t: self._budget.get(t, self._first))
        return None

    def _try(self, task: tuple[str, int], nodes: int, full: bool) -> Event | None:
        solver = self.solver
        began = time.perf_counter()
        score: int | None = None
        try:
            score = solver.solve_bits(*self._position(task), task[0] == WDL, node_limit=nodes)
        except BudgetExceeded:
            pass
        finally:
            self.nodes += solver.nodes
            self.seconds += time.perf_counter() - began
        return self._found(task, score, full)

    def _position(self, task: tuple[str, int]) -> tuple[int, int]:
        return (self.state.current, self.state.mask) if task[1] == ROOT else self._children[task[1]]

    def _found(self, task: tuple[str, int], score: int | None, full: bool) -> Event | None:
        """Learn what a slice of ``task`` found: its score (the searched position's view), or None when it
        ran out of its nodes (``full``: its whole budget, so the next try gets ``GROWTH`` times more)."""
        kind, column = task
        if score is None:
            if full:
                self._budget[task] = GROWTH * self._budget.get(task, self._first)
            return None
        if column == ROOT:
            self.value = score
            return Event(ROOT, WDL, score, self.nodes, self.seconds)
        return self._learn(column, kind, -score)

    # ---- several threads -------------------------------------------------------------------------

    def _parallel(self, deadline: float | None, max_nodes: int | None, stop: threading.Event | None,
                  kinds: tuple[str, ...], wanted: list[int] | None) -> Iterator[Event]:
        """:meth:`events` with ``self.threads`` workers (see the module docstring)."""
        lanes = self.solver.lanes(self.threads)
        lock = threading.Lock()
        slices: dict[tuple[str, int], tuple[int, bool, int]] = {}  # each slice searched: (nodes, full, its run)
        on: dict[int, list[Lane]] = {}  # the lanes searching each run of a slice
        runs = itertools.count()
        out: queue.Queue[Event | BaseException | None] = queue.Queue()
        quit_ = threading.Event()
        start_nodes = self.nodes

        def take(lane: Lane) -> tuple[tuple[str, int], int, bool, int] | None:  # under ``lock``
            task = None if quit_.is_set() else self._next(kinds, wanted, {t[1] for t in slices})
            if task is None:  # the rest is searched: help where the fewest lanes search (lazy SMP)
                if not slices or quit_.is_set():
                    return None  # nothing left to search, or the analysis stops
                task = min(slices, key=lambda t: len(on[slices[t][2]]))
                nodes, full, run = slices[task]
            else:
                got = self._slice(task, deadline, max_nodes, stop, start_nodes)
                if got is None:
                    return None
                nodes, full, run = got, got == self._budget.get(task, self._first), next(runs)
                slices[task], on[run] = (nodes, full, run), []
            on[run].append(lane)
            return task, nodes, full, run

        def work(lane: Lane) -> None:
            try:
                while True:
                    with lock:
                        got = take(lane)
                    if got is None:
                        return
                    task, nodes, full, run = got
                    began = time.perf_counter()
                    score: int | None = None
                    halted = False
                    try:
                        score = self.solver.solve_on(lane, *self._position(task), task[0] == WDL, nodes)
                    except Halted:  # another lane answered this slice first, or the analysis stops
                        halted = True
                    except BudgetExceeded:
                        pass
                    with lock:
                        self.nodes += lane.nodes
                        self.seconds += time.perf_counter() - began
                        on[run].remove(lane)
                        if not halted and slices.get(task, (0, False, -1))[2] == run:  # the slice's first answer
                            del slices[task]
                            for other in on[run]:
                                other.halt()
                            event = self._found(task, score, full)
                            if event is not None:  # in the lock: results reach the queue in the order learned
                                out.put(event)
                        if not quit_.is_set():
                            lane.clear()  # halted by another lane: free to search again
            except BaseException as exc:  # pragma: no cover - surfaced in the caller
                out.put(exc)
            finally:
                out.put(None)

        # the columns whose win/draw/loss is still to be said: by the results the workers send, in order
        # (what they learned may be ahead of what reached the queue)
        wdl_todo = set(self.pending(WDL, wanted)) if WDL in kinds else set()
        for lane in lanes:
            lane.clear()
        workers = [threading.Thread(target=work, args=(lane,), daemon=True, name="zerosum-progressive")
                   for lane in lanes]
        for thread in workers:
            thread.start()
        held: list[Event] = []  # exact scores proven while a win/draw/loss is still being searched
        ready: list[Event] = []  # to be yielded
        running = len(workers)
        try:
            while running:
                try:
                    item = out.get(timeout=0.1)  # a timeout: Ctrl-C is seen while the workers search
                except queue.Empty:
                    continue
                if item is None:
                    running -= 1
                    continue
                if isinstance(item, BaseException):  # pragma: no cover - a worker failed
                    raise item
                with lock:
                    held.append(item)
                    wdl_todo.discard(item.column)  # its win/draw/loss is said (or implied by its exact score)
                    ready += sorted((e for e in held if e.kind == WDL or not wdl_todo), key=lambda e: e.kind != WDL)
                    held = [e for e in held if e not in ready]
                    ready += list(self._flush(kinds, wanted))
                while ready:
                    yield ready.pop(0)
            ready, held = held, []
            while ready:
                yield ready.pop(0)
        finally:
            quit_.set()
            retire(lanes, workers)
            while not out.empty():  # proven but not yielded: said by the next call
                item = out.get()
                if isinstance(item, Event):
                    held.append(item)
            self._known = ready + held + self._known
