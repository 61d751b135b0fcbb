"""``zerosum engine SPEC``: any zerosum agent as a program speaking the engine protocol (docs/protocol.md).

The program reads protocol lines on standard input and writes only protocol lines on standard output, in file
descriptors of its own taken before the agent loads (:mod:`.engine_io`: whatever else is printed goes to standard
error, whatever the agent's import did to descriptors 0-2; called as ``zerosum.cli.main([...])`` from Python, it hands
them and ``sys.stdout`` back as it found them).  Each ``go`` searches in a child process (:mod:`.engine_search`:
forked ahead of time from the engine once the agent's compiled code is prepared, and kept for the next ``go`` when its
search ends by itself), which reports every finished iteration as an ``info`` line; ``stop`` stops the child (so all
it printed comes first), answers ``bestmove`` at once with the best move found so far (before any: the first legal
move, said in an ``info string``), and kills the child, as does ``quit``.  Every ``go`` is answered by one
``bestmove`` (but one still waiting when ``quit`` comes).  Commands are handled in the order they come, but ``quit``
is handled at once, whatever waits (what waits is dropped), and while a search runs so are ``isready`` and ``stop``;
any other command waits until the search has answered (so a script piped in plays each ``go`` to its end, and at the
end of the input what waits is done first), and so does a ``stop`` that follows a waiting ``go``.

The compiled code is prepared in the background (:mod:`.engine_prepare`), from start-up for a ``--game``, else
from the game's first ``position``, and the engine reads its commands all the while.  An ``isready`` after a
``position`` is answered once the position's game is prepared (at once before any position, and while a search
runs); a ``go`` that comes before that searches, when it has a time limit, in a thread of the engine within the
limit (:class:`.engine_search.SearchThread`: the agent goes without the code that is not ready in time), and
otherwise waits for the preparation (a ``stop`` meanwhile: the first legal move).  Every such wait says what it
waits for in ``info string`` lines, at once and every few seconds.  A ``quit`` ends it at once.  A preparation
that cannot start (no thread to be had) is said in an error line, and each search prepares its own code.

Limits (:mod:`.engine_limits`): a ``go`` field replaces the agent's own limit of that kind; a ``go`` without
fields searches within the agent's own limits; a move's time counts from the ``go``.  An agent that honours ``depth``
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
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import GameError
from ..external import protocol as p
from .engine_io import Lines, guard, hello, protocol_channel
from .engine_limits import go_limits, move_time
from .engine_prepare import POLL, Preparations, Wait
from .engine_search import SEARCH_PROCESS, SearchProcess, SearchThread, fork_search, one_line

__all__ = ["COMMANDS", "Engine", "move_time"]

#: the watchdog: a search given ``time`` seconds is ended at ``time * (1 + GRACE_SHARE) + GRACE`` at the latest
GRACE, GRACE_SHARE = 0.05, 0.05
#: how long a ``bestmove`` waits for a search cut short to stop (well under a millisecond; one stuck in the
#: kernel, on a full disk say, does not hold the answer up longer)
FREEZE_WAIT = 0.02


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", metavar="SPEC",
                        help="the agent, as everywhere (alphabeta:depth=6, mcts:time=1, solver, file.py:name)")
    parser.add_argument("--game", action="append", metavar="SPEC", dest="games",
                        help="a game it offers to play (repeatable; default: every game, any size)")
    parser.add_argument("--name", metavar="NAME", help="the name it gives in the handshake (default: zerosum SPEC)")


@dataclass
class _Search:
    process: SearchProcess | SearchThread | None  # None: waiting for the preparation, to start ``job`` after it
    fallback: str
    watchdog: float | None  # monotonic time past which the search is ended (None: no time limit)
    job: tuple[Any, ...] = ()  # what the process is started with: game, state, ply, limits, the go's time
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
        self.prepared = Preparations(agent, games)  # from the start (what fails there is said at the position)
        self.wait: Wait | None = None  # what a waiting isready or go waits for (said every few seconds)
        self.readying = False  # an isready waits for the position's game to be prepared
        self.queue: deque[Any] = deque()  # commands waiting for the running search (or readyok) to answer

    # ---- commands ---------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Take one line (the module docstring says the order commands are handled in); False after ``quit``."""
        try:
            command: Any = p.parse_command(line)
        except p.ProtocolError as exc:
            command = exc
        if isinstance(command, p.Quit):  # at once, whatever waits: the search answered, what was queued dropped
            return self.execute(command)
        waiting = bool(self.queue) or (self.readying and not isinstance(command, p.Stop))
        if isinstance(command, p.Stop) and not any(isinstance(c, p.Go) for c in self.queue):
            waiting = False  # it can only mean the running search
        if waiting or (self.search is not None and not isinstance(command, (p.IsReady, p.Stop))):
            self.queue.append(command)
            return True
        if not self.execute(command):
            return False
        return self.drain()

    def drain(self) -> bool:
        """Handle the commands that waited for a search or a readyok, until one starts a search or waits for
        the preparation; False after ``quit``."""
        while self.queue and self.search is None and not self.readying:
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
            for message in hello(self.name, self.games):
                self.send(message)
        elif isinstance(command, p.IsReady):
            if self.search is None and self.position is not None and not self.prepared.done(self.position[0]):
                self.readying = True  # readyok once the position's game is prepared (tick)
                self.begin_wait(self.position[0], "isready is answered when it is done")
            else:
                self.send(p.ReadyOk())
        elif isinstance(command, p.Stop):
            self.stop()
        elif isinstance(command, p.Quit):
            self.position, self.readying = None, False  # no spare after this search, no readyok
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

    def set_position(self, spec: str, moves: str) -> None:
        from .engine_agent import position_game

        self.position = None  # until this one is known good (a failure is an error line: execute)
        game = position_game(spec, self.games)  # one of the handshake's games; a file it names never run else
        actions, state = game.parse_position(moves)
        refused = self.prepared.begin(game)  # in the background (an agent without compiled code: checks it here)
        if refused is not None:  # no thread to prepare it: a position all the same, each search preparing its code
            self.error(refused)
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
        limits = go_limits(self.agent, command, game, state, ply)
        start = time.monotonic()
        watchdog = None if limits.time is None else start + limits.time * (1 + GRACE_SHARE) + GRACE
        job = (game, state, ply, limits, start)
        search = self.search = _Search(None, game.format_action(actions[0]), watchdog, job)
        if self.forkable():
            self.begin_search(search)
        elif limits.time is not None:  # the time runs: searched here, the agent going without what is not ready
            thread = SearchThread(self.agent)
            thread.start(*search.job)
            search.process = thread
            self.prepared.add(thread)
        if self.search is not search:  # answered already: no process could be forked
            return
        if search.process is None:
            self.begin_wait(game, "the search starts when it is done")
        elif isinstance(search.process, SearchThread) and not self.prepared.done(game):
            self.begin_wait(game, "this search keeps its time limit, and goes without what is not ready by then")

    def forkable(self) -> bool:
        """Whether a search process may be forked for the position: its game prepared, and nothing else under way."""
        return self.position is not None and self.prepared.done(self.position[0]) and self.prepared.quiet()

    def begin_search(self, search: _Search) -> None:
        """Start ``search`` in the spare process (or one forked now; none, over a process limit: failed)."""
        made, self.spare, self.wait = self.spare or fork_search(self.agent), None, None
        if isinstance(made, str):
            self.search = None
            self.error(f"the agent failed: {made}")
            self.send(p.BestMove(search.fallback))
            return
        search.process = made
        made.start(*search.job)

    def begin_wait(self, game: Any, then: str) -> None:
        """A wait for ``game``'s preparation begins: said at once (:meth:`tick`), and every few seconds."""
        self.wait = Wait(game, then)
        self.say()

    def say(self) -> None:
        """Say what the wait waits for, when it is time to; a wait that is over is forgotten (a search's, once
        its game is prepared; a go's that waits to start, once a process may be forked)."""
        wait, search, now = self.wait, self.search, time.perf_counter()
        if wait is None:
            return
        if self.prepared.done(wait.game) and (search is None or search.process is not None or self.prepared.quiet()):
            self.wait = None
        elif wait.due(now):
            wait.said = now
            self.send(p.Info(string=one_line(self.prepared.words(wait, now))))

    def tick(self) -> bool:
        """Move the preparation on: a game done drops the spare forked before it (it holds none of its code) and
        forks a new one, a go that waited starts, an isready that waited is answered; False after ``quit``."""
        finished, errors = self.prepared.poll()
        for error in errors:
            self.error(error)
        if finished:
            self.drop_spare()
        search = self.search
        if search is not None and search.process is None and self.forkable():
            self.begin_search(search)
            if self.search is None and not self.drain():
                return False
        self.fork()
        if self.readying and (self.position is None or self.prepared.done(self.position[0])):
            self.readying, self.wait = False, None
            self.send(p.ReadyOk())
            return self.drain()
        self.say()
        return True

    def timeout(self) -> float | None:
        """How long the loop may wait for input: until the search's watchdog, the wait's next line, or the next
        look at a preparation under way."""
        now = time.monotonic()
        search = self.search
        times = [] if search is None or search.watchdog is None else [search.watchdog - now]
        if self.wait is not None:
            times.append(self.wait.next() - time.perf_counter())
        if self.prepared.busy():
            times.append(POLL)
        return max(0.0, min(times)) if times else None

    def stop(self, finished: bool = False) -> None:
        """End a running search: ``bestmove`` with the best move so far.  A search that ``finished`` leaves
        its process for the next ``go``; one cut short is killed, and a new process forked after the answer."""
        search, self.search = self.search, None
        if search is None:
            return
        self.wait, process = None, search.process
        keep = finished and self.spare is None and isinstance(process, SearchProcess)
        if process is None:
            self.send(p.Info(string="stopped before the search began, the engine still preparing: its first legal move"))
        elif not keep:  # cut short: stopped before the answer, so all it printed (on standard error) comes first
            process.freeze(FREEZE_WAIT)
        if process is not None and not search.best:  # a `stop`, or its time up, before the agent had a move
            self.send(p.Info(string="stopped before the agent had a move: its first legal move"))
        self.send(p.BestMove(search.best or search.fallback))
        if keep and isinstance(process, SearchProcess):
            self.spare = process  # its pages are its own by now: it searches fastest
            return
        if process is not None:
            process.kill()
        self.fork()  # the next go's process, forked now (after the bestmove: its time is nobody's)

    def fork(self) -> None:
        """Fork the spare search process, if there is none, a position to search and nothing under way (no
        search either: a spare forked beside one would make its process, finished, one too many to keep)."""
        if self.spare is None and self.search is None and self.forkable():
            made = fork_search(self.agent)
            self.spare = made if isinstance(made, SearchProcess) else None  # else the next go says why

    def drop_spare(self) -> None:
        if self.spare is not None:
            self.spare.kill()
            self.spare = None

    def close(self) -> None:
        """Kill the search's process and the spare, however the engine ended (``quit`` has done so; Ctrl-C or a
        broken pipe has not): a Python caller of ``main(["engine", ...])`` goes on without them."""
        import multiprocessing

        search, self.search = self.search, None
        if search is not None and search.process is not None:
            search.process.kill()
        self.drop_spare()
        for child in multiprocessing.active_children():  # one a Ctrl-C cut off mid-fork, before it had a name here
            if child.name == SEARCH_PROCESS:
                child.kill()
                child.join(5)

    def on_search(self) -> None:
        """Read what the search child sent (its pipe is readable)."""
        search = self.search
        if search is None or search.process is None:
            return
        try:
            kind, info, move = search.process.conn.recv()
        except (EOFError, OSError):
            kind, info, move = "error", None, "the search process ended without a move" + search.process.ended()
        if kind == "info":
            search.best = move or search.best
            self.send(info)
        elif kind == "error":
            self.error(f"the agent failed: {move}")
            search.best = search.best or search.fallback  # the line just said is why: no other word
            self.stop()
        else:
            self.stop(finished=True)

    def serve(self, fd: int) -> int:
        """Answer the lines read from ``fd`` until ``quit`` or its end; 0."""
        lines, ended = Lines(), False
        while True:
            if not self.tick():
                return 0
            search = self.search
            conns: list[Any] = [search.process.conn] if search is not None and search.process is not None else []
            ready, _, _ = select.select(([] if ended else [fd]) + conns, [], [], self.timeout())
            if search is not None and search is self.search:
                if conns and conns[0] in ready:
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
            for line, error in lines.feed(chunk):
                if error is not None:
                    self.error(error)
                elif line is not None and not self.handle(line):
                    return 0

def _run(args: argparse.Namespace) -> int:
    from .engine_agent import left_threads, load_agent

    # the channel taken first (the agent's import may close or change descriptors 0-2); the agent's threads
    # never hold the program's end.  A bad spec, a failed load, a --game it cannot play: one error line, exit 2
    with protocol_channel() as channel, left_threads():
        agent, games = load_agent(args.agent, args.games or [])
        guard()  # what the import closed is /dev/null now, and its prints go to standard error
        engine = Engine(agent, games, channel.write, args.name or "")
        try:
            return engine.serve(channel.input)
        except BrokenPipeError:
            return 0
        finally:  # main(argv) is a Python call too: no child left searching
            engine.close()


COMMANDS = {"engine": (_add, _run)}
