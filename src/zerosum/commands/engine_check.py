"""``zerosum engine-check COMMAND...``: what an external engine gets right and wrong (docs/protocol.md).

It starts the program in a process group of its own, talks the protocol to it with a deadline on every
answer, and prints one line a check: the handshake; ``readyok``; a legal ``bestmove`` on every test position
of each zerosum game it plays (:func:`test_positions`: the start, positions from seeded random games, the
last positions before their ends); ``bestmove (none)`` on finished games; ``stop`` answered within
``--stop-limit`` ms; well-formed ``info`` lines with legal principal variations; an unknown command ignored;
bad input (an illegal move, an unknown game, a malformed ``go``) answered with ``info string error`` and the
engine still answering; ``go`` without a position answered ``bestmove (none)``; ``quit``; and nothing on
standard output but protocol lines.  Exit status 0 only when every check passes, 1 otherwise.  The whole
process group is killed at the end.  From Python: :func:`check_engine`.
"""

from __future__ import annotations

import argparse
import shlex
import time
from typing import Any, Callable

from ..external import protocol as p
from .options import float_arg, int_arg

__all__ = ["COMMANDS", "test_positions", "check_engine", "TEST_GAMES"]

#: the games tested for a bare game name in the handshake (every board fits a 64-bit bitboard)
TEST_GAMES = {"connectx": ("connect4", "connectx:rows=4,cols=5,k=3", "connectx:rows=7,cols=6,k=4"),
              "tictactoe": ("tictactoe",), "migration": ("migration:n=5",), "othello": ("othello:n=6",)}
#: the random games each test set is drawn from (seeds 1..GAMES_PER_SPEC)
GAMES_PER_SPEC = 2


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("program", nargs=argparse.REMAINDER, metavar="COMMAND...",  # "command": the CLI's own
                        help="the engine's command line, after the options (one quoted string is split as a "
                             "shell would; a leading -- is dropped)")
    parser.add_argument("--movetime", type=int_arg(1, 60_000), default=100, metavar="MS",
                        help="the movetime of each test position, 1..60000 ms (default 100)")
    parser.add_argument("--timeout", type=float_arg(above=0, hi=600), default=10.0, metavar="SECONDS",
                        help="how long any answer may take beyond its movetime, above 0 and at most 600 (default 10)")
    parser.add_argument("--stop-limit", type=int_arg(1, 60_000), default=100, metavar="MS",
                        help="how soon bestmove must follow stop, 1..60000 ms (default 100, the protocol's)")
    parser.add_argument("--game", action="append", metavar="SPEC", dest="games",
                        help="test only this game (repeatable; default: every zerosum game the engine names)")


def test_positions(game: Any) -> list[tuple[str, Any, bool]]:
    """The fixed test positions of ``game``: ``(move string, state, finished)``, from the start and from
    seeded random games (early, middle, the last two positions before the end, and the end itself)."""
    import random

    out: list[tuple[str, Any, bool]] = [("", game.initial_state, False)]
    for seed in range(1, GAMES_PER_SPEC + 1):
        rng, actions, states = random.Random(seed), list[Any](), [game.initial_state]
        while not game.is_terminal(states[-1]):
            actions.append(rng.choice(game.actions(states[-1])))
            states.append(game.result(states[-1], actions[-1]))
        n = len(actions)
        for ply in sorted({n // 4, n // 2, max(0, n - 2), max(0, n - 1), n}):
            out.append((game.format_moves(actions[:ply]), states[ply], ply == n))
    return out


class _Engine:
    """The program under test, run as the arena runs engines (:class:`zerosum.external.process.EngineProcess`:
    a session and process group of its own under a reaper, bounded lines, killed whole); each read has a
    deadline, and a line can be put back to be read again."""

    def __init__(self, argv: list[str]) -> None:
        from ..external.process import EngineProcess

        self.proc = EngineProcess(argv, label="under test")  # AgentError: one line, when it cannot start
        self.back: list[tuple[float, str]] = []  # lines read and put back, read again first
        self.gone = ""  # why its output ended (a crash), once it has

    def send(self, line: str) -> bool:
        from ..external.process import EngineFault

        try:
            self.proc.send(line)
            return True
        except EngineFault as fault:
            self.gone = fault.reason
            return False

    def read(self, seconds: float) -> tuple[float, str] | None:
        """The next line and when it came, or None when none came in time or the output ended.  A line
        that is no text or too long comes as ``"\x00"`` and the reason: garbage."""
        from ..external.process import GARBAGE, EngineFault

        if self.back:
            return self.back.pop()
        if self.gone:
            return None
        try:
            line = self.proc.read_line(time.monotonic() + max(0.0, seconds), p.MAX_LINE)
        except EngineFault as fault:
            if fault.kind == GARBAGE:
                return time.monotonic(), "\x00" + fault.reason
            self.gone = fault.reason
            return None
        return None if line is None else (time.monotonic(), line)

    def exited(self) -> str:
        return self.gone


class _Failed(Exception):
    """A check that failed: the message says why."""


_GONE = "the engine is gone"  # why the checks after a crash are not run


class _Checker:
    def __init__(self, engine: _Engine, args: argparse.Namespace) -> None:
        self.engine, self.args = engine, args
        self.results: list[tuple[str, bool, str]] = []
        self.infos = self.bad_infos = 0
        self.first_bad_info = self.garbage = ""
        self.position: tuple[Any, Any] | None = None  # game, state of the position last sent, for pvs
        self.games: list[str] = []  # the handshake's game lines

    def wait_for(self, want: Callable[[Any], bool], seconds: float, what: str) -> tuple[float, Any, list[Any]]:
        """Read replies until one satisfies ``want``: (when, that reply, the replies before it)."""
        deadline, before = time.monotonic() + seconds, list[Any]()
        while True:
            got = self.engine.read(deadline - time.monotonic())
            if got is None:
                raise _Failed(self.engine.exited() or f"no {what} within {seconds:g} s")
            when, line = got
            try:
                reply = p.parse_reply(line) if not line.startswith("\x00") else None
            except p.ProtocolError as exc:
                reply = None
                if line.split()[:1] == ["info"]:
                    self.bad_infos += 1
                    self.first_bad_info = self.first_bad_info or str(exc)
                    continue
            if reply is None or isinstance(reply, p.Unknown):
                self.garbage = self.garbage or line.lstrip("\x00")
                continue
            if isinstance(reply, p.Info):
                self.note_info(reply)
            if want(reply):
                return when, reply, before
            before.append(reply)

    def note_info(self, info: Any) -> None:
        self.infos += 1
        if info.pv is None or self.position is None:
            return
        game, state = self.position
        try:
            for token in game.move_tokens(info.pv):
                state = game.result(state, game.parse_action(token, state))
        except Exception as exc:  # noqa: BLE001 - any refusal of the rules is the engine's fault
            self.bad_infos += 1
            self.first_bad_info = self.first_bad_info or f"pv {info.pv!r} is not legal from the position: {exc}"

    def bestmove(self, seconds: float | None = None) -> tuple[float, Any]:
        """The next ``bestmove`` and when it came (``seconds``: by default a move's time and the timeout)."""
        wait = self.args.movetime / 1000 + self.args.timeout if seconds is None else seconds
        return self.wait_for(lambda r: isinstance(r, p.BestMove), wait, "bestmove")[:2]

    def synced(self, what: str) -> list[Any]:
        """``isready`` and the replies before its ``readyok``."""
        if not self.engine.send("isready"):
            raise _Failed(self.engine.exited() or f"{what}: could not write to the engine")
        return self.wait_for(lambda r: isinstance(r, p.ReadyOk), self.args.timeout, f"readyok after {what}")[2]


def _handshake(c: _Checker) -> str:
    if not c.engine.send("zsp 1"):
        raise _Failed(c.engine.exited() or "could not write to the engine")
    _, _, before = c.wait_for(lambda r: isinstance(r, p.HelloDone), c.args.timeout, "zspok after zsp 1")
    ids = {r.key: r.value for r in before if isinstance(r, p.Id)}
    c.games = [r.spec for r in before if isinstance(r, p.GameSpec)]
    options = sum(isinstance(r, p.OptionSpec) for r in before)
    missing = [f"id {key}" for key in ("name", "author") if key not in ids] + ([] if c.games else ["a game line"])
    if missing:
        raise _Failed(f"no {' and no '.join(missing)} before zspok")
    return f"{ids['name']!r} by {ids['author']!r}, {len(c.games)} game(s), {options} option(s)"


def _specs(c: _Checker) -> list[Any]:
    """The zerosum games to test: each game line's (a bare name: :data:`TEST_GAMES`), or ``--game``'s."""
    from ..errors import GameError
    from ..games import get_game

    named = []
    for spec in c.args.games or c.games:
        for one in (TEST_GAMES.get(spec, (spec,)) if not c.args.games else (spec,)):
            try:
                named.append(get_game(one))
            except GameError:  # not a zerosum game: not tested
                pass
    return list({g.spec: g for g in named}.values())


def _legal_moves(c: _Checker) -> str:
    games = _specs(c)
    if not games:
        raise _Failed(f"none of its games is a zerosum game ({', '.join(c.games)})")
    count, slowest = 0, 0.0
    for game in games:
        c.engine.send("newgame")
        for moves, state, finished in test_positions(game):
            if finished:
                continue
            c.position = (game, state)
            c.engine.send(f"position {game.spec}" + (f" moves {moves}" if moves else ""))
            sent = time.monotonic()
            c.engine.send(f"go movetime {c.args.movetime}")
            when, best = c.bestmove()
            slowest = max(slowest, when - sent)
            label = f"{game.spec} after {moves!r}" if moves else f"{game.spec} at the start"
            if best.move is None:
                raise _Failed(f"{label}: bestmove {p.NO_MOVE} where {len(game.actions(state))} moves are legal")
            try:
                game.result(state, game.parse_action(best.move, state))
            except Exception as exc:  # noqa: BLE001 - the rules' refusal, whatever it is
                raise _Failed(f"{label}: bestmove {best.move} is illegal: {exc}") from None
            count += 1
    return f"{count} positions of {', '.join(g.spec for g in games)} (slowest {slowest * 1000:.0f} ms)"


def _finished(c: _Checker) -> str:
    count = 0
    for game in _specs(c):
        for moves, state, finished in test_positions(game):
            if finished:
                c.position = (game, state)
                c.engine.send(f"position {game.spec} moves {moves}")
                c.engine.send(f"go movetime {c.args.movetime}")
                _, best = c.bestmove()
                if best != p.BestMove(None):
                    raise _Failed(f"{game.spec} after {moves!r} is over, yet bestmove {best.move}")
                count += 1
    return f"bestmove (none) on {count} finished games"


def _stop(c: _Checker) -> str:
    game = _specs(c)[0]
    c.position = (game, game.initial_state)
    c.engine.send(f"position {game.spec}")
    c.synced("position")
    c.engine.send("go movetime 600000 depth 1000")
    early = c.engine.read(0.3)  # let the search start; a bestmove now ended it before the stop
    if early is not None and early[1].startswith("bestmove"):
        return f"not measured: the search ended before stop ({early[1]})"
    if early is not None:
        c.engine.back.append(early)  # read again below
    sent = time.monotonic()
    c.engine.send("stop")
    limit = c.args.stop_limit / 1000
    try:
        when, best = c.bestmove(max(limit, min(c.args.timeout, 5.0)))
    except _Failed as exc:
        raise _Failed(f"stop ignored: {exc}") from None
    took = (when - sent) * 1000
    if when - sent > limit:
        raise _Failed(f"bestmove came {took:.0f} ms after stop (limit {c.args.stop_limit} ms)")
    try:
        game.result(game.initial_state, game.parse_action(best.move or "(none)", game.initial_state))
    except Exception:  # noqa: BLE001 - the rules' refusal, whatever it is
        raise _Failed(f"bestmove {best.move} after stop is not a legal move") from None
    return f"bestmove {took:.0f} ms after stop (limit {c.args.stop_limit} ms)"


def _bad_input(c: _Checker) -> str:
    game = _specs(c)[0]
    problems = []
    for label, line in (("an illegal move", f"position {game.spec} moves " + _illegal(game)),
                        ("an unknown game", "position nosuchgame:size=3"), ("a malformed go", "go movetime banana")):
        c.engine.send(line)
        before = c.synced(label)
        if not any(isinstance(r, p.Info) and (r.string or "").startswith("error") for r in before):
            problems.append(label)
    if problems:
        raise _Failed(f"no 'info string error ...' line for {', '.join(problems)}")
    return "an illegal move, an unknown game, a malformed go: each an error line, still answering"


def _illegal(game: Any) -> str:
    """A move string whose last move the rules refuse (a full column, a taken cell, or no such move)."""
    state, actions = game.initial_state, []
    while game.actions(state):  # the first move each time, until a move of the start is refused
        actions.append(game.actions(state)[0])
        state = game.result(state, actions[-1])
        refused = [a for a in game.actions(game.initial_state) if a not in game.actions(state)]
        if refused:
            return str(game.format_moves(actions + refused[:1]))
    return "zz"


def _no_position(c: _Checker) -> str:
    c.engine.send(f"position nosuchgame:size=3\ngo movetime {c.args.movetime}")  # no valid position now
    _, best = c.bestmove()
    if best != p.BestMove(None):
        raise _Failed(f"go without a valid position answered bestmove {best.move}, not (none)")
    return "bestmove (none)"


def _quit(c: _Checker) -> str:
    sent = time.monotonic()
    c.engine.send("quit")
    code = c.engine.proc.exit_code(c.args.timeout)
    if code is None:
        raise _Failed(f"still running {c.args.timeout:g} s after quit")
    if code != 0:
        raise _Failed(f"exited with status {code}")
    return f"exited with status 0 in {(time.monotonic() - sent) * 1000:.0f} ms"


def check_engine(argv: list[str], *, movetime: int = 100, timeout: float = 10.0, stop_limit: int = 100,
                 games: list[str] | None = None) -> list[tuple[str, bool, str]]:
    """Run every check on the engine started by ``argv`` (the command's options as keywords):
    ``(check, passed, detail)`` a check, in the order printed."""
    engine = _Engine(argv)
    c = _Checker(engine, argparse.Namespace(movetime=movetime, timeout=timeout, stop_limit=stop_limit, games=games))
    try:
        steps = [("handshake", _handshake), ("readyok", lambda c: f"{len(c.synced('isready'))} lines before it"),
                 ("legal moves", _legal_moves), ("finished games", _finished), ("stop", _stop),
                 ("unknown command", lambda c: (c.engine.send("xyzzy-not-a-command 1 2 3"),
                                                c.synced("an unknown command"), "ignored")[2]), ("bad input", _bad_input), ("go without position", _no_position),
                 ("quit", _quit)]
        skip = ""  # why the checks left are not run: the engine is gone (quit neither), or never said hello
        for name, step in steps:
            if skip and (name != "quit" or skip == _GONE):
                c.results.append((name, False, f"not run: {skip}"))
                continue
            try:
                c.results.append((name, True, step(c)))
            except _Failed as exc:
                c.results.append((name, False, str(exc)))
                skip = _GONE if engine.exited() else "no handshake" if name == "handshake" else ""
        if engine.proc.alive():  # what it printed before quit
            while engine.read(0.05) is not None:
                pass
        c.results.append(("info lines", c.bad_infos == 0,
                          f"{c.infos} well formed" if c.bad_infos == 0 else f"{c.bad_infos} bad: {c.first_bad_info}"))
        c.results.append(("only protocol lines", not c.garbage,
                          "nothing else on standard output" if not c.garbage else f"garbage: {c.garbage[:80]!r}"))
    finally:
        engine.proc.kill()
    return c.results


def _run(args: argparse.Namespace) -> int:
    from ..errors import AgentError, UsageError
    from ..games import get_game

    argv = list(args.program)[1 if args.program[:1] == ["--"] else 0:]  # options come before COMMAND
    if len(argv) == 1 and " " in argv[0].strip():
        argv = shlex.split(argv[0])
    if not argv:
        raise UsageError("name the engine's command, as: zerosum engine-check ./my-engine")
    for spec in args.games or []:
        get_game(spec)  # a game that is none of zerosum's: one error line
    try:
        results = check_engine(argv, movetime=args.movetime, timeout=args.timeout, stop_limit=args.stop_limit,
                               games=args.games)
    except AgentError as exc:  # the program cannot start
        raise UsageError(str(exc)) from None
    print(f"engine-check: {shlex.join(argv)[:200]}")
    for name, passed, detail in results:
        print(f"  {'ok  ' if passed else 'FAIL'}  {name}: {detail}")
    failed = sum(1 for _, passed, _ in results if not passed)
    print(f"{len(results) - failed} of {len(results)} checks pass" + (f"; {failed} fail" if failed else ""))
    return 0 if failed == 0 else 1


COMMANDS = {"engine-check": (_add, _run)}
