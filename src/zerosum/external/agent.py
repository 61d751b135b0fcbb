"""An external engine as an agent: :class:`Engine`, usable wherever a zerosum agent is.

>>> from zerosum.external import Engine                                   # doctest: +SKIP
>>> with Engine("./my_engine --threads 1", limits=Limits(time=0.1)) as engine:  # doctest: +SKIP
...     zerosum.play_game("connect4", engine, "alphabeta:depth=4")

``Engine(command)`` starts the program at once (one :class:`~zerosum.external.session.Session`, its handshake
checked) and keeps it running for every move and game until :meth:`Engine.close` (or the ``with`` block's end,
or the program's).  Each move sends ``position SPEC moves MOVES`` (every move from the start, in the game's
own notation) and ``go`` with the agent's limits (``depth``, ``nodes``, ``time`` as ``movetime``, never more than
the move may take) and, under the arena's game clock, both clocks; a game the engine does not list in its
handshake is refused before any move.  The move's search figures come from the engine's last ``info``: ``depth``, ``nodes``, the score
(``exact S``: the solver's convention, turned into a proven value on Connect-X boards, and a protocol error
past the best or worst result possible from the position; ``est E``: an estimate, kept within the heuristic bound) and the ``pv``; a figure no ``info`` gave is unknown (named in the result's
``unknown``: the arena records no nodes and no value for it, never 0).

Every rule broken is an :class:`~zerosum.external.process.EngineFault` (an AgentError) whose ``reason`` the
arena records as the forfeit: crash, timeout, protocol error, garbage output, illegal move; the program is
then killed (its whole process group) and a fresh one is started for the next game.

Engines named with ``--engine NAME=COMMAND`` (:mod:`.definitions`) are subclasses of :class:`Engine` built by
:func:`~zerosum.agents.registry.make_agent` for each game; they share one running program per engine and
seat in a process (:mod:`.running`; a worker of the arena keeps it from game to game: ``newgame`` between
games).  What the engine answers is read as zerosum's in :mod:`.answers`.
"""

from __future__ import annotations

import os
import weakref
from typing import Any, ClassVar, Sequence

from ..agents.base import MAX_DEPTH, Limits, SearchAgent, SearchResult, Tracer, check_search
from ..agents.traits import AgentTraits, ValueUnit
from ..errors import AgentError, GameError
from ..game import Game
from ..spec import printable, quoted
from .answers import _exact_kind, _pv, _value, exact_scores, plays
from .definitions import EngineDefinition, engine_name
from .process import ILLEGAL, EngineFault, split_command
from .protocol import Go, Position
from .history import moves_to
from .running import _close_quietly, _lease, _release
from .session import STARTUP, STOP_WAIT, Latency, Session, whole_ms

__all__ = ["Engine", "plays", "exact_scores", "UNTIMED_DEADLINE", "KILL_MARGIN"]

#: the hard seconds a move may take when nothing else says (no time limit, no clock, no deadline given)
UNTIMED_DEADLINE = 60.0
#: the seconds the arena's supervisor waits beyond an engine's deadline (or its clock) before it kills the worker
#: playing it: room for the engine's own kill path at its deadline (stop, its process group killed, the reaper
#: reaped: 15-65 ms measured, Popen.wait's polling steps included, more on a loaded machine), so the engine's
#: own, detailed reason (``timeout: no bestmove within 5.5 s (stop sent after 5.33 s)``) is the one recorded,
#: every run, and the worker (with the other seat's engine) lives on.  An honest engine loses nothing: its
#: deadline is the arena's, only a worker stuck past it waits this much longer.
KILL_MARGIN = 1.0
#: the ``isready`` round trips of :meth:`Engine.probe`
PROBE_PINGS = 21
#: the reason of a move still thinking when its side's clock ran out (the arena's word)
TIME_FORFEIT = "time forfeit"


def _default_deadline(limits: Limits) -> float:
    """The arena's rule: the time limit plus the larger of 0.25 s and 10%, else 60 s."""
    t = limits.time
    return UNTIMED_DEADLINE if not t else t + max(0.25, 0.1 * t)


class Engine(SearchAgent):
    """An external program speaking zerosum's engine protocol (see the module docstring).

    ``command``: a string (split into words as a shell would, run without one) or a list of words; ``dir``: the
    folder it runs in; ``options``: ``{name: value}`` set after the handshake; ``name``: how records and tables
    call it (default: the name the engine gives itself, ``id name``, else its program's file name); ``limits``: depth, nodes and time sent with each ``go``;
    ``deadline``: the hard seconds of a move (default: the time limit plus the larger of 0.25 s and 10%, else
    60 s); ``startup``: seconds for the handshake.  AgentError (one line) for a command that does not start or
    fails its handshake.
    """

    name = "engine"
    description = "an external program speaking zerosum's engine protocol (docs/protocol.md)"
    LIMITS = ("depth", "nodes", "time")
    TRAITS = AgentTraits(label="external engine", values=ValueUnit(words="{spec} estimate"))
    #: set on the classes of named engines (:func:`~zerosum.external.definitions.register_engine`)
    DEFINITION: ClassVar[EngineDefinition | None] = None

    def __init__(self, command: str | Sequence[str] | None = None, *, dir: str | None = None,
                 options: dict[str, Any] | None = None, name: str | None = None, limits: Limits | None = None,
                 seed: int | None = None, deadline: float | None = None, startup: float = STARTUP) -> None:
        super().__init__(limits=limits, seed=seed)
        if self.limits.depth == 0:  # no go can say it: the protocol's depth is at least 1
            who = f"engine {self.DEFINITION.name}" if self.DEFINITION is not None else "Engine"
            raise AgentError(f"{who}: depth=0 is out of range: expected a whole number in 1..{MAX_DEPTH} "
                             "(an engine is sent go depth D, D at least 1)")
        shared = command is None
        if command is None:
            if self.DEFINITION is None:
                raise AgentError("Engine needs a command, e.g. Engine('./my_engine')")
            self.definition = self.DEFINITION
        else:
            if options is not None and not isinstance(options, dict):
                raise AgentError(f"Engine options are a dict {{name: value}}, not {type(options).__name__}")
            if name is not None and not isinstance(name, str):
                raise AgentError(f"Engine name is text, not {type(name).__name__}")
            words = tuple(split_command(command))
            label = name or os.path.basename(words[0])
            self.definition = EngineDefinition(engine_name(label), words, os.path.abspath(dir) if dir else None,
                                               tuple((str(k), str(v)) for k, v in (options or {}).items()))
            self.spec = self._label = label  # the label its messages name it by (its definition's name: an agent spec)
        for what, value in (("deadline", deadline), ("startup", startup)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not 0 < value <= 7200):
                raise AgentError(f"Engine {what} is seconds above 0 and at most 7200, not {quoted(value)}")
        self.deadline = deadline
        self.startup = startup
        self.told: float | None = None  # the arena's deadline of the next move (tell)
        self.used: float | None = None  # the last move's seconds, as its deadline measured them (position to bestmove)
        self.clock: tuple[float, float, float] | None = None  # (first's, second's seconds left, increment)
        self._shared = shared
        self._session: Session | None = None
        self._history: tuple[Any, Any, list[Any]] | None = None  # (game, state after the last move, moves)
        self._games: set[str] = set()
        self._fresh = False  # newgame was sent and no move searched since
        session = self._session_now()  # a command that does not start fails here, before any game
        if not shared and name is None and session.hello.name:
            self.spec = session.hello.name  # how the engine calls itself

    # ---- the running program --------------------------------------------------------------------

    def _session_now(self) -> Session:
        """The running program: started when there is none (at first, and after a fault); a crash fault
        when it ended by itself."""
        if self._session is not None:
            if self._session.alive():
                return self._session
            raise self._fail(self._session.process.crash())
        d = self.definition
        self._session = _lease(d, self, self.startup) if self._shared else \
            Session(d.command, d.folder, self._label, d.options, self.startup)
        if not self._shared:
            weakref.finalize(self, _close_quietly, self._session)
        self._games = set()
        self._history = None
        self._fresh = False
        return self._session

    @property
    def handshake(self) -> Any:
        """What the engine said of itself: ``name``, ``author``, ``options``, ``games``."""
        return self._session_now().hello

    @property
    def latency(self) -> Latency:
        """Median latency figures of the running program (:class:`~zerosum.external.session.Latency`)."""
        return self._session_now().latency()

    def probe(self, pings: int = PROBE_PINGS) -> dict[str, Any]:
        """What the engine said of itself and its latency, measured now with ``pings`` ``isready`` round
        trips (no search): ``{"definition", "name", "author", "ping_ms"}`` (``ping_ms``: their median), as a
        run stores it."""
        session = self._session_now()
        try:
            took = sorted(session.ping() for _ in range(pings))
        except EngineFault as fault:
            raise AgentError(f"engine {self.spec}: {self._fail(fault).reason}") from None
        return {"definition": self.definition.to_json(), "name": session.hello.name, "author": session.hello.author,
                "ping_ms": round(1000 * took[len(took) // 2], 3) if took else None}

    def close(self) -> None:
        """End the program (``quit``, then its whole process group is killed); the next move starts it again."""
        session, self._session = self._session, None
        if session is not None:
            _release(session)
            session.close()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _fail(self, fault: EngineFault) -> EngineFault:
        """The program broke a rule: it is killed (a fresh one plays the next game)."""
        session, self._session = self._session, None
        if session is not None:
            _release(session)
            session.process.kill()
        return fault

    def tell(self, deadline: float | None = None, clock: tuple[float, float, float] | None = None) -> None:
        """What the arena says before a move: the move's hard ``deadline`` in seconds (None: the engine's own,
        see the class docstring) and the game ``clock``, ``(first's seconds left, second's, increment)`` or None
        (sent with ``go`` as ``ftime stime finc sinc``, whole milliseconds rounded down; a move past its side's
        time is a time forfeit).  The engine's deadline is the smaller of the two, all of it: the arena's
        supervisor charges an engine's clock with the move's time as that deadline measures it (:attr:`used`
        afterwards, from writing ``position`` to reading ``bestmove``), not with its own wall time, so the pipes'
        latency to the supervisor never makes an answer in time a late one.  What ``go`` tells is never more: the
        clocks rounded down, ``movetime`` at most the deadline; and ``stop`` never comes before that time has
        passed since the ``go`` (:meth:`~zerosum.external.session.Session.think`)."""
        self.told = deadline
        self.clock = clock

    # ---- games ----------------------------------------------------------------------------------

    def check_game(self, game: Game[Any, Any]) -> None:
        """AgentError (one line) unless the engine listed ``game`` in its handshake."""
        session = self._session_now()
        if game.spec in self._games:
            return
        if not any(plays(listed, game) for listed in session.hello.games):
            said = ", ".join(printable(g) for g in session.hello.games) or "none"  # the engine's own words
            raise AgentError(f"engine {self.spec} does not play {game.spec} (its games: {said})")
        self._games.add(game.spec)

    def warm_up(self, game: Game[Any, Any]) -> None:
        """Before a game's clock starts: a program that ended while idle is started again, the game is
        checked and a new game begun (``newgame``)."""
        if self._session is not None and not self._session.alive():
            self._fail(self._session.process.crash())
        self.check_game(game)
        self._new_game(Position(game.spec))  # the engine may load its code for the game now, off the clock

    def reset(self) -> None:
        self._history = None

    def _new_game(self, position: Position | None = None) -> None:
        session = self._session_now()
        try:
            session.new_game(position)
        except EngineFault as fault:
            raise self._fail(fault) from None
        self._history = None
        self._fresh = True

    def search(self, game: Game[Any, Any], state: Any, tracer: Tracer | None = None) -> SearchResult:
        check_search(self.spec, game, state)
        self.check_game(game)
        moves, known = moves_to(game, state, self._history)
        if not known and not self._fresh:
            self._new_game()
        self._fresh = False
        session = self._session_now()
        limit = self.told or self.deadline or _default_deadline(self.limits)  # the move's deadline, as stated
        late = None
        player = game.player(state)
        if self.clock is not None:
            left = self.clock[player - 1]
            if left < limit:
                limit, late = left, TIME_FORFEIT
        go = self._go(limit)
        stop_at = limit - min(STOP_WAIT + 0.07, limit / 2)  # stop, then time to answer it and be read
        mine = go.clock(player)  # the time go gives the move: its movetime, else the mover's clock, ...
        told = go.movetime / 1000 if go.movetime is not None else mine[0] / 1000 if mine is not None else None
        if told is not None and told > limit:  # ... unless the deadline comes first: it was not told that
            told = None
        self.used = None
        try:
            thought = session.think(Position(game.spec, game.format_moves(moves)), go, stop_at, limit, late,
                                    exact_scores(game, len(moves)), told)
            self.used = thought.used
            action = self._action(game, state, thought.move)
        except EngineFault as fault:
            raise self._fail(fault) from None
        self._history = (game, game.result(state, action), [*moves, action])
        given = {"nodes": thought.nodes, "value": thought.est if thought.exact is None else thought.exact,
                 "depth": thought.depth}
        return SearchResult(action=action, value=_value(game, len(moves), thought.exact, thought.est),
                            nodes=thought.nodes or 0, depth=thought.depth or 0, elapsed=thought.wall,
                            pv=_pv(game, state, thought.pv),
                            exact=thought.exact is not None and (thought.exact == 0 or _exact_kind(game)),
                            unknown=tuple(name for name, figure in given.items() if figure is None))

    def _go(self, limit: float) -> Go:
        """The ``go`` of a move whose deadline (or clock) is ``limit`` seconds: it gives no more time than that."""
        lim = self.limits
        fields: dict[str, int] = {}
        if lim.time:  # at least 1, as the protocol has it
            fields["movetime"] = max(1, min(round(lim.time * 1000), whole_ms(limit)))
        if lim.nodes:
            fields["nodes"] = lim.nodes
        if lim.depth:
            fields["depth"] = lim.depth
        if self.clock is not None:
            first, second, inc = self.clock
            ms = [whole_ms(x) for x in (first, second, inc)]  # never more than it has
            fields.update(ftime=ms[0], stime=ms[1], finc=ms[2], sinc=ms[2])
        return Go(**fields)

    def _action(self, game: Game[Any, Any], state: Any, move: str | None) -> Any:
        if move is None:
            raise EngineFault(ILLEGAL, "bestmove (none), but the position has legal moves")
        try:
            action = game.parse_action(move, state)
        except GameError as exc:
            raise EngineFault(ILLEGAL, f"bestmove {quoted(move)}: {exc}") from None
        if action not in game.actions(state):
            try:
                game.result(state, action)
                why = "not a legal move here"
            except GameError as exc:
                why = str(exc)
            raise EngineFault(ILLEGAL, f"bestmove {quoted(move)}: {why}")
        return action
