"""Which game a record or a results file is read with: a game of zerosum's by its name, and your own game (a
file's, ``path/to/file.py:Class``) only when the caller names it.

A record, or a results file, is text someone may hand you, and its ``Game`` tag (a run's ``game``) names a
game; a tag that names a Python file would run that file, whatever it holds, the moment the game is made.  So
nothing that reads a record or a results file makes the game of a tag that names a file: reading one is
refused in one line (:func:`trusted_game`) unless the caller names the game themselves (``game=`` from Python,
``--game`` on ``zerosum replay`` and ``zerosum review``), and that game is used, never the file the tag names.

**Matching.**  The game given must be the record's: for a tag that names a file, the same file name and the same
class (or function) and arguments (``/home/ann/nim.py:Nim(3)`` and ``nim.py:Nim(3)`` are one game: a record
keeps the path it was played at, which is another folder, or another machine, where it is read); a tag of a
file alone (``nim.py``, its one class) takes any class of that file name.  An object's game, ``<Nim>``, is
matched by its class name.  A tag of zerosum's own games names the same game as the one given
(``connect4`` is ``connectx:rows=6,cols=7,k=4``).

:func:`stored_game` is the same rule for a reader that has no game to be given (``zerosum report``): the game
of a spec that names no file, else None.
"""

from __future__ import annotations

import os
import re
from typing import Any

from ..core.checks import safe_repr
from ..errors import GameError, InvalidFileError
from ..game import Game
from ..games.course_files import FILE_SPEC, same_course_file

__all__ = ["TagRefused", "given_game", "names_file", "opening_plies", "same_file_game", "same_game", "stored_game",
           "trusted_game", "UNTRUSTED"]

#: what a record of a tag naming a file says when no game is given (after ``Game tag '...': ``)
UNTRUSTED = ("names a Python file, and reading a record runs no code it names: if you trust that file, name the "
             "game yourself (--game FILE.py:Class on zerosum replay and review; game= from Python)")

_FILE = FILE_SPEC
_OBJECT = re.compile(r"<(?P<name>[A-Za-z_][A-Za-z0-9_]*)>")


class TagRefused(InvalidFileError):
    """A Game tag refused by :func:`trusted_game`: its message follows the tag's name (``Game tag 'x.py:Nim'
    names a Python file, ...``)."""


def names_file(spec: object) -> bool:
    """Whether the game spec ``spec`` names a Python file (its part before the first colon ends in ``.py``):
    making its game would run that file."""
    return isinstance(spec, str) and spec.strip().partition(":")[0].endswith(".py")


def stored_game(spec: str) -> Game[Any, Any] | None:
    """The game of a spec read from a file (a results file's run, a record's tag), or None when it names a
    Python file: that file is never run on a file's word (a reader without a game given, such as ``zerosum
    report``, does without the game).  A spec that names no game raises GameError, as :func:`get_game` does."""
    from ..games import get_game

    if names_file(spec):
        return None
    return get_game(spec)


def opening_plies(spec: str, opening: str) -> int:
    """The plies of the opening ``opening`` (a move string, ``-`` or empty for none) of the game ``spec``,
    read from a file, without running any file: by the game for a game of zerosum's, and for a game file's by
    the notation its game writes unless it says otherwise (moves separated by spaces or ``;``: the course
    protocol's games, which are what game files hold).  GameError for a spec that names no game, or moves it
    does not take."""
    from ..arena.openings import parse_opening

    game = stored_game(spec)
    if game is not None:
        return len(parse_opening(game, opening))
    text = opening.strip()
    return 0 if text in ("", "-") else len([part for part in re.split(r"[;\s]+", text) if part])


def given_game(game: object) -> Game[Any, Any] | None:
    """The game a caller gives (``game=``): None, a Game, a game spec (a file's too: the caller names it) or
    an object with the course's methods; InvalidFileError (one line) for anything else or a spec that names
    no game."""
    from ..games import get_game
    from ..games.course_objects import is_course_game

    if game is None or isinstance(game, Game):
        return game
    if not isinstance(game, str) and not is_course_game(game):
        raise InvalidFileError(f"game is a game, a game spec such as 'connect4' or 'nim.py:Nim', or None, not "
                               f"{safe_repr(game, 60)}")
    try:
        return get_game(game)
    except GameError as exc:
        raise InvalidFileError(f"the game given: {exc}") from None


def _parts(spec: str) -> tuple[str | None, str | None, str] | None:
    """``(the file's name without its folder, the class or None, the arguments without blanks)`` of a game
    file's spec, ``(None, name, "")`` of an object's (``<Nim>``), None for any other."""
    text = spec.strip()
    found = _FILE.fullmatch(text)
    if found is not None:
        path = found["path"].replace("\\", "/")
        return os.path.basename(path), found["name"], "".join((found["args"] or "").split())
    found = _OBJECT.fullmatch(text)
    return None if found is None else (None, found["name"], "")


def same_game(spec: str, game: Game[Any, Any]) -> bool:
    """Whether the game spec ``spec`` (a record's Game tag) names ``game`` (see the module doc).  No file is
    run: a spec of a file is compared by its words."""
    from ..games import get_game

    own = str(getattr(game, "spec", ""))
    if spec.strip() == own.strip():
        return True
    if not names_file(spec):
        if _OBJECT.fullmatch(spec.strip()):
            return False
        try:
            return bool(get_game(spec).spec == own)  # a game of zerosum's (or an object's, made in this process)
        except GameError:
            return False
    mine, theirs = _parts(spec), _parts(own)
    if mine is None or theirs is None:
        return False
    if theirs[0] is not None and mine[0] != theirs[0]:  # an object's game has no file name to compare
        return False
    return (mine[1] is None or theirs[1] is None or mine[1] == theirs[1]) and mine[2] == theirs[2]


def same_file_game(spec: str, game: Game[Any, Any]) -> bool:
    """Whether the game file spec ``spec`` (a results file's run, which names its file by its full path) and
    ``game`` are the very same file (the path as the file system resolves it), class and arguments."""
    return same_course_file(spec, str(getattr(game, "spec", "")))


def trusted_game(spec: str, game: Game[Any, Any] | None) -> Game[Any, Any]:
    """The game of a record's Game tag ``spec``: ``game`` when given (it must be the tag's game, see the module
    doc), else the game the tag names, which must name no file.  :class:`TagRefused` (one line, to follow the
    tag's name) otherwise; GameError for a tag that names no game."""
    from ..games import get_game

    if game is not None:
        if not same_game(spec, game):
            raise TagRefused(f"is not the game given, {safe_repr(str(getattr(game, 'spec', '?')), 80)} (a "
                                   "record is read with its own game: for a game file, the same file name, class and "
                                   "arguments)")
        return game
    if names_file(spec):
        raise TagRefused(UNTRUSTED)
    try:
        return get_game(spec)
    except GameError:
        found = _OBJECT.fullmatch(spec.strip())
        if found is None:
            raise
    # a game object of another process (the one that played it): only the reader can give it again
    raise TagRefused(f"names a game object ({found['name']}) of the program that played it: give the game to "
                     f"read it with (game={found['name']}() from Python, or its file: --game FILE.py:{found['name']})")
