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
it stopped (what it proved stays proven, and the table keeps its bounds).  Pure Python over ``Solver``'s
public methods.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from .solver import BudgetExceeded, Solver

__all__ = ["Event", "Progressive", "WDL", "EXACT", "ROOT", "FIRST_SLICE"]

WDL = "wdl"
EXACT = "exact"
#: the column of an event about the position itself (``Progressive(..., root=True)``)
ROOT = -1
#: nodes of a column's first slice (a few milliseconds); each retry of that column doubles it
FIRST_SLICE = 1 << 14
#: a slice never asks for fewer nodes than this (a deadline close by shortens slices down to it)
MIN_SLICE = 1 << 12
#: how much larger the next slice of a column is after one ran out (the retries cost at most 1 / (GROWTH - 1) more)
GROWTH = 4


@dataclass(frozen=True)
class Event:
    """One proven result: ``column`` (0-based), ``kind`` (``"wdl"``: ``value`` is +1 / 0 / -1; ``"exact"``:
    the solver's score), the nodes searched and seconds taken since the analysis began."""

    column: int
    kind: str
    value: int
    nodes: int
    seconds: float


class Progressive:
    """The progressive analysis of one position (see the module docstring).

    ``clock``: where time comes from (``time.perf_counter``; tests pass their own).
    """

    def __init__(self, solver: Solver, position: Any, *, clock: Callable[[], float] = time.perf_counter,
                 first_slice: int = FIRST_SLICE, root: bool = False) -> None:
        self.solver = solver
        self.state = state = solver.position(position)
        g = solver.game
        self.cols = g.cols
        self.clock = clock
        #: the legal columns, centre-most first
        self.order = [c for c in sorted(range(g.cols), key=lambda c: (abs(2 * c - (g.cols - 1)), c))
                      if not state.mask & g.top[c]]
        self.wdl: dict[int, int] = {}
        self.exact: dict[int, int] = {}
        self.nodes = 0
        self.seconds = 0.0
        self._children: dict[int, tuple[int, int]] = {}
        self._budget: dict[tuple[str, int], int] = {}
        self._first = max(int(first_slice), MIN_SLICE)
        self._known: list[Event] = []  # found without a search, not yet yielded
        #: the position's own win/draw/loss when ``root`` asked for a search of it (its event: column ``ROOT``)
        self.value: int | None = None
        self._root = root
        for c in self.order:
            child = g.result(state, c)
            if child.won_by:
                self._learn(c, EXACT, (g.cells + 2 - (state.ply + 1)) // 2, record=True)
            elif child.mask == g.board_mask:
                self._learn(c, EXACT, 0, record=True)
            else:
                self._children[c] = (child.current, child.mask)

    # ---- what is known ---------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """Every column's exact score is known."""
        return len(self.exact) == len(self.order)

    def pending(self, kind: str, columns: Iterable[int] | None = None) -> list[int]:
        """The columns (of ``columns``, default all, in the analysis' order) whose ``kind`` is not yet known."""
        known = self.wdl if kind == WDL else self.exact
        wanted = self.order if columns is None else [c for c in self.order if c in set(columns)]
        return [c for c in wanted if c not in known]

    def scores(self) -> list[int | None]:
        """The exact score of each column as ``Solver.analyze`` gives it (None: full, or not known yet)."""
        return [self.exact.get(c) for c in range(self.cols)]

    def best_class(self) -> int | None:
        """The position's win/draw/loss (+1 / 0 / -1) once proven: a winning column is known, or every column's
        win/draw/loss is, or the position's own search ended; else None."""
        if 1 in self.wdl.values():
            return 1
        if len(self.wdl) == len(self.order):
            return max(self.wdl.values())
        return self.value

    def proven(self) -> list[int]:
        """The columns proven to keep the position's win/draw/loss (in the analysis' order; [] until one is)."""
        value = self.best_class()
        if value == -1:  # every move loses
            return list(self.order)
        return [c for c in self.order if value is not None and self.wdl.get(c) == value]

    def _learn(self, column: int, kind: str, value: int, record: bool = False) -> Event:
        self.wdl[column] = (value > 0) - (value < 0)
        event = Event(column, kind, value, self.nodes, self.seconds)
        if kind == EXACT or value == 0:  # a draw's score is 0: its win/draw/loss is its exact score
            self.exact[column] = value
            if kind == WDL:  # said next, as an exact result of its own
                self._known.append(Event(column, EXACT, 0, self.nodes, self.seconds))
        if record:  # a move that ends the game: its win/draw/loss, like every column's, then its score
            self._known += [Event(column, WDL, self.wdl[column], 0, 0.0), event]
        return event

    # ---- searching -------------------------------------------------------------------------------

    def events(self, *, deadline: float | None = None, max_nodes: int | None = None,
               stop: threading.Event | None = None, kinds: tuple[str, ...] = (WDL, EXACT),
               columns: Iterable[int] | None = None) -> Iterator[Event]:
        """Yield each result as it is proven until every one of ``kinds`` (for ``columns``, default all) is
        known, or -- checked between slices -- the clock reaches ``deadline``, ``max_nodes`` more nodes were
        searched, or ``stop`` is set.  Win/draw/loss comes before exact scores; call again to go on."""
        wanted = None if columns is None else list(columns)
        yield from self._flush(kinds, wanted)
        start_nodes = self.nodes
        while True:
            task = self._next(kinds, wanted)
            if task is None:
                return
            budget = self._budget.get(task, self._first)
            slice_nodes = budget
            if max_nodes is not None:
                left = max_nodes - (self.nodes - start_nodes)
                if left <= 0:
                    return
                slice_nodes = min(slice_nodes, max(left, MIN_SLICE))
            if deadline is not None:
                left_s = deadline - self.clock()
                if left_s <= 0:
                    return
                rate = self.nodes / self.seconds if self.seconds > 0.05 else None
                if rate is not None:  # end near the deadline rather than far past it
                    slice_nodes = min(slice_nodes, max(int(left_s * rate), MIN_SLICE))
            if stop is not None and stop.is_set():
                return
            event = self._try(task, slice_nodes, full=slice_nodes == budget)
            if event is not None:
                yield event
                yield from self._flush(kinds, wanted)

    def _flush(self, kinds: tuple[str, ...], wanted: list[int] | None) -> Iterator[Event]:
        """The results found without a search of their own (moves that end the game, draws' scores)."""
        for event in sorted(self._known, key=lambda e: e.kind != WDL):
            if event.kind in kinds and (wanted is None or event.column in wanted):
                self._known.remove(event)
                yield event

    def _next(self, kinds: tuple[str, ...], wanted: list[int] | None) -> tuple[str, int] | None:
        """The next search: win/draw/loss before exact; the smallest budget so far, centre-most among equals
        (the position itself first, when asked for)."""
        for kind in (WDL, EXACT):
            if kind not in kinds:
                continue
            todo = self.pending(kind, wanted)
            if kind == WDL and todo and self._root and self.value is None:
                todo = [ROOT, *todo]
            if todo:
                return min(((kind, c) for c in todo), key=lambda t: self._budget.get(t, self._first))
        return None

    def _try(self, task: tuple[str, int], nodes: int, full: bool) -> Event | None:
        kind, column = task
        current, mask = (self.state.current, self.state.mask) if column == ROOT else self._children[column]
        solver = self.solver
        began = time.perf_counter()
        try:
            score = solver.solve_bits(current, mask, kind == WDL, node_limit=nodes)
            score = score if column == ROOT else -score
        except BudgetExceeded:
            if full:  # a whole budget spent: the next try of this column gets twice as much
                self._budget[task] = GROWTH * self._budget.get(task, self._first)
            return None
        finally:
            self.nodes += solver.nodes
            self.seconds += time.perf_counter() - began
        if column == ROOT:
            self.value = score
            return Event(ROOT, WDL, score, self.nodes, self.seconds)
        return self._learn(column, kind, score)
