"""``zerosum engine SPEC``: any zerosum agent as a program speaking the engine protocol (docs/protocol.md).

The program reads protocol lines on standard input and writes only protocol lines on standard output (anything
else the agent or numba might print goes to standard error; called as ``zerosum.cli.main([...])`` from Python,
it hands standard output back as it found it: file descriptor 1 and ``sys.stdout``).  Each ``go`` searches in
a child process (:mod:`.engine_search`: forked ahead of time from the engine, which warmed the agent up at the
game's first ``position``, and kept for the next ``go`` when its search ends by itself), which reports every
finished iteration as an ``info`` line; ``stop`` stops the child (so all it printed comes first), answers
``bestmove`` at once with the best move found so far (before any: the first legal move), and kills the child,
as does ``quit``.  Every ``go`` is answered by one ``bestmove``.  Commands are handled in the order they come,
but while a search runs only ``isready``, ``stop`` and ``quit`` are handled at once; any other command waits
until the search has answered (so a script piped in plays each ``go`` to its end), and so does a ``stop`` that
follows a waiting ``go``.

Limits: a ``go`` field replaces the agent's own limit of that kind (``depth``; ``nodes``, or ``sims`` for an
agent that counts simulations; ``movetime`` and the clock become ``time``); a ``go`` without fields searches
within the agent's own limits; a move's time counts from the ``go``.  An agent that honours ``depth``
deepens one ply an iteration within the budget left, so a ``stop`` finds a move from the last finished
depth.  Values: ``score exact S`` for a proven result (the solver's convention on the games the solver
takes, elsewhere 1, 0 or -1), ``score est E`` otherwise, in the agent's own unit
(:attr:`~zerosum.agents.traits.AgentTraits.values`).

Bad input never ends the program: a malformed line (``go movetime banana`` too), an unknown game or an
illegal move is an ``info string error ...`` line.  A ``go`` field it does not know (a later version's:
``go depth 2 ponder``) is skipped with an ``info string ignored ...`` line, and the ``go`` searches.  An
unknown command is ignored.  This module imports quickly; the agents load in ``run``.
"""

from __future__ import annotations

import argparse
import os
import select
import time
from collections import deque
from dataclasses import dataclass, fields
from typing import Any, Callable

from ..errors import GameError
from ..external import protocol as p
from .engine_search import SearchProcess, one_line

__all__ = ["COMMANDS", "Engine", "move_time"]

#: the watchdog: a search given ``time`` seconds is ended at ``time * (1 + GRACE_SHARE) + GRACE`` at the latest
GRACE, GRACE_SHARE = 0.05, 0.05
#: the clock: the share of the time left a move may take at most, and what is kept for the pipe (ms)
CLOCK_SHARE, CLOCK_RESERVE = 0.8, 20
#: the moves left assumed for a game whose length is not bounded by its cells
MOVES_LEFT = 20
#: how long a ``bestmove`` waits for a search cut short to stop (well under a millisecond; one stuck in the
#: kernel, on a full disk say, does not hold the answer up longer)
FREEZE_WAIT = 0.02


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", metavar="SPEC",
                        help="the agent, as everywhere (alphabeta:depth=6, mcts:time=1, solver, file.py:name)")
    parser.add_argument("--game", action="append", metavar="SPEC", dest="games",
                        help="a game it offers to play (repeatable; default: every game, any size)")
    parser.add_argument("--name", metavar="NAME", help="the name it gives in the handshake (default: zerosum SPEC)")


def _how_it_ended(process: Any) -> str:
    """`` (killed by signal 11, SIGSEGV)`` or `` (exit code 3)`` for a search child that is gone, else ''."""
    import signal

    child = getattr(process, "process", None)
    if child is None:
        return ""
    child.join(0.5)
    code = child.exitcode
    if code is None:
        return ""
    if code < 0:
        try:
            return f" (killed by signal {-code}, {signal.Signals(-code).name})"
        except ValueError:
            return f" (killed by signal {-code})"
    return f" (exit code {code})"


def move_time(left_ms: int, inc_ms: int, moves_left: int) -> float:
    """Seconds for one move on a clock of ``left_ms`` with increment ``inc_ms``: an even share of what is
    left over the moves still to play plus most of the increment, never more than ``CLOCK_SHARE`` of what is
    left (less a reserve for the pipe), and at least a millisecond."""
    share = left_ms / max(1, moves_left) + 0.75 * inc_ms
    cap = CLOCK_SHARE * left_ms - CLOCK_RESERVE
    return max(1.0, min(share, cap)) / 1000.0


@dataclass
class _Search:
    process: SearchProcess
    fallback: str
    watchdog: float | None  # monotonic time past which the search is ended (None: no time limit)
    best: str = ""


class Engine:
    """The protocol's engine side around one agent: :meth:`handle` takes a line, :meth:`serve` runs the
    loop over a file descriptor.  ``write`` takes each line the engine sends (without its end)."""

    def __init__(self, agent: Any, games: list[Any], write: Callable[[str], None], name: str = "") -> None:
        self.agent, self.games, self.write = agent, games, write
        self.name = name or f"zerosum {agent.spec}"
        self.position: tuple[Any, Any, int] | None = None  # game, state, ply
        self.search: _Search | None = None
        self.spare: SearchProcess | None = None  # the next search's process, forked while nothing runs
        self.warm: set[str] = set()
        self.queue: deque[Any] = deque()  # commands waiting for the running search to answer

    # ---- commands ---------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Take one line (see the module docstring for the order commands are handled in); False after
        ``quit``."""
        try:
            command: Any = p.parse_command(line)
        except p.ProtocolError as exc:
            command = exc
        waiting = bool(self.queue)
        if isinstance(command, p.Stop) and not any(isinstance(c, p.Go) for c in self.queue):
            waiting = False  # it can only mean the running search
        if waiting or (self.search is not None and not isinstance(command, (p.IsReady, p.Stop, p.Quit))):
            self.queue.append(command)
            return True
        if not self.execute(command):
            return False
        return self.drain()

    def drain(self) -> bool:
        """Handle the commands that waited for a search, until one starts a search; False after ``quit``."""
        while self.queue and self.search is None:
            if not self.execute(self.queue.popleft()):
                return False
        return True

    def execute(self, command: Any) -> bool:
        """Carry out one command; whatever fails in it (but the output) is an error line, never a traceback."""
        try:
            return self._execute(command)
        except BrokenPipeError:
            raise
        except Exception as exc:  # noqa: BLE001 - an agent's or a game's failure: the engine goes on
            self.error(str(exc) if isinstance(exc, GameError) else f"{type(exc).__name__}: {exc}")
            if isinstance(command, p.Go) and self.search is None:
                self.send(p.BestMove(None))  # every go has its bestmove
            return True

    def _execute(self, command: Any) -> bool:
        if isinstance(command, p.ProtocolError):
            self.error(str(command))
        elif isinstance(command, p.Hello):
            self.hello()
        elif isinstance(command, p.IsReady):
            self.send(p.ReadyOk())
        elif isinstance(command, p.Stop):
            self.stop()
        elif isinstance(command, p.Quit):
            self.position = None  # no spare after this search
            self.stop()
            self.drop_spare()
            return False
        elif isinstance(command, p.Position):
            self.set_position(command.game, command.moves)
        elif isinstance(command, p.Go):
            self.go(command)
        elif isinstance(command, p.SetOption):
            self.error(f"no option {command.name!r}: this engine has none")
        elif isinstance(command, p.NewGame):
            self.agent.reset()
            self.drop_spare()  # its agent remembers the last game: a fresh copy
            self.fork()
        return True  # an Unknown line is ignored

    def send(self, message: Any) -> None:
        self.write(message.line())

    def error(self, text: str) -> None:
        self.send(p.Info(string="error " + one_line(text)))

    def hello(self) -> None:
        from ..core.version import __version__
        from ..games.registry import registered_games

        self.send(p.Id("name", one_line(self.name)))
        self.send(p.Id("author", f"the zerosum authors (zerosum {__version__})"))
        for spec in [g.spec for g in self.games] or [cls.name for cls in registered_games()]:
            self.send(p.GameSpec(spec))
        self.send(p.HelloDone())

    def set_position(self, spec: str, moves: str) -> None:
        from ..games import get_game

        self.position = None  # until this one is known good (a failure is an error line: execute)
        game = get_game(spec)
        if self.games and game.spec not in {g.spec for g in self.games}:
            raise GameError(f"{spec} is not one of this engine's games: {', '.join(g.spec for g in self.games)}")
        actions, state = game.parse_position(moves)
        if game.spec not in self.warm:
            self.agent.warm_up(game)  # compiled code loads here, never on a clock
            self.warm.add(game.spec)
            self.drop_spare()  # a spare forked before holds none of it
        self.position = (game, state, len(actions))
        self.fork()

    def go(self, command: Any) -> None:
        if command.ignored:  # a later version's fields: honoured what it can (docs/protocol.md), said so
            self.send(p.Info(string=one_line("ignored go field(s) this engine does not know: "
                                             + ", ".join(command.ignored))))
        if self.position is None:
            self.error("no position: send position SPEC [moves MOVES] before go")
            self.send(p.BestMove(None))
            return
        game, state, ply = self.position
        actions = game.actions(state)
        if not actions:
            self.error("the game is over: there is no move to make")
            self.send(p.BestMove(None))
            return
        limits = self.limits(command, game, state, ply)
        fallback = game.format_action(actions[0])
        start = time.monotonic()
        watchdog = None if limits.time is None else start + limits.time * (1 + GRACE_SHARE) + GRACE
        process, self.spare = self.spare or SearchProcess(self.agent), None
        process.start(game, state, ply, limits, start)
        self.search = _Search(process, fallback, watchdog)

    def limits(self, command: Any, game: Any, state: Any, ply: int) -> Any:
        """The agent's own limits with the ``go`` fields put in (see the module docstring)."""
        from ..agents.base import MAX_DEPTH, MAX_NODES, MAX_SIMULATIONS, MAX_TIME, Limits

        honours = getattr(self.agent, "LIMITS", ())
        changes: dict[str, Any] = {}
        if command.depth is not None:
            changes["depth"] = min(command.depth, MAX_DEPTH)
        if command.nodes is not None:
            counted = "nodes" if "nodes" in honours or "simulations" not in honours else "simulations"
            changes[counted] = min(command.nodes, MAX_NODES if counted == "nodes" else MAX_SIMULATIONS)
        seconds = [command.movetime / 1000.0] if command.movetime is not None else []
        clock = command.clock(game.player(state))
        if clock is not None and "time" not in honours:  # a player function cannot pace itself: only the clock
            seconds.append(max(0.001, CLOCK_SHARE * clock[0] - CLOCK_RESERVE) / 1000.0)  # stops it, not a share
        elif clock is not None:
            cells = getattr(game, "cells", None)
            moves_left = (cells - ply + 1) // 2 if isinstance(cells, int) and cells > ply else MOVES_LEFT
            seconds.append(move_time(clock[0], clock[1], moves_left))
        if seconds:
            changes["time"] = min(MAX_TIME, max(0.001, min(seconds)))
        own = getattr(self.agent, "limits", None)
        base = {f.name: getattr(own, f.name) for f in fields(own)} if own is not None else {}
        return Limits(**{**base, **changes})

    def stop(self, finished: bool = False) -> None:
        """End a running search: ``bestmove`` with the best move so far.  A search that ``finished`` leaves
        its process for the next ``go``; one cut short is killed, and a new process forked after the answer."""
        search, self.search = self.search, None
        if search is None:
            return
        keep = finished and self.spare is None
        if not keep:  # cut short: stopped before the answer, so all it printed (on standard error) comes first
            search.process.freeze(FREEZE_WAIT)
        self.send(p.BestMove(search.best or search.fallback))
        if keep:
            self.spare = search.process  # its pages are its own by now: it searches fastest
            return
        search.process.kill()
        self.fork()  # the next go's process, forked now (after the bestmove: its time is nobody's)

    def fork(self) -> None:
        """Fork the spare search process, if there is none and a position to search."""
        if self.spare is None and self.position is not None:
            self.spare = SearchProcess(self.agent)

    def drop_spare(self) -> None:
        if self.spare is not None:
            self.spare.kill()
            self.spare = None

    def close(self) -> None:
        """Kill the search's process and the spare, however the engine ended (``quit`` has done so; Ctrl-C or a
        broken pipe has not): a Python caller of ``main(["engine", ...])`` goes on without them."""
        search, self.search = self.search, None
        if search is not None:
            search.process.kill()
        self.drop_spare()

    def on_search(self) -> None:
        """Read what the search child sent (its pipe is readable)."""
        search = self.search
        if search is None:
            return
        try:
            kind, info, move = search.process.conn.recv()
        except (EOFError, OSError):
            kind, info, move = "error", None, "the search process ended without a move" + _how_it_ended(search.process)
        if kind == "info":
            search.best = move or search.best
            self.send(info)
        elif kind == "error":
            self.error(f"the agent failed: {move}")
            self.stop()
        else:
            self.stop(finished=True)

    def serve(self, fd: int) -> int:
        """Answer the lines read from ``fd`` until ``quit`` or its end; 0."""
        pending = bytearray()
        dropping = ended = False
        while True:
            search = self.search
            timeout = None if search is None or search.watchdog is None else max(0.0, search.watchdog - time.monotonic())
            ready, _, _ = select.select(([] if ended else [fd]) + ([search.process.conn] if search is not None else []), [],
                                        [], timeout)
            if search is not None and search is self.search:
                if search.process.conn in ready:
                    self.on_search()
                elif search.watchdog is not None and time.monotonic() >= search.watchdog:
                    self.stop()  # the agent overran its time: the best move so far
                if self.search is None and not self.drain():
                    return 0
            if fd not in ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:  # the end of the input: what waits is done, then the program ends as at quit
                ended = True
                self.queue.append(p.Quit())
                if not self.drain():
                    return 0
                continue
            pending += chunk
            while True:
                end = pending.find(b"\n")
                if end < 0:
                    if len(pending) > p.MAX_LINE:
                        self.error(f"a line longer than {p.MAX_LINE:,} bytes was dropped")
                        pending.clear()
                        dropping = True
                    break
                raw, pending[:] = bytes(pending[:end]), pending[end + 1:]
                if dropping:
                    dropping = False
                    continue
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError:
                    self.error("a line that is not UTF-8 was dropped")
                    continue
                if not self.handle(line):
                    return 0


def _run(args: argparse.Namespace) -> int:
    import sys

    from ..agents.registry import make_agent
    from ..games import get_game

    agent = make_agent(args.agent)  # a bad spec: one error line, exit 2, before any protocol line
    games = [get_game(spec) for spec in args.games or []]
    caller = sys.stdout
    _flush(caller)  # what was printed before goes where it was meant to
    out = os.dup(1)

    def write(line: str) -> None:
        data = memoryview((line + "\n").encode("utf-8"))
        while data:
            data = data[os.write(out, data):]

    engine = Engine(agent, games, write, args.name or "")
    try:
        os.dup2(2, 1)  # stray prints (the agent's, numba's) go to standard error
        sys.stdout = sys.stderr
        return engine.serve(sys.stdin.fileno())
    except BrokenPipeError:
        return 0
    finally:  # main(argv) is a Python call too: no child left searching, the caller's stdout back
        engine.close()
        _flush(sys.stdout)
        sys.stdout = caller
        os.dup2(out, 1)
        os.close(out)


def _flush(stream: Any) -> None:
    """Flush ``stream`` (None or a broken one is left as it is)."""
    try:
        if stream is not None:
            stream.flush()
    except (OSError, ValueError):
        pass


COMMANDS = {"engine": (_add, _run)}
