"""One game, played inside a worker process, reporting every step to the supervisor.

The supervisor (:mod:`zerosum.arena.runner`) owns the clock: before each agent call the worker reports
``("think", seat, cold, margin)``, and the supervisor kills the worker when no move arrives by the deadline (for
an external engine, which keeps the run's deadline and its clock itself, ``margin`` seconds later; its move's
seconds are then the engine's own measure, :attr:`~zerosum.external.Engine.used`, where its deadline runs, and
the supervisor charges its clock with them).  Everything else that can
go wrong with an agent is caught here and ends the game as a forfeit with its reason:

- it raises (``error: ValueError: ...``), even an exception that cannot be printed;
- it returns something that is not an action of this game (``malformed move: 'x' (str)``): only plain
  ints, numpy integers and tuples (lists, 1-d arrays) of them are actions, so nothing done with the
  answer runs the agent's code (a hostile ``__repr__`` or ``__eq__`` is just a malformed move);
- it returns an action the rules refuse (``illegal move: column 9 is outside 1..7``);
- a plain player function under a node limit goes beyond it in one move
  (``node limit: more than 100 states expanded in one move``), or, where its nodes cannot be counted, beyond
  its CPU time for a move (``cpu time limit: ...``): :mod:`.counting` measures it, and its count is each
  move's nodes (None: not counted);
- the homework's ``player(board)`` answers something that is not a legal column (``malformed move: ...``,
  ``illegal move: ...``, the line naming the function and the position: :mod:`zerosum.agents.homework`);
  a player function, handed over in Python or named in a file (the homework's too), is named likewise when
  it raises, answers no action or an illegal one (``error: hw.py:player(board) raised ...``, ``malformed move:
  f(game, state) returned ...: expected ...``, ``illegal move: f(game, state) returned 99 (int) at the start
  position: column 100 is outside 1..7 ...``: :func:`function_label`).

A bug of a game from a file or a class (:class:`~zerosum.games.course_rules.GameBug`: one of its methods
raised, its ``utility`` returned no number, it has no moves but is not over, it names a third player, it
did not end within ``MAX_PLIES`` plies) is nobody's forfeit: it leaves :func:`play_game` as it is raised,
whoever was moving, and the arena's run stops with its one line (``play_game`` in Python raises it).

A run's adjudication rules (:mod:`.adjudicate`) are applied after each move, between the ``move`` and the
next ``think`` (no clock runs then); under a game clock (:mod:`.clock`) each timed agent is told its time
for the move before it thinks.

Every reason sent is one line of printing characters, bounded (:mod:`.reasons`): an agent's words in it (its
error message, the ``repr`` of its answer, an engine's output) have each character that does not print
escaped (``\\u202e``, ``\\ud800``), so none can spoof a table or a record, or fail to be stored.

An agent that cannot even be built ends the game before it starts: that is no result, and the supervisor
stores nothing for it (``("unstarted", seat, reason)``).  An external engine that can run (its handshake
passed, now or for an earlier game) but breaks a rule while a game is being set up (it dies at ``newgame``, or
gives no ``readyok``) forfeits that game with its reason (``crash: ...``), as during a move; the next game
gets a fresh process.

Ctrl-C (KeyboardInterrupt) is nobody's fault: it leaves :func:`play_game` at once, whatever the agents were
doing, with no ``end`` message, so an interrupted game is never a result (SystemExit from an agent forfeits).

Messages (tuples) sent to the supervisor::

    ("setup", seat)                                  building the agent of that seat
    ("think", seat, margin)                          the agent of that seat is choosing a move; margin: the
                                                     seconds its supervisor waits beyond its deadline (an
                                                     external engine keeps its own: KILL_MARGIN, else 0)
    ("move", seat, text, seconds, nodes, value, depth, exact)   exact: the value is a proof; seconds: the
                                                     worker's measure of the call (an external engine's:
                                                     from its position to its bestmove, as its deadline counts)
    ("end", winner_seat | None, reason, forfeit)
    ("unstarted", seat, reason)                      the agent of that seat could not be built

Each move is chosen through the engine pool's one move function, :func:`zerosum.pool.moves.move_report`, so
the arena and the web server read an agent's answer the same way (the game's own agents, fresh for each
game, so that a game replays the same from its seed).  In a worker of the engine pool, :func:`run_game`
reports the first three kinds as they happen (``think`` as ``("think", seat, cold, margin)``, ``cold``: whether
the agent moves for the first time in that process) and returns the last one.
A fault of the arena itself (never an agent's) is an exception of the job.
"""

from __future__ import annotations

import contextlib
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..agents.homework import BadAnswer, plain_int
from ..core.files import describe_exception
from ..errors import GameError
from ..games.course_bugs import changed_words, handed
from ..games.course_rules import GameBug
from ..pool.moves import move_report, refusal
from .counting import cpu_limit, metered
from .reasons import MAX_UNSTARTED, cleaned, one_line

__all__ = ["GameTask", "play_game", "check_action", "run_game", "node_budget", "meter_for", "cpu_seconds",
           "function_label"]

Send = Callable[[tuple[Any, ...]], None]


@dataclass(frozen=True)
class GameTask:
    """What a worker needs to play one planned game (plain data: it crosses process boundaries)."""

    idx: int
    game: str
    first: str  # agent spec of the player who moves first
    second: str
    opening: str
    seed: int
    limits: tuple[tuple[str, Any], ...] = ()
    deadlines: tuple[float, float] = (60.0, 60.0)  # hard per-move deadline of each seat (seconds)
    tc: tuple[float, float] | None = None  # game clock: base and increment seconds (:mod:`.clock`)
    adjudicate: tuple[tuple[str, int], ...] = ()  # the rules of :mod:`.adjudicate`, as sorted pairs
    move_cpu: float | None = None  # CPU seconds a move of an uncounted player function (None: the default)
    engines: tuple[tuple[str, str], ...] = ()  # named external engines: (name, definition JSON) (zerosum.external)


def _plain_action(action: Any, legal: list[Any]) -> Any:
    """The agent's answer as the game's own plain type (an int, or a tuple of ints), else None.

    Only exact ints, numpy integers and exact tuples or lists (or 1-d arrays) of them pass, so nothing
    done later with the action (comparing, hashing, printing) can run the agent's code.
    """
    if legal and type(legal[0]) is tuple:
        try:
            import numpy as np

            array = isinstance(action, np.ndarray) and action.ndim == 1
        except ImportError:  # pragma: no cover
            array = False
        if type(action) not in (tuple, list) and not array:
            return None
        items = [plain_int(v) for v in action]
        if len(items) != len(legal[0]) or any(v is None for v in items):
            return None
        return tuple(items)
    return plain_int(action)


def check_action(game: Any, state: Any, action: Any) -> tuple[Any, str | None]:
    """``(action, None)`` for a legal action (as a plain int or tuple), else ``(None, reason)``.

    Never raises, whatever the agent returned: an action whose ``__repr__``, ``__eq__`` or ``__iter__``
    misbehaves is a malformed move like any other.
    """
    from ..core.files import describe_exception
    from ..game import safe_repr

    legal = game.actions(state)  # a game whose actions fail is the game's bug (GameBug), not the agent's
    try:
        a = _plain_action(action, legal)
    except Exception as exc:  # noqa: BLE001 - a hostile __iter__ or __len__
        return None, one_line(f"malformed move: {safe_repr(action)} ({describe_exception(exc)})")
    if a is None:
        return None, one_line(f"malformed move: {safe_repr(action)} ({type(action).__name__})")
    if a in legal:
        return a, None
    try:
        game.result(state, a)
        why = "not a legal action"  # pragma: no cover - result() refuses whatever actions() leaves out
    except GameBug:
        raise
    except Exception as exc:  # the game's own explanation
        why = str(exc)
    return None, one_line(f"illegal move: {why}")


def _seat_seed(seed: int, seat: int) -> int:
    return random.Random(f"zerosum-seat/{seed}/{seat}").getrandbits(31)


def play_game(task: GameTask, send: Send) -> None:
    """Play ``task`` to the end, sending the messages listed in the module docstring."""
    from ..agents.base import Limits
    from ..agents.registry import make_agent
    from ..external import Engine, EngineFault
    from ..external.agent import KILL_MARGIN
    from ..external.names import from_pairs, register_definitions
    from ..games import get_game
    from .adjudicate import Judge
    from .clock import Clock, tell_budget, timed_agent
    from .opening_files import parse_opening, play_opening

    send = cleaned(send)  # every reason one line that prints, whoever wrote it (:mod:`.reasons`)
    register_definitions(from_pairs(task.engines))  # a run's named engines are agent specs here too
    game = get_game(task.game)
    state = play_opening(game, parse_opening(game, task.opening))
    # classic file agents often use the global generators: make them reproducible too
    random.seed(task.seed)
    try:
        import numpy as np

        np.random.seed(task.seed % 2**32)
    except ImportError:  # pragma: no cover
        pass
    limits = Limits(**dict(task.limits))
    agents = {}
    for seat, spec in ((1, task.first), (2, task.second)):
        send(("setup", seat))
        try:
            agents[seat] = make_agent(spec, seed=_seat_seed(task.seed, seat), limits=limits)
            agents[seat].warm_up(game)  # compiled code loads here, before any clock starts
        except KeyboardInterrupt:  # Ctrl-C stops the caller: no game, no result
            raise
        except EngineFault as fault:  # a running engine (its handshake passed) broke a rule: it forfeits
            send(("end", 3 - seat, fault.reason, True))
            return
        except BaseException as exc:  # noqa: BLE001 - a game that never started is not a result
            failed = str(exc) if isinstance(exc, GameError) else describe_exception(exc)  # ours say it in words
            send(("unstarted", seat, one_line(failed, MAX_UNSTARTED)))
            return
    meters = {seat: m for seat, agent in agents.items() if (m := meter_for(agent, task.limits)) is not None}
    named = {seat: function_label(agent) for seat, agent in agents.items()}  # a notebook's plain function
    cpu = {seat: cpu_seconds(m, task.move_cpu) for seat, m in meters.items() if not m.declared}
    judge = Judge(game, dict(task.adjudicate)) if task.adjudicate else None  # before any clock starts
    clock = Clock(*task.tc) if task.tc else None  # a copy of the supervisor's: what the agents are told
    engines = {seat: agent for seat, agent in agents.items() if isinstance(agent, Engine)}  # told the clock itself
    timed = {seat: agent.limits for seat, agent in agents.items()
             if clock is not None and timed_agent(agent) and seat not in engines}
    played = 0
    while True:
        outcome = game.outcome(state)
        if outcome is not None:
            send(("end", outcome.winner, outcome.reason, False))
            return
        verdict = judge(state, played) if judge is not None and played else None  # no clock runs here
        if verdict is not None:
            send(("end", verdict[0], verdict[1], False))
            return
        seat = game.player(state)
        agent = agents[seat]
        meter, guard = meters.get(seat), None
        if seat in timed:
            tell_budget(agent, timed[seat], clock, seat)  # type: ignore[arg-type]
        if seat in engines:  # a run's deadline (else its own) and both clocks, sent with go
            engines[seat].tell(task.deadlines[seat - 1] if task.engines else None,
                       (clock.left[1], clock.left[2], clock.increment) if clock is not None else None)
        send(("think", seat, KILL_MARGIN if seat in engines and task.engines else 0.0))
        given, changed = handed(game, state)  # a course game's state: a copy, for the player to read, not change
        start = time.perf_counter()
        try:  # everything done with the agent's answer stays inside this guard
            with contextlib.ExitStack() as stack:
                if meter is not None:  # a plain function counted (:mod:`.counting`)
                    stack.enter_context(metered(meter))
                if seat in cpu:  # whose nodes may not be counted: its CPU time is bounded
                    guard = stack.enter_context(cpu_limit(cpu[seat]))
                report = move_report(game, given, agent)
            action, value, depth = report.action, report.value, report.depth
            exact = report.exact is True and value is not None
            nodes = meter.nodes() if meter is not None else report.nodes
        except (KeyboardInterrupt, GameBug) as exc:  # Ctrl-C, or a bug of the game itself: nobody forfeits,
            if isinstance(exc, KeyboardInterrupt) or not changed():  # unless the player changed the state first
                raise
            send(("end", 3 - seat, one_line(changed_words(named[seat], state)), True))
            return
        except BaseException as exc:  # noqa: BLE001 - SystemExit from a user's agent forfeits too
            kind = getattr(exc, "kind", None) if isinstance(exc, BadAnswer) else None
            reason = one_line(f"{kind}: {exc}" if kind else f"error: {_raised(named[seat], exc, game, state)}")
            if isinstance(exc, EngineFault):  # crash, timeout, protocol error, garbage output, illegal move
                reason = exc.reason
            send(("end", 3 - seat, _over(meter, guard) or reason, True))
            return
        elapsed = time.perf_counter() - start
        used = engines[seat].used if seat in engines else None
        if used is not None:  # an engine's: as its own deadline measured it (and its clock is charged so)
            elapsed = used
        over = _over(meter, guard) or (one_line(changed_words(named[seat], state)) if changed() else None)
        if over is not None:  # it caught the NodeLimitExceeded (or the CPU's) and answered anyway; or it changed
            send(("end", 3 - seat, over, True))  # the state it was given (a trial move not taken back)
            return
        try:
            legal, why = check_action(game, state, action)
        except (KeyboardInterrupt, GameBug):
            raise
        except BaseException as exc:  # noqa: BLE001 - e.g. a __repr__ raising SystemExit
            legal, why = None, one_line(f"malformed move: {describe_exception(exc)}")
        if why is not None:
            label = named[seat]
            if label is not None:  # the function named, its answer and why, as the engine face words it
                with contextlib.suppress(Exception):  # (an answer whose every use fails keeps check_action's)
                    named_why = refusal(game, state, action, label)
                    why = why if named_why is None else one_line(f"{why.partition(':')[0]}: {named_why}")
            send(("end", 3 - seat, why, True))
            return
        send(("move", seat, game.format_action(legal), elapsed, nodes, value, depth, exact))
        state = game.result(state, legal)
        played += 1
        if clock is not None:  # as the supervisor charges it: an engine's own measure, else the worker's
            clock.charge(seat, elapsed if seat in engines and task.engines else time.perf_counter() - start)


def function_label(agent: Any) -> str | None:
    """How a forfeit names a player function: ``name(game, state)`` for one handed over in Python (a
    notebook's), ``file.py:name(game, state)`` for a file's, ``file.py:player(board)`` for the homework's
    (``error: hw.py:player(board) raised ValueError: oops at ...``, ``malformed move: name(game, state) returned
    ...``; the homework's answers name themselves); None for every other agent (a spec, an Agent, an engine),
    whose reasons stay ``error: ValueError: ...``."""
    import os

    from ..agents.registry import FunctionAgent
    from ..agents.student import function_name

    if not isinstance(agent, FunctionAgent):
        return None
    if agent.board is None and agent.folder is None:
        return f"{function_name(agent.func)}(game, state)"
    return f"{os.path.basename(agent.spec)}({'board' if agent.board is not None else 'game, state'})"


def _raised(label: str | None, exc: BaseException, game: Any, state: Any) -> str:
    """An agent's exception in words: naming the function (``label``) and the position, for a plain one."""
    if label is None:
        return describe_exception(exc)
    from ..agents.student import player_raised

    return player_raised(label, exc, game, state)


def _over(meter: Any, guard: Any) -> str | None:
    """The reason of a move over its node limit or CPU time, else None."""
    from .counting import cpu_limit_reason, node_limit_reason

    if meter is not None and meter.exceeded:
        return node_limit_reason(meter.limit)
    if guard is not None and guard.exceeded:
        return cpu_limit_reason(guard.seconds)
    return None


def meter_for(agent: Any, limits: tuple[tuple[str, Any], ...] = ()) -> Any:
    """The :class:`~.counting.Meter` of a plain player function (its declared search function's counter
    installed), or None: a search agent, or an undeclared function without a node limit (not counted)."""
    from .counting import Meter, install_counter

    declared = getattr(agent, "declared", None)
    budget = node_budget(agent, limits)
    if budget is None and declared is None:
        return None
    if declared is not None:
        install_counter(declared)
    return Meter(budget, declared is not None)


def cpu_seconds(meter: Any, move_cpu: float | None) -> float:
    """The CPU seconds of a move of an undeclared function under a node limit: ``--move-cpu``, else the
    default of its node limit (:func:`~.counting.default_move_cpu`)."""
    from .counting import default_move_cpu

    return move_cpu if move_cpu is not None else default_move_cpu(meter.limit)


def node_budget(agent: Any, limits: tuple[tuple[str, Any], ...] = ()) -> int | None:
    """The nodes a plain player function may spend per move (:mod:`.counting`): its own node limit, else
    the run's (``--nodes``), else None (not counted).  Search agents keep their own budgets: None."""
    from ..agents.registry import FunctionAgent

    if not isinstance(agent, FunctionAgent):
        return None
    own = getattr(agent.limits, "nodes", None)
    return own if own is not None else dict(limits).get("nodes")


# ---- in a worker of the engine pool -----------------------------------------------------------------

_WARM: set[str] = set()  # agent specs that already moved in this worker process


def run_game(task: GameTask) -> tuple[Any, ...]:
    """Play ``task`` in a worker of the engine pool (:mod:`zerosum.pool`): every step is reported to the
    supervisor (``("think", seat, cold, margin)``: ``cold`` says whether the agent moves for the first time in
    this process), and the last message is returned: ``("end", ...)`` or ``("unstarted", ...)``."""
    from ..pool import report

    last: list[tuple[Any, ...]] = []
    seats = {1: task.first, 2: task.second}

    def send(msg: tuple[Any, ...]) -> None:
        if msg[0] in ("end", "unstarted"):
            last.append(msg)
        elif msg[0] == "think":
            report(("think", msg[1], seats[msg[1]] not in _WARM, *msg[2:]))
        else:
            if msg[0] == "move":
                _WARM.add(seats[msg[1]])
            report(msg)

    play_game(task, send)
    return last[0]
