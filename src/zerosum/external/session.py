"""The conversation with one external engine (docs/protocol.md, version 1), on top of :mod:`.process`.

A :class:`Session` starts the program, holds the handshake (``zsp 1`` ... ``zspok``: its name, author,
options and games), sets options, starts games (``newgame``, then an ``isready`` round trip) and searches:
``position``, ``go``, every ``info`` kept (the last depth, nodes, time, score and pv each), ``bestmove``.  Every
wait has a deadline and every move's output a bound; what breaks a rule ends the session with an
:class:`~zerosum.external.process.EngineFault` naming the forfeit:

- the output ends: ``crash: the engine exited (exit code 3): <its last line on standard error>``;
- no ``bestmove`` by the move's stop point: ``stop`` is sent (never before the time the engine was told for
  the move has passed since its ``go``); none by its deadline either: the whole process group is killed,
  ``timeout: no bestmove within 1.35 s (stop sent after 1.18 s)`` (the move's deadline as the arena states it),
  or under a game clock the arena's ``time forfeit: no bestmove within the 980 ms left on its clock`` (whole
  milliseconds rounded down, as ``go`` tells the clocks: :func:`whole_ms`; ``the 1.25 s left`` from a second);
- a second ``bestmove`` for one ``go`` (found by the ``isready`` round trip between the next ``position`` and
  its ``go``, which reads everything the engine wrote after its answer): ``protocol error: a second bestmove
  for one go ('bestmove 2' after 'bestmove 2')``;
- a line over :data:`~zerosum.external.protocol.MAX_LINE` bytes, not UTF-8, with control characters, or more
  than :data:`MAX_OUTPUT` bytes or :data:`MAX_LINES` lines in one move: ``garbage output: ...``;
- a known reply that is malformed (``info depth x``), an exact score no game could reach from the position
  (``score exact 999`` on Connect Four), or no ``zspok``/``readyok`` in time: ``protocol error: ...``;
- under ``go nodes N``, an ``info`` line whose ``nodes`` pass N (the engine's own count: one that reports none
  cannot be checked): ``node limit: more than 100 states expanded in one move (it reported nodes 5000 to 'go
  nodes 100')``, the arena's node-limit reason.

Lines whose first word the protocol does not know are ignored (within those bounds).

**Latency** is measured apart from thinking: :attr:`Session.pings` are ``isready`` -> ``readyok`` round trips
(one at the start of each game: what one exchange costs, pipe and the engine's input loop, with no search);
:attr:`Session.overheads` are, for each move whose engine reported its own ``time``, the time from writing
``go`` to reading ``bestmove`` less that reported time (what the move cost beyond the engine's own clock).
"""

from __future__ import annotations

import collections
import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

from ..agents.prepare_words import said_while
from ..errors import AgentError
from ..spec import quoted
from .process import GARBAGE, ILLEGAL, PROTOCOL, TIMEOUT, EngineFault, EngineProcess
from .protocol import (MAX_LINE, BestMove, GameSpec, Go, Hello, HelloDone, Id, Info, IsReady, NewGame,
                       OptionSpec, Position, ProtocolError, ReadyOk, SetOption, Stop, parse_reply)
from .protocol.lines import whole
from .protocol.messages import CONTROL

__all__ = ["Session", "Handshake", "Thought", "Latency", "STARTUP", "READY", "PREPARE", "MAX_OUTPUT", "MAX_LINES",
           "STOP_WAIT", "NODE_LIMIT", "LAST_WORDS", "whole_ms", "read_reply", "impossible"]

#: seconds a program has to finish its handshake (``zsp 1`` ... ``zspok``), from its start
STARTUP = 10.0
#: what a handshake that broke the protocol (no ``zspok`` in time) adds before the engine's last line on standard
#: error (``engine x failed its handshake: protocol error: no zspok within 7 s ...; its last line on standard
#: error: 'loading the weights...'``)
LAST_WORDS = "its last line on standard error: "
#: seconds an ``isready`` waits for ``readyok`` (after options; between games)
READY = 10.0
#: seconds the ``isready`` after ``newgame`` and a game's first ``position`` waits (no clock runs: an engine
#: may compile its code for the game then)
PREPARE = 110.0
#: the most output one move may produce (bytes), and the most lines
MAX_OUTPUT = 4 * 2**20
MAX_LINES = 20_000
#: seconds allowed after ``stop`` before the engine is killed (engine-check asks 0.1 s; a loaded machine more)
STOP_WAIT = 0.1
#: the last latency samples kept
SAMPLES = 10_000
#: seconds of a wait for the handshake or a ``readyok`` after which it is said on standard error (no silent wait)
SAY_AFTER = 1.0
#: the kind of a move's fault whose ``info`` reported more nodes than its ``go nodes N``: the arena's node limit
#: (:func:`zerosum.arena.counting.node_limit_reason`, whose words the reason repeats)
NODE_LIMIT = "node limit"


@dataclass
class Handshake:
    """What the engine said of itself before ``zspok``."""

    name: str = ""
    author: str = ""
    options: dict[str, OptionSpec] = field(default_factory=dict)
    games: list[str] = field(default_factory=list)


@dataclass
class Thought:
    """One move's search: the move text, the last value of each ``info`` field, and the wall time."""

    move: str | None
    depth: int | None = None
    nodes: int | None = None
    time: int | None = None  # the engine's own milliseconds
    exact: int | None = None
    est: float | None = None
    pv: str | None = None
    wall: float = 0.0  # seconds from writing go to reading bestmove
    used: float = 0.0  # seconds from the move's start (its deadline's origin, before position) to reading bestmove
    stopped: bool = False  # stop was sent

    def take(self, info: Info) -> None:
        """Keep what ``info`` says: each field it has replaces the last (its score, exact or est, both kinds)."""
        self.depth = self.depth if info.depth is None else info.depth
        self.nodes = self.nodes if info.nodes is None else info.nodes
        self.time = self.time if info.time is None else info.time
        self.pv = self.pv if info.pv is None else info.pv
        if info.exact is not None or info.est is not None:
            self.exact, self.est = info.exact, info.est


@dataclass(frozen=True)
class Latency:
    """Medians of an engine's latency samples in milliseconds (None without samples); see the module docstring."""

    ping_ms: float | None
    overhead_ms: float | None
    pings: int
    moves: int

    def describe(self) -> str:
        parts = []
        if self.ping_ms is not None:
            parts.append(f"isready round trip {self.ping_ms:.2f} ms (median of {self.pings})")
        if self.overhead_ms is not None:
            parts.append(f"go-to-bestmove beyond its own time {self.overhead_ms:.2f} ms (median of {self.moves})")
        return "; ".join(parts) or "not measured"


def _median_ms(samples: Sequence[float]) -> float | None:
    return round(1000 * statistics.median(samples), 3) if samples else None


def whole_ms(seconds: float) -> int:
    """``seconds`` in whole milliseconds rounded down (never more than there is; 0 at least): how ``go`` tells
    the clocks and a time forfeit's reason states what was left."""
    return max(0, math.floor(seconds * 1000 + 1e-6))


def _clock_left(seconds: float) -> str:
    """What a clock had left as a time forfeit states it, rounded down: ``499 ms``, from a second ``1.25 s``."""
    ms = whole_ms(seconds)
    return f"{ms} ms" if ms < 1000 else f"{ms // 10 / 100:.2f} s"


def read_reply(line: str) -> Any:
    """A line the engine wrote, read as the arena reads it: its typed value (an Unknown for a line whose first word
    the protocol does not know); a garbage fault for a control character in it, a protocol fault for a known
    reply that is malformed (``engine-check`` reads every line with this too)."""
    bad = CONTROL.search(line)
    if bad is not None:
        raise EngineFault(GARBAGE, f"control character {bad.group()!r} in {quoted(line, 60)}")
    try:
        return parse_reply(line)
    except ProtocolError as exc:
        raise EngineFault(PROTOCOL, str(exc)) from None


def impossible(info: Info, scores: tuple[int, int]) -> EngineFault | None:
    """The protocol fault of ``info`` when its exact score lies past ``scores``, the lowest and highest possible in
    the position (docs/protocol.md's Scores: no proof, a lie), else None."""
    if info.exact is None or scores[0] <= info.exact <= scores[1]:
        return None
    return EngineFault(PROTOCOL, f"impossible score in {quoted(info.line(), 80)}: an exact score in this position "
                       f"is {scores[0]}..{scores[1]} (docs/protocol.md, Scores)")


class Session:
    """A running engine after its handshake (see the module docstring).  ``label`` names it in messages."""

    def __init__(self, words: Sequence[str], folder: str | None = None, label: str = "engine",
                 options: Sequence[tuple[str, str]] = (), startup: float = STARTUP) -> None:
        self.label = label
        self.process = EngineProcess(words, folder, label)
        self.pings: collections.deque[float] = collections.deque(maxlen=SAMPLES)
        self.overheads: collections.deque[float] = collections.deque(maxlen=SAMPLES)
        self._answer = ""  # the last bestmove line read
        self._said: str | None = None  # the first 'info string error ...' line of the move being searched
        try:
            with said_while(f"engine {label} is starting (no zspok yet; its handshake has {startup:g} s)", SAY_AFTER):
                self.hello = self._handshake(time.monotonic() + startup, startup)
            for name, value in options:
                self.set_option(name, value)
            if options:
                self.ping()
        except EngineFault as fault:
            self.process.kill()
            refused = self.process.refused()  # no process for the engine: the system's limit, said as such
            if refused is not None:
                raise refused from None
            # no zspok says nothing of why: its last words on standard error may (a crash's reason quotes them)
            last = self.process.tail[-1] if self.process.tail and fault.reason.startswith(PROTOCOL) else ""
            said = f"; {LAST_WORDS}{quoted(last, 200)}" if last else ""
            raise AgentError(f"engine {label} failed its handshake: {fault.reason}{said}") from None
        except BaseException:
            self.process.kill()
            raise

    # ---- lines ----------------------------------------------------------------------------------

    def _reply(self, deadline: float) -> Any:
        """The next reply as a typed value (an Unknown for a line the protocol does not know), or None at the
        deadline; a garbage or protocol fault for a bad line (:func:`read_reply`)."""
        line = self.process.read_line(deadline, MAX_LINE)
        if line is None:
            return None
        reply = read_reply(line)
        if isinstance(reply, Info) and reply.string and reply.string.split(None, 1)[0].lower() == "error" \
                and self._said is None:
            self._said = line.strip()  # the first of the move (the cause), quoted when the move then fails (think)
        return reply

    def send(self, command: Any) -> None:
        self.process.send(command.line())

    def _replies(self, deadline: float, awaited: str, after: str) -> Iterator[Any]:
        """Every reply until ``deadline``: a protocol fault when it passes (no ``awaited`` ``after`` ...), a
        garbage fault past :data:`MAX_LINES` lines."""
        for _ in range(MAX_LINES):
            reply = self._reply(deadline)
            if reply is None:
                raise EngineFault(PROTOCOL, f"no {awaited} within {after}")
            yield reply
        raise EngineFault(GARBAGE, f"more than {MAX_LINES:,} lines before {awaited}")

    def _handshake(self, deadline: float, startup: float) -> Handshake:
        self.send(Hello(1))
        hello = Handshake()
        for reply in self._replies(deadline, "zspok", f"{startup:g} s of 'zsp 1' (is it a zerosum engine?)"):
            if isinstance(reply, HelloDone):
                break
            if isinstance(reply, Id):
                setattr(hello, reply.key, reply.value)
            elif isinstance(reply, OptionSpec):
                hello.options[reply.name] = reply
            elif isinstance(reply, GameSpec):
                hello.games.append(reply.spec)
        return hello

    def set_option(self, name: str, value: str) -> None:
        """``setoption``, checked against the options the engine declared (AgentError, one line)."""
        spec = self.hello.options.get(name)
        if spec is None:
            known = ", ".join(self.hello.options) or "none"
            raise AgentError(f"engine {self.label} has no option {quoted(name)} (its options: {known})")
        if spec.type == "spin":
            try:  # ASCII digits, an optional sign, in range (whole: never int() of '²' or of a huge string)
                whole(value, name, spec.min, spec.max)  # type: ignore[arg-type]
            except ProtocolError:
                raise AgentError(f"engine {self.label}: option {name} is a whole number in {spec.min}..{spec.max}, "
                                 f"not {quoted(value)}") from None
        elif spec.type == "check" and value not in ("true", "false"):
            raise AgentError(f"engine {self.label}: option {name} is true or false, not {quoted(value)}")
        try:
            self.send(SetOption(name, value))
        except ProtocolError as exc:
            raise AgentError(f"engine {self.label}: option {name}: {exc}") from None

    def ping(self, wait: float = READY) -> float:
        """One ``isready`` round trip (seconds; kept in :attr:`pings`); a protocol fault without ``readyok``; a wait
        over :data:`SAY_AFTER` said (``engine e is getting ready (no readyok yet; isready has 10 s): 1.0 s``)."""
        with said_while(f"engine {self.label} is getting ready (no readyok yet; isready has {wait:g} s)", SAY_AFTER):
            return self._round_trip(wait)

    def _round_trip(self, wait: float) -> float:
        start = time.perf_counter()  # (the words' thread started before: no part of the sample)
        self.send(IsReady())
        for reply in self._replies(time.monotonic() + wait, "readyok", f"{wait:g} s of isready"):
            if isinstance(reply, ReadyOk):
                break
        took = time.perf_counter() - start
        self.pings.append(took)
        return took

    def new_game(self, position: Position | None = None) -> None:
        """``newgame`` (and ``position``, when given: an engine may load what the game needs there), then a
        round trip: the engine is ready (within :data:`PREPARE` seconds), and one latency sample is taken."""
        self.send(NewGame())
        if position is not None:
            self.send(position)
        self._round_trip(PREPARE)  # newgame's own work (clearing tables, loading code for the game) happens here:
        # said by who begins the game (the arena: ``engine e is getting ready for connect4 (newgame; ...)``)
        self.ping()  # the round trip alone

    # ---- a move ---------------------------------------------------------------------------------

    def think(self, position: Position, go: Go, stop_at: float, deadline: float, late: str | None = None,
              scores: tuple[int, int] | None = None, told: float | None = None) -> Thought:
        """Search ``position`` (one with legal moves) with ``go``; ``stop_at``/``deadline`` are seconds from now:
        ``stop`` is sent at the first, but never before ``told`` seconds (the time ``go`` gives the move: its
        movetime, else the mover's clock) have passed since ``go`` was written, and not at all when that is the
        deadline or later; the engine is killed at the second, and an answer read then or later is late too.  A
        timeout's reason states ``deadline``, or with ``late`` (the kind of a clock running out) as the time left
        on the clock.  The thought's ``used`` is the move's time as its deadline counts it: from now to reading
        ``bestmove``.  ``scores``:
        the lowest and highest ``score exact`` possible in the position; an ``info`` line past them is a
        protocol fault (an impossible proof, docs/protocol.md's Scores).

        Between ``position`` and ``go`` an ``isready`` round trip reads everything the engine wrote since its
        last answer: a ``bestmove`` there is a second answer to the last ``go``, a protocol fault.

        An engine that says ``info string error ...`` and then fails the move (``bestmove (none)``, an illegal
        move's fault, a crash, a timeout) has that line quoted in the fault's reason: its own explanation."""
        self._said = None
        try:
            return self._think(position, go, stop_at, deadline, late, scores, told)
        except EngineFault as fault:
            if self._said is None:
                raise
            details = fault.reason[len(fault.kind) + 2:] if fault.reason.startswith(fault.kind + ": ") else fault.reason
            raise EngineFault(fault.kind, f"{details}; the engine said {quoted(self._said, 200)}") from None

    def _think(self, position: Position, go: Go, stop_at: float, deadline: float, late: str | None,
               scores: tuple[int, int] | None, told: float | None) -> Thought:
        now = time.monotonic()
        soft, hard = now + stop_at, now + deadline
        self.send(position)
        if not self._settled(hard):
            raise self._late(late, deadline, "no readyok (to the isready before go)")
        start = time.perf_counter()
        self.send(go)
        if told is not None:  # an engine that honours stop loses none of the time it was told
            soft = max(soft, time.monotonic() + told)
        said = f" (stop sent after {soft - now:.2f} s)"
        thought = Thought(None)
        first_byte = self.process.read_bytes
        lines = 0
        while True:
            reply = self._reply(soft if not thought.stopped and soft < hard else hard)
            if reply is None:
                if not thought.stopped and soft < hard:
                    self.send(Stop())
                    thought.stopped = True
                    continue
                raise self._late(late, deadline, "no bestmove", said if thought.stopped else "")
            lines += 1
            if lines > MAX_LINES or self.process.read_bytes - first_byte > MAX_OUTPUT:
                raise EngineFault(GARBAGE, f"more than {MAX_LINES:,} lines or {MAX_OUTPUT // 2**20} MiB in one move")
            if isinstance(reply, Info):  # (20,000 a move may come: little work each)
                if scores is not None and reply.exact is not None and (lie := impossible(reply, scores)) is not None:
                    raise lie
                if go.nodes is not None and reply.nodes is not None and reply.nodes > go.nodes:  # its own count
                    raise EngineFault(NODE_LIMIT, f"more than {go.nodes:,} states expanded in one move (it reported "
                                      f"nodes {reply.nodes} to {quoted(go.line())})")
                thought.take(reply)
            elif isinstance(reply, BestMove):
                thought.used = time.monotonic() - now
                if thought.used >= deadline:  # read in time, yet answered too late: the time charged judges it
                    # (a line may be read up to a poll's millisecond past the deadline)
                    raise self._late(late, deadline, "no bestmove", said if thought.stopped else "")
                if reply.move is None and self._said is not None:  # it said why it has no move
                    raise EngineFault(ILLEGAL, "bestmove (none), but the position has legal moves")
                thought.wall = time.perf_counter() - start
                thought.move = reply.move
                self._answer = reply.line()
                if thought.time is not None:
                    self.overheads.append(max(0.0, thought.wall - thought.time / 1000))
                return thought

    def _settled(self, deadline: float) -> bool:
        """``isready``, and every reply up to its ``readyok`` read (False when ``deadline`` passes first): a
        ``bestmove`` among them is a protocol fault, a second answer to the last ``go``."""
        self.send(IsReady())
        for _ in range(MAX_LINES):
            reply = self._reply(deadline)
            if reply is None:
                return False
            if isinstance(reply, ReadyOk):
                return True
            if isinstance(reply, BestMove):
                raise EngineFault(PROTOCOL, f"a second bestmove for one go ({quoted(reply.line())} after "
                                  f"{quoted(self._answer)})" if self._answer else
                                  f"a bestmove without a go ({quoted(reply.line())})")
        raise EngineFault(GARBAGE, f"more than {MAX_LINES:,} lines between moves")

    def _late(self, late: str | None, limit: float, what: str, after: str = "") -> EngineFault:
        """The fault of a move out of time (the engine is killed): ``timeout: no bestmove within 0.45 s``, or
        under a clock (``late``) ``time forfeit: no bestmove within the 980 ms left on its clock``; but a crash
        when the engine closed its input (what was written to it since was lost: it could not answer)."""
        if self.process.input_closed():
            return self.process.crash("input")
        self.process.kill()
        if late is not None:
            return EngineFault(late, f"{what} within the {_clock_left(limit)} left on its clock")
        return EngineFault(TIMEOUT, f"{what} within {limit:g} s{after}")

    def latency(self) -> Latency:
        """The medians of this engine's latency samples so far."""
        return Latency(_median_ms(self.pings), _median_ms(self.overheads), len(self.pings), len(self.overheads))

    def alive(self) -> bool:
        return self.process.alive()

    def close(self) -> None:
        """``quit``, a short wait, then the whole process group is killed."""
        self.process.close()

