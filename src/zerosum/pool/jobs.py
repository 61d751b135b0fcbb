"""The pool's engine jobs: a position and an agent, checked once, and the named kinds of work.

A :class:`Job` is (game spec, moves, agent spec, limits): :meth:`Job.checked` builds the game, plays the
moves and builds the agent once, in the caller, so a bad job is refused there with one
:class:`~zerosum.errors.GameError`; the worker then trusts it.  The kinds (plain functions a worker runs):

* :func:`choose_move` -- the agent's move in the job's position, and what its search found;
* :func:`solve_position` -- the solver's exact score of one Connect-X position (book generation);
* the arena's :func:`zerosum.arena.play.run_game` plays a whole game, reporting every step;
* the server passes its own analysis and move functions (``zerosum.ui.service``).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, fields
from typing import Any, Callable

__all__ = ["Job", "choose_move", "solve_position", "position", "PositionSolver"]


@dataclass(frozen=True)
class Job:
    """A position and an agent: plain values that cross process boundaries."""

    game: str  # the game's canonical spec
    moves: tuple[Any, ...] = ()  # the actions played from the start (ints, or tuples of ints)
    agent: str = ""  # agent spec ("" when the job needs none)
    limits: tuple[tuple[str, Any], ...] = ()  # Limits fields that are set
    seed: int | None = None

    @classmethod
    def checked(cls, game: str, moves: Any = (), agent: str = "", limits: Any = None, seed: int | None = None) -> "Job":
        """The job, every part checked (raises a GameError naming what is wrong)."""
        from ..agents.base import Limits
        from ..agents.registry import make_agent
        from ..games import get_game

        g = get_game(game) if isinstance(game, str) else game
        state = g.initial_state
        actions = tuple(moves)
        for a in actions:
            state = g.result(state, a)  # IllegalMoveError for a move the rules refuse
        if limits is None:
            limits = Limits()
        elif not isinstance(limits, Limits):
            limits = Limits(**dict(limits))
        pairs = tuple((f.name, getattr(limits, f.name)) for f in fields(limits) if getattr(limits, f.name) is not None)
        if agent:
            make_agent(agent, seed=seed, limits=limits)  # AgentError for a bad spec or option
        return cls(g.spec, actions, agent, pairs, seed)


_GAMES: dict[str, Any] = {}
_AGENTS: dict[tuple[str, tuple[tuple[str, Any], ...], int | None], Any] = {}


def position(job: Job) -> tuple[Any, Any]:
    """The job's game and state (the game built once per worker)."""
    from ..games import get_game

    game = _GAMES.get(job.game)
    if game is None:
        game = _GAMES[job.game] = get_game(job.game)
    state = game.initial_state
    for a in job.moves:
        state = game.result(state, a)
    return game, state


def agent_of(job: Job) -> Any:
    """The job's agent, kept for the life of the worker (a solver keeps its table between moves)."""
    from ..agents.base import Limits
    from ..agents.registry import make_agent

    key = (job.agent, job.limits, job.seed)
    if key not in _AGENTS:
        if len(_AGENTS) >= 4:  # each may hold a table
            _AGENTS.clear()
        _AGENTS[key] = make_agent(job.agent, seed=job.seed, limits=Limits(**dict(job.limits)))
    return _AGENTS[key]


def choose_move(job: Job) -> dict[str, Any]:
    """The agent's move in the job's position: ``{"action", "text", "value", "nodes", "depth", "elapsed", "exact"}``."""
    from ..agents.base import SearchAgent
    from ..errors import InvalidPositionError

    game, state = position(job)
    if game.is_terminal(state):
        raise InvalidPositionError("the game is over: there is no move to make")
    agent = agent_of(job)
    start = time.perf_counter()
    if isinstance(agent, SearchAgent):
        found = agent.search(game, state)
        action, value, nodes, depth, exact = found.action, found.value, found.nodes, found.depth, found.exact
    else:
        action, value, nodes, depth, exact = agent(game, state), None, None, None, False
    return {"action": action, "text": game.format_action(action), "value": value, "nodes": nodes, "depth": depth,
            "elapsed": time.perf_counter() - start, "exact": exact}


_SOLVERS: dict[tuple[str, int], Any] = {}


def solve_position(game: str, tt_size: int, item: tuple[int, int, int]) -> tuple[int, int]:
    """``(key, score)``: the exact score of the position ``item = (key, current, mask)`` (bitboards), by a
    solver with a table of ``tt_size`` entries and no book, kept for the life of the worker."""
    from ..solver.solver import Solver

    solver = _SOLVERS.get((game, tt_size))
    if solver is None:
        _SOLVERS.clear()
        solver = _SOLVERS[(game, tt_size)] = Solver(game, tt_size=tt_size, book=False)
    key, current, mask = item
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
