"""What a :class:`~zerosum.solver.solver.Solver` holds (:class:`SolverState`, its base): the board it solves,
its transposition table, its opening book and its lanes, each lane the frames and small table of one thread
of a search (:mod:`.parallel`), made at construction or when first asked for, and kept for the solver's life.

It also turns what callers hand a solver into a playable state (:meth:`SolverState.position`), maps the
table's pages ahead of the first search (:meth:`SolverState.touch`) and forgets what the tables learned
(:meth:`SolverState.reset`).  The searches themselves, each call taking the solver's turn, are
:class:`~zerosum.solver.solver.Solver`'s.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

import zerosum.solver.search as search  # by its own name: ``from . import search`` would name this package

from ..core.checks import check_flag, check_text, check_whole
from ..errors import InvalidFileError, InvalidPositionError, InvalidSpecError, UsageError
from ..games.connectx import ConnectXState
from .boards import solver_game
from .book import Book, load_default
from .parallel import Lane, TakesTurns, check_threads, helper_order
from .steps import warm_solver

__all__ = ["SolverState", "LAZY_SMP", "DEFAULT_TT_SIZE"]

#: whether ``Solver.solve`` with ``threads > 1`` adds a lazy-SMP helper thread (see docs/solver.md's figures)
LAZY_SMP = True

#: the default table: 2**24 entries, 8 bytes each (128 MB, on huge pages where the system allows)
DEFAULT_TT_SIZE = 1 << search.DEFAULT_LOG_SIZE


class SolverState(TakesTurns):
    """A solver's board, tables, book and lanes (see :class:`~zerosum.solver.solver.Solver`, which takes the
    same arguments), and the calls that prepare them; every call that touches them takes :attr:`turn`."""

    def __init__(self, game: Any = "connect4", *, tt_size: int = DEFAULT_TT_SIZE, book: bool | str = True,
                 threads: int = 1, wide: bool | None = None) -> None:
        #: held by each call (reentrant: ``with solver.turn:`` makes several calls, or a search on lanes, one turn)
        self.turn = threading.RLock()
        self.game = g = solver_game(game)
        self.key_bits = bits = g.cols * (g.rows + 1)
        #: whether the search runs on 128-bit bitboards (:mod:`zerosum.kernels.wide`); by default past 64 bits
        self.wide = bits > 64 if wide is None else check_flag(wide, "wide", UsageError)
        if bits > 64 and not self.wide:
            raise InvalidSpecError(f"a {self.game.rows} x {self.game.cols} board needs {bits} bits: wide=False "
                                   f"takes boards with cols x (rows + 1) <= 64")
        #: the threads :meth:`analyze` (and a progressive analysis) search with, over the one table
        self.threads = check_threads(threads)
        #: whether :meth:`solve` with ``threads > 1`` adds a lazy-SMP helper (:func:`.parallel.race`)
        self.lazy_smp = LAZY_SMP
        check_whole(tt_size, "tt_size (entries of the table)", 1, 1 << 32, UsageError)
        if book is not True and book is not False:
            book = check_text(book, "book", InvalidFileError, hint=" (a book file's path), True or False")
        self._log_size = log_size = max(1, (tt_size - 1).bit_length())
        # a cold cache compiles the tables' code for seconds: said, not silent
        warm_solver(g, type(self), tables_only=True, wide_code=self.wide)
        stored = search.MAX_WIDE_PART_BITS if self.key_bits > 64 else search.MAX_PART_BITS
        self.table = search.make_table(max(log_size, 8, self.key_bits - stored), self.key_bits)
        self._stats = np.zeros(search.STATS_SIZE, dtype=np.int64)  # nodes searched, node limit, where it stopped
        self._dims = (g.rows, g.cols, g.k)
        self._board_arrays = search.prepare(g.rows, g.cols, g.k, self.table.shape[0], self.wide)
        self._near_table = self._board_arrays[2][5]  # the search's small table for positions near the end
        self._lanes = [Lane(self._board_arrays, self._stats)]  # lane 0: each call's, one at a time (turn)
        self._touched = False  # whether the table's pages are mapped (:meth:`touch`)
        self.book = None
        if book is True:
            self.book = load_default(g)
        elif book:
            loaded = Book.load(str(book))
            if (loaded.rows, loaded.cols, loaded.k) != (g.rows, g.cols, g.k):
                raise InvalidSpecError(f"book {book!r} is for another board ({loaded.rows} x {loaded.cols})")
            self.book = loaded

    @property
    def table_log(self) -> int:
        """The table's size as a power of two: with :attr:`wide`, which compiled search runs (steps.search_kind)."""
        return int(self.table.shape[0]).bit_length() - 1

    @property
    def book(self) -> Book | None:
        """The opening book: looked up at the root and at every node of the search up to its depth."""
        return self._book

    @book.setter
    def book(self, book: Book | None) -> None:
        arrays = search.book_arrays() if book is None else search.book_arrays(*book.probe())
        with self.turn:  # not while a search of another thread reads the book
            self._book = book
            self._book_arrays = arrays
            self._prepared = (*self._board_arrays, arrays)

    def __repr__(self) -> str:
        wide = ", wide=True" if self.wide and self.key_bits <= 64 else ""
        return f"Solver({self.game.spec!r}, tt_size={self.table.shape[0]}, book={self.book is not None}{wide})"

    # ---- positions -----------------------------------------------------------------------------

    def position(self, position: Any) -> ConnectXState:
        """A playable state from a state, a move string or a list of 0-based columns."""
        g = self.game
        if isinstance(position, ConnectXState):
            state = g.check_state(position)
        elif isinstance(position, str):
            state = g.from_grid(position) if "\n" in position.strip() else g.from_moves(position)
        elif isinstance(position, (list, tuple)):
            state = g.from_moves(position)
        else:
            raise InvalidPositionError(
                f"a position is a ConnectXState, a move string or a list of columns, not {type(position).__name__}"
            )
        if state.won_by:
            raise InvalidPositionError(f"the game is over: player {state.won_by} already has {g.k} in a row")
        if state.mask == g.board_mask:
            raise InvalidPositionError("the game is over: the board is full (a draw)")
        return state

    def touch(self) -> None:
        """Map every page of the table now (each page's first entry written back as it is: nothing changes),
        so that the first search does not pay for it: up to 0.4 s for 128 MB on a busy machine."""
        with self.turn:  # not while a search writes the table
            if not self._touched:
                flat = self.table.reshape(-1)
                flat[::512] = flat[::512].copy()  # 512 entries of 8 bytes: a page of 4 KB
                self._touched = True

    def reset(self) -> None:
        """Forget the transposition tables (the main one and the small one for near-end positions)."""
        with self.turn:
            self.table.fill(0)
            self._touched = True  # every page written
            for lane in self._lanes:
                lane.board[2][5].fill(0)  # each lane's small table

    def lanes(self, n: int) -> list[Lane]:
        """``n`` lanes (:class:`.parallel.Lane`) to search on at once, made once and kept: lane 0 is the
        one :meth:`solve_bits` uses, lane 1 a lazy-SMP helper's (:func:`.parallel.helper_order`)."""
        n = check_threads(n)
        g = self.game
        with self.turn:  # two threads asking at once make each lane once
            while len(self._lanes) < n:
                order, colmask, work = search.prepare(g.rows, g.cols, g.k, self.table.shape[0], self.wide)
                if len(self._lanes) == 1:
                    order = helper_order(order)
                self._lanes.append(Lane((order, colmask, work)))
            return self._lanes[:n]
