"""Kaggle's ConnectX: zerosum agents as Kaggle agents, and single-file submissions.

Kaggle calls an agent as ``agent(observation, configuration) -> column``:

* ``configuration.rows``, ``.columns``, ``.inarow`` give the board (any size), ``.actTimeout`` the seconds
  each move may take without cost;
* ``observation.board`` is the grid as a flat list, top-left cell first, row by row (0 empty, 1 and 2 the
  players' marks), ``observation.mark`` the side to move (1 moves first), and
  ``observation.remainingOverageTime`` the seconds of overrun left for the whole game.

:func:`agent` turns any zerosum spec into such a function.  It answers a plain Python ``int`` (Kaggle's
schema rejects numpy integers and booleans), always a legal column (when the wrapped agent fails or answers
nonsense, the centre-most legal column is played instead), and it sets the time limit of agents that honour
one from ``actTimeout`` plus a share of the overage time that front-loads the opening.  The ``solver``
keeps to the move's time: it plays a proven move, or alpha-beta moves in the time left when nothing is
proven in time.  On a board with an opening book (7 x 6) it plays every move; on other boards an early
position is rarely proven in time, so it answers once at most ``SOLVER_EMPTY`` cells are empty and
alpha-beta plays before that (and whenever the solver fails).

Compiled code is prepared in the background from a board's first move (:mod:`zerosum.agents.prepare`), the
opening agent's first: a cold cache compiles for tens of seconds, which the moves hide.  Until it is all
ready every move keeps to ``actTimeout`` alone, so the overage is kept; the solver plays what the opening
book answers (no compiled code needed) and the opening agent the rest (its generic path while its own
kernel is not ready either).

Without numba (not installed, or failing to import), the first move says so once on stderr and the agent
searches in pure Python: alpha-beta and MCTS take their generic paths, and the solver (numba only) leaves
the whole game to its opening agent.  That is slower, not silent and not a centre-column shuffle.

``zerosum kaggle-agent SPEC -o main.py`` writes a submission file (its text: :mod:`.kaggle_submission`)
that carries zerosum inside it: the modules the agent imports (found from the source by
:mod:`.kaggle_bundle`, compressed) are unpacked once into a temporary folder of the user's alone, imported
from there, and the file's last callable is the ``agent`` that Kaggle's loader picks up.  The file needs numpy,
and numba to search fast; Kaggle's image has both.  An agent that
cannot play unattended (``human``, one needing another adapter) is refused, and an existing output file is
replaced only with ``--overwrite`` (written atomically); so is a spec naming a file of the user's own (it
would not be on Kaggle's servers).  Kaggle loads the file within the first move's time, so that move's
budget counts from when it began loading (``loaded=``).  This module imports nothing heavy, so the command
starts quickly.  What Kaggle hands over is read and checked by :mod:`.kaggle_board`; the agents are checked,
and the solver's table mapped in the background, by :mod:`.kaggle_agents`.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..agents.prepare import numba_usable, ready, start, steps_of, warm
from ..core.checks import check_real, check_whole
from ..errors import AgentError, InvalidPositionError
from .kaggle_agents import check_keeps_time, check_plays_alone, table_step
from .kaggle_board import board_to_state, centre_most, check_mark, dims, flat_board, get, inarow, legal_columns, seconds
from .kaggle_board import state_to_board

__all__ = ["KaggleAgent", "agent", "board_to_state", "state_to_board", "submission_source", "write_submission"]

#: seconds kept back from ``actTimeout`` for Kaggle's own work around the call
SAFETY = 0.25
#: seconds of overage time never spent
RESERVE = 4.0
#: on boards without an opening book the solver answers once at most this many cells are empty; before
#: that (where a proof rarely comes within a move's time) alpha-beta plays within the move's time budget
SOLVER_EMPTY = 28
#: a submission's first move counts from when its file began loading, if that was at most this many seconds
#: before (Kaggle loads the file within the first move's clock; a later first call is not Kaggle's)
LOADING = 10.0


#: the notices this process has printed (each at most once)
_ONCE: set[str] = set()


def _notice(key: str, text: str) -> None:
    """Print ``text`` as one stderr line, the first time ``key`` comes up in this process."""
    if key not in _ONCE:
        _ONCE.add(key)
        print(text, file=sys.stderr, flush=True)


class KaggleAgent:
    """A zerosum agent behind Kaggle's ``agent(observation, configuration) -> int`` interface.

    One zerosum agent is built per board size and kept between moves (so tables and trees survive); it is
    reset when a new game starts.  ``limits`` are :class:`~zerosum.agents.base.Limits` fields
    (``depth``, ``nodes``, ``time``, ``simulations``); a ``time`` given here caps the per-move budget.
    ``loaded``: the ``time.perf_counter()`` at which a submission file began loading (Kaggle's clock counts
    its loading in the first move, so that move's budget counts from it); a bad type or value of any argument
    is one :class:`~zerosum.errors.AgentError` line.
    """

    def __init__(
        self,
        spec: str | Any = "solver",
        *,
        seed: int | None = None,
        safety: float = SAFETY,
        reserve: float = RESERVE,
        solver_empty: int = SOLVER_EMPTY,
        opening: str = "alphabeta",
        loaded: float | None = None,
        **limits: Any,
    ) -> None:
        from ..agents.base import Limits

        if "sims" in limits:
            if "simulations" in limits:
                raise AgentError(f"sims={limits['sims']!r} and simulations={limits['simulations']!r} are one "
                                 "limit: give one of them")
            limits["simulations"] = limits.pop("sims")
        try:
            self.limits = Limits(**limits)
        except TypeError as exc:
            raise AgentError(f"unknown limit in {sorted(limits)}: use depth, nodes, time, simulations") from exc
        self.spec = spec
        self.seed = seed
        self.safety = check_real(safety, "KaggleAgent: safety (seconds)", 0.0, 3600.0, AgentError)
        self.reserve = check_real(reserve, "KaggleAgent: reserve (seconds)", 0.0, 86400.0, AgentError)
        solver_empty = check_whole(solver_empty, "KaggleAgent: solver_empty (empty cells)", 0, None, AgentError)
        #: when the submission file began loading (``time.perf_counter``), until the first move counts it
        self.loaded = None if loaded is None else check_real(loaded, "KaggleAgent: loaded", -1e12, 1e12, AgentError)
        self._games: dict[tuple[int, int, int], Any] = {}
        self._steps: dict[Any, list[Any]] = {}  # the compiled code each board needs (``prepare`` steps)
        self._game: Any = None
        self._last_stones = -1
        #: what the last call did: column, seconds, budget, whether the fallback was used and why
        self.last: dict[str, Any] = {}
        from ..agents.registry import make_agent

        # built once (agents take the game at each call), so a bad spec fails here, not in a game
        self.inner = make_agent(spec, seed=seed, limits=self.limits)
        #: a time per move given in the spec or the limits caps the budget
        self.time_cap: float | None = self.inner.limits.time
        #: on boards without a book the solver plays only from ``solver_empty`` empty cells down;
        #: ``opening`` (an agent spec, alpha-beta by default, given the move's time) plays before that;
        #: ``opening="alphabeta:fast=0"`` spares numba compiling alpha-beta on the first move, at some strength
        self.solver_empty = solver_empty
        self.opening: Any = None
        if getattr(self.inner, "name", "") == "solver":
            self.opening = make_agent(opening, seed=seed, limits=self.limits)
        elif opening != "alphabeta":
            raise AgentError(f"opening={opening!r} is the solver's (the agent that plays before its reach): "
                             f"{getattr(self.inner, 'spec', spec)!r} plays every move itself")
        for built, what in ((self.inner, "agent"), (self.opening, "opening agent")):
            if built is not None:
                check_plays_alone(built, what)  # as the submission writer refuses it
                check_keeps_time(built)
        #: None until the first move decides it: True when the agent searches in pure Python (no numba)
        self.pure: bool | None = None

    def _uses_numba(self) -> bool:
        return self.opening is not None or bool(getattr(self.inner, "fast", False))

    def _check_numba(self) -> None:
        """On the first move: without numba, switch to pure-Python search and say so once on stderr."""
        self.pure = self._uses_numba() and not numba_usable()  # imports nothing: numba starts in the background
        if not self.pure:
            return
        for inner in (self.inner, self.opening):
            if inner is not None and getattr(inner, "fast", False):
                setattr(inner, "fast", False)  # noqa: B010 - the generic path of alpha-beta and MCTS
        searcher = self.inner if self.opening is None else self.opening
        if self.opening is not None:
            self.solver_empty = -1  # the solver is numba only: the opening agent plays every move
        _notice("pure", f"zerosum: numba cannot be imported here, so {getattr(searcher, 'spec', '?')!r} searches "
                        "in pure Python instead (slower)")

    @staticmethod
    def _ask(inner: Any, game: Any, state: Any, legal: list[int], seconds: float) -> tuple[int | None, str]:
        """``inner``'s legal column within ``seconds`` (when it honours time), or None and why not."""
        try:
            if "time" in getattr(inner, "LIMITS", ()):
                inner.limits = inner.limits.replace(time=max(0.02, seconds))
            action = inner(game, state)
        except Exception as exc:  # never lose a Kaggle game to an exception
            return None, f"{type(exc).__name__}: {exc}"
        if isinstance(action, bool) or not hasattr(action, "__index__"):
            return None, f"answered {action!r}, not a column"
        if int(action) not in legal:
            return None, f"answered column {int(action)}, not one of {legal}"
        return int(action), ""

    def _warm_up(self, game: Any) -> None:
        """Start preparing the agents' compiled code for ``game`` in the background, on its first move: the
        opening agent's first (it plays while the solver's compiles)."""
        agents = [] if self.pure else [a for a in (self.opening, self.inner) if a is not None]
        self._steps[game] = [s for a in agents for s in steps_of(a, game)]
        # then the solver's table mapped (256 MB past 64 bits): its first search in a game paid 0.6-0.9 s for it
        self._steps[game] += [] if self.pure else table_step(self.inner, game)
        start(self._steps[game])

    def warm_up(self, rows: int = 6, cols: int = 7, k: int = 4) -> None:
        """Prepare the agents' compiled code for a board here and now, outside any game's clock (a test, a
        notebook); a game prepares it in the background by itself."""
        if self.pure is None:
            self._check_numba()
        game = self._board_game(rows, cols, k)
        if game not in self._steps:
            self._warm_up(game)
        warm(self._steps[game])  # the solver's table mapped too (table_step)

    def _booked(self, game: Any) -> bool:
        """Whether the solver has an opening book for ``game`` (7 x 6): it then plays from the first move --
        the book answers the opening at once, and past it the solver's search keeps to the move's time (it
        plays a proven move, or alpha-beta moves in the time left when nothing is proven in time)."""
        has_book = getattr(self.inner, "has_book", None)  # the solver's (no compiled code needed)
        return not self.pure and has_book is not None and bool(has_book(game))

    def _board_game(self, rows: int, cols: int, k: int) -> Any:
        key = (rows, cols, k)
        if key not in self._games:
            from ..games import ConnectX

            self._games[key] = ConnectX(rows, cols, k)
        return self._games[key]

    def budget(self, configuration: Any, observation: Any, stones: int, cells: int) -> float:
        """Seconds this move may take: ``actTimeout`` less a safety margin, plus a share of the overage.

        The share is ``2 / (own moves left + 2)`` of the overage above the reserve, so early and middle-game
        moves (where search is hardest) get most of it and the overage is never used up.
        """
        key = "actTimeout" if get(configuration, "actTimeout") is not None else "timeout"  # older: "timeout"
        act = seconds(configuration, key, 2.0)  # a number of seconds, else one InvalidSpecError line
        overage = seconds(observation, "remainingOverageTime", 0.0)
        own_left = max(1, (cells - stones + 1) // 2)
        extra = max(0.0, overage - self.reserve) * 2.0 / (own_left + 2)
        budget = max(0.05, act - self.safety) + extra
        if self.time_cap is not None:
            budget = min(budget, self.time_cap)
        return budget

    def _started(self) -> tuple[float, float]:
        """When this move's time began, and the seconds of it spent loading the submission file: the first move
        counts from the file's loading (when it began less than ``LOADING`` seconds ago), as Kaggle's clock does."""
        now, loaded = time.perf_counter(), self.loaded
        self.loaded = None
        if loaded is not None and 0.0 <= now - loaded <= LOADING:
            return loaded, now - loaded
        return now, 0.0

    def __call__(self, observation: Any, configuration: Any) -> int:
        start, loading = self._started()
        rows, cols = dims(configuration)  # no column can be told legal without them: one GameError line
        board = flat_board(get(observation, "board"), rows, cols)  # none (or None): one line, never the start
        legal = legal_columns(board, cols)
        if not legal:
            raise AgentError("no legal column: the board is full")
        stones = sum(1 for v in board if v)
        column = centre_most(legal, cols)
        budget = 0.0
        reasons: list[str] = []
        used = "fallback"
        try:  # what Kaggle hands over mid-game, checked here: a bad value is a fallback move with its reason
            budget = self.budget(configuration, observation, stones, rows * cols)
            k, mark = inarow(configuration), check_mark(get(observation, "mark"))  # none: not read as 1
            if self.pure is None:
                self._check_numba()
            game = self._board_game(rows, cols, k)
            if stones < self._last_stones or game is not self._game:
                for a in (self.inner, self.opening):
                    if a is not None:
                        a.reset()  # a new game (or a new board size)
            self._game, self._last_stones = game, stones
            if game not in self._steps:
                self._warm_up(game)
            state = board_to_state(game, board, mark)
            if game.is_terminal(state):  # nothing to search: said as the other bridges say it
                won = getattr(state, "won_by", 0)
                raise InvalidPositionError(f"the game is over: player {won} has already won" if won
                                           else "the game is over: the board is full")
            chain = [self.inner] if self.opening is None else [self.inner, self.opening]
            needs = steps_of(self.inner, game, state)  # a search (not the book's answer) needs its table mapped too
            needs += table_step(self.inner, game) if needs else []
            if self.opening is not None and (rows * cols - stones > self.solver_empty and not self._booked(game)
                                             or not ready(needs)):
                chain = [self.opening]  # the solver only where it can play now (its code and table, or its book)
            if not ready(self._steps[game]):  # still compiling: this move keeps to actTimeout, the overage is kept
                budget = min(budget, self.budget(configuration, {}, stones, rows * cols))
        except Exception as exc:
            reasons.append(f"{type(exc).__name__}: {exc}")
            chain = []
        for inner in chain:  # the agent, then (for the solver) alpha-beta, then the centre-most column
            answer, why = self._ask(inner, game, state, legal, budget - (time.perf_counter() - start))
            if answer is not None:
                column, used = answer, getattr(inner, "spec", "?")
                if getattr(inner, "last_fallback", None):  # the solver handed the move to alpha-beta
                    used = f"alphabeta for {used}"
                break
            reasons.append(f"{getattr(inner, 'spec', '?')}: {why}")
        if used == "fallback":
            _notice("fallback", f"zerosum: played the centre-most column: {'; '.join(reasons)}")
        self.last = {
            "agent": used,
            "column": column,
            "seconds": time.perf_counter() - start,
            "budget": budget,
            "loading": loading,
            "fallback": used == "fallback" or bool(reasons),
            "reason": "; ".join(reasons),
        }
        return int(column)


def agent(spec: str | Any = "solver", *, seed: int | None = None, **limits: Any) -> Callable[[Any, Any], int]:
    """A Kaggle ConnectX agent ``agent(observation, configuration) -> int`` playing zerosum's ``spec``.

    ``limits`` are ``depth``, ``nodes``, ``time`` (a cap in seconds per move) and ``simulations``
    (or ``sims``).  See :class:`KaggleAgent`.

    >>> play = agent("first")
    >>> play({"board": [0] * 42, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4})
    0
    """
    return KaggleAgent(spec, seed=seed, **limits)


# ---- the single-file submission (its text: :mod:`.kaggle_submission`, which no submission carries) ----

def submission_source(spec: str = "solver", *, opening: str = "alphabeta", **limits: Any) -> str:
    """The text of a single-file Kaggle submission playing ``spec`` (checked before writing).

    Raises :class:`~zerosum.errors.AgentError` for a bad spec or limit, a user's own file, and an agent that
    cannot play unattended (``human``, or one whose module the submission cannot carry).
    """
    from .kaggle_submission import check_no_file, submission_text

    check_no_file(spec)  # before the file is read: a user's own agent would not be there on Kaggle
    check_no_file(opening, "opening agent")
    options: dict[str, Any] = {} if opening == "alphabeta" else {"opening": opening}
    built = KaggleAgent(spec, **options, **limits)  # raises AgentError on a bad spec or limit
    return submission_text(spec, options, limits, built.inner, built.opening)


def write_submission(path: str | os.PathLike[str], spec: str = "solver", *, opening: str = "alphabeta",
                     overwrite: bool = False, **limits: Any) -> Path:
    """Write a single-file Kaggle submission for ``spec`` to ``path`` and return the path.

    An existing file is replaced only with ``overwrite=True``; the path is checked before any work and the
    file is written atomically (a failure leaves the old file or none).
    """
    from ..core.files import atomic_output, check_output
    from .kaggle_submission import check_no_file

    check_no_file(spec)  # first, whatever the path: nothing is checked, read or written for a user's own file
    check_no_file(opening, "opening agent")
    out = check_output(path, overwrite=overwrite, what="submission file", source=True)  # agent.py: a program
    text = submission_source(spec, opening=opening, **limits)
    with atomic_output(out, checked=True) as fh:
        fh.write(text)
    return out
