"""The ``solver`` agent: perfect play on every Connect-X board up to 128 bits.

It plays a best move -- the centre-most among the columns with the best score, so from a lost position the
move that loses slowest -- and reports the position's value as ``win_value(plies)`` / ``loss_value(plies)``
/ 0 (:func:`zerosum.values.score_to_value`; ``exact`` is set) with every legal column's solver score in
``SearchResult.scores`` (``score_kinds``: each ``"exact"``; :mod:`.answers`).

Without a ``time`` limit it always solves, however long that takes (7 x 6 positions just beyond the
opening book take seconds to a minute to score every column) -- but for an early position of a board past
64 bits (below).  With ``solver:time=T`` it analyses
progressively (:mod:`zerosum.solver.progressive`): first the win/draw/loss of the columns until the game's
value is proven -- however long that takes where a person waits (:meth:`SolverAgent.search_within`, as the
faces call it), within T under a time control (:meth:`search`, as the arena calls it) -- then the exact
scores of the columns that may be best while the T seconds last.  When they are all scored, or one is
scored that none of the rest can beat (a move that wins at once, at once: ``ProgressiveState.settled``;
``scores`` then holds the columns scored), the move is exact; otherwise it is the best move proven to keep the
game's value (a proven win, draw or loss: perfect play in the win/draw/loss sense), ``SearchResult.value`` is
``+/-HEURISTIC_BOUND`` (not a proven value, ``exact`` unset) and ``agent.last_proof`` says so in words ("a
proven win; distance not yet known").  When not even that is proven within a time control, alpha-beta moves
in the time left, and ``agent.last_fallback`` says so.  So it does at once, with T seconds (1 s without a
``time``), in an early position of a board past 64 bits (more than ``analysis.REACH`` empty cells: 8 x 8
before ply 24), which the solver would take hours to prove.  :meth:`SolverAgent.search_within` takes the seconds and a
callback that sees each result as it is proven.

On a game the solver cannot take (not Connect-X, or a board beyond 128 bits) it says so once on standard
error, keeps the reason in ``agent.fallback_reason``, and plays ``alphabeta:time=T`` instead (T: the
``time`` limit, default 1 s), or ``random`` when the alpha-beta agent is not installed.

It owns no solver: it borrows the process's one solver of the game from the analysis service
(:mod:`zerosum.analysis`), with its book or without (``book``), its table at least ``2**tt`` entries (the
largest any user asked for), searching on its own ``threads`` -- so the terminal's hints and the page's
analyses warm the table its moves search, and the other way round.

Its compiled code is loaded once per process (:mod:`zerosum.agents.prepare`; :meth:`SolverAgent.preparation`
lists the steps, :meth:`SolverAgent.warm_up` does them): a compile of tens of seconds on a cold cache.  Until
it is loaded, a position whose every move the opening book scores is answered from the book alone (the
same move and value, no compiled code), so the book's moves never wait; another position waits for it, and
its T seconds count from then (where a person waits, the search has its whole time) -- except under a time
control (``search``), which counts the loading in its time: when the code is not
loaded within ``1 - prepare.SPARE`` of it, alpha-beta moves in the time left, as when nothing is proven in
time.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from typing import Any, Callable

from ..agents.base import MAX_TIME, Agent, Limits, Option, SearchAgent, SearchResult, Tracer, check_game, check_search
from ..agents.prepare import SPARE, Step, ready, settle, steps_of, warm
from ..agents.traits import PROOF as PROOF_VALUES, AgentTraits, ServerTraits, ValueUnit
from ..core.checks import check_flag, check_real, check_whole, guarded
from ..core.processes import FACE_THREADS, default_threads
from ..core.processes import MAX_JOBS as MAX_THREADS
from ..errors import AgentError, GameError
from ..game import Game
from ..values import HEURISTIC_BOUND, WIN
from . import steps
from .answers import book_answer, exact_answer
from .layout import DEFAULT_LOG_SIZE
from .steps import takes

__all__ = ["SolverAgent", "flag", "solver_steps"]

#: the ``tt`` option: a table of 2**tt entries (the solver commands' ``--tt-log-size`` range)
TT_RANGE = (10, 31)
_YES = ("1", "true", "yes", "on")
_NO = ("0", "false", "no", "off")
#: what a move proven only in win/draw/loss says (``SolverAgent.last_proof``), by the position's value
PROOF = {1: "a proven win; distance not yet known", 0: "a proven draw",
         -1: "a proven loss whatever it plays; which move loses slowest is not yet known"}
#: alpha-beta's seconds for a move out of the solver's reach (``analysis.REACH``) when it is given no time
FALLBACK_TIME = 1.0
#: under a hard time control, the share of the time the win/draw/loss search leaves for alpha-beta's move (when
#: nothing is proven: with the whole time taken, alpha-beta overran it by its least 0.05 s, and more)
FALLBACK_SHARE = 0.25


def flag(text: str) -> bool:
    """A yes/no option value: ``1/true/yes/on`` or ``0/false/no/off`` (any case); ValueError otherwise."""
    word = text.strip().lower() if isinstance(text, str) else ""
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise ValueError(f"{text!r} is not yes or no")


flag.__name__ = "yes or no"


class SolverAgent(SearchAgent):
    """Perfect play from the solver; alpha-beta on boards it cannot take."""

    name = "solver"
    description = "perfect play (Connect-X boards up to 128 bits; falls back to alpha-beta elsewhere)"
    TRAITS = AgentTraits(label="the solver", short="solver", exact=True, fallback="alphabeta",
                         plays="Connect-X boards up to 128 bits (cols x (rows + 1) <= 128)",
                         values=ValueUnit(kind=PROOF_VALUES, low=-WIN, high=WIN, words="{label}'s exact value"),
                         server=ServerTraits(caps={"tt": (10, 22)}, refuses=("threads", "seed"),
                                             defaults={"tt": "22"}),
                         opponent=("", "the solver (perfect play)"), strength=100)
    LIMITS = ("time",)
    OPTIONS = {
        "book": Option(flag, "use the opening book (default yes)", None, "one of 1/0, true/false, yes/no, on/off"),
        "tt": Option(int, "a transposition table of at least 2**tt entries, 8 bytes each, 16 on 8 x 8, 9 x 7 and "
                          "7 x 9 below tt=28 (default 24: 128 MB, 256 MB there; the process's one table of the game, "
                          "shared with its analyses)",
                     lambda v: TT_RANGE[0] <= v <= TT_RANGE[1], f"a whole number {TT_RANGE[0]}..{TT_RANGE[1]}"),
        "threads": Option(int, f"search threads over one table (default 1; the faces use {FACE_THREADS} where "
                               f"the machine has the cores)", lambda v: 1 <= v <= MAX_THREADS,
                          f"a whole number 1..{MAX_THREADS}"),
    }

    def __init__(self, *, limits: Limits | None = None, seed: int | None = None, book: bool = True,
                 tt: int = 24, threads: int | None = None) -> None:
        if isinstance(tt, bool) or not isinstance(tt, int) or not TT_RANGE[0] <= tt <= TT_RANGE[1]:
            raise AgentError(f"solver: tt={tt!r} is outside {TT_RANGE[0]}..{TT_RANGE[1]}")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                    or not 1 <= threads <= MAX_THREADS):
            raise AgentError(f"solver: threads={threads!r} is outside 1..{MAX_THREADS}")
        #: the solver's threads (:mod:`zerosum.solver.parallel`): 1 unless the spec or :meth:`use_cores` says
        self.threads = 1 if threads is None else threads
        self._threads_given = threads is not None
        super().__init__(limits=limits, seed=seed)
        self.use_book = book
        self.tt = tt
        self._refused: set[str] = set()  # the games it said it cannot take (once each)
        self._fallback: Agent | None = None
        self._stand_in: SearchAgent | None = None  # the alpha-beta that moves when the solver does not (kept)
        #: why this agent is not solving (None while it solves)
        self.fallback_reason: str | None = None
        #: why alpha-beta chose the last move (nothing was proven within the time control, or the position is
        #: out of the solver's reach: ``analysis.Service.reaches``), or None
        self.last_fallback: str | None = None
        #: when the last move is proven only in win/draw/loss (its time ran out first), what that means; else None
        self.last_proof: str | None = None

    def use_cores(self, cores: int) -> None:
        """Search with up to ``cores`` threads (at most ``FACE_THREADS``, and the cores this process may
        use), unless the spec set ``threads``."""
        cores = check_whole(cores, "solver: cores", 1, None, AgentError)
        if self._threads_given:
            return
        self.threads = max(1, min(cores, default_threads()))

    def _service_for(self, game: Game[Any, Any]) -> Any:
        """The analysis service whose solver this agent borrows (:mod:`zerosum.analysis`: one solver, table and
        book a process and game, shared with the hints and analyses), or None where the solver does not answer
        (the first time, it says why and starts its fallback)."""
        from ..analysis import service

        spec = getattr(game, "spec", repr(game))
        engine = service(game)
        if engine.solves or spec in self._refused:
            return engine if engine.solves else None
        self._refused.add(spec)
        self._start_fallback(engine.unsolved() or f"the solver plays Connect-X only, not {spec}")
        return None

    def _start_fallback(self, reason: str) -> None:
        seconds = self.limits.time or 1.0
        self._fallback = self._alphabeta(seconds, keep=False)
        self.fallback_reason = f"{reason}: playing {self._fallback.spec} instead"
        print(f"solver: {self.fallback_reason}", file=sys.stderr)

    def _alphabeta(self, seconds: float, keep: bool = True) -> SearchAgent:
        """Alpha-beta with ``seconds`` a move, where the solver cannot play (imported only then); ``keep``: the
        one kept for its moves, so its tables (37 MB, 20-30 ms of a move's time to make) are made once."""
        from ..agents.alphabeta import AlphaBetaAgent

        agent = self._stand_in if keep else None
        if agent is None:
            agent = AlphaBetaAgent(limits=Limits(time=seconds), seed=self.seed)
            if keep:
                self._stand_in = agent
        agent.limits = agent.limits.replace(time=seconds)
        agent.spec = f"alphabeta:time={round(seconds, 2):g}"  # for people: 8.75, not 8.74957319899113
        return agent

    def reset(self) -> None:
        """A new game: the alpha-beta that stands in for the solver forgets its table too."""
        if self._stand_in is not None:
            self._stand_in.reset()

    def preparation(self, game: Game[Any, Any], state: Any = None) -> list[Step]:
        """The compiled code a search of ``state`` (None: of any position) needs (:mod:`..agents.prepare`):
        none where the opening book answers ``state``; alpha-beta's where the solver cannot take the game or
        does not reach ``state`` (an early position past 64 bits: :func:`_beyond`), so a move there waits for
        no solver compile; for any position of a board past 64 bits, alpha-beta's first, then the solver's."""
        if state is None:
            check_game(self.spec, game)
        else:
            check_search(self.spec, game, state)
        if not takes(game):
            return steps_of(self._alphabeta(self.limits.time or 1.0), game)
        if state is not None and self._book_move(game, state) is not None:
            return []
        if game.fits_64 or state is not None and not _beyond(game, state):  # type: ignore[attr-defined]
            return solver_steps(game, self.tt)
        early = steps_of(self._alphabeta(self.limits.time or FALLBACK_TIME), game)
        return early if state is not None else early + [s for s in solver_steps(game, self.tt) if s not in early]

    def warm_up(self, game: Game[Any, Any]) -> None:
        """Load (or compile) the solver's code, once per process, and map its table's memory, so that the first
        timed move pays for neither (Kaggle's first move, on a tight budget)."""
        warm(self.preparation(game))
        if takes(game) and (engine := self._service_for(game)) is not None:
            with engine.borrowed(book=self.use_book, table=1 << self.tt) as solver:
                solver.touch()

    def search(self, game: Game[Any, Any], state: Any, tracer: Tracer | None = None) -> SearchResult:
        """The move in ``state`` (see :meth:`search_within`).  The solver's tree lives in compiled code and is
        not traced: a ``tracer`` sees only the root, entered and left with the answer's value."""
        check_search(self.spec, game, state, tracer)
        if tracer is not None:
            tracer.enter(state, None, 0, None, None)
        found = self.search_within(game, state, self.limits.time, hard=True)
        if tracer is not None:
            tracer.leave(found.value, None)
        return found

    def search_within(self, game: Game[Any, Any], state: Any, seconds: float | None,
                      report: Callable[[Any], None] | None = None,
                      clock: Callable[[], float] = time.perf_counter, hard: bool = False) -> SearchResult:
        """The move in ``state``: exact when every column that may be best is scored within ``seconds``
        (always, for None), else a move proven to keep the position's win/draw/loss (``last_proof`` says so).
        Without ``hard`` the seconds count from when the code is loaded and the solver made: the real time that
        took (a first run's compile) is added to them, and left out of ``elapsed``.

        ``report`` gets each :class:`~zerosum.solver.progressive.Event` as it is proven (a face shows the
        analysis filling in); ``clock``: where time comes from.  ``hard``: ``seconds`` is a time control
        (:meth:`search`, as the arena calls it): when not even the win/draw/loss of a move is proven by then,
        alpha-beta moves in the time left (not exact; ``last_fallback`` says so) rather than lose on time.
        The faces call this with ``hard`` False: a person waits for a proven move rather than get a guess --
        except in an early position of a board past 64 bits (``analysis.Service.reaches``), where alpha-beta
        moves at once, in ``seconds`` (``FALLBACK_TIME`` for None; ``last_fallback`` says so), with or without
        a time: an untimed search there would take days.
        """
        check_search(self.spec, game, state)
        if seconds is not None:
            seconds = check_real(seconds, "solver: seconds", 0.0, MAX_TIME, AgentError, above=True)
        if report is not None and not callable(report) or not callable(clock):
            raise AgentError("solver: report is None or a function of one event, and clock a function of no arguments")
        hard = check_flag(hard, "solver: hard", AgentError)
        if report is not None:
            report = _guarded("report(event)", report)
        clock = _guarded("clock()", clock, seconds=True)
        start, began = clock(), time.perf_counter()  # the loading takes real time (as ``settle``'s deadline)
        control = hard and seconds is not None  # the loading counts in the time (the arena's clocks govern)
        beyond = takes(game) and _beyond(game, state)  # alpha-beta moves, on its own code: under a time control
        steps = [] if beyond and control else self.preparation(game, state if beyond else None)  # loaded in its time
        if steps and not ready(steps) and takes(game) and not game.is_terminal(state):
            found = self._book_move(game, state)  # the book needs no compiled code
            if found is not None:
                self.last_fallback = self.last_proof = None
                return replace(found, elapsed=clock() - start)
            if hard and seconds is not None and not settle(steps, time.perf_counter() + (1 - SPARE) * seconds):
                left = max(0.05, start + seconds - clock())
                self.last_fallback = f"the solver's code is not loaded yet: alphabeta:time={left:.2f} chose"
                return self._alphabeta(round(left, 3)).search(game, state)
            warm(steps)
        engine = self._service_for(game)
        if engine is None:
            assert self._fallback is not None
            self.last_fallback = self.fallback_reason  # the board is not the solver's: alpha-beta moves, said
            if isinstance(self._fallback, SearchAgent):
                return self._fallback.search(game, state)
            return SearchResult(action=self._fallback(game, state))
        if game.is_terminal(state):
            raise AgentError("no legal action: the game is over")
        self.last_fallback = None
        self.last_proof = None
        if not control:  # a person waits: the loading of the code is no part of the move's time (docs/terminal.md)
            start, began = start + time.perf_counter() - began, time.perf_counter()
        if not engine.reaches(state):  # hours of proof (days, untimed): a game must go on
            left = FALLBACK_TIME if seconds is None else max(0.05, start + seconds - clock())
            self.last_fallback = f"{engine.beyond_reach()}: alphabeta:time={left:.2f} chose"
            return self._alphabeta(round(left, 3)).search(game, state)
        try:
            with engine.borrowed(book=self.use_book, table=1 << self.tt) as solver:
                if not control:  # nor the solver's making (its table's memory mapped)
                    start += time.perf_counter() - began
                if seconds is None and report is None:
                    scores = solver.analyze(state, threads=self.threads)
                    return exact_answer(game, state, scores, solver.nodes, clock() - start)
                return self._progressive(solver, state, None if seconds is None else start + seconds, report, clock,
                                         start, control, game)
        except GameError as exc:
            raise AgentError(f"the solver failed: {exc}") from None

    def _progressive(self, solver: Any, state: Any, deadline: float | None, report: Callable[[Any], None] | None,
                     clock: Callable[[], float], start: float, hard: bool = False,
                     game: Game[Any, Any] | None = None) -> SearchResult:
        from .progressive import EXACT, ROOT, WDL, Progressive

        run = Progressive(solver, state, clock=clock, root=True, threads=self.threads)
        # win/draw/loss until the game's value is proven (however long that takes, unless the time is a hard
        # control: then until FALLBACK_SHARE of it is left for alpha-beta); then the exact scores of the
        # columns that may be best, while time is left
        proving = None if not hard or deadline is None else deadline - FALLBACK_SHARE * (deadline - start)
        for event in run.events(kinds=(WDL,), deadline=proving):
            if report is not None and event.column != ROOT:
                report(event)
            if run.proven():
                break
        if not run.proven():  # a hard time control ran out before any move was proven
            assert deadline is not None and game is not None
            left = max(0.05, deadline - clock())
            self.last_fallback = f"nothing proven within {deadline - start:.3g} s: alphabeta:time={left:.2f} chose"
            return self._alphabeta(round(left, 3)).search(game, state)
        value = run.best_class()
        assert value is not None
        while True:
            # a draw is exact at once (no column wins, a proven one draws); a win or a loss needs the scores
            todo = [c for c in run.order if run.wdl.get(c, value) == value and (value or c in run.wdl)]
            settled = run.settled() is not None  # a proven score no column left can beat (a win at once)
            if settled or not run.pending(WDL, todo) and not run.pending(EXACT, todo):
                scores: list[int | None] = [run.exact.get(c) if c in todo or settled else None
                                            for c in range(run.cols)]
                found = exact_answer(solver.game, state, scores, run.nodes, clock() - start)
                return replace(found, scores=dict(run.exact), score_kinds=dict.fromkeys(run.exact, "exact"))
            proved = next(run.events(deadline=deadline, columns=todo), None)
            if proved is None:  # out of time: a proven move, its distance not yet known
                break
            if report is not None:
                report(proved)
        proven = run.proven()  # the best score each can be sure of: never a loss at once where one is slower
        best = max(proven, key=lambda c: (run.floor(c), -proven.index(c)))
        self.last_proof = PROOF[value]
        return SearchResult(action=best, value=value * HEURISTIC_BOUND, nodes=run.nodes,
                            depth=solver.game.cells - state.ply, elapsed=clock() - start, pv=(best,),
                            scores=dict(run.exact), score_kinds=dict.fromkeys(run.exact, "exact"), exact=False)

    def has_book(self, game: Any) -> bool:
        """Whether this agent plays ``game`` with an opening book (the shipped one, 7 x 6)."""
        from .book import load_default

        return self.use_book and takes(game) and load_default(game) is not None

    def _book_move(self, game: Any, state: Any) -> SearchResult | None:
        """The answer from the opening book alone, when it scores every move (:func:`.answers.book_answer`)."""
        from .book import load_default

        return book_answer(game, state, load_default(game) if self.has_book(game) else None)


def solver_steps(game: Any, tt: int = DEFAULT_LOG_SIZE) -> list[Step]:
    """The steps of the solver's compiled code (:mod:`..agents.prepare`) for ``game`` (a game or its spec) and
    a table of ``2**tt`` entries: numba's start, the solver's tables, its search (:func:`.steps.solver_steps`);
    none for a game the solver cannot take."""
    return steps.solver_steps(game, _make_solver, tt)


def _beyond(game: Any, state: Any) -> bool:
    """Whether the solver leaves ``state`` (of a board it takes) to alpha-beta where a person waits: an early
    position of a board past 64 bits (``analysis.Service.reaches``, without importing the compiled code)."""
    from ..analysis.engine import REACH

    return not game.fits_64 and game.cells - state.ply > REACH


def _make_solver(game: Any, **options: Any) -> Any:
    from .solver import Solver

    return Solver(game, **options)


def _guarded(what: str, func: Callable[..., Any], seconds: bool = False) -> Callable[..., Any]:
    """``func`` (a caller's report or clock) with what it raises, a function of the wrong kind, as one
    AgentError line; with ``seconds``, what it returns must be a number (:func:`~zerosum.core.checks.guarded`)."""
    return guarded(f"solver: {what}", func, AgentError, seconds=seconds)
