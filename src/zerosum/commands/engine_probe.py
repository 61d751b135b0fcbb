"""The conversation behind ``zerosum engine-check`` (:mod:`.engine_check`): the program under test and the
reading of its replies.

:class:`Probe` runs the program as the arena runs engines (:class:`~zerosum.external.process.EngineProcess`);
:class:`Checker` reads its replies under deadlines, keeping what the checks of every line need (``info`` lines
well formed, their ``pv`` legal, nothing on standard output but protocol lines), and answers the checks'
questions: the next ``bestmove`` (then an ``isready`` round trip: a second ``bestmove`` for the same ``go``
fails), the replies before a ``readyok``.  A check raises :class:`Failed` or :class:`NotMeasured`.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable

from ..external import protocol as p

__all__ = ["Probe", "Checker", "Failed", "NotMeasured", "GONE"]


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
        that is no text or too long comes as ``"\x00"`` and the reason: garbage."""
        from ..external.process import GARBAGE, EngineFault

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


class Failed(Exception):
    """A check that failed: the message says why."""


class NotMeasured(Exception):
    """A check that could not be measured (neither passed nor failed): the message says why."""


GONE = "the engine is gone"  # why the checks after a crash are not run


class Checker:
    """The checks' shared state: the program, the options, the results so far, what every line read said."""

    def __init__(self, engine: Probe, args: argparse.Namespace) -> None:
        self.engine, self.args = engine, args
        self.results: list[tuple[str, bool | None, str]] = []
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
                raise Failed(self.engine.exited() or f"no {what} within {seconds:g} s")
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

    def bestmove(self, label: str, seconds: float | None = None) -> tuple[float, Any]:
        """The next ``bestmove`` and when it came (``seconds``: by default a move's time and the timeout), then
        an ``isready`` round trip: a ``bestmove`` before its ``readyok`` is a second answer to the same ``go``
        (``label`` names the position in the failure)."""
        wait = self.args.movetime / 1000 + self.args.timeout if seconds is None else seconds
        when, best, _ = self.wait_for(lambda r: isinstance(r, p.BestMove), wait, "bestmove")
        self.single(best, label)
        return when, best

    def single(self, best: Any, label: str) -> None:
        """An ``isready`` round trip after ``best``: a failure when a ``bestmove`` comes before its ``readyok``."""
        extra = [r for r in self.synced("bestmove") if isinstance(r, p.BestMove)]
        if extra:
            raise Failed(f"{label}: a second bestmove for one go ({extra[0].line()!r} after {best.line()!r})")

    def synced(self, what: str) -> list[Any]:
        """``isready`` and the replies before its ``readyok``."""
        if not self.engine.send("isready"):
            raise Failed(self.engine.exited() or f"{what}: could not write to the engine")
        return self.wait_for(lambda r: isinstance(r, p.ReadyOk), self.args.timeout, f"readyok after {what}")[2]
