"""The analysis service: one :class:`Service` a process and game (:func:`service`), owning the solver, its
table and its book, and answering "analyse this position" (see the package docstring)."""

from __future__ import annotations

import threading
import time as _time
from collections import OrderedDict
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..agents.base import MAX_TIME, check_game
from ..core.checks import check_flag, check_real, check_whole, guarded, safe_repr
from ..core.processes import MAX_JOBS
from ..core.words import CLASS_LEGEND, CLASS_POINTS
from ..errors import InvalidPositionError, UsageError
from ..game import COLUMN_BITBOARD, Game
from ..values import HEURISTIC_BOUND, score_to_value
from .estimate import estimated
from .result import SOLVER_LEGEND, SOLVER_SHORT, Analysis, best_action, centre_order

__all__ = ["Service", "service", "prove", "SOLVER_NAME", "ESTIMATE_TIME", "MAX_RUNS", "DEFAULT_TABLE", "REACH"]

#: who answers when the solver does (:attr:`Analysis.engine`)
SOLVER_NAME = "the solver"
#: seconds of alpha-beta where the solver does not go (a hint's default)
ESTIMATE_TIME = 1.0
#: progressive analyses a service keeps going between slices (the oldest is let go first)
MAX_RUNS = 8
#: entries of the solver's table when nobody asks for more (2**24, 8 bytes each: 128 MB)
DEFAULT_TABLE = 1 << 24
#: on a board past 64 bits, the most empty cells of a position the solver is asked about while a person waits
#: (:meth:`Service.reaches`): 8 x 8 from ply 24, 9 x 7 and 7 x 9 from ply 23.  There it proves a move in
#: seconds (8 x 8, ply 24: under 1 s in most positions); at ply 10 it takes hours
REACH = 40

_SERVICES: dict[str, "Service"] = {}
_LOCK = threading.Lock()


def service(game: Game[Any, Any]) -> "Service":
    """The analysis service of ``game`` in this process (one a game spec, made at first use)."""
    game = check_game("analysis.service", game)
    key = str(game.spec or id(game))
    with _LOCK:
        found = _SERVICES.get(key)
        if found is None:
            found = _SERVICES[key] = Service(game)
        return found


def takes(game: Any) -> bool:
    """Whether the solver takes ``game``: what the game declares (:attr:`~zerosum.game.GameTraits.solver`),
    asked without the solver's compiled code."""
    return bool(getattr(getattr(game, "traits", None), "solver", False))


class Service:
    """Analyses of one game (see the package docstring).  ``table``: the entries of the solver's table an
    analysis asks for (default :data:`DEFAULT_TABLE`); the solver's table is the largest any user asked for
    (:meth:`borrowed`).  :func:`service` gives the process's own; a ``Service`` made apart (a benchmark of
    another table) shares nothing with it."""

    def __init__(self, game: Game[Any, Any], table: int | None = None) -> None:
        from ..core.processes import default_threads

        self.game = check_game("analysis.Service", game)
        table = None if table is None else _entries(table)
        #: the solver takes this game (it may still be missing: numba not installed, :attr:`solves`)
        self.takes = takes(game)
        #: the threads an analysis searches with unless told (the faces': two where the machine has them)
        self.threads = default_threads()
        self._floor = table or DEFAULT_TABLE  # the table an analysis asks for
        self._size = 0  # the table the solver was made with
        self._solver: Any = None
        self._book: Any = None
        self._judges: dict[int, Any] = {}
        self._lock = threading.RLock()
        self._runs: OrderedDict[tuple[int, ...], Any] = OrderedDict()  # progress.Kept: the runs between slices

    def __repr__(self) -> str:
        return f"analysis.service({getattr(self.game, 'spec', self.game)!r})"

    # ---- the solver ------------------------------------------------------------------------------

    @property
    def solves(self) -> bool:
        """Whether the solver answers here: it takes the game and its compiled code is installed."""
        if not self.takes:
            return False
        try:
            import zerosum.solver.solver  # noqa: F401 - numba, or ImportError
        except ImportError:
            return False
        return True

    def reaches(self, state: Any) -> bool:
        """Whether the solver answers ``state`` where a person waits (a progressive analysis, a face's move):
        where it :attr:`solves`, every position of a board that fits 64 bits, and past 64 bits a position with
        at most ``REACH`` empty cells.  Elsewhere alpha-beta estimates, and says why (:meth:`beyond_reach`)."""
        state = self.game.check_state(state)
        board: Any = self.game  # a board the solver takes says whether it fits 64 bits, and has cells
        return self.solves and (board.fits_64 or board.cells - state.ply <= REACH)

    def unsolved(self) -> str | None:
        """Why the solver does not answer this Connect-X board at all (past 128 bits, or numba missing), in
        words; None for a board it answers, and for another game (the solver is for Connect-X alone)."""
        board: Any = self.game
        if self.solves or self.game.traits.layout != COLUMN_BITBOARD:
            return None
        if not self.takes:
            return (f"the solver takes boards with cols x (rows + 1) <= 128; {board.rows} rows x {board.cols} columns "
                    f"need {board.cols * (board.rows + 1)} bits")
        return "the solver's compiled code (numba) is not installed"

    def beyond_reach(self) -> str:
        """Why the solver does not answer a position :meth:`reaches` refuses, in words."""
        board: Any = self.game
        return (f"the solver answers positions of {board.rows} rows x {board.cols} columns with at most {REACH} empty "
                f"cells (from ply {board.cells - REACH}) while you wait")

    @property
    def solver(self) -> Any:
        """The solver (``zerosum.solver.Solver``, made at first use with the table an analysis asks for), or None
        where it does not answer."""
        return self._solver if self._solver is not None else self._made(None)

    def _made(self, table: int | None) -> Any:
        if not self.solves:
            return None
        with self._lock:
            want = table or self._floor
            if self._solver is None or want > self._size:
                from ..solver.solver import Solver

                self._size = max(self._size, want)
                self._solver = Solver(self.game, tt_size=self._size, book=True)  # threads: each call's own
                self._book = self._solver.book
                self._runs.clear()  # they searched the old table
            return self._solver

    @contextmanager
    def borrowed(self, *, book: bool = True, table: int | None = None) -> Iterator[Any]:
        """The solver, for this thread alone while the block runs, with the opening book or without it
        (``book``) and a table of at least ``table`` entries (a larger one is made once, when asked for).
        Raises InvalidPositionError where the solver does not answer."""
        book, table = check_flag(book, "book", UsageError), None if table is None else _entries(table)
        solver = self._made(table)
        if solver is None:
            raise InvalidPositionError(f"the solver does not take {getattr(self.game, 'spec', self.game)}")
        with self._lock, solver.turn:  # the turn too: a user of Service.solver, outside the lock, waits as well
            wanted = self._book if book else None
            if solver.book is not wanted:
                solver.book = wanted
            try:
                yield solver
            finally:
                if solver.book is not self._book:
                    solver.book = self._book

    @property
    def book_depth(self) -> int | None:
        """The last ply the opening book scores every position of, or None without a book (read without the
        compiled code)."""
        if not self.takes:
            return None
        from ..solver.book import load_default

        book = load_default(self.game)  # type: ignore[arg-type]
        return None if book is None else int(book.depth)

    def from_book(self, state: Any) -> bool:
        """Whether the opening book scores every move of ``state`` (its analysis needs no search)."""
        state = self.game.check_state(state)
        depth = self.book_depth
        return depth is not None and state.ply + 1 <= depth

    def score_value(self, state: Any, score: int) -> int:
        """A solver score of ``state`` (the side to move's view) as an agent value."""
        state = self.game.check_state(state)
        if not self.takes:
            raise UsageError(f"the solver does not take {self.game.spec}: it has no scores")
        cells = self.game.cells  # type: ignore[attr-defined]
        return score_to_value(check_whole(score, "score", -cells, cells, UsageError), state.ply, cells)

    # ---- analyses ----------------------------------------------------------------------------------

    def analyse(self, state: Any, *, seconds: float | None = None, resume: Any = None,
                on_update: Callable[[Analysis], None] | None = None, stop: threading.Event | None = None,
                time: float | None = None, use_solver: bool = True, threads: int | None = None,
                weak: bool = False, book: bool = True, table: int | None = None,
                clock: Callable[[], float] = _time.perf_counter) -> Analysis:
        """Every legal move of ``state`` valued (see the package docstring).

        Where the solver answers: without ``seconds``, ``resume``, ``on_update`` or ``stop``, every exact score
        (``weak``: win/draw/loss only), from one call of the solver -- untimed, never cut short, unless ``time``
        is given: then a person waits, and a position out of the solver's reach (:meth:`reaches`) gets
        alpha-beta's estimates at once, as a progressive analysis does; else progressively, for at most
        ``seconds`` (or until ``stop`` is set), ``on_update`` seeing the analysis after each result,
        going on from ``resume`` (an earlier answer's :attr:`~Analysis.progress`, from any process: one this
        service handed out goes on with the run it kept, any other with a run of its own, never shared) or from
        where this service's last analysis of the position stopped.  Either way ``book``: with the opening book
        or without it, ``threads``: how many search (default :attr:`threads`), ``table``: the least entries of the
        solver's table, ``clock``: where time comes from.  Elsewhere (or ``use_solver`` False): alpha-beta's
        estimates in about ``time`` seconds (default :data:`ESTIMATE_TIME`)."""
        state = self.game.check_state(state)
        seconds = None if seconds is None else check_real(seconds, "seconds", 0.0, MAX_TIME, UsageError, above=True)
        waits = time is not None  # an alpha-beta time: a person waits (see above)
        time = ESTIMATE_TIME if time is None else check_real(time, "time", 0.0, MAX_TIME, UsageError, above=True)
        use_solver, weak = check_flag(use_solver, "use_solver", UsageError), check_flag(weak, "weak", UsageError)
        threads = None if threads is None else check_whole(threads, "threads", 1, MAX_JOBS, UsageError)
        if stop is not None and not isinstance(stop, threading.Event):
            raise UsageError(f"stop is None or a threading.Event, not {safe_repr(stop)}")
        on_update = None if on_update is None else _guarded("on_update(analysis)", on_update)
        clock = _guarded("clock()", clock, seconds=True)
        actions = self.game.actions(state)
        if not actions:
            raise InvalidPositionError("the game is over: there is nothing to analyse")
        if not (use_solver and self.solves):
            found = estimated(self.game, state, actions, time)
            why = self.unsolved() if use_solver else None  # a Connect-X board: why no exact values
            if why:
                found.note = why
            return found
        threads = self.threads if threads is None else threads
        untimed = seconds is None and resume is None and on_update is None and stop is None
        if untimed and not (waits and not self.reaches(state)):
            return self._solved(state, actions, threads, weak, book, table)
        if not self.reaches(state):  # a person waits: estimates at once rather than hours of proof
            found = estimated(self.game, state, actions, time)
            found.note = self.beyond_reach()
            return found
        from .progress import run_of

        with self.borrowed(book=book, table=table) as solver:
            key, kept, nodes, spent = run_of(self._runs, solver, state, resume, clock, threads)
            run = kept.run
            first, began = run.nodes, clock()
            deadline = None if seconds is None else began + seconds

            def now() -> Analysis:
                found = self._partial(state, run.wdl, run.exact, spent + clock() - began, nodes + run.nodes - first)
                found.progress = None if found.done else kept.hand_out({**run.snapshot(), "nodes": found.nodes,
                                                                        "seconds": round(found.elapsed, 4)})
                return found

            for _ in run.events(deadline=deadline, stop=stop):
                if on_update is not None:
                    on_update(now())
            found = now()
            self._runs.pop(key, None)
            if not found.done:  # kept, newest last, for the next slice
                self._runs[key] = kept
                while len(self._runs) > MAX_RUNS:
                    self._runs.popitem(last=False)
        if not found.done and seconds is not None:
            found.note = f"not every column is proven within {seconds:.3g} s"
        return found

    def _solved(self, state: Any, actions: list[Any], threads: int, weak: bool, book: bool,
                table: int | None) -> Analysis:
        """Every exact score (or, ``weak``, every win/draw/loss) from one call of the solver."""
        with self.borrowed(book=book, table=table) as solver:
            raw = solver.analyze(state, weak=weak, threads=threads)
            nodes, elapsed = solver.nodes, solver.elapsed
        known = {c: int(s) for c, s in enumerate(raw) if s is not None and c in actions}
        if weak:
            found = self._partial(state, known, {c: 0 for c, s in known.items() if s == 0}, elapsed, nodes)
            found.done = True
            return found
        found = self._partial(state, {}, known, elapsed, nodes)
        found.from_book = book and not nodes and self.from_book(state)
        return found

    def _partial(self, state: Any, wdl: dict[int, int], exact: dict[int, int], elapsed: float,
                nodes: int = 0) -> Analysis:
        """The analysis of what the solver proved: exact scores ``exact`` and win/draw/loss ``wdl`` (+1 / 0 /
        -1) by column.  Exact (and done) when every legal column has its score."""
        actions = self.game.actions(state)
        scores: dict[Any, float] = {c: s for c, s in exact.items() if c in actions}
        values = {c: float(self.score_value(state, int(s))) for c, s in scores.items()}
        points = {c: f"{int(s):+d}" if s else "0" for c, s in scores.items()}
        found = Analysis(SOLVER_NAME, False, scores, values, None, nodes, elapsed, points=points,
                         legend=SOLVER_LEGEND, solver_scores=True, exact_moves=set(scores))
        found.classes = {c: v for c, v in wdl.items() if c in actions and c not in exact}
        for c, v in found.classes.items():
            found.values[c] = v * HEURISTIC_BOUND
            found.points[c] = CLASS_POINTS[v]
            found.scores[c] = v  # a proven win/draw/loss: its sign, marked as such by ``classes``
        found.done = found.exact = all(c in exact for c in actions)
        if found.values:
            found.best = best_action(found.values, centre_order(self.game, state, actions))
        if not found.done:
            found.legend = f"{SOLVER_SHORT}; {CLASS_LEGEND}"
        return found

    def follower(self, state: Any) -> Callable[[Any], Analysis]:
        """A function of a solver's progressive events (``zerosum.solver.progressive.Event``, as the solver
        agent reports them) that returns the analysis they add up to, so far."""
        state = self.game.check_state(state)
        wdl: dict[int, int] = {}
        exact: dict[int, int] = {}

        def follow(event: Any) -> Analysis:
            (exact if event.kind == "exact" else wdl)[event.column] = event.value
            if event.kind == "exact" or event.value == 0:
                wdl[event.column] = (event.value > 0) - (event.value < 0)
            return self._partial(state, wdl, exact, event.seconds, event.nodes)

        return follow

    # ---- rulings (the arena's adjudication) ---------------------------------------------------------

    def prove(self, state: Any, nodes: int, table: int) -> tuple[int, int | None] | None:
        """:func:`prove` ``state`` within ``nodes`` nodes by the adjudicator's solver: no book, a table of its
        own of ``table`` entries (the one exception to one solver a game: docs/architecture.md says why)."""
        state, table = self.game.check_state(state), _entries(table)
        if not self.solves:
            raise UsageError(f"the solver does not take {self.game.spec}")
        with self._lock:
            judge = self._judges.get(table)
            if judge is None:
                from ..solver.solver import Solver

                judge = self._judges[table] = Solver(self.game, tt_size=table, book=False)
            return prove(judge, state, nodes)


def prove(solver: Any, state: Any, nodes: int) -> tuple[int, int | None] | None:
    """``(sign, plies)`` when ``solver`` proves ``state`` (not over) within ``nodes`` nodes: the sign of its
    result for the side to move (+1, 0, -1) and, for a win or loss, the plies to its end when a second
    search finds them within the same budget (else None).  None when not proven."""
    from ..solver.solver import BudgetExceeded, Solver
    from ..values import plies_to_end

    if not isinstance(solver, Solver):
        raise UsageError(f"solver is a zerosum Solver, not {safe_repr(solver)}")
    state = solver.game.check_state(state)
    try:
        sign = solver.solve_bits(state.current, state.mask, weak=True, node_limit=nodes)
    except BudgetExceeded:
        return None
    if sign == 0:
        return 0, None
    try:
        score = solver.solve_bits(state.current, state.mask, weak=False, node_limit=nodes)
    except BudgetExceeded:
        return sign, None
    return sign, plies_to_end(score_to_value(score, state.ply, solver.game.cells))


def _entries(table: Any) -> int:
    """A table's entries, checked (the Solver's own range)."""
    return check_whole(table, "table (entries)", 1, 1 << 32, UsageError)


def _guarded(what: str, func: Any, seconds: bool = False) -> Callable[..., Any]:
    """``func`` (a caller's callback or clock) as :func:`~zerosum.core.checks.guarded` calls it: what it
    raises, or a function of the wrong kind, is one UsageError line."""
    if not callable(func):
        raise UsageError(f"{what.partition('(')[0]} is a function, not {safe_repr(func)}")
    return guarded(f"analysis: {what}", func, UsageError, seconds=seconds)
