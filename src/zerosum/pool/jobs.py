"""The pool's named kinds of work (plain functions a worker runs) besides the one move job.

* :func:`zerosum.pool.moves.choose_move` -- the agent's move in a :class:`~zerosum.pool.moves.Job`'s position
  (game spec, moves, agent spec, limits), as a :class:`~zerosum.pool.moves.MoveReport`;
* :func:`solve_position` -- the solver's exact score of one Connect-X position (book generation);
* the arena's :func:`zerosum.arena.play.run_game` plays a whole game, reporting every step (each move through
  :func:`~zerosum.pool.moves.move_report`);
* the web server's analysis, "why?" and record reading (``zerosum.ui``).
"""

from __future__ import annotations

import functools
from typing import Any, Callable

__all__ = ["solve_position", "PositionSolver"]

def solve_position(game: str, tt_size: int, item: tuple[int, int, int]) -> tuple[int, int]:
    """``(key, score)``: the exact score of the position ``item = (key, current, mask)`` (bitboards), by the
    worker's one solver of the game (the analysis service's, :mod:`zerosum.analysis`), without its book, its
    table at least ``tt_size`` entries and kept for the life of the worker."""
    from ..analysis import service
    from ..games import get_game

    key, current, mask = item
    with service(get_game(game)).borrowed(book=False, table=tt_size) as solver:
        return key, solver.solve_bits(current, mask)


def _solve_one(pool: Any, item: tuple[int, int, int], game: str, tt_size: int) -> tuple[int, int]:
    return pool.run(solve_position, (game, tt_size, item))  # type: ignore[no-any-return]


class PositionSolver:
    """Book generation's ``solve_many`` (:func:`zerosum.solver.book.generate`): the positions solved in
    ``jobs`` workers of the engine pool (``backend`` "local" or "ray", ``address`` a Ray cluster), each with
    its own table, kept from one position to the next.  No memory bound: the table size is the caller's
    choice.  Ctrl-C ends the workers at once."""

    def __init__(self, jobs: int, backend: str = "local", address: str | None = None) -> None:
        from ..core.processes import MAX_JOBS
        from ..errors import UsageError

        if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= MAX_JOBS:
            raise UsageError(f"jobs is a whole number 1..{MAX_JOBS}, not {jobs!r}")
        self.jobs, self.backend, self.address = jobs, backend, address
        if backend == "ray":  # a missing Ray or an unreachable cluster is refused now, before any work
            from .actors import connect

            connect(address)

    def __call__(self, game: str, tt_size: int, todo: list[tuple[int, int, int]],
                 record: Callable[[int, int], None]) -> None:
        from .backends import make_pool

        pool = make_pool(self.backend, min(self.jobs, len(todo)), address=self.address, wait=None,
                         memory_limit=None, rss_limit=None, quiet=True)
        try:
            pool.each(functools.partial(_solve_one, game=game, tt_size=tt_size), todo,
                      lambda _item, found: record(*found))
        finally:
            pool.close()
