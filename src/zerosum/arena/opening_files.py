"""Openings written down: one opening in the game's notation, the lines of an openings file, the files a game
ships, and random openings drawn from a seed (:mod:`zerosum.arena.openings`, which judges openings, re-exports
everything here).

A file holds one opening a line: its moves, then optionally its judged value, then optionally a ``#``
comment (``4453``, ``4453 0``, ``4 4 5 3 # 0``); blank lines and lines starting with ``#`` are left out.
The value follows the moves after a space where the game writes its moves without spaces (two fields, the
second a number: the form ``zerosum openings`` writes), else after `` # `` (a course game's ``(2,1) (3,1) #
0``); anything else after the moves is refused, never cut off (:func:`opening_field`).  Notation:
the game's own move strings (:meth:`~zerosum.game.Game.parse_moves`, :meth:`~zerosum.game.Game.format_moves`),
e.g. ``"4453"`` for Connect Four, ``"159"`` for Tic-Tac-Toe, ``"1,0;4,1"`` for Migration.

A game may ship its own openings as ``data/openings-NAME.txt``, NAME one of its registered spec names
(:func:`shipped_openings`; Connect Four ships ``openings-connect4.txt``: positions a few plies in whose
solved value is a draw or close to it, written by ``zerosum openings`` with the solver).  Other games get
random short openings drawn from the seed (:func:`random_openings`).
"""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

from ..errors import GameError, IllegalMoveError
from ..game import Game
from ..games import get_game
from ..games.registry import game_names
from ..spec import quoted

__all__ = [
    "parse_opening", "format_opening", "opening_line", "opening_field", "read_openings", "write_openings",
    "shipped_openings", "random_openings",
]

Opening = tuple[Any, ...]


def parse_opening(game: Game[Any, Any], text: str) -> Opening:
    """The actions of one opening written in the game's notation; raises IllegalMoveError if not playable."""
    text = text.strip()
    if text in ("", "-"):
        return ()
    actions = game.parse_moves(text)  # checks every move, naming the one that fails
    state = play_opening(game, actions)
    if game.is_terminal(state):
        raise IllegalMoveError(f"opening {quoted(text)} ends the game")
    return tuple(actions)


def format_opening(game: Game[Any, Any], actions: Sequence[Any]) -> str:
    """The notation :func:`parse_opening` reads (``-`` for the start position)."""
    return game.format_moves(actions) if actions else "-"


def _spaced(game: Game[Any, Any]) -> bool:
    """Whether the game's move strings hold spaces (a course game's ``(2,1) (3,1)``)."""
    return any(ch.isspace() for ch in game.move_separator)


def opening_line(game: Game[Any, Any], actions: Sequence[Any], comment: Any = None) -> str:
    """One line of an openings file: the opening, then its comment (the judged value) after a space, or after
    `` # `` where the game's move strings hold spaces themselves."""
    text = format_opening(game, actions)
    if comment is None:
        return text
    return f"{text} # {comment}" if _spaced(game) else f"{text} {comment}"


#: a judged value after an opening, as :func:`format_value` writes it (``0``, ``-3``, ``0.25``, ``1e-05``)
_VALUE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def opening_field(game: Game[Any, Any], line: str) -> str:
    """The moves of a line of an openings file (:func:`opening_line`), its value and ``#`` comment left out:
    ``4453`` of ``4453 0`` and of ``4 4 5 3 # 0``.  A value after a space is the second of exactly two
    fields, a number, on a line without ``#``, in a game whose move strings hold no spaces (``4 4`` is the
    opening ``4``, valued 4; ``4 4 #`` is two moves); anything else before the ``#`` is the moves, spaces
    and all, for :func:`parse_opening` to read or refuse (``4 4 3 3``: four moves; ``4 banana``: refused),
    so nothing is cut off unread."""
    body, comment, _ = line.partition("#")
    fields = body.split()
    if len(fields) == 2 and not comment and not _spaced(game) and _VALUE.fullmatch(fields[1]):
        return fields[0]
    return body.strip()


def play_opening(game: Game[Any, Any], actions: Sequence[Any]) -> Any:
    state = game.initial_state
    for a in actions:
        state = game.result(state, a)
    return state


def read_openings(path: str | Path, game: Game[Any, Any]) -> list[Opening]:
    """Every opening in a file (:func:`opening_field` of each line; ``#`` comments); a bad line is one GameError
    line naming the file and the line, before anything is played."""
    from ..core.files import read_text

    text = read_text(path, "openings file").removeprefix("\ufeff")  # a byte-order mark: as Notepad saves UTF-8
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            openings.append(parse_opening(game, opening_field(game, line)))
        except GameError as exc:
            form = "MOVES or MOVES # VALUE" if _spaced(game) else "MOVES, MOVES VALUE or MOVES # COMMENT"
            raise type(exc)(f"openings file {str(path)!r}, line {number}: {exc} (a line is {form}, the moves "
                            "in the game's notation)") from None
    if not openings:
        raise GameError(f"openings file {str(path)!r} holds no openings")
    return openings


def write_openings(
    path: str | Path, game: Game[Any, Any], openings: Sequence[tuple[Opening, Any]], header: Sequence[str] = (),
    overwrite: bool = False,
) -> None:
    """Write ``(actions, comment)`` pairs, one a line, after ``#`` header lines (all at once, never over an
    existing file unless ``overwrite``)."""
    lines = [f"# {h}" for h in header]
    lines += [opening_line(game, actions, comment) for actions, comment in openings]
    from ..core.files import atomic_output

    with atomic_output(path, overwrite=overwrite, what="openings file") as fh:
        fh.write("\n".join(lines) + "\n")


def shipped_openings(game: Game[Any, Any]) -> Path | None:
    """The openings file that ships with the package for ``game``, if present: ``data/openings-NAME.txt`` for
    the first of the game's registered spec names that has one (Connect Four's: ``openings-connect4.txt``)."""
    try:
        data = Path(str(resources.files("zerosum") / "data"))
    except (ModuleNotFoundError, TypeError):  # pragma: no cover
        return None
    for name in game_names():
        path = data / f"openings-{name}.txt"
        if path.is_file() and get_game(name) == game:
            return path
    return None


def random_openings(game: Game[Any, Any], count: int, plies: int, seed: int) -> list[Opening]:
    """``count`` random openings of ``plies`` uniformly random moves that leave the game open.

    Distinct while the game has enough of them, then the same ones again in the same order; the same seed
    gives the same list.
    """
    if plies <= 0:
        return [()] * count
    rng = random.Random(f"zerosum-openings/{seed}")
    seen: set[Opening] = set()
    pool: list[Opening] = []
    attempts = misses = 0
    while len(pool) < count and misses < 1000:  # give up on new ones after 1000 draws in a row bring none
        attempts += 1
        state, actions = game.initial_state, []
        for _ in range(plies):
            legal = game.actions(state)
            if not legal:
                break
            a = legal[rng.randrange(len(legal))]
            actions.append(a)
            state = game.result(state, a)
        opening = tuple(actions)
        if game.is_terminal(state) or len(actions) < plies or opening in seen:
            misses += 1
            continue
        misses = 0
        seen.add(opening)
        pool.append(opening)
    if not pool:
        raise GameError(f"no open position {plies} plies into {game.spec}: use fewer opening plies")
    return [pool[i % len(pool)] for i in range(count)]
