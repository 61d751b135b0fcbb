"""Game specs: ``connect4``, ``connectx:rows=8,cols=8,k=4``, ``tictactoe``, ``migration:n=8``, presets."""

from __future__ import annotations

from typing import Any

from ..errors import GameError, InvalidSpecError
from ..game import Game
from ..spec import convert, parse_spec
from .connectx import ConnectX
from .migration import Migration
from .tictactoe import TicTacToe

__all__ = ["get_game", "GAME_NAMES", "PRESETS"]

#: named Connect-X boards: (rows, cols, k)
PRESETS: dict[str, tuple[int, int, int]] = {
    "connect4": (6, 7, 4),
    "connect4-8x8": (8, 8, 4),  # the 8 x 8 school variant
    "connect4-5x7": (5, 7, 4),  # 5 rows x 7 columns
}

GAME_NAMES = (*PRESETS, "connectx", "tictactoe", "migration")


def _int(spec: str, key: str, value: str) -> int:
    return convert(key, value, int, InvalidSpecError, spec, expect="a whole number")


def get_game(spec: "str | Game[Any, Any]" = "connect4") -> Game[Any, Any]:
    """The game named by ``spec``; a :class:`Game` passes through unchanged.

    >>> get_game("connectx:rows=8,cols=8,k=4").cols
    8
    """
    if isinstance(spec, Game):
        return spec
    name, opts = parse_spec(spec, InvalidSpecError)
    allowed: tuple[str, ...]
    if name in PRESETS or name == "connectx":
        rows, cols, k = PRESETS.get(name, PRESETS["connect4"])
        allowed = ("rows", "cols", "k")
    elif name == "tictactoe":
        allowed = ()
    elif name == "migration":
        allowed = ("n",)
    else:
        raise InvalidSpecError(f"unknown game {name!r} in {spec!r}: choose one of {', '.join(GAME_NAMES)}")
    for key in opts:
        if key not in allowed:
            valid = ", ".join(allowed) if allowed else "none"
            raise InvalidSpecError(f"game {name!r} has no option {key!r} (options: {valid})")
    try:
        if name == "tictactoe":
            return TicTacToe()
        if name == "migration":
            return Migration(_int(spec, "n", opts.get("n", "8")))
        return ConnectX(
            _int(spec, "rows", opts.get("rows", str(rows))),
            _int(spec, "cols", opts.get("cols", str(cols))),
            _int(spec, "k", opts.get("k", str(k))),
        )
    except InvalidSpecError:
        raise
    except GameError as exc:  # pragma: no cover - constructors raise InvalidSpecError
        raise InvalidSpecError(str(exc)) from None
