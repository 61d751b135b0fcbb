"""The solver's preparation (:mod:`zerosum.agents.prepare`): numba's start, then the compiled code of its tables
and of its search, loaded from numba's cache or compiled (a first run) by a small solver of the board.

The code is compiled once for 64-bit boards and once for 128-bit ones (:mod:`zerosum.kernels.wide`), so each
width has steps of its own.  This module stands below :mod:`.solver`: what makes the small solver is handed
in (``make``: the :class:`.solver.Solver` class, or a function that imports it when called), and a new
``Solver``'s search has its code ready first, telling a person using zerosum from Python of a compile
(:func:`warm_solver`).
"""

from __future__ import annotations

from typing import Any, Callable

from ..agents.prepare import Step, numba_step, ready, step, warm
from ..errors import GameError

__all__ = ["solver_steps", "warm_solver", "takes", "COLD_TABLES", "COLD_SEARCH"]

#: about how long each step takes on a cold cache (seconds, an idle two-core machine)
COLD_TABLES, COLD_SEARCH = 3.0, 20.0


#: the widths (128-bit or not) whose steps are done in this process
_READY: set[bool] = set()


def takes(game: Any) -> bool:
    """Whether the solver takes ``game``: a Connect-X board up to 128 bits (as :func:`.solver.supports`,
    without importing the compiled code): the game says so (``game.traits.solver``)."""
    return bool(getattr(getattr(game, "traits", None), "solver", False))


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
    wide = game.cols * (game.rows + 1) > 64
    key, words = (" 128", "128-bit ") if wide else ("", "")  # the width: as warm_solver keys _READY
    return [numba_step(),
            step(f"solver tables{key}", f"the solver's {words}tables", lambda: _probe(make, game), COLD_TABLES),
            step(f"solver search{key}", f"the solver's {words}search", lambda: _probe(make, game, True), COLD_SEARCH)]


def warm_solver(game: Any, make: Callable[..., Any]) -> None:
    """The solver's compiled code for ``game`` loaded (or compiled) before a search, as its steps
    (:func:`zerosum.agents.prepare.warm`): a person using zerosum from Python is told of a compile
    (:func:`~zerosum.agents.prepare.tell`).  A :class:`.solver.Solver`'s search calls it (cheap once done)."""
    wide = game.cols * (game.rows + 1) > 64
    if wide in _READY:  # every search calls it: once done, a set lookup
        return
    steps = solver_steps(game, make)
    warm(steps)
    if ready(steps):
        _READY.add(wide)


def _probe(make: Callable[..., Any], game: Any, search: bool = False) -> None:
    """A small solver of ``game``, made (its tables' code compiled or loaded) and, with ``search``, searching
    the start for a few nodes (the search's code)."""
    solver = make(game, tt_size=1 << 10, book=False)
    if search:
        state = game.initial_state
        solver.search_on(solver.lanes(1)[0], state.current, state.mask, True, 1000)
