"""Reading what Kaggle hands a ConnectX agent (:mod:`.kaggle`): the flat board, ``mark``, the board's size and
the seconds of ``configuration`` and ``observation``, each checked, so that a wrong type or value is one
:class:`~zerosum.errors.GameError` line naming it -- never a raw exception, never a value read as another
(a cell ``1.5`` as 1, ``mark=1.7`` as 1).

:func:`board_to_state` and :func:`state_to_board` are public (re-exported by :mod:`.kaggle`); the rest serve
:class:`.kaggle.KaggleAgent`, which turns what Kaggle itself hands it mid-game into a fallback move with the
reason (a Kaggle game is never lost to an exception).  A submission carries this module (its agent reads
boards with it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.checks import check_real, check_whole, safe_repr
from ..errors import InvalidPositionError, InvalidSpecError

__all__ = ["board_to_state", "state_to_board"]

#: the most seconds Kaggle's ``actTimeout`` and ``remainingOverageTime`` are read as (a day: any real game)
MAX_SECONDS = 86400.0


def get(obj: Any, key: str, default: Any = None) -> Any:
    """``obj.key`` or ``obj[key]``: Kaggle passes dicts with attribute access, users often plain dicts."""
    if isinstance(obj, Mapping):
        value = obj.get(key, default)
    else:
        value = getattr(obj, key, default)
    return default if value is None else value


def _cell(value: Any) -> Any:
    """A board cell as an int when it is a whole number (numpy's, and ``1.0``, too); anything else as it is,
    for :func:`board_to_state` to name (a bool, a string or a fraction is no cell)."""
    if isinstance(value, bool) or isinstance(value, str):
        return value
    try:
        whole = int(value)
        return whole if whole == value else value
    except (TypeError, ValueError, OverflowError):
        return value


def check_game(game: Any) -> Any:
    """``game`` when it is a Connect-X game (:class:`~zerosum.games.ConnectX`: its traits say so); else one
    InvalidSpecError line."""
    from ..game import COLUMN_BITBOARD

    layout = getattr(getattr(game, "traits", None), "layout", None)
    if layout != COLUMN_BITBOARD or not all(hasattr(game, a) for a in ("rows", "cols", "from_grid", "cell")):
        raise InvalidSpecError(f"a Kaggle board is read into a ConnectX game (zerosum.games.ConnectX(rows, cols, k)), "
                               f"not {safe_repr(game, 60)}")
    return game


def check_mark(mark: Any) -> int:
    """``mark`` (the side to move) when it is 1 or 2 (a whole number, not ``1.7``, ``'1'`` or True)."""
    try:
        return check_whole(mark, "mark", 1, 2, InvalidPositionError)
    except InvalidPositionError:
        raise InvalidPositionError(f"mark (the side to move) must be 1 or 2, not {safe_repr(mark, 60)}") from None


def check_cells(cells: list[Any], rows: int, cols: int) -> None:
    """One InvalidPositionError line naming the first row holding a cell other than 0, 1 or 2."""
    for r in range(rows):
        row = cells[r * cols : (r + 1) * cols]
        if any(isinstance(v, bool) or type(v) is not int or v not in (0, 1, 2) for v in map(_cell, row)):
            raise InvalidPositionError(f"a Kaggle board holds 0, 1 and 2, not {safe_repr(row, 60)}")


def board_to_state(game: Any, board: Any, mark: int) -> Any:
    """The :class:`~zerosum.games.connectx.ConnectXState` of a Kaggle board (flat, top-left first).

    ``mark`` (1 or 2) is the side to move.  Raises :class:`~zerosum.errors.InvalidPositionError` for a board
    that is not a flat list of the right length, a cell other than 0, 1 and 2 (checked before the stones are
    counted), a ``mark`` other than 1 or 2, stone counts that do not fit ``mark``, or floating stones; and
    :class:`~zerosum.errors.InvalidSpecError` for a ``game`` that is not a Connect-X game.
    """
    game = check_game(game)
    if isinstance(board, (str, bytes, Mapping)) or not hasattr(board, "__iter__"):
        raise InvalidPositionError(f"a Kaggle board is a flat list of 0, 1 and 2, top row first, not "
                                   f"{safe_repr(board, 60)}")
    cells = list(board)
    if len(cells) != game.rows * game.cols:
        raise InvalidPositionError(
            f"a Kaggle board of {game.rows} x {game.cols} has {game.rows * game.cols} "
            f"cell{'s' * (game.rows * game.cols != 1)}, not {len(cells)}"
        )
    mark = check_mark(mark)
    check_cells(cells, game.rows, game.cols)
    cells = [_cell(v) for v in cells]
    xs, os_ = cells.count(1), cells.count(2)
    if (xs - os_) != (mark - 1):  # player 1 moves with as many stones as player 2; player 2 with one fewer
        raise InvalidPositionError(f"impossible stone counts for the player to move: {xs} of player 1 and {os_} "
                                   f"of player 2 with player {mark} to move")
    lines = ["".join(".XO"[v] for v in cells[r * game.cols : (r + 1) * game.cols]) for r in range(game.rows)]
    return game.from_grid("\n".join(lines), strict=False, to_move=mark)


def state_to_board(game: Any, state: Any) -> list[int]:
    """A Kaggle board (flat list, top-left first, 0/1/2) from a Connect-X state."""
    game = check_game(game)
    return [game.cell(state, r, c) for r in range(game.rows) for c in range(game.cols)]


def _whole(configuration: Any, key: str, default: int) -> int:
    value = get(configuration, key, default)
    try:
        return check_whole(value, key, None, None, InvalidSpecError)
    except InvalidSpecError:
        raise InvalidSpecError(f"Kaggle's configuration.{key} must be a whole number, not {safe_repr(value, 60)}") from None


def dims(configuration: Any) -> tuple[int, int]:
    """``rows`` and ``columns`` of Kaggle's configuration (6 and 7 when not given): whole numbers, else one
    InvalidSpecError line (no column can be told legal without them)."""
    return _whole(configuration, "rows", 6), _whole(configuration, "columns", 7)


def inarow(configuration: Any) -> int:
    """``inarow`` of Kaggle's configuration (4 when not given), a whole number (the game says what fits)."""
    return _whole(configuration, "inarow", 4)


def seconds(obj: Any, key: str, default: float) -> float:
    """Seconds from Kaggle's configuration or observation: a number from 0 (``inf``, ``nan``, ``'x'``, a
    negative number: one InvalidSpecError line)."""
    return check_real(get(obj, key, default), f"Kaggle's {key} (seconds)", 0.0, MAX_SECONDS, InvalidSpecError)


def flat_board(raw: Any, rows: int, cols: int) -> list[Any]:
    """Kaggle's board as a flat list (an empty one: the start), whole numbers as ints (any other cell is
    left for :func:`board_to_state` to name); one InvalidPositionError line for a board that is missing or
    None, not a flat list of numbers, or too short to show its top row (no column can be told legal)."""
    def number(v: Any) -> bool:  # a bool is named by board_to_state (a fallback move), as a fraction is
        return not isinstance(v, (str, bytes)) and isinstance(v, (int, float))

    if raw is None:  # never None from Kaggle (a full board from the first move; [] its schema's default)
        raise InvalidPositionError("Kaggle's observation has no board: it is a flat list of 0, 1 and 2, top row "
                                   "first")
    try:
        board = [_cell(v) for v in raw] or [0] * (rows * cols)
    except TypeError:
        board = None
    if board is None or isinstance(raw, (str, bytes)) or not all(number(v) for v in board):
        raise InvalidPositionError(f"a Kaggle board is a flat list of 0, 1 and 2, top row first, not "
                                   f"{safe_repr(raw, 60)}")
    if rows < 1 or cols < 1:
        raise InvalidPositionError(f"a Kaggle board has 1 row and 1 column or more, not {rows} x {cols}")
    if len(board) < cols:
        raise InvalidPositionError(f"a Kaggle board of {rows} x {cols} has {rows * cols} cell{'s' * (rows * cols != 1)}, "
                                   f"not {len(board)}")
    return board


def legal_columns(board: list[Any], cols: int) -> list[int]:
    return [c for c in range(cols) if board[c] == 0]


def centre_most(columns: list[int], cols: int) -> int:
    return min(columns, key=lambda c: (abs(2 * c - (cols - 1)), c))
