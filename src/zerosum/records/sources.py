"""Records from where games are played: the arena as games finish (:class:`Writer`), an arena results file
(:func:`from_store`) and :func:`zerosum.play_game` (:func:`from_game_record`)."""

from __future__ import annotations

import os
import socket
import time as _time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..arena.store import GameRecord as ArenaGame
from ..arena.store import PlannedGame, Store
from ..errors import InvalidFileError
from .text import MoveNote, Record, format

__all__ = ["Writer", "from_game_record", "from_store", "termination"]


def termination(reason: str, forfeit: bool) -> str:
    """The Termination tag of a game that ended with ``reason``: ``normal``, ``forfeit: REASON`` or
    ``adjudication: REASON`` (the arena's reason ``adjudicated: ...`` without its first word)."""
    reason = " ".join(str(reason).split())
    if forfeit:
        return f"forfeit: {reason}"
    if reason.lower().startswith("adjudicated"):
        rest = reason[len("adjudicated"):].lstrip(" :")
        return f"adjudication: {rest}" if rest else "adjudication"
    return "normal"


class Writer:
    """Appends records to a file as games finish (``--pgnout``): each game is written whole with one write
    and flushed to disk before the next, so a run killed at any moment leaves only whole games.

    ``overwrite``: start the file afresh (else append to it, as a resumed run does)."""

    def __init__(self, path: str | os.PathLike[str], *, overwrite: bool = False) -> None:
        from ..core.files import check_output

        self.path = check_output(path, overwrite=True, what="record file")
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if overwrite else 0)
        try:
            self._fd: int | None = os.open(self.path, flags, 0o666)
        except OSError as exc:
            raise InvalidFileError(f"record file {str(path)!r} cannot be written: {exc.strerror or exc}") from None
        self.count = 0
        self._gap = os.fstat(self._fd).st_size > 0

    def write(self, record: Record) -> None:
        if self._fd is None:
            raise InvalidFileError(f"record file {str(self.path)!r} is closed")
        data = (("\n" if self._gap else "") + format(record)).encode("utf-8")
        os.write(self._fd, data)
        os.fsync(self._fd)
        self._gap, self.count = True, self.count + 1

    def game_hook(self, store: Store) -> Callable[[ArenaGame], None]:
        """For ``run_arena(on_game=...)``: each finished game of the run in ``store``, written as it ends."""
        make = _arena_maker(store)
        return lambda rec: self.write(make(rec))

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---- from the arena and from play_game ------------------------------------------------------------


def _time_control(config: Any) -> str:
    tc = getattr(config, "tc", None)
    if tc:
        return f"{tc[0]:g}+{tc[1]:g}"
    per_move = (getattr(config, "limits", None) or {}).get("time")
    return f"1/{per_move:g}" if per_move else "-"


def _date(when: float) -> str:
    return _time.strftime("%Y.%m.%d", _time.localtime(when or _time.time()))


def _notes(times: list[Any], nodes: list[Any], vals: list[Any]) -> list[MoveNote | None]:
    return [MoveNote(None if t is None else float(t), None if n is None else int(n), None if v is None else float(v))
            for t, n, v in zip(times, nodes, vals)]


def _arena_maker(store: Store) -> Callable[[ArenaGame], Record]:
    """Turns a finished game of the run in ``store`` into its record (the plan, agents and config read once)."""
    from ..arena.match import ArenaConfig

    config = ArenaConfig.from_json(store.meta("config"), f"results file {str(store.path)!r}")
    plan: dict[int, PlannedGame] = {g.idx: g for g in store.plan()}
    labels = [label for label, _ in store.agents()]
    event = "zerosum match" if config.mode == "match" else "zerosum tournament"
    site, control = socket.gethostname() or "?", _time_control(config)

    def make(rec: ArenaGame) -> Record:
        g = plan[rec.idx]
        tags = {"Event": event, "Site": site, "Date": _date(rec.finished), "Round": str(rec.idx + 1),
                "First": labels[g.first], "Second": labels[g.second], "Game": config.game,
                "Opening": g.opening or "-", "Termination": termination(rec.reason, rec.forfeit),
                "TimeControl": control}
        return Record(tags, list(rec.moves), _notes(rec.times, rec.nodes, rec.vals), rec.result)

    return make


def from_store(store: Store | str | os.PathLike[str]) -> Iterator[Record]:
    """The records of every finished game of an arena results file (a :class:`Store` or its path), in the
    order of the plan.  ``Round`` is the game's number in the plan, counted from 1."""
    if not isinstance(store, Store):
        from ..arena.match import open_run

        opened, _ = open_run(Path(store))
        with opened:
            yield from from_store(opened)
        return
    make = _arena_maker(store)
    for rec in store.games():
        yield make(rec)


def from_game_record(rec: Any) -> Record:
    """The record of a game played by :func:`zerosum.play_game` (a teaching ``GameRecord``)."""
    from ..arena.openings import format_opening

    game = rec.game
    tags = {"Event": "zerosum play_game", "Site": socket.gethostname() or "?", "Date": _date(0.0), "Round": "1",
            "First": rec.first, "Second": rec.second, "Game": game.spec,
            "Opening": format_opening(game, rec.opening), "Termination": termination(rec.reason, rec.forfeit)}
    notes = _notes([m.seconds for m in rec.moves], [m.nodes for m in rec.moves], [m.value for m in rec.moves])
    return Record(tags, [m.notation for m in rec.moves], notes, rec.result)
