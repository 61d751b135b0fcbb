"""Game specs: ``connect4``, ``connectx:rows=8,cols=8,k=4``, ``tictactoe``, ``migration:n=8``, presets.

Each game registers itself with :func:`register_game` (its spec name, presets and options); :func:`get_game`
looks names up here, so adding a game is one module under ``games/`` imported by ``games/__init__.py``.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..errors import GameError, InvalidSpecError
from ..core.checks import check_whole
from ..game import Game, GameOption
from ..spec import convert, listed, parse_spec, quoted
from .course_objects import course_game, is_course_game, object_game
from .course_files import course_file, load_course_file

__all__ = ["get_game", "register_game", "registered_games", "game_names", "spec_forms", "GameOption", "GAME_NAMES", "PRESETS"]

G = TypeVar("G", bound=type)

#: spec name -> (game class, the options the name sets)
_NAMES: dict[str, tuple[type[Game[Any, Any]], dict[str, int]]] = {}
_GAMES: list[type[Game[Any, Any]]] = []


def register_game(cls: G) -> G:
    """Class decorator: make a game known to :func:`get_game` by its ``name`` and ``presets``."""
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError(f"register_game takes a Game subclass, not {cls!r}")
    if not cls.name:
        raise TypeError(f"{cls.__name__} has no spec name (class attribute 'name')")
    if not cls.SIDES and cls.cells_for.__func__ is Game.cells_for.__func__:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} must say how many cells a spec builds (SIDES or classmethod cells_for)")
    for name, opts in {cls.name: {}, **cls.presets}.items():
        known = _NAMES.get(name)
        if known is not None and known[0].__qualname__ != cls.__qualname__:
            raise TypeError(f"game name {name!r} is taken by {known[0].__name__}")
        unknown = set(opts) - set(cls.OPTIONS)
        if unknown:
            raise TypeError(f"preset {name!r} of {cls.__name__} sets unknown options {sorted(unknown)}")
    for name in (*cls.presets, cls.name):
        _NAMES[name] = (cls, dict(cls.presets.get(name, {})))
    _GAMES[:] = [g for g in _GAMES if g.__qualname__ != cls.__qualname__] + [cls]
    return cls


def registered_games() -> tuple[type[Game[Any, Any]], ...]:
    """The game classes, in the order they registered."""
    return tuple(_GAMES)


def game_names() -> tuple[str, ...]:
    """Every spec name: each game's presets, then its own name."""
    return tuple(_NAMES)


def spec_forms() -> str:
    """Every game's spec as a person writes it, for help texts: ``connect4, ..., othello:n=N``."""
    forms: list[str] = []
    for cls in _GAMES:
        forms += [name for name, (owner, _) in _NAMES.items() if owner is cls and name != cls.name]
        options = ",".join(f"{key}={key.upper()}" for key in cls.OPTIONS)
        if cls.name not in forms and (not options or cls.name in _NAMES):
            forms.append(cls.name)
        if options:
            forms.append(f"{cls.name}:{options}")
    return ", ".join(dict.fromkeys(forms))


def __getattr__(attr: str) -> Any:
    # GAME_NAMES and PRESETS are read from the registry when asked (games register as they are imported)
    if attr == "GAME_NAMES":
        return game_names()
    if attr == "PRESETS":
        return {name: dict(opts) for name, (cls, opts) in _NAMES.items() if name != cls.name}
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def _check_cells(spec: str, cells: int, max_cells: int | None) -> None:
    if max_cells is not None and cells > max_cells:
        raise InvalidSpecError(f"{quoted(spec)} has {cells} cells; at most {max_cells} are allowed here")


def _options(spec: str) -> tuple[type[Game[Any, Any]], dict[str, int]]:
    """The class a spec names and its options (defaults, then the preset's, then the spec's)."""
    name, raw = parse_spec(spec, InvalidSpecError)
    if name not in _NAMES:
        where = f" in {quoted(spec)}" if spec.strip() != name else ""
        raise InvalidSpecError(f"unknown game {quoted(name)}{where}: choose one of {listed(_NAMES)}")
    cls, preset = _NAMES[name]
    for key in raw:
        if key not in cls.OPTIONS:
            valid = ", ".join(cls.OPTIONS) if cls.OPTIONS else "none"
            raise InvalidSpecError(f"game {name!r} has no option {quoted(key)} (options: {valid})")
    options = {key: opt.default for key, opt in cls.OPTIONS.items()}
    options.update(preset)
    for key, value in raw.items():
        options[key] = convert(key, value, int, InvalidSpecError, spec, expect="a whole number")
    return cls, options


def get_game(spec: "str | Game[Any, Any] | Any" = "connect4", *, max_cells: int | None = None) -> Game[Any, Any]:
    """The game named by ``spec``; a :class:`Game` passes through unchanged.

    Your own game plays too (:mod:`zerosum.games.course`): an object written with the course's names
    (``actions``, ``result``, ``is_terminal``, ``utility``, ``to_move``...) or easyAI's, adapted; or a file of
    one, ``"path/to/file.py:ClassName"``, optionally with constructor arguments as Python literals
    (``"nim.py:Nim(piles=(1, 2, 3))"``).

    Every size is checked before anything is built: each option within its documented range (Connect-X sides
    up to 64, Migration up to 64), and the cells against ``max_cells`` when a caller (the web server) allows
    less.

    >>> get_game("connectx:rows=8,cols=8,k=4").cols
    8
    """
    if max_cells is not None:
        check_whole(max_cells, "max_cells", 1, None, InvalidSpecError)
    if is_course_game(spec) or (isinstance(spec, str) and (course_file(spec) or object_game(spec.strip()))):
        return _course(spec, max_cells)
    if isinstance(spec, Game):
        if max_cells is not None:
            known = type(spec) in _GAMES
            cells = type(spec).cells_for(_options(spec.spec)[1]) if known else getattr(spec, "cells", 0)
            _check_cells(spec.spec, cells if isinstance(cells, int) else 0, max_cells)
        return spec
    cls, options = _options(spec)
    cls.check_options(spec, options)
    _check_cells(spec, cls.cells_for(options), max_cells)
    try:
        return cls(**options)
    except InvalidSpecError:
        raise
    except GameError as exc:  # pragma: no cover - constructors raise InvalidSpecError
        raise InvalidSpecError(str(exc)) from None


def _course(spec: Any, max_cells: int | None) -> Game[Any, Any]:
    """Your own game: an object, a file's (``path/to/file.py:Name``) or an object's made here (``<Name>``)."""
    if max_cells is not None:
        raise InvalidSpecError("your own game cannot be played here (its size cannot be checked): play it "
                               "with zerosum play, zerosum match or from Python")
    if not isinstance(spec, str):
        return course_game(spec)
    if course_file(spec):
        return load_course_file(spec)
    found = object_game(spec.strip())
    assert found is not None
    return found
