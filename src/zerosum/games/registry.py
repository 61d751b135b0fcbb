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


def _cells_of(game: Game[Any, Any]) -> int:
    for attr in ("cells",):
        if isinstance(getattr(game, attr, None), int):
            return int(getattr(game, attr))
    n = getattr(game, "n", None)
    return n * n if isinstance(n, int) else 0


def _check_cells(spec: str, cells: int, max_cells: int | None) -> None:
    if max_cells is not None and cells > max_cells:
        raise InvalidSpecError(f"{spec!r} has {cells} cells; at most {max_cells} are allowed here")


def _int(spec: str, key: str, value: str) -> int:
    return convert(key, value, int, InvalidSpecError, spec, expect="a whole number")


def get_game(spec: "str | Game[Any, Any]" = "connect4", *, max_cells: int | None = None) -> Game[Any, Any]:
    """The game named by ``spec``; a :class:`Game` passes through unchanged.

    Every size is checked before anything is built: each game's documented maximum (Connect-X sides up to
    ``ConnectX.MAX_SIDE``, Migration up to ``Migration.MAX_N``), and ``max_cells`` when a caller (the web
    server) allows less.

    >>> get_game("connectx:rows=8,cols=8,k=4").cols
    8
    """
    if isinstance(spec, Game):
        _check_cells(spec.spec, _cells_of(spec), max_cells)
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
            _check_cells(spec, 9, max_cells)
            return TicTacToe()
        if name == "migration":
            n = _int(spec, "n", opts.get("n", "8"))
            if 3 <= n <= Migration.MAX_N:
                _check_cells(spec, n * n, max_cells)
            return Migration(n)
        r, c = _int(spec, "rows", opts.get("rows", str(rows))), _int(spec, "cols", opts.get("cols", str(cols)))
        if 1 <= r <= ConnectX.MAX_SIDE and 1 <= c <= ConnectX.MAX_SIDE:
            _check_cells(spec, r * c, max_cells)
        return ConnectX(r, c, _int(spec, "k", opts.get("k", str(k))))
    except InvalidSpecError:
        raise
    except GameError as exc:  # pragma: no cover - constructors raise InvalidSpecError
        raise InvalidSpecError(str(exc)) from None
