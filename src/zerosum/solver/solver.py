"""``Solver``: exact scores of Connect-X positions, from Python.

>>> from zerosum import Solver
>>> solver = Solver()
>>> solver.solve("4455")
18
>>> solver.solve("4455", weak=True)
1

Scores follow DESIGN.md: a win with the stone of ply ``p`` (counted from 1 on the empty board) scores
``(rows * cols + 2 - p) // 2``, a loss the negative of the opponent's win, a draw 0.  One transposition
table lives as long as the solver, so later solves reuse what earlier ones learned.  Threads may share a
solver: its calls take turns (:attr:`Solver.turn`), each thread reading its own call's ``nodes``.
What a solver holds (its board, table, book and lanes) and how it is set up: :mod:`.solver_state`.
"""

from __future__ import annotations

import time
from typing import Any, Sequence

import numpy as np

import zerosum.solver.search as search  # by its own name: ``from . import search`` would name this package

from ..core.checks import check_flag, check_whole, safe_repr
from ..errors import InvalidPositionError, UsageError
from ..games.connectx import ConnectXState
from .boards import best_of, score_value, solver_game, supports  # solver_game, best_of: kept here by name too
from .parallel import BudgetExceeded, Halted, Lane, PerThread, analyze_columns, check_threads, race
from .solver_state import SolverState
from .steps import warm_solver

__all__ = ["Solver", "Position", "BudgetExceeded", "Halted", "Interrupted", "supports", "score_value", "solver_game", "best_of"]


Position = "ConnectXState | str | Sequence[int]"

#: the largest node limit (the compiled search counts nodes in 64-bit integers)
MAX_NODE_LIMIT = 1 << 62


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during :meth:`Solver.analyze`: ``scores``, each column's score as the analysis would have given
    it where it was proven before the stop, else None."""

    def __init__(self, scores: list[int | None]) -> None:
        super().__init__()
        self.scores = scores


class Solver(SolverState):
    """A perfect Connect-X solver for boards with ``cols * (rows + 1) <= 128``.

    ``tt_size``: transposition-table entries (rounded up to a power of two, at most one per possible key;
    8 bytes each, 16 past 64 bits where the table is too small to keep the whole key in one word).
    ``wide``: 128-bit bitboards (``True``) or 64-bit ones (``False``); by default 64 where the board fits.
    ``wide=True`` on a board that fits 64 bits searches the same nodes, slower (to check and measure it).
    ``book``: use the shipped opening book when one exists for the board (``True``), not at all (``False``), or
    a book file path.  ``threads`` (1..``MAX_THREADS``): the threads :meth:`analyze` and a progressive analysis
    search with, over the one table (:mod:`.parallel`); each more one adds its own frames and small table (1 MB).

    Threads may share a solver: each call (``solve``, ``solve_bits``, ``solve_many``, ``solve_states``,
    ``analyze``, ``best_move``, ``reset``, ``touch``, setting ``book``) takes :attr:`turn`, so they run one
    after another, over the one table.  The lane methods (:meth:`solve_on`, :meth:`search_on`) are the
    threads of one parallel search (:mod:`.parallel`, a progressive analysis): they take no turn, so whoever
    runs one on a solver other threads call holds :attr:`turn` while it runs.
    """

    #: a long search returns to Python after this many nodes (well under a second) and goes on at once:
    #: Ctrl-C is handled there.  It changes no score and no node count.
    slice_nodes = 1 << 20

    #: nodes searched by the last call (each thread reads its own last call's: :class:`.parallel.PerThread`)
    nodes = PerThread(int)
    #: nodes of each position of the last ``solve_many``
    node_counts: PerThread[list[int]] = PerThread(list)
    #: seconds taken by the last call
    elapsed = PerThread(float)

    # ---- solving --------------------------------------------------------------------------------

    def _book_score(self, current: int, mask: int) -> int | None:
        if self.book is None:
            return None
        return self.book.get(current, mask)

    def solve_bits(self, current: int, mask: int, weak: bool = False, node_limit: int | None = None) -> int:
        """The score of a position given as bitboards (not over; nobody has a line).

        ``node_limit``: raise :class:`BudgetExceeded` rather than search more nodes than that.
        """
        current, mask, weak, node_limit = self._checked(current, mask, weak, node_limit)
        with self.turn:  # lane 0 (and a helper's lane 1) for this call alone
            start = time.perf_counter()
            try:
                if self.threads > 1 and self.lazy_smp and self._book_score(current, mask) is None:
                    score = self._result(race(self, current, mask, weak, self._limit(node_limit)), weak, node_limit)
                else:
                    try:
                        score = self.solve_on(self._lanes[0], current, mask, weak, node_limit)
                    finally:
                        self.nodes = self._lanes[0].nodes
            finally:
                self.elapsed = time.perf_counter() - start
        return score

    def _checked(self, current: Any, mask: Any, weak: Any, limit: Any) -> tuple[int, int, bool, int | None]:
        """What :meth:`solve_bits`, :meth:`solve_on` and :meth:`search_on` are handed, checked: bitboards of a
        position of this board that is not over, ``weak`` True or False, a node limit None or 0 and up."""
        g = self.game
        ok = type(current) is int and type(mask) is int and current >= 0 and mask >= 0
        if (not ok or mask & ~g.board_mask or (mask + g.bottom_mask) & mask or current & ~mask
                or mask == g.board_mask or g._has_line_bits(current) or g._has_line_bits(current ^ mask)):
            raise InvalidPositionError(f"current={safe_repr(current)}, mask={safe_repr(mask)} is not a position "
                                       f"of {g.spec} that goes on: give the bitboards of Solver.position(...)")
        return (current, mask, *self._options(weak, limit))

    @staticmethod
    def _options(weak: Any, limit: Any) -> tuple[bool, int | None]:
        """``weak`` True or False, a node limit None or 0 and up; else one UsageError line."""
        return (check_flag(weak, "weak", UsageError),
                None if limit is None else check_whole(limit, "node_limit", 0, MAX_NODE_LIMIT, UsageError))

    @staticmethod
    def _limit(node_limit: int | None) -> int | None:
        return None if node_limit is None else max(int(node_limit), 1)

    @staticmethod
    def _result(score: int, weak: bool, node_limit: int | None) -> int:
        if score == search.ABORTED:
            raise BudgetExceeded(f"no answer within {node_limit} nodes")
        return (score > 0) - (score < 0) if weak else score

    def solve_on(self, lane: Lane, current: int, mask: int, weak: bool = False, node_limit: int | None = None) -> int:
        """:meth:`solve_bits` on one lane (:meth:`lanes`; ``lane.nodes``: its nodes), safe to run in
        another thread at the same time as other lanes.  A halted lane raises :class:`Halted`."""
        current, mask, weak, node_limit = self._checked(current, mask, weak, node_limit)
        if not isinstance(lane, Lane):
            raise UsageError(f"lane is one of Solver.lanes(n), not {safe_repr(lane)}")
        score = self._book_score(current, mask)
        if score is None:
            score = self.search_on(lane, current, mask, weak, self._limit(node_limit))
            if score == search.ABORTED and lane.halted:
                raise Halted("the search was stopped")
        else:
            lane.nodes = 0
        return self._result(score, weak, node_limit)

    def search_on(self, lane: Lane, current: int, mask: int, weak: bool, limit: int | None) -> int:
        """The compiled search of one position on ``lane``, in slices (``search.ABORTED``: out of ``limit``
        nodes, or halted)."""
        current, mask, weak, limit = self._checked(current, mask, weak, limit)
        if not isinstance(lane, Lane):
            raise UsageError(f"lane is one of Solver.lanes(n), not {safe_repr(lane)}")
        # a cold cache compiles for tens of seconds, saying so (steps.py): the search of this table and width
        warm_solver(self.game, Solver, table_log=self.table_log, wide_code=self.wide)
        stats = lane.stats
        halt = stats[search.HALT]
        stats.fill(0)
        stats[search.HALT] = halt  # set by another thread: kept, only the lane's owner clears it
        prepared = (*lane.board, self._book_arrays)
        rows, cols, k = self._dims
        score = search.ABORTED
        while not stats[search.HALT]:  # in slices, so that Ctrl-C (handled between them) stops a long search at once
            stats[1] = stats[0] + (self.slice_nodes if limit is None else min(self.slice_nodes, limit - stats[0]))
            score = int(search.solve_prepared(search.board_words(current, self.wide),
                                              search.board_words(mask, self.wide), rows, cols, k, weak, prepared,
                                              self.table, stats))
            if score != search.ABORTED or (limit is not None and stats[0] >= limit):
                break
        lane.nodes = int(stats[0])
        return score

    def solve_many(self, positions: Sequence[Any], weak: bool = False) -> list[int]:
        """The scores of many positions, searched by compiled code with no Python between them (``self.nodes``:
        their total).

        Book positions are answered from the book; ``self.node_counts`` holds each position's nodes.
        """
        if not isinstance(positions, (list, tuple)):
            raise InvalidPositionError(f"positions are a list (of move strings or states), not {safe_repr(positions)}")
        return self.solve_states([self.position(p) for p in positions], weak)

    def solve_states(self, states: Sequence[ConnectXState], weak: bool = False) -> list[int]:
        """``solve_many`` for states already checked by :meth:`position` (what a benchmark times; each is
        checked again, a few microseconds against the search's milliseconds)."""
        if not isinstance(states, (list, tuple)) or not all(type(s) is ConnectXState for s in states):
            raise InvalidPositionError(f"states are a list of this board's ConnectXState (Solver.position), not "
                                       f"{safe_repr(states)}")
        for s in states:
            self.position(s)
        weak = self._options(weak, None)[0]
        with self.turn:  # lane 0's frames and stats for this call alone
            start = time.perf_counter()
            n = len(states)
            if self.book is None:
                todo = list(range(n))
                booked: list[int | None] = [None] * n
            else:
                booked = [self._book_score(s.current, s.mask) for s in states]
                todo = [i for i, v in enumerate(booked) if v is None]
            currents = search.board_array([states[i].current for i in todo], self.wide)
            masks = search.board_array([states[i].mask for i in todo], self.wide)
            scores = np.zeros(len(todo), dtype=np.int64)
            nodes = np.zeros(len(todo), dtype=np.int64)
            if todo:
                g = self.game
                stats = self._stats
                stats.fill(0)
                done = 0
                while done < len(todo):  # in slices, like solve_bits
                    stats[1] = stats[0] + self.slice_nodes
                    done = int(search.solve_many(currents, masks, g.rows, g.cols, g.k, weak, self._prepared, self.table,
                                                 scores, nodes, stats, done))
        if len(todo) == n:
            result: list[int] = scores.tolist()
            counts: list[int] = nodes.tolist()
        else:
            result = [0 if v is None else v for v in booked]
            counts = [0] * n
            for i, score, count in zip(todo, scores.tolist(), nodes.tolist()):
                result[i] = score
                counts[i] = count
        self.node_counts = counts
        self.nodes = sum(counts)
        self.elapsed = time.perf_counter() - start
        return [(v > 0) - (v < 0) for v in result] if weak else result

    def solve(self, position: Any, weak: bool = False, node_limit: int | None = None) -> int:
        """The score of ``position`` for the side to move; ``weak=True``: only its sign (+1 / 0 / -1).

        ``node_limit``: raise :class:`BudgetExceeded` rather than search more nodes than that.
        """
        state = self.position(position)
        return self.solve_bits(state.current, state.mask, weak, node_limit)  # which checks weak and node_limit

    def analyze(self, position: Any, weak: bool = False, node_limit: int | None = None,
                threads: int | None = None) -> list[int | None]:
        """The score of playing each column (side to move's view); None for a full column.

        ``node_limit`` bounds the nodes of the whole analysis (:class:`BudgetExceeded` beyond it; searched
        by one thread).  ``threads`` (default ``self.threads``): the columns are shared out among that many
        threads over the one table (:func:`.parallel.analyze_columns`): the same scores.
        """
        state = self.position(position)
        weak, node_limit = self._options(weak, node_limit)
        threads = self.threads if threads is None else check_threads(threads)
        g = self.game
        out: list[int | None] = [None] * g.cols
        children = []
        for col in range(g.cols):
            if state.mask & g.top[col]:
                continue
            child = g.result(state, col)
            if child.won_by:
                score = (g.cells + 2 - (state.ply + 1)) // 2
                out[col] = (score > 0) - (score < 0) if weak else score
            elif child.mask == g.board_mask:
                out[col] = 0
            else:
                children.append((col, child.current, child.mask))
        nodes = 0
        scores: dict[int, int] = {}  # the children's scores, each for its side to move
        with self.turn:  # lane 0 (and the helpers' lanes) for this call alone
            start = time.perf_counter()
            try:
                if threads > 1 and node_limit is None and len(children) > 1:
                    order = sorted(children, key=lambda c: (abs(2 * c[0] - (g.cols - 1)), c[0]))  # centre first
                    nodes = analyze_columns(self, order, weak, threads, scores)[1]
                else:
                    lane = self._lanes[0]
                    for col, current, mask in children:
                        left = None if node_limit is None else node_limit - nodes
                        try:
                            scores[col] = self.solve_on(lane, current, mask, weak, left)
                        finally:
                            nodes += lane.nodes
            except KeyboardInterrupt:  # what was proven is said, not lost
                raise Interrupted([-scores[c] if c in scores else s for c, s in enumerate(out)]) from None
        for col, score in scores.items():
            out[col] = -score
        self.nodes = nodes
        self.elapsed = time.perf_counter() - start
        return out

    def best_move(self, position: Any) -> int:
        """A best column (0-based): the centre-most among the best scores."""
        scores = self.analyze(position)
        return best_of(scores, self.game.cols)

