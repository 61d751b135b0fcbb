"""What a caller or a person hands a game, checked: numbers typed 1-based, actions as plain ints, board
cells, players; each bad value raises one :class:`~zerosum.errors.GameError` naming it (re-exported by
:mod:`zerosum.game`, where the games import them from)."""

from __future__ import annotations

import math
import operator
import re
from typing import Any, Callable, Sequence, SupportsIndex, cast

__all__ = ["safe_repr", "clip", "one_based", "as_index", "board_cells", "other", "check_player", "player_error",
           "check_flag", "check_whole", "check_real", "check_text", "check_actions", "guarded"]


def safe_repr(value: object, limit: int = 80) -> str:
    """``repr(value)`` bounded (:func:`zerosum.spec.quoted`, the one helper), or the type's name when
    ``__repr__`` itself fails."""
    from ..spec import quoted

    return quoted(value, limit)


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters for a message, ending ``...`` where it was cut."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def one_based(text: object, count: int, what: str, hint: str) -> int:
    """The 0-based index of a 1-based number ``1..count`` as a person types it (``what``: "column").

    Raises :class:`~zerosum.errors.InvalidMoveError` (ending in ``hint``) for text that is not a number, and
    :class:`~zerosum.errors.IllegalMoveError` for a number outside ``1..count``.
    """
    from ..errors import IllegalMoveError, InvalidMoveError

    if type(text) is not str:
        if type(text) is not int:  # a number typed from Python, 4; nothing else reads as one
            from ..errors import InvalidMoveError

            raise InvalidMoveError(f"{safe_repr(text)} is not a {what} number: {hint}")
        text = str(text)
    raw = text.strip()
    from ..spec import MAX_DIGITS

    if not re.fullmatch(rf"-?[0-9]{{1,{MAX_DIGITS}}}", raw):  # ASCII digits, as zerosum.spec.integer reads them
        raise InvalidMoveError(f"{safe_repr(raw, 40)} is not a {what} number: {hint}")  # cut: its length said
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

    if type(to_move) is not int or to_move not in (1, 2):
        raise InvalidPositionError(f"the player to move is 1 or 2, not {safe_repr(to_move)}")
    try:
        if isinstance(cells, (str, bytes)) or any(isinstance(row, (str, bytes)) for row in cells):
            raise TypeError
        out = tuple(tuple(operator.index(v) for v in row) for row in cells)
    except Exception:  # noqa: BLE001 - whatever a caller passes (a hostile __index__ too) is one error
        raise InvalidPositionError("cells are rows of whole numbers 0 (empty), 1 or 2") from None
    if len(out) != rows or any(len(row) != cols for row in out):
        raise InvalidPositionError(f"expected {rows} row{'s' * (rows != 1)} of {cols} cell{'s' * (cols != 1)}, "
                                   f"not {[len(row) for row in out]}")
    if any(v not in (0, 1, 2) for row in out for v in row):
        raise InvalidPositionError("a cell holds 0 (empty), 1 or 2 (the player whose piece stands there)")
    return out


def other(player: int) -> int:
    """The opponent of ``player`` (1 <-> 2)."""
    return 3 - player


def check_player(player: object) -> int:
    """``player`` when it is 1 or 2 (numpy's ints too); else :func:`player_error`."""
    if type(player) is not int:
        try:
            if isinstance(player, bool) or not hasattr(type(player), "__index__"):
                raise TypeError
            player = operator.index(cast(SupportsIndex, player))
        except Exception:  # noqa: BLE001 - a hostile __index__ is still just a bad player
            raise player_error(player) from None
    if player not in (1, 2):
        raise player_error(player)
    return player


def player_error(player: object) -> Exception:
    """The :class:`~zerosum.errors.InvalidMoveError` for a player other than 1 or 2 (raised by the caller)."""
    from ..errors import InvalidMoveError

    return InvalidMoveError(f"a player is 1 (moves first) or 2, not {safe_repr(player)}")


# ---- arguments from Python: one line each, naming the argument and what would be valid ---------------------


def check_flag(value: object, name: str, error: type[Exception]) -> bool:
    """``value`` when it is True or False (numpy's bools too); else ``error`` naming ``name``."""
    if value is True or value is False:
        return value
    if type(value).__name__ == "bool_" and type(value).__module__ == "numpy":
        return bool(value)
    raise error(f"{name} must be True or False, not {safe_repr(value)}")


def check_whole(value: object, name: str, lo: int | None, hi: int | None, error: type[Exception]) -> int:
    """``value`` as an int when it is a whole number (numpy's too; never a bool or float) in ``lo..hi`` (an
    end that is None is open); else ``error`` naming ``name`` and the range."""
    number: int | None = None
    if type(value) is int:
        number = value
    elif not isinstance(value, bool) and hasattr(type(value), "__index__"):
        try:
            number = operator.index(cast(SupportsIndex, value))
        except Exception:  # noqa: BLE001 - a hostile __index__
            number = None
    if number is None or (lo is not None and number < lo) or (hi is not None and number > hi):
        span = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
        if lo is not None and hi is None:
            span = f"at least {lo}"
        raise error(f"{name} must be a whole number {span}, not {safe_repr(value)}")
    return number


def check_real(value: object, name: str, lo: float, hi: float, error: type[Exception], *, above: bool = False) -> float:
    """``value`` as a float when it is a finite real number (not a bool) with ``lo <= value <= hi`` (``lo <
    value`` when ``above``); else ``error`` naming ``name`` and the range."""
    number = math.nan
    if not isinstance(value, bool) and isinstance(value, (int, float)) or type(value).__module__ == "numpy":
        try:
            number = float(cast(Any, value))
        except Exception:  # noqa: BLE001 - a huge int (OverflowError), an array
            number = math.nan
    low_ok = number > lo if above else number >= lo
    if not (low_ok and number <= hi) or not math.isfinite(number):
        raise error(f"{name} must be a number {'above' if above else 'from'} {lo:g} to {hi:g}, not {safe_repr(value)}")
    return number


def check_text(value: object, name: str, error: type[Exception], *, hint: str = "") -> str:
    """``value`` when it is a str that UTF-8 can write (no lone surrogates); else ``error`` naming ``name``."""
    if type(value) is not str and not isinstance(value, str):
        raise error(f"{name} must be text{hint}, not {safe_repr(value)}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise error(f"{name} holds characters that cannot be written (lone surrogates): {safe_repr(value)}") from None
    return value


def check_actions(actions: object, what: str) -> list[Any]:
    """``actions`` as a list when it is a list or tuple (of actions, checked by their game); else
    :class:`~zerosum.errors.InvalidMoveError` saying ``what`` they are."""
    if not isinstance(actions, (list, tuple)):
        from ..errors import InvalidMoveError

        raise InvalidMoveError(f"{what} are a list of actions, not {safe_repr(actions)}")
    return list(actions)


def guarded(what: str, func: Callable[..., Any], error: type[Exception], *, seconds: bool = False) -> Callable[..., Any]:
    """``func`` (a caller's callback or clock) with what it raises, or a function of the wrong kind, as one
    ``error`` line naming ``what`` (a GameError it raises passes as it is); with ``seconds``, what it returns
    must be a number of seconds."""
    from ..errors import GameError

    def call(*args: Any) -> Any:
        try:
            out = func(*args)
        except GameError:
            raise
        except Exception as exc:  # noqa: BLE001 - the caller's function failed: one line, not a traceback
            from .files import describe_exception

            raise error(f"{what} failed: {describe_exception(exc)[:200]}") from None
        if seconds and (isinstance(out, bool) or not isinstance(out, (int, float))):
            raise error(f"{what} returned {safe_repr(out)}, not a number of seconds")
        return out

    return call
