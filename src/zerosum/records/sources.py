"""Records from where games are played: the arena's games (:func:`arena_maker`, which
:class:`~zerosum.records.Writer` writes as they finish), an arena results file (:func:`from_store`) and
:func:`zerosum.play_game` (:func:`from_game_record`)."""

from __future__ import annotations

import os
import re
import socket
import time as _time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..arena.store import GameRecord as ArenaGame
from ..arena.store import PlannedGame, Store
from ..core.checks import clip, safe_repr
from ..errors import InvalidFileError
from ..game import Game
from .lexer import MAX_TAG, flag, path_of
from .text import MoveNote, Record, game_of
from .trust import given_game, names_file, same_file_game

__all__ = ["arena_maker", "check_stored_game", "from_game_record", "from_store", "termination"]

_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def termination(reason: str, forfeit: bool) -> str:
    """The Termination tag of a game that ended with ``reason``: ``normal``, ``forfeit: REASON`` or
    ``adjudication: REASON`` (the arena's reason ``adjudicated: ...`` without its first word), cut to fit a
    tag (:data:`~zerosum.records.lexer.MAX_TAG` characters)."""
    if not isinstance(reason, str):
        raise InvalidFileError(f"a game's reason is text, not {safe_repr(reason, 40)}")
    reason = " ".join(reason.split())
    if flag(forfeit, "forfeit"):
        return _fit(f"forfeit: {reason}")
    if reason.lower().startswith("adjudicated"):
        rest = reason[len("adjudicated"):].lstrip(" :")
        return _fit(f"adjudication: {rest}") if rest else "adjudication"
    return "normal"


def _fit(value: str) -> str:
    """A tag's value as the arena gives it, cut to :data:`~zerosum.records.lexer.MAX_TAG` characters and
    made one line of text a file can hold (an agent's error message may be long, or hold anything)."""
    return clip(" ".join(_CONTROL.sub(" ", value.encode("utf-8", "replace").decode("utf-8")).split()), MAX_TAG)


# ---- from the arena and from play_game ------------------------------------------------------------


def _time_control(config: Any, first: str, second: str) -> dict[str, str]:
    """The time control tags of a game between the agents ``first`` and ``second``: ``TimeControl`` the game
    clock's ``BASE+INC``, else ``1/T`` for T seconds a move (each agent's own ``time=``, else the run's
    ``--time``), ``-`` for none; when the two sides' time a move differ, ``?`` and each side's own, as
    cutechess writes them (``WhiteTimeControl``, ``BlackTimeControl``)."""
    from ..arena.match import agent_time

    tc = getattr(config, "tc", None)
    if tc:
        return {"TimeControl": f"{tc[0]:g}+{tc[1]:g}"}
    limits = getattr(config, "limits", None) or {}
    sides = [agent_time(spec, limits) for spec in (first, second)]
    shown = [f"1/{t:g}" if t else "-" for t in sides]
    if shown[0] == shown[1]:
        return {"TimeControl": shown[0]}
    return {"TimeControl": "?", "WhiteTimeControl": shown[0], "BlackTimeControl": shown[1]}


def _date(when: float) -> str:
    return _time.strftime("%Y.%m.%d", _time.localtime(when or _time.time()))


def _notes(times: list[Any], nodes: list[Any], vals: list[Any],
           exacts: list[Any] | None = None) -> list[MoveNote | None]:
    """A note a move; ``exacts``: whether each move's value is a proof (its search's ``exact``), when known."""
    proofs = exacts if exacts is not None else [False] * len(vals)
    return [MoveNote(None if t is None else float(t), None if n is None else int(n), None if v is None else float(v),
                     exact=v is not None and e is True)
            for t, n, v, e in zip(times, nodes, vals, proofs)]


def arena_maker(store: Store, game: Game[Any, Any] | None = None) -> Callable[[ArenaGame], Record]:
    """Turns a finished game of the run in ``store`` into its record (the plan, agents and config read once).
    ``game``: the run's game, given by the caller (a run's game file is never made from the results file's
    word: without it, a run on a game file is refused in one line)."""
    from ..arena.match import ArenaConfig

    config = ArenaConfig.from_json(store.meta("config"), f"results file {str(store.path)!r}")
    if game is None and names_file(config.game):
        raise _untrusted(store.path, config.game)
    if game is not None:
        game_of(config.game, game)  # the run's game, or one line
    plan: dict[int, PlannedGame] = {g.idx: g for g in store.plan()}
    labels = [label for label, _ in store.agents()]
    event = "zerosum match" if config.mode == "match" else "zerosum tournament"
    site = socket.gethostname() or "?"

    def make(rec: ArenaGame) -> Record:
        g = plan[rec.idx]
        tags = {"Event": event, "Site": site, "Date": _date(rec.finished), "Round": str(rec.idx + 1),
                "First": _fit(labels[g.first]), "Second": _fit(labels[g.second]), "Game": config.game,
                "Opening": g.opening or "-", "Termination": termination(rec.reason, rec.forfeit),
                **_time_control(config, config.agents[g.first], config.agents[g.second])}
        return Record(tags, list(rec.moves), _notes(rec.times, rec.nodes, rec.vals, rec.exacts or None), rec.result,
                      game=game)

    return make


def _untrusted(path: Any, spec: str) -> InvalidFileError:
    return InvalidFileError(f"results file {str(path)!r}: its game {safe_repr(spec, 80)} names a Python file, and "
                            "reading a results file runs no code it names: if you trust that file, name the game "
                            "yourself (zerosum report FILE --export OUT --game SPEC; from Python "
                            "zerosum.records.from_store(FILE, game=SPEC)), or write the records as the run plays "
                            "(--pgnout)")


def from_store(store: Store | str | os.PathLike[str], *, game: Any = None) -> Iterator[Record]:
    """The records of every finished game of an arena results file (a :class:`Store` or its path), in the
    order of the plan.  ``Round`` is the game's number in the plan, counted from 1.  The file is opened
    when the first record is asked for; a wrong type is refused at once.

    ``game``: the run's game, as :func:`~zerosum.records.read` takes it: needed for a run on a game file
    (reading a results file runs no file it names), and then the very file the run played (a results file
    names it by its full path)."""
    if not isinstance(store, Store):
        where = path_of(store, "results file")
        return _from_path(where, given_game(game))
    return _from_store(store, given_game(game))


def _from_path(path: str | os.PathLike[str], game: Game[Any, Any] | None) -> Iterator[Record]:
    from ..arena.match import open_run

    check_stored_game(Path(path), game)  # before open_run, which makes the run's game
    opened, _ = open_run(Path(path))
    with opened:
        yield from _from_store(opened, game)


def check_stored_game(path: Path, game: Game[Any, Any] | None) -> None:
    """Refuse (one line) a results file whose run is on a game file, unless ``game`` is that very file's game
    (the same file, class and arguments): its file is never run on the results file's word.  The file is
    opened only to read its configuration."""
    from ..arena.match import ArenaConfig

    with Store(path) as store:
        if store.is_empty():
            return  # said by whoever opens the run
        spec = ArenaConfig.from_json(store.meta("config"), f"results file {str(path)!r}").game
    if not names_file(spec):
        return
    if game is None:
        raise _untrusted(path, spec)
    if not same_file_game(spec, game):
        raise InvalidFileError(f"results file {str(path)!r}: its game {safe_repr(spec, 80)} is not the game given, "
                               f"{safe_repr(str(game.spec), 80)} (a run's game file is the very file it played)")


def _from_store(store: Store, game: Game[Any, Any] | None) -> Iterator[Record]:
    make = arena_maker(store, game)
    for rec in store.games():
        yield make(rec)


def from_game_record(rec: Any) -> Record:
    """The record of a game played by :func:`zerosum.play_game` (a teaching ``GameRecord``)."""
    from ..arena.openings import format_opening
    from ..teaching.play import GameRecord

    if not isinstance(rec, GameRecord):
        raise InvalidFileError(f"from_game_record takes what zerosum.play_game returns, not {safe_repr(rec, 40)}")

    game = rec.game
    tags = {"Event": "zerosum play_game", "Site": socket.gethostname() or "?", "Date": _date(0.0), "Round": "1",
            "First": _fit(rec.first), "Second": _fit(rec.second), "Game": game.spec,
            "Opening": format_opening(game, rec.opening), "Termination": termination(rec.reason, rec.forfeit)}
    notes = _notes([m.seconds for m in rec.moves], [m.nodes for m in rec.moves], [m.value for m in rec.moves],
                   [m.search is not None and m.search.exact is True for m in rec.moves])
    return Record(tags, [m.notation for m in rec.moves], notes, rec.result, game=game)
