"""``zerosum engine-check COMMAND...``: what an external engine gets right and wrong (docs/protocol.md).

It starts the program in a process group of its own, talks the protocol to it with a deadline on every answer, and
prints one line a check: the handshake; ``readyok``; a legal ``bestmove`` on every test position of each zerosum
game it plays (:func:`test_positions`: the start, positions from seeded random games, the last positions before
their ends), each within the arena's deadline for a move at ``--time`` of the ``movetime`` (100 ms: 350 ms; the
arena forfeits a move past it); ``bestmove (none)`` on finished games; ``stop`` answered within ``--stop-limit`` ms
(measured only on a search still running when ``stop`` is sent); well-formed ``info`` lines with legal principal
variations; an unknown command ignored; bad input (an illegal move, an unknown game, a malformed ``go`` after a
valid position) answered with ``info string error`` and the engine still answering; ``go`` without a position
answered ``bestmove (none)``; ``quit`` (exit status 0, within a second); and nothing on standard output but protocol
lines.  Every ``go`` gets exactly one ``bestmove`` (an ``isready`` round trip after each finds a second one), and
its output is held to the arena's bounds on one move's (a flood fails the check, as the arena forfeits the game).
``info lines`` and ``only protocol lines`` pass only when every check ran and one after the handshake was answered
(never on an engine gone, never greeted, or answering nothing).  Each check's line is printed (flushed) as the check
ends.  A check that leaves the engine not answering (no answer in time: a hang, a flood without end), gone (a crash:
it exited, or closed its output) or writing a line the arena does not take (every line is read as the arena reads
it: :mod:`.engine_probe`; the arena's reason, and whether it refuses the engine or forfeits the game) fails, and the
engine is killed and started again for the checks after it, as engine testers restart an engine (cutechess,
fastchess): they judge what the engine does, not the hang or the crash before them; a crash in the handshake or at
``quit`` ends the checks.  Exit status 0 when no check fails (a check not measured is said so, and is no pass), 1
otherwise.  The whole process group is killed at the end.  From Python: :func:`check_engine`.
"""

from __future__ import annotations

import argparse
import shlex
import time
from typing import Any, Callable

from ..errors import AgentError
from ..external import protocol as p
from .engine_probe import EXITED, FORFEITS, GONE, REFUSES, Checker, Failed, Forfeited, NotMeasured, Probe
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


def _handshake(c: Checker) -> str:
    if not c.engine.send("zsp 1"):
        raise Failed(c.engine.exited() or "could not write to the engine")
    _, _, before = c.wait_for(lambda r: isinstance(r, p.HelloDone), c.args.timeout, "zspok after zsp 1")
    ids = {r.key: r.value for r in before if isinstance(r, p.Id)}
    c.games = [r.spec for r in before if isinstance(r, p.GameSpec)]
    options = sum(isinstance(r, p.OptionSpec) for r in before)
    missing = [f"no id {key} line" for key in ("name", "author") if key not in ids] + ["no game line"] * (not c.games)
    if missing:
        raise Failed(f"{', '.join(missing[:-1])}{' and ' if len(missing) > 1 else ''}{missing[-1]} before zspok")
    return f"{ids['name']!r} by {ids['author']!r}, {len(c.games)} game(s), {options} option(s)"


def _specs(c: Checker) -> list[Any]:
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


def _games(c: Checker, why: str = "not run: ") -> list[Any]:
    """:func:`_specs`, or a failure when none of the engine's games is a zerosum game (nothing to test on)."""
    games = _specs(c)
    if not games:
        raise Failed(f"{why}none of its games is a zerosum game ({', '.join(c.games)})")
    return games


def _legal_moves(c: Checker) -> str:
    from ..arena.match import DEADLINE_RULE, default_deadline
    from ..external.session import PREPARE

    games = _games(c, "")
    count, slowest = 0, 0.0
    allowed = default_deadline(c.args.movetime / 1000)  # the arena's deadline of a move at --time movetime
    for game in games:
        c.engine.send("newgame")  # as the arena begins a game: the engine prepares now, before any move is timed
        c.engine.send(f"position {game.spec}")
        c.synced(f"newgame and position {game.spec}", max(PREPARE, c.args.timeout))  # as long as the arena waits
        for moves, state, finished in test_positions(game):
            if finished:
                continue
            c.position = (game, state)
            sent = time.monotonic()  # as the arena times a move: from its position, with an isready before go
            c.engine.send(f"position {game.spec}" + (f" moves {moves}" if moves else ""))
            c.synced("position")
            c.go(f"go movetime {c.args.movetime}")
            label = f"{game.spec} after {moves!r}" if moves else f"{game.spec} at the start"
            when, best = c.bestmove(label)
            if when - sent > allowed:  # the arena would forfeit it
                raise Failed(f"{label}: bestmove {(when - sent) * 1000:.0f} ms after 'go movetime {c.args.movetime}', "
                             f"past the arena's deadline for --time {c.args.movetime / 1000:g}, {allowed * 1000:.0f} ms "
                             f"({DEADLINE_RULE.split(', else')[0]}): the arena forfeits such a move")
            slowest = max(slowest, when - sent)
            if best.move is None:
                raise Failed(f"{label}: bestmove {p.NO_MOVE} where {len(game.actions(state))} moves are legal")
            try:
                game.result(state, game.parse_action(best.move, state))
            except Exception as exc:  # noqa: BLE001 - the rules' refusal, whatever it is
                raise Failed(f"{label}: bestmove {best.move} is illegal: {exc}") from None
            count += 1
    return (f"{count} positions of {', '.join(g.spec for g in games)} (slowest {slowest * 1000:.0f} ms, the arena's "
            f"deadline {allowed * 1000:.0f} ms)")


def _finished(c: Checker) -> str:
    count = 0
    for game in _games(c):
        for moves, state in [(moves, state) for moves, state, finished in test_positions(game) if finished]:
            c.position = (game, state)
            c.engine.send(f"position {game.spec} moves {moves}")
            c.go(f"go movetime {c.args.movetime}")
            _, best = c.bestmove(f"{game.spec} after {moves!r}")
            if best != p.BestMove(None):
                raise Failed(f"{game.spec} after {moves!r} is over, yet {best.line()}")
            count += 1
    return f"bestmove (none) on {count} finished games"


#: the stop check's search: longer than any engine's own limits, so only stop ends it
LONG_GO = "go movetime 600000 depth 1000"
#: seconds the stop check's search runs before stop is sent
STOP_AFTER = 0.3


def _stop(c: Checker) -> str:
    game = _games(c)[0]
    c.position = (game, game.initial_state)
    c.engine.send(f"position {game.spec}")
    c.synced("position")
    went = time.monotonic()
    c.go(LONG_GO)
    try:  # the search must still run when stop comes: a bestmove now ended it by itself
        when, best, _ = c.wait_for(lambda r: isinstance(r, p.BestMove), STOP_AFTER, "bestmove")
    except Failed as exc:
        if isinstance(exc, Forfeited) or c.engine.exited():
            raise
        c.lost = ""  # no answer was wanted yet
    else:
        c.single(best, "the search before stop")
        raise NotMeasured(f"{best.line()} came {(when - went) * 1000:.0f} ms after {LONG_GO!r}, before stop was "
                           "sent: its search ended by itself, so stop was not tested")
    sent = time.monotonic()
    c.engine.send("stop")
    limit = c.args.stop_limit / 1000
    try:
        when, best, _ = c.wait_for(lambda r: isinstance(r, p.BestMove), max(limit, min(c.args.timeout, 5.0)),
                                   "bestmove")
    except Failed as exc:
        failure = c.flood(exc)
        raise (failure if isinstance(failure, Forfeited) else Failed(f"stop ignored: {exc}")) from None
    c.single(best, "after stop")
    took = (when - sent) * 1000
    if when - sent > limit:
        raise Failed(f"bestmove came {took:.0f} ms after stop (limit {c.args.stop_limit} ms)")
    try:
        game.result(game.initial_state, game.parse_action(best.move or p.NO_MOVE, game.initial_state))
    except Exception:  # noqa: BLE001 - the rules' refusal, whatever it is
        raise Failed(f"{best.line()} after stop is not a legal move") from None
    return f"bestmove {took:.0f} ms after stop (limit {c.args.stop_limit} ms)"


#: the bad input's malformed go: a known field with a value that is no number (an unknown field is no error:
#: docs/protocol.md, a limit an engine does not understand does not make it refuse the go)
BAD_GO = "go movetime banana"


def _bad_input(c: Checker) -> str:
    game = _games(c)[0]
    problems = []
    for label, line in (("an illegal move", f"position {game.spec} moves " + _illegal(game)),
                        ("an unknown game", "position nosuchgame:size=3"),
                        ("a valid position", f"position {game.spec}"),
                        (f"a malformed go ({BAD_GO!r} after a valid position)", BAD_GO)):
        c.engine.send(line)
        said = any(isinstance(r, p.Info) and (r.string or "").startswith("error") for r in c.synced(label))
        if said == (label == "a valid position"):  # an error line is wanted for each but the valid position
            problems.append(label)
        if line == BAD_GO:  # a search it started anyway (it should not) ends here, before the next check
            c.engine.send("stop")
            c.synced("stop")
    if "a valid position" in problems:
        raise Failed(f"an 'info string error ...' line for a valid position (position {game.spec}): the malformed "
                     "go after it was not tested")
    if problems:
        raise Failed(f"no 'info string error ...' line for {', '.join(problems)}")
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


def _no_position(c: Checker) -> str:
    c.engine.send("position nosuchgame:size=3")  # no valid position now
    c.go(f"go movetime {c.args.movetime}")
    _, best = c.bestmove("go without a valid position")
    if best != p.BestMove(None):
        raise Failed(f"go without a valid position answered {best.line()}, not {p.BestMove(None).line()}")
    return "bestmove (none)"


#: seconds an engine has to end on quit (docs/protocol.md: promptly, within a second), and a loaded machine's margin
QUIT_WITHIN, QUIT_MARGIN = 1.0, 0.5


def _quit(c: Checker) -> str:
    sent = time.monotonic()
    c.engine.send("quit")
    code = c.engine.proc.exit_code(c.args.timeout)
    took = time.monotonic() - sent
    if code != 0:
        raise Failed(f"still running {c.args.timeout:g} s after quit" if code is None else f"exited with status {code}")
    if took > QUIT_WITHIN + QUIT_MARGIN:
        raise Failed(f"exited {took * 1000:.0f} ms after quit: an engine ends on quit promptly, within a second "
                     f"(docs/protocol.md; {(QUIT_WITHIN + QUIT_MARGIN) * 1000:.0f} ms allowed for a loaded machine)")
    return f"exited with status 0 in {took * 1000:.0f} ms"


def check_engine(argv: list[str], *, movetime: int = 100, timeout: float = 10.0, stop_limit: int = 100,
                 games: list[str] | None = None,
                 report: Callable[[str, bool | None, str], None] | None = None) -> list[tuple[str, bool | None, str]]:
    """Run every check on the engine started by ``argv`` (the command's options as keywords):
    ``(check, passed, detail)`` a check, in the order printed, each also handed to ``report`` as soon as it is
    known; ``passed`` is None for a check that could not be measured (stop, on an engine whose search ended before
    it).  An engine a check left not answering or gone is started again for the next (the module's doc).
    UsageError (one line) when ``games`` names a game the engine's handshake does not list."""
    c = Checker(Probe(argv), argparse.Namespace(movetime=movetime, timeout=timeout, stop_limit=stop_limit,
                                                games=games), report)
    try:
        steps = [("handshake", _handshake), ("readyok", lambda c: f"{len(c.synced('isready'))} lines before it"),
                 ("legal moves", _legal_moves), ("finished games", _finished), ("stop", _stop),
                 ("unknown command", lambda c: (c.engine.send("xyzzy-not-a-command 1 2 3"),
                                                c.synced("an unknown command"), "ignored")[2]),
                 ("bad input", _bad_input), ("go without position", _no_position), ("quit", _quit)]
        skip, ends = "", False  # why the checks left are not run; whether quit is not either (the engine is gone)
        for number, (name, step) in enumerate(steps, 1):
            if c.lost and not skip:  # the check before left the engine not answering, or gone
                skip = _restart(c, argv, f"check {number - 1} ({steps[number - 2][0]})")
                ends = bool(skip)
            if skip and (name != "quit" or ends):
                c.record(name, False, f"not run: {skip}")
                continue
            c.lost, c.stake = "", REFUSES if name in ("handshake", "readyok") else FORFEITS  # as the arena reads them
            try:
                passed, detail = True, step(c)
            except NotMeasured as exc:
                passed, detail = None, f"not measured: {exc}"
            except Failed as exc:
                passed, detail = False, str(exc)
                if c.engine.exited() and name in ("handshake", "quit"):
                    skip, ends = GONE, True
                elif c.engine.exited():  # a crash: started again for the checks after it, as after a hang
                    c.lost = EXITED
                    detail += "; the engine is started again for the checks after this one"
                elif name == "handshake":
                    skip = "no handshake"
                elif c.lost and number < len(steps):
                    detail += "; the engine is killed and started again for the checks after this one"
            if name == "handshake" and not skip:
                _refuse_unplayed(c)
            c.record(name, passed, detail)
        drained = time.monotonic() + 0.5
        while c.engine.proc.alive() and time.monotonic() < drained:  # what it printed before quit
            try:
                if c.engine.read(0.05) is None:
                    break
            except AgentError:  # garbage: nothing more to read
                break
        # what watched every line passes only when every check ran: never on an engine gone or never greeted, nor
        # on one started again for each check that answered none of them (it said nothing to judge)
        answered = any(passed is not False for name, passed, _ in c.results if name not in ("handshake", "quit"))
        if not answered and not skip:
            skip = "the engine answered no check after its handshake"
        cut = f"not run: {skip}" + (f" ({c.infos} well formed before)" if c.infos else "")
        c.record("info lines", not c.bad_infos and not skip,
                f"{c.bad_infos} bad: {c.first_bad_info}" if c.bad_infos else cut if skip else f"{c.infos} well formed")
        c.record("only protocol lines", not c.garbage and not skip,
                c.garbage or (f"not run: {skip}" if skip else "nothing else on standard output"))
    finally:
        c.engine.proc.kill()
    return c.results


def _restart(c: Checker, argv: list[str], where: str) -> str:
    """The engine killed (gone already after a crash) and started again, its handshake read: '', or why the
    checks left cannot run."""
    what = "exited" if c.lost == EXITED else "stopped answering"
    c.engine.proc.kill()
    c.lost, c.move, c.flooded, stake, c.stake = "", None, "", c.stake, REFUSES
    try:
        c.engine = Probe(argv)
        _handshake(c)
    except (AgentError, Failed) as exc:
        return f"the engine {what} at {where}, and started again it failed: {exc}"
    finally:
        c.stake = stake
    return ""


def _refuse_unplayed(c: Checker) -> None:
    """UsageError unless the engine's handshake lists every game of ``--game``."""
    from ..errors import UsageError
    from ..external.agent import plays
    from ..games import get_game

    for spec in c.args.games or []:
        if not any(plays(listed, get_game(spec)) for listed in c.games):
            raise UsageError(f"the engine does not play {spec} (its games: {', '.join(c.games)})")


def _run(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..games import get_game

    argv = list(args.program)[1 if args.program[:1] == ["--"] else 0:]  # options come before COMMAND
    if len(argv) == 1 and " " in argv[0].strip():
        argv = shlex.split(argv[0])
    if not argv:
        raise UsageError("name the engine's command, as: zerosum engine-check ./my-engine")
    for spec in args.games or []:
        get_game(spec)  # a game that is none of zerosum's: one error line

    def report(name: str, passed: bool | None, detail: str) -> None:  # each line as its check ends
        if not printed:  # the heading, once the program has started and said which games it plays
            print(f"engine-check: {shlex.join(argv)[:200]}")
        printed.append(name)
        print(f"  {_MARKS[passed]}  {name}: {detail}", flush=True)

    printed: list[str] = []
    try:
        results = check_engine(argv, movetime=args.movetime, timeout=args.timeout, stop_limit=args.stop_limit,
                               games=args.games, report=report)
    except AgentError as exc:  # the program cannot start
        raise UsageError(str(exc)) from None
    failed = sum(1 for _, passed, _ in results if passed is False)
    unmeasured = sum(1 for _, passed, _ in results if passed is None)
    print(f"{sum(1 for _, passed, _ in results if passed)} of {len(results)} checks pass"
          + (f"; {failed} fail" if failed else "") + (f"; {unmeasured} not measured" if unmeasured else ""))
    return 0 if failed == 0 else 1


#: how a check's outcome is printed: passed, failed, not measured
_MARKS = {True: "ok  ", False: "FAIL", None: "skip"}


COMMANDS = {"engine-check": (_add, _run)}
