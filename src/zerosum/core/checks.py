"""What a caller or a person hands a game, checked: numbers typed 1-based, actions as plain ints, board
cells, players; each bad value raises one :class:`~zerosum.errors.GameError` naming it (re-exported by
:mod:`zerosum.game`, where the games import them from)."""

from __future__ import annotations

import operator
import re
from typing import Sequence, SupportsIndex, cast

__all__ = ["safe_repr", "one_based", "as_index", "board_cells", "other", "check_player"]


def safe_repr(value: object, limit: int = 80) -> str:
    """``repr(value)`` bounded (:func:`zerosum.spec.quoted`, the one helper), or the type's name when
    ``__repr__`` itself fails."""
    from ..spec import quoted

    return quoted(value, limit)


def one_based(text: object, count: int, what: str, hint: str) -> int:
    """The 0-based index of a 1-based number ``1..count`` as a person types it (``what``: "column").

    Raises :class:`~zerosum.errors.InvalidMoveError` (ending in ``hint``) for text that is not a number, and
    :class:`~zerosum.errors.IllegalMoveError` for a number outside ``1..count``.
    """
    from ..errors import IllegalMoveError, InvalidMoveError

    raw = str(text).strip()
    if not re.fullmatch(r"[+-]?[0-9]{1,18}", raw):
        raise InvalidMoveError(f"{raw[:40]!r} is not a {what} number: {hint}")
    index = int(raw) - 1
    if not 0 <= index < count:
        raise IllegalMoveError(f"{what} {raw} is outside 1..{count}")
    return index


def as_index(action: object, what: str) -> int:
    """``action`` as a plain int (numpy ints and int subclasses too; never a bool, float or string).

    Raises :class:`~zerosum.errors.InvalidMoveError` saying ``what`` an action is, for anything else,
    including objects whose ``__index__`` or ``__repr__`` misbehave.
    """
    if type(action) is int:
        return action
    try:
        if isinstance(action, bool) or not hasattr(type(action), "__index__"):
            raise TypeError
        return int(operator.index(cast(SupportsIndex, action)))
    except Exception:  # noqa: BLE001 - a hostile __index__ is still just a bad action
        from ..errors import InvalidMoveError

        raise InvalidMoveError(f"{what}, not {safe_repr(action)}") from None


def board_cells(cells: Sequence[Sequence[int]], rows: int, cols: int, to_move: int) -> tuple[tuple[int, ...], ...]:
    """``cells`` as tuples, checked to be ``rows`` rows of ``cols`` values 0, 1 or 2, with ``to_move`` 1 or 2.

    Raises :class:`~zerosum.errors.InvalidPositionError` naming what is wrong (for ``Game.from_board``).
    """
    from ..errors import InvalidPositionError

    if to_move not in (1, 2):
        raise InvalidPositionError(f"the player to move is 1 or 2, not {safe_repr(to_move)}")
    try:
        out = tuple(tuple(operator.index(v) for v in row) for row in cells)
    except TypeError:
        raise InvalidPositionError("cells are rows of whole numbers 0 (empty), 1 or 2") from None
    if len(out) != rows or any(len(row) != cols for row in out):
        raise InvalidPositionError(f"expected {rows} rows of {cols} cells, not {[len(row) for row in out]}")
    if any(v not in (0, 1, 2) for row in out for v in row):
        raise InvalidPositionError("a cell holds 0 (empty), 1 or 2 (the player whose piece stands there)")
    return out


def other(player: int) -> int:
    """The opponent of ``player`` (1 <-> 2)."""
    return 3 - player


def check_player(player: object) -> int:
    """``player`` when it is 1 or 2; else :class:`~zerosum.errors.InvalidMoveError` (for :meth:`zerosum.game.Game.place`)."""
    if type(player) is not int or player not in (1, 2):
        from ..errors import InvalidMoveError

        raise InvalidMoveError(f"a player is 1 (moves first) or 2, not {safe_repr(player)}")
    return player
