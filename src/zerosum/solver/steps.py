"""The solver's preparation (:mod:`zerosum.agents.prepare`): numba's start, then the compiled code of its tables
and of its search, loaded from numba's cache or compiled (a first run) by a small solver of the board.

The code is compiled once for 64-bit boards and once for 128-bit ones (:mod:`zerosum.kernels.wide`), so each
width has steps of its own.  This module stands below :mod:`.solver`: what makes the small solver is handed
in (``make``: the :class:`.solver.Solver` class, or a function that imports it when called), and a new
``Solver``'s search has its code ready first, telling a person using zerosum from Python of a compile
(:func:`warm_solver`).

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

__all__ = ["solver_steps", "warm_solver", "takes", "wide", "telling", "PREPARING", "PREPARED", "COLD_TABLES",
           "COLD_SEARCH"]

#: about how long each step takes on a cold cache (seconds, an idle two-core machine)
COLD_TABLES, COLD_SEARCH = 3.0, 20.0


#: the widths (128-bit or not) whose steps are done in this process; and whose tables' step is (:func:`warm_solver`)
_READY: set[bool] = set()
_TABLES: set[bool] = set()
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


def solver_steps(game: Any, make: Callable[..., Any]) -> list[Step]:
    """The steps of the solver's compiled code for ``game`` (a game or its spec): numba's start, the tables, the
    search (in that order: the search last), for the board's width; none for a game the solver cannot take.  ``make(game, tt_size=..., book=...)``
    makes a solver (the :class:`.solver.Solver` class)."""
    if isinstance(game, str):
        from ..games import get_game

        try:
            game = get_game(game)
        except GameError:  # the command that asked says what is wrong with the spec
            return []
    if not takes(game):
        return []
    key, words = (" 128", "128-bit ") if wide(game) else ("", "")  # the width: as warm_solver keys _READY
    tables, search = f"the solver's {words}tables", f"the solver's {words}search"
    return [numba_step(),
            step(f"solver tables{key}", tables, lambda: _told(tables, lambda: _probe(make, game)), COLD_TABLES),
            step(f"solver search{key}", search, lambda: _told(search, lambda: _probe(make, game, True)),
                 COLD_SEARCH)]


def warm_solver(game: Any, make: Callable[..., Any], tables_only: bool = False) -> None:
    """The solver's compiled code for ``game`` loaded (or compiled) before a search, as its steps
    (:func:`zerosum.agents.prepare.warm`): a person using zerosum from Python is told of a compile
    (:func:`~zerosum.agents.prepare.tell`).  A :class:`.solver.Solver`'s search calls it (cheap once done);
    ``tables_only``: numba's start and the tables' step alone, as a Solver's constructor calls it before it makes
    its table (within the step's own work, at once)."""
    width, done = wide(game), _TABLES if tables_only else _READY
    if width in done:  # every search calls it: once done, a set lookup
        return
    steps = solver_steps(game, make)[:2] if tables_only else solver_steps(game, make)
    warm(steps)
    if ready(steps):
        done.add(width)


def _probe(make: Callable[..., Any], game: Any, search: bool = False) -> None:
    """A small solver of ``game``, made (its tables' code compiled or loaded) and, with ``search``, searching
    the start for a few nodes (the search's code)."""
    solver = make(game, tt_size=1 << 10, book=False)
    if search:
        state = game.initial_state
        solver.search_on(solver.lanes(1)[0], state.current, state.mask, True, 1000)
