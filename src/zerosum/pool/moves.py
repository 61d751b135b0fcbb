"""The one engine job: an agent's move in a position, and the one report of it.

A :class:`Job` is (game spec, moves, agent spec, limits) and a seed: plain values that cross process
boundaries.  :meth:`Job.checked` builds the game, plays the moves and builds the agent once, in the caller,
so a bad job is refused there with one :class:`~zerosum.errors.GameError`; :meth:`Job.of` is the job of a
game, position and agent a caller checked its own way (the web server, under its own bounds).  Either way
the job carries what was built (``built``), so the worker parses and replays nothing again; a job written by
hand is built in the worker.

:func:`choose_move` is the job a worker runs: the agent's move, checked legal, as a :class:`MoveReport`; an answer
that is no legal move is refused in the arena's words (:func:`refusal`, which ``zerosum play`` says too).
:func:`move_report` is the move itself, for a caller that holds a game, a position and an agent: the arena's
games (:func:`zerosum.arena.play.play_game`) choose every move through it, so the page and the arena get the
same report.  A worker keeps one cache of agents (:func:`agent_of`): the agent of a spec, limits and seed is
built once and kept, so a solver keeps its table from one move to the next.  The arena's games build their
own agents, fresh for each game, so that a game replays the same from its seed.

:func:`warm_up` is the web server's warm-up of a new worker: the compiled code of every engine it offers is
prepared (:mod:`zerosum.agents.prepare`) before the worker takes a job; it reports what it prepares
(``("preparing", label)``), which the pool keeps for the server's health answer.
"""

from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass, field, fields, replace
from typing import Any

__all__ = ["Job", "MoveReport", "move_report", "choose_move", "refusal", "position", "agent_of", "warm_up",
           "number_of"]


@dataclass(frozen=True)
class Job:
    """A position and an agent: plain values that cross process boundaries.

    ``face``: a person is waiting (the web server): the agent may use this machine's cores, and an agent that
    can prove its move (the solver's ``search_within``) takes the time it needs to prove one, never a guess
    under a time control.  ``built`` is what the caller built when it checked the job (the game, the
    position, the agent); it takes no part in equality.
    """

    game: str  # the game's canonical spec
    moves: tuple[Any, ...] = ()  # the actions played from the start (ints, or tuples of ints)
    agent: str = ""  # agent spec ("" when the job needs none)
    limits: tuple[tuple[str, Any], ...] = ()  # Limits fields that are set
    seed: int | None = None
    face: bool = False
    built: tuple[Any, Any, Any] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def checked(cls, game: Any, moves: Any = (), agent: str = "", limits: Any = None, seed: int | None = None,
                face: bool = False) -> "Job":
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
        built = make_agent(agent, seed=seed, limits=limits) if agent else None  # AgentError for a bad spec
        return cls(g.spec, actions, agent, pairs, seed, face, (g, state, built))

    @classmethod
    def of(cls, game: Any, actions: Any, state: Any, agent: Any, face: bool = True) -> "Job":
        """The job of a game, the actions played, their position and an agent, all checked by the caller (the
        agent's spec holds its limits)."""
        return cls(game.spec, tuple(actions), agent.spec, (), agent.seed, face, (game, state, agent))


@dataclass(frozen=True)
class MoveReport:
    """What an agent played and what its search found: the one report of a move, for every face and the arena.

    ``action`` is as the agent returned it (:func:`choose_move` checks it is legal and fills ``text``, the move
    in the game's notation).  ``value`` (the side to move's view), ``nodes`` and ``depth`` are plain finite
    numbers or None (an agent that does not search, or reports nothing usable, or a search whose ``unknown``
    names them: an external engine's, when no ``info`` line gave them); ``exact`` is the search's own
    word (:attr:`~zerosum.agents.base.SearchResult.exact`); ``proof`` the agent's words for a move proven
    only in win/draw/loss (the solver's ``last_proof``), else ""; ``fallback``, for a face, why another search
    chose the move (the solver's ``last_fallback``: an early position of a board past 64 bits), else "";
    ``note``, for a face, what else the move's answer should say (a server's worker: a first run's compile,
    :func:`zerosum.ui.warmup.job_note`), else "".  ``elapsed``: seconds of the call.
    """

    agent: str
    action: Any
    text: str = ""
    value: int | float | None = None
    exact: bool = False
    proof: str = ""
    nodes: int | float | None = None
    depth: int | float | None = None
    pv: tuple[Any, ...] = ()
    elapsed: float = 0.0
    fallback: str = ""
    note: str = ""


def number_of(x: Any) -> int | float | None:
    """A search statistic as a plain finite number (None for anything else, and for what misbehaves)."""
    if x is None or isinstance(x, bool):
        return None
    if isinstance(x, numbers.Integral):  # a whole count stays exact (a float keeps 53 bits: 2**63 - 1 was 2**63)
        try:
            return int(x)
        except Exception:  # noqa: BLE001 - as below: an agent's number that misbehaves is no number
            return None
    try:
        f = float(float(x))  # twice: a float subclass becomes a plain float
    except Exception:  # noqa: BLE001 - an agent's number whose __float__ misbehaves is no number
        return None
    if not math.isfinite(f):
        return None
    return int(f) if f.is_integer() else f


def move_report(game: Any, state: Any, agent: Any, face: bool = False) -> MoveReport:
    """``agent``'s move in ``state`` and what its search found (``face``: see :class:`Job`).

    The move is not checked: the caller does (the arena forfeits a bad one, :func:`choose_move` refuses it).
    Whatever a search agent returns is read with care: its ``action``, ``nodes``, ``value`` and ``depth`` (the
    answer itself when it has no ``action``); the rest only from a genuine
    :class:`~zerosum.agents.base.SearchResult`, so nothing of an unknown object runs beyond those reads.
    """
    from ..agents.base import SearchAgent, SearchResult

    start = time.perf_counter()
    if not isinstance(agent, SearchAgent):
        action = agent(game, state)
        return MoveReport(str(getattr(agent, "spec", "")), action, elapsed=time.perf_counter() - start)
    within = getattr(agent, "search_within", None) if face else None
    found = within(game, state, agent.limits.time) if within is not None else agent.search(game, state)
    elapsed = time.perf_counter() - start
    action = getattr(found, "action", found)
    unknown: set[str] = set()  # the figures the search did not report (an external engine's)
    if type(found) is SearchResult and type(found.unknown) is tuple:
        unknown = {x for x in found.unknown if type(x) is str}
    nodes, value, depth = (None if name in unknown else number_of(getattr(found, name, None))
                           for name in ("nodes", "value", "depth"))
    if type(found) is not SearchResult:
        return MoveReport(agent.spec, action, value=value, nodes=nodes, depth=depth, elapsed=elapsed)
    exact = found.exact is True
    proof = getattr(agent, "last_proof", None)
    fallback = getattr(agent, "last_fallback", None) if face else None
    return MoveReport(agent.spec, action, value=value, exact=exact,
                      proof=proof if type(proof) is str and not exact else "", nodes=nodes, depth=depth,
                      pv=tuple(found.pv) if type(found.pv) in (tuple, list) else (), elapsed=elapsed,
                      fallback=fallback if type(fallback) is str else "")


_GAMES: dict[str, Any] = {}
_AGENTS: dict[tuple[str, tuple[tuple[str, Any], ...], int | None, bool], Any] = {}
MAX_AGENTS = 4  # agents a worker keeps (each may hold a table)


def position(job: Job) -> tuple[Any, Any]:
    """The job's game and state: as the caller built them, else built here (the game once per worker)."""
    from ..games import get_game

    if job.built is not None:
        return job.built[0], job.built[1]
    game = _GAMES.get(job.game)
    if game is None:
        game = _GAMES[job.game] = get_game(job.game)
    state = game.initial_state
    for a in job.moves:
        state = game.result(state, a)
    return game, state


def agent_of(job: Job) -> Any:
    """The job's agent, the worker's one for its spec, limits, seed and face (kept for the life of the
    worker: a solver keeps its table between moves); the job's own built agent the first time."""
    key = (job.agent, job.limits, job.seed, job.face)
    agent = _AGENTS.get(key)
    if agent is None:
        agent = job.built[2] if job.built is not None and job.built[2] is not None else _build(job)
        if len(_AGENTS) >= MAX_AGENTS:
            _AGENTS.clear()
        _AGENTS[key] = agent
    return agent


def _build(job: Job) -> Any:
    from ..agents.base import Limits
    from ..agents.registry import make_agent
    from ..core.processes import usable_cores

    agent = make_agent(job.agent, seed=job.seed, limits=Limits(**dict(job.limits)))
    if job.face:  # a face: the machine's cores, where the agent can use them
        agent.use_cores(usable_cores())
    return agent


def choose_move(job: Job) -> MoveReport:
    """The agent's move in the job's position (the job a worker runs), checked legal; raises
    InvalidPositionError for a finished game and AgentError for a move the rules refuse."""
    from ..errors import AgentError, InvalidPositionError
    from ..games.course_bugs import changed_words, handed

    game, state = position(job)
    if game.is_terminal(state):
        raise InvalidPositionError("the game is over: there is no move to make")
    agent = agent_of(job)
    given, changed = handed(game, state)  # a course game's state: a copy, for the agent to read, not change
    report = move_report(game, given, agent, job.face)
    if changed():
        raise AgentError(f"{agent.spec}: {changed_words(None, state)}")
    why = refusal(game, state, report.action, agent.spec)
    if why is not None:
        raise AgentError(why)
    return replace(report, text=game.format_action(report.action))


def refusal(game: Any, state: Any, action: Any, label: str) -> str | None:
    """None when ``action`` is a legal action of ``state`` (a numpy integer counts as its int); else why not,
    in the arena's words (its forfeit reasons, :func:`zerosum.arena.play.check_action`), naming ``label``
    (who answered) and the position.  An answer that is no action of the game (a string, a float, None):
    ``players.py:string returned '1' (str) at the start position: expected one of the legal actions [0, 1,
    ...] (int, numbered as in Python)`` (:func:`zerosum.agents.student.player_answer`); an action the rules
    refuse: ``... returned 99 (int) at the start position: column 100 is outside 1..7 (action 99 is outside
    0..6)``, the game's own reason.  ``action`` is only compared with legal actions of its own type, and shown
    by a bounded, guarded repr."""
    from ..agents.homework import plain_int
    from ..agents.positions import position_name
    from ..agents.student import player_answer
    from ..game import safe_repr

    legal = game.actions(state)
    number = plain_int(action)
    probe = action if number is None else number
    if not any(type(a) is type(probe) for a in legal):  # no action of this game at all
        return player_answer(label, action, game, state)
    if probe in legal:
        return None
    try:
        game.result(state, probe)
        why = "not a legal action"  # pragma: no cover - result() refuses what actions() leaves out
    except Exception as exc:  # noqa: BLE001 - the game's own explanation
        why = str(exc)
    return f"{label} returned {safe_repr(action)} ({type(action).__name__}) at {position_name(game, state)}: {why}"


def warm_up(game: str, specs: tuple[str, ...]) -> None:
    """Prepare the compiled code every agent of ``specs`` needs to search ``game`` (:mod:`zerosum.agents.prepare`:
    each step once per process), in a new worker before it takes a job; ``("preparing", label)`` is reported
    before each step.  An agent that is not installed is left out."""
    from ..agents.prepare import steps_of
    from ..agents.registry import make_agent
    from ..errors import AgentError
    from ..games import get_game
    from .base import report

    g = get_game(game)
    steps: list[Any] = []
    for spec in specs:
        try:
            agent = make_agent(spec)
        except AgentError:  # not installed
            continue
        steps.extend(s for s in steps_of(agent, g) if s not in steps)
    for s in steps:
        report(("preparing", s.label))
        s.run()
