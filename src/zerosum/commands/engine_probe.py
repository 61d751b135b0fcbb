"""The conversation behind ``zerosum engine-check`` (:mod:`.engine_check`): the program under test and the
reading of its replies.

:class:`Probe` runs the program as the arena runs engines (:class:`~zerosum.external.process.EngineProcess`);
:class:`Checker` reads its replies under deadlines, keeping what the checks of every line need (``info`` lines
well formed, their ``pv`` legal, nothing on standard output but protocol lines), and answers the checks'
questions: the next ``bestmove`` (then an ``isready`` round trip: a second ``bestmove`` for the same ``go``
fails), the replies before a ``readyok``.  A check raises :class:`Failed` or :class:`NotMeasured`.

Each ``go`` sent through :meth:`Checker.go` is held to the arena's bounds on one move's output
(:data:`~zerosum.external.session.MAX_LINES` lines, :data:`~zerosum.external.session.MAX_OUTPUT` bytes): a move
over them is :class:`Forfeited` (the arena forfeits it, ``garbage output: ...``), once its ``bestmove`` has been
read, so that the checks after it read the answers to their own commands.  Every line is read as the arena's
session reads it (:func:`zerosum.external.session.read_reply`), so a line the arena forfeits the game for at once
(one longer than :data:`~zerosum.external.protocol.MAX_LINE` bytes, not UTF-8, holding a control character, a
known reply that is malformed, an ``info`` whose exact score no game from the position reaches) fails the check
reading it at once, :class:`Forfeited`, with the arena's own reason and what the arena does (:attr:`Checker.stake`:
in the handshake and its first ``isready`` it refuses the engine before any game).  Either that or a wait without
its answer leaves :attr:`Checker.lost` said: the engine is no longer trusted to answer the next check
(:func:`~.engine_check.check_engine` starts it again).
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from ..external import protocol as p

__all__ = ["Probe", "Checker", "Failed", "Forfeited", "NotMeasured", "GONE", "EXITED", "FORFEITS", "REFUSES"]


class Probe:
    """The program under test, run as the arena runs engines (:class:`zerosum.external.process.EngineProcess`:
    a session and process group of its own under a reaper, bounded lines, killed whole); each read has a
    deadline."""

    def __init__(self, argv: list[str]) -> None:
        from ..external.process import EngineProcess

        self.proc = EngineProcess(argv, label="under test")  # AgentError: one line, when it cannot start
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
        that is no text or too long raises the arena's garbage fault (an EngineFault: its reason the arena's)."""
        from ..external.process import GARBAGE, EngineFault

        if self.gone:
            return None
        try:
            line = self.proc.read_line(time.monotonic() + max(0.0, seconds), p.MAX_LINE)
        except EngineFault as fault:
            if fault.kind == GARBAGE:
                raise
            self.gone = fault.reason
            return None
        return None if line is None else (time.monotonic(), line)

    def exited(self) -> str:
        return self.gone


class Failed(Exception):
    """A check that failed: the message says why."""


class Forfeited(Failed):
    """Output the arena would not take: a move's too many lines or bytes, or a line it forfeits the game for at
    once (too long, not text, a control character, a malformed known reply, an impossible exact score)."""


class NotMeasured(Exception):
    """A check that could not be measured (neither passed nor failed): the message says why."""


GONE = "the engine is gone"  # why the checks after a crash are not run
EXITED = "the engine exited"  # :attr:`Checker.lost` after a check that ended with the engine's exit (a crash)
#: what the arena does with a line it does not take (:attr:`Checker.stake`): within a game; before any game (in the
#: handshake and the first isready, which the arena's check of an engine reads)
FORFEITS = "the arena forfeits the game"
REFUSES = "the arena refuses the engine before any game"


class Checker:
    """The checks' shared state: the program, the options, the results so far, what every line read said."""

    def __init__(self, engine: Probe, args: argparse.Namespace,
                 report: Callable[[str, bool | None, str], None] | None = None) -> None:
        self.engine, self.args, self.report = engine, args, report
        self.results: list[tuple[str, bool | None, str]] = []
        self.infos = self.bad_infos = 0
        self.first_bad_info = ""
        self.garbage = ""  # the first output that is no protocol line: the line quoted, or the arena's reason
        self.lost = ""  # why the engine no longer answers as it should (a wait in vain, garbage the arena forfeits,
        # its exit: EXITED)
        self.position: tuple[Any, Any] | None = None  # game, state of the position last sent, for pvs
        self.games: list[str] = []  # the handshake's game lines
        self.move: list[int] | None = None  # the move under way (a go sent): [lines read, read_bytes at its go]
        self.flooded = ""  # why the move under way broke the arena's bounds, once it has
        self.stake = FORFEITS  # what the arena does with a line it does not take, where the check now is

    def record(self, name: str, passed: bool | None, detail: str) -> None:
        """A check's result, kept and handed to ``report`` at once (the command prints each as it ends)."""
        self.results.append((name, passed, detail))
        if self.report is not None:
            self.report(name, passed, detail)

    def go(self, line: str) -> None:
        """Send ``line`` (a ``go``): its output, up to its ``bestmove``, is held to the arena's bounds."""
        self.engine.send(line)
        self.move, self.flooded = [0, self.engine.proc.read_bytes], ""

    def flood(self, exc: Failed, label: str = "") -> Failed:
        """The failure to raise for ``exc``, a move's failure (``label``: its position): :class:`Forfeited` when the
        move broke the arena's bounds (its bestmove came, or never did: the move is over either way) or a line of
        it was one the arena does not take, ``exc`` otherwise."""
        flooded = self.flooded if not isinstance(exc, Forfeited) else str(exc)
        if not flooded:
            return Failed(f"{label}: {exc}") if label else exc
        if not isinstance(exc, Forfeited):
            self.move, self.flooded = None, ""
            flooded = f"{flooded}; {exc}"
        return Forfeited(f"{label}: {flooded}" if label else flooded)

    def forfeit(self, fault: Any, info: bool = False) -> Forfeited:
        """The failure of a line the arena does not take (``fault``, its EngineFault: the arena's reason), said with
        :attr:`stake`; kept as the first bad ``info`` line (``info``: with the stake too) or as the first output
        that is no protocol line (the reason alone).  The engine is no longer trusted to answer (:attr:`lost`)."""
        said = f"{fault.reason} ({self.stake})"
        if info:
            self.bad_infos += 1
            self.first_bad_info = self.first_bad_info or said
        else:
            self.garbage = self.garbage or fault.reason
        self.lost, self.move, self.flooded = fault.reason, None, ""
        return Forfeited(said)

    def _count(self) -> None:
        """One more line of the move under way: over the arena's bounds, the move is flooded."""
        from ..external.process import GARBAGE
        from ..external.session import MAX_LINES, MAX_OUTPUT

        if self.move is None or self.flooded:
            return
        self.move[0] += 1
        if self.move[0] > MAX_LINES or self.engine.proc.read_bytes - self.move[1] > MAX_OUTPUT:
            self.flooded = f"{GARBAGE}: more than {MAX_LINES:,} lines or {MAX_OUTPUT // 2**20} MiB in one move " \
                f"({FORFEITS})"

    def wait_for(self, want: Callable[[Any], bool], seconds: float, what: str) -> tuple[float, Any, list[Any]]:
        """Read replies until one satisfies ``want``: (when, that reply, the replies before it).  Each line is read
        as the arena reads it: one it does not take fails at once (:meth:`forfeit`)."""
        from ..external.process import PROTOCOL, EngineFault
        from ..external.session import read_reply

        deadline, before = time.monotonic() + seconds, list[Any]()
        while True:
            try:
                got = self.engine.read(deadline - time.monotonic())
            except EngineFault as fault:  # a line too long or not text
                raise self.forfeit(fault) from None
            if got is None:
                self.lost = "" if self.engine.exited() else f"no {what} within {seconds:g} s"
                raise Failed(self.engine.exited() or self.lost)
            when, line = got
            self._count()
            try:
                reply = read_reply(line)
            except EngineFault as fault:  # a control character, a malformed known reply
                raise self.forfeit(fault, fault.kind == PROTOCOL and line.split()[:1] == ["info"]) from None
            if isinstance(reply, p.Unknown):  # the arena ignores it; no engine should print it
                self.garbage = self.garbage or f"garbage: {line[:80]!r}"
                continue
            if isinstance(reply, p.Info):
                self.note_info(reply)
            if isinstance(reply, p.BestMove) and self.move is not None:  # the move's end
                self.move, flooded, self.flooded = None, self.flooded, ""
                if flooded:
                    raise Forfeited(flooded)
            if want(reply):
                return when, reply, before
            if not self.flooded:  # a flood's lines are not kept
                before.append(reply)

    def note_info(self, info: Any) -> None:
        """An ``info`` line read: an exact score no game from the position could reach fails at once, as the arena
        forfeits the game for it; a ``pv`` the rules refuse is a bad line (the arena drops the pv, no forfeit)."""
        self.infos += 1
        if self.position is None:
            return
        game, state = self.position
        if info.exact is not None:  # a proof no game from the position could reach (the arena's protocol error)
            from ..external.agent import exact_scores
            from ..external.session import impossible

            played = game.moves_played(state)  # the ply counts on Connect-X boards, whose states keep it
            lie = impossible(info, exact_scores(game, len(played) if played is not None else 0))
            if lie is not None:
                raise self.forfeit(lie, info=True)
        if info.pv is None:
            return
        try:
            for token in game.move_tokens(info.pv):
                state = game.result(state, game.parse_action(token, state))
        except Exception as exc:  # noqa: BLE001 - any refusal of the rules is the engine's fault
            self.bad_infos += 1
            self.first_bad_info = self.first_bad_info or (f"pv {info.pv!r} is not legal from the position: {exc} "
                                                          "(the arena drops the pv)")

    def bestmove(self, label: str, seconds: float | None = None) -> tuple[float, Any]:
        """The next ``bestmove`` and when it came (``seconds``: by default a move's time and the timeout), then
        an ``isready`` round trip: a ``bestmove`` before its ``readyok`` is a second answer to the same ``go``
        (``label`` names the position in the failure)."""
        wait = self.args.movetime / 1000 + self.args.timeout if seconds is None else seconds
        try:
            when, best, _ = self.wait_for(lambda r: isinstance(r, p.BestMove), wait, "bestmove")
        except Failed as exc:
            raise self.flood(exc, label) from None
        self.single(best, label)
        return when, best

    def single(self, best: Any, label: str) -> None:
        """An ``isready`` round trip after ``best``: a failure when a ``bestmove`` comes before its ``readyok``."""
        extra = [r for r in self.synced("bestmove") if isinstance(r, p.BestMove)]
        if extra:
            raise Failed(f"{label}: a second bestmove for one go ({extra[0].line()!r} after {best.line()!r})")

    def synced(self, what: str, seconds: float | None = None) -> list[Any]:
        """``isready`` and the replies before its ``readyok``, within ``seconds`` (default: the timeout)."""
        if not self.engine.send("isready"):
            raise Failed(self.engine.exited() or f"{what}: could not write to the engine")
        wait = self.args.timeout if seconds is None else seconds
        return self.wait_for(lambda r: isinstance(r, p.ReadyOk), wait, f"readyok after {what}")[2]
