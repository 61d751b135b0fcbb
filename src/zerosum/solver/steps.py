"""The solver's preparation (:mod:`zerosum.agents.prepare`): numba's start, then the compiled code of its tables
and of its search, loaded from numba's cache or compiled (a first run) by a small solver of the board.

The tables' code is compiled once for 64-bit boards and once for 128-bit ones (:mod:`zerosum.kernels.wide`),
the search once for each kind of bitboard and table entry (:func:`search_kind`: a table large enough past 64
bits has one-word entries), so each has a step of its own.  This module stands below :mod:`.solver`: what
makes the small solver is handed in (``make``: the :class:`.solver.Solver` class, or a function that imports
it when called), and a new ``Solver``'s search has its code ready first, telling a person using zerosum from
Python of a compile (:func:`warm_solver`).

A host that runs searches under a time limit it enforces from outside (the web server's worker processes) is
told of each step's work as it starts and ends (:func:`telling`), so that it waits for a compile -- tens of
seconds on a cold cache, the 128-bit search's first use on a board past 64 bits -- rather than kill it at
the search's limit, which lost the compile and left the next request to start it again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, Callable

from ..agents.prepare import Step, numba_step, ready, step, warm
from ..errors import GameError
from .layout import DEFAULT_LOG_SIZE, MAX_PART_BITS, wide_entries

__all__ = ["solver_steps", "warm_solver", "search_kind", "takes", "wide", "telling", "PREPARING", "PREPARED",
           "COLD_TABLES", "COLD_SEARCH"]

#: about how long each step takes on a cold cache (seconds, an idle two-core machine)
COLD_TABLES, COLD_SEARCH = 3.0, 20.0


#: the keys of the steps done in this process (:func:`warm_solver`)
_READY: set[str] = set()
#: what :func:`telling`'s listener hears: ``(PREPARING, label)`` as a step's work starts, ``(PREPARED, label)``
#: as it ends (done or failed)
PREPARING, PREPARED = "preparing", "prepared"
_LISTENERS: list[Callable[[Any], object]] = []


def takes(game: Any) -> bool:
    """Whether the solver takes ``game``: a Connect-X board up to 128 bits (as :func:`.solver.supports`,
    without importing the compiled code): the game says so (``game.traits.solver``)."""
    return bool(getattr(getattr(game, "traits", None), "solver", False))


def wide(game: Any) -> bool:
    """Whether the solver takes ``game`` with its 128-bit code: a Connect-X board past 64 bits (8 x 8, 9 x 7,
    7 x 9), whose compiled code is not the 64-bit boards' (7 x 6)."""
    return takes(game) and game.cols * (game.rows + 1) > 64


@contextlib.contextmanager
def telling(listener: Callable[[Any], object]) -> Iterator[None]:
    """While inside, ``listener`` hears of each solver step whose work runs in this process, as it starts and
    ends: ``(PREPARING, label)`` then ``(PREPARED, label)`` (a step done already runs nothing, and says
    nothing).  The web server's jobs pass :func:`zerosum.pool.report`, which the worker's owner sees
    (:func:`zerosum.ui.engines.tracked_job`)."""
    _LISTENERS.append(listener)
    try:
        yield
    finally:
        _LISTENERS.remove(listener)


def _told(label: str, work: Callable[[], None]) -> None:
    """``work()``, its start and its end told to :func:`telling`'s listeners."""
    for listener in list(_LISTENERS):
        listener((PREPARING, label))
    try:
        work()
    finally:
        for listener in list(_LISTENERS):
            listener((PREPARED, label))


def search_kind(game: Any, table_log: int = DEFAULT_LOG_SIZE, wide_code: bool | None = None) -> str:
    """Which compiled search a solver of ``game`` with a table of ``2**table_log`` entries runs: numba compiles
    the search once for each kind of bitboard and table entry, and each kind is a step of its own (its key's
    end).  ``""``: 64-bit bitboards; ``" 128"``: 128-bit ones with two-word table entries (past 64 bits, the
    usual table); ``" 128 one-word"``: 128-bit ones with a table large enough for one-word entries (2**26
    entries and more on 7 x 9, 2**28 on 8 x 8 and 9 x 7: :func:`.layout.wide_entries`); ``" 128 on 64"``:
    128-bit bitboards on a board that fits 64 bits (``wide_code``: ``Solver(wide=True)``)."""
    bits = game.cols * (game.rows + 1)
    if not (bits > 64 if wide_code is None else wide_code):
        return ""
    if bits <= 64:
        return " 128 on 64"
    return " 128" if wide_entries(game.rows, game.cols, 1 << table_log) else " 128 one-word"


#: what each kind of search (:func:`search_kind`) adds to its step's words
_KIND_WORDS = {" 128 one-word": " for large tables", " 128 on 64": " on a 64-bit board"}


def solver_steps(game: Any, make: Callable[..., Any], table_log: int = DEFAULT_LOG_SIZE,
                 wide_code: bool | None = None) -> list[Step]:
    """The steps of the solver's compiled code for ``game`` (a game or its spec): numba's start, the tables, the
    search (in that order: the search last), for the board's width and the kind of its search
    (:func:`search_kind`: ``table_log`` and ``wide_code`` as a solver's); none for a game the solver cannot
    take.  ``make(game, tt_size=..., book=...)`` makes a solver (the :class:`.solver.Solver` class)."""
    if isinstance(game, str):
        from ..games import get_game

        try:
            game = get_game(game)
        except GameError:  # the command that asked says what is wrong with the spec
            return []
    if not takes(game):
        return []
    kind = search_kind(game, table_log, wide_code)
    width, words = (" 128", "128-bit ") if kind else ("", "")  # the tables' code is the width's alone
    tables, search = f"the solver's {words}tables", f"the solver's {words}search{_KIND_WORDS.get(kind, '')}"
    return [numba_step(),
            step(f"solver tables{width}", tables, lambda: _told(tables, lambda: _probe(make, game, kind)),
                 COLD_TABLES),
            step(f"solver search{kind}", search, lambda: _told(search, lambda: _probe(make, game, kind, True)),
                 COLD_SEARCH)]


def warm_solver(game: Any, make: Callable[..., Any], tables_only: bool = False,
                table_log: int = DEFAULT_LOG_SIZE, wide_code: bool | None = None) -> None:
    """The solver's compiled code for ``game`` loaded (or compiled) before a search, as its steps
    (:func:`zerosum.agents.prepare.warm`): a person using zerosum from Python is told of a compile
    (:func:`~zerosum.agents.prepare.tell`).  A :class:`.solver.Solver`'s search calls it with its table's size
    and width (cheap once done); ``tables_only``: numba's start and the tables' step alone, as a Solver's
    constructor calls it before it makes its table (within the step's own work, at once)."""
    kind = search_kind(game, table_log, wide_code)
    key = f"solver tables{' 128' if kind else ''}" if tables_only else f"solver search{kind}"  # its last step's
    if key in _READY:  # every search calls it: once done, a set lookup
        return
    steps = solver_steps(game, make, table_log, wide_code)
    steps = steps[:2] if tables_only else steps
    warm(steps)
    if ready(steps):
        _READY.update(s.key for s in steps)


def _probe(make: Callable[..., Any], game: Any, kind: str, search: bool = False) -> None:
    """A small solver whose search is of ``kind`` (:func:`search_kind`), made (its tables' code compiled or
    loaded) and, with ``search``, searching the start for a few nodes (the search's code).  Its board is
    ``game``'s, but for one-word entries past 64 bits, which a small table has only on a board of 65 bits (5
    columns of 12 rows: 16 MB of table, hardly touched)."""
    options: dict[str, Any] = {"tt_size": 1 << 10, "book": False}
    if kind == " 128 one-word":
        from ..games.connectx import ConnectX

        game, options["tt_size"] = ConnectX(12, 5, 4), 1 << (65 - MAX_PART_BITS)
    elif kind == " 128 on 64":
        options["wide"] = True
    solver = make(game, **options)
    if search:
        state = game.initial_state
        solver.search_on(solver.lanes(1)[0], state.current, state.mask, True, 1000)
