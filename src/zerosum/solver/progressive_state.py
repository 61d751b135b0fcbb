"""What a progressive analysis knows (:mod:`zerosum.solver.progressive`, which searches): each result it yields,
an :class:`Event`, with its kinds, and :class:`ProgressiveState`, the state of one position's analysis.

The state holds the legal columns in the analysis' order (centre-most first), every result proven (each
column's win/draw/loss and exact score, the position's own win/draw/loss when asked for) and each search's next
node budget, and answers what is known from them.  As plain data (:meth:`ProgressiveState.snapshot`) it goes to
another process, whose :meth:`ProgressiveState.restore` checks it before taking it in: never a false proof from
a malformed or contradictory snapshot.  :mod:`.progressive` re-exports :class:`Event` and its constants.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..errors import UsageError
from .parallel import check_threads
from .solver import Solver

__all__ = ["Event", "ProgressiveState", "WDL", "EXACT", "ROOT", "FIRST_SLICE", "MIN_SLICE", "GROWTH"]

WDL = "wdl"
EXACT = "exact"
#: the column of an event about the position itself (``Progressive(..., root=True)``)
ROOT = -1
#: nodes of a column's first slice (a few milliseconds); each retry of that column gets GROWTH times more
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


class ProgressiveState:
    """What the progressive analysis of one position knows (:class:`~zerosum.solver.progressive.Progressive`,
    which searches it, takes the same arguments)."""

    def __init__(self, solver: Solver, position: Any, *, clock: Callable[[], float] = time.perf_counter,
                 first_slice: int = FIRST_SLICE, root: bool = False, threads: int | None = None) -> None:
        self.solver = solver
        self.threads = solver.threads if threads is None else check_threads(threads)
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

    def ceiling(self, column: int) -> int:
        """The highest score ``column`` can still turn out to have, without searching it: its exact score once
        proven; else a win with the mover's next stone but one at best (a move that wins at once is scored from
        the start), a draw where it (or the whole position) is proven to draw at best, a loss with the last
        stone (-1) where it loses."""
        if column in self.exact:
            return self.exact[column]
        cells, ply = self.solver.game.cells, self.state.ply
        top = (cells + 2 - (ply + 3)) // 2  # the score of a win with the stone of ply + 3 (plies from 1)
        wdl = self.wdl.get(column, self.best_class())  # unknown: no better than the position itself
        return top if wdl is None or wdl > 0 else min(top, wdl)

    def floor(self, column: int) -> int:
        """The lowest score ``column`` can still turn out to have, without searching it: its exact score once
        proven; else a win with the last stone (1) where it wins, a draw (0) where it draws at worst, and where
        it loses, a loss with the other side's next stone, or, for a move that hands over no win in one
        (:func:`.sampling.safe_moves`), with the stone after: of two moves whose loss is not yet timed, the
        one that hands over a win at once is the worse."""
        if column in self.exact:
            return self.exact[column]
        wdl = self.wdl.get(column, self.best_class())
        if wdl is not None and wdl >= 0:
            return wdl
        from .sampling import safe_moves

        cells, ply = self.solver.game.cells, self.state.ply
        soonest = ply + (4 if column in safe_moves(self.solver.game, self.state) else 2)  # their winning stone
        return -((cells + 2 - soonest) // 2)

    def settled(self) -> int | None:
        """The best column once no other can beat it, before every column is scored: the centre-most of the
        highest exact score, when every column not yet scored has a lower :meth:`ceiling` (or an equal one but
        comes later in the order: the column a full analysis picks) -- a move that wins at once, at once; else
        None."""
        if not self.exact:
            return None
        best = max(self.exact, key=lambda c: (self.exact[c], -self.order.index(c)))
        score, place = self.exact[best], self.order.index(best)
        for i, c in enumerate(self.order):
            if c not in self.exact and (self.ceiling(c) > score or self.ceiling(c) == score and i < place):
                return None
        return best

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

    # ---- as plain data ---------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """What this analysis knows, as plain (JSON-ready) data that :meth:`restore` takes in any process: the
        position, the proven results and each search's next budget (what the table learned stays behind)."""
        return {"position": [self.state.current, self.state.mask], "wdl": sorted([c, v] for c, v in self.wdl.items()),
                "exact": sorted([c, v] for c, v in self.exact.items()),
                "budgets": sorted([kind, c, n] for (kind, c), n in self._budget.items())}

    def restore(self, data: Any) -> None:
        """Take in what a :meth:`snapshot` of this position knew (results it lacks, the larger budgets), checked
        first: one :class:`~zerosum.errors.UsageError` line for anything malformed, and never a false proof from
        a score out of its range, a column that cannot be played or a result that contradicts one known."""
        if not isinstance(data, dict) or data.get("position") != [self.state.current, self.state.mask]:
            raise UsageError("the progress is not of this position: start the analysis again without it")
        g, ply = self.solver.game, self.state.ply
        hi, lo = (g.cells + 2 - (ply + 1)) // 2, -((g.cells + 2 - (ply + 2)) // 2)
        wdl, exact, budgets = _rows(data.get("wdl"), 2), _rows(data.get("exact"), 2), _rows(data.get("budgets"), 3)
        told = {c: v for c, v in wdl} | {c: (s > 0) - (s < 0) for c, s in exact}
        if not (all(c in self.order and v in (-1, 0, 1) for c, v in wdl)
                and all(c in self.order and lo <= s <= hi for c, s in exact)
                and len(dict(wdl)) == len(wdl) and len(dict(exact)) == len(exact)
                and all(told[c] == v for c, v in wdl) and all(self.wdl.get(c, v) == v for c, v in told.items())
                and all(self.exact.get(c, s) == s for c, s in exact)
                and all(kind in (WDL, EXACT) and (c in self._children or c == ROOT) and MIN_SLICE <= n <= 1 << 62
                        for kind, c, n in budgets)):
            raise UsageError("the progress does not hold together: start the analysis again without it")
        for c, v in told.items():
            self.wdl[c] = v
        for c, s in [*exact, *((c, 0) for c, v in wdl if v == 0)]:  # a draw's score is 0
            self.exact[c] = s
        for kind, c, n in budgets:
            self._budget[(kind, c)] = max(n, self._budget.get((kind, c), 0))


def _rows(items: Any, width: int) -> list[tuple[Any, ...]]:
    """``items``, a list of lists of ``width`` whole numbers (a budget's kind, a string, first), as tuples;
    [] for None; else one UsageError line."""
    items = [] if items is None else items
    if not (isinstance(items, list) and all(isinstance(row, list) and len(row) == width for row in items)
            and all(type(x) is int for row in items for x in row[-2:])
            and all(width == 2 or type(row[0]) is str for row in items)):
        raise UsageError("the progress is malformed: start the analysis again without it")
    return [tuple(row) for row in items]
