"""The Game protocol shared by every game, its players and its outcome.

A game object holds the rules; states are immutable, hashable values.  Two states are equal exactly when
their positions are equal (a move history kept for notation takes no part in equality).

Players are the integers 1 (moves first) and 2.  The end of a game has one answer, :meth:`Game.outcome`,
from which :meth:`Game.winner`, :meth:`Game.is_terminal` and :meth:`Game.utility` are all derived.
"""

from __future__ import annotations

import operator
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Generic, Hashable, TypeVar

__all__ = ["Game", "Outcome", "PLAYER1", "PLAYER2", "other", "as_index", "safe_repr"]

PLAYER1 = 1
PLAYER2 = 2

S = TypeVar("S", bound=Hashable)
A = TypeVar("A")


def safe_repr(value: object, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters, or the type's name when ``__repr__`` itself fails."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
        return int(operator.index(action))  # type: ignore[call-overload]
    except Exception:  # noqa: BLE001 - a hostile __index__ is still just a bad action
        from .errors import InvalidMoveError

        raise InvalidMoveError(f"{what}, not {safe_repr(action)}") from None


def other(player: int) -> int:
    """The opponent of ``player`` (1 <-> 2)."""
    return 3 - player


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: ``winner`` is 1, 2 or None for a draw; ``reason`` is a short phrase."""

    winner: int | None
    reason: str

    def utility(self, player: int) -> int:
        if self.winner is None:
            return 0
        return 1 if self.winner == player else -1


class Game(ABC, Generic[S, A]):
    """Rules of a two-player, zero-sum, perfect-information, deterministic game.

    Subclasses implement ``initial_state``, ``player``, ``actions``, ``result``, ``outcome`` and
    ``render``; the rest follows from those.
    """

    #: the spec string that :func:`zerosum.get_game` turns back into an equal game
    spec: str = ""

    @property
    @abstractmethod
    def initial_state(self) -> S:
        """The start state."""

    @abstractmethod
    def player(self, state: S) -> int:
        """Whose turn it is: 1 or 2."""

    @abstractmethod
    def actions(self, state: S) -> list[A]:
        """The legal actions, in a fixed documented order; empty exactly when the game is over."""

    @abstractmethod
    def result(self, state: S, action: A) -> S:
        """The state after ``action``; raises :class:`~zerosum.errors.IllegalMoveError` if not legal."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on, else how it ended."""

    @abstractmethod
    def render(self, state: S) -> str:
        """A human-readable board."""

    # ---- derived from outcome(): one answer for the end of a game -------------------------------

    def is_terminal(self, state: S) -> bool:
        return self.outcome(state) is not None

    def winner(self, state: S) -> int | None:
        out = self.outcome(state)
        return None if out is None else out.winner

    def utility(self, state: S, player: int) -> int:
        """+1 / 0 / -1 for ``player`` at a terminal state (0 while the game goes on)."""
        out = self.outcome(state)
        return 0 if out is None else out.utility(player)

    # ---- text round trips (each game overrides what makes sense for it) ------------------------

    def parse_action(self, text: str, state: S) -> A:
        """Parse one move as a person types it (1-based columns, cell numbers, ...)."""
        raise NotImplementedError

    def format_action(self, action: A) -> str:
        """Print one action the way :meth:`parse_action` reads it."""
        return str(action)

    def __repr__(self) -> str:
        return f"get_game({self.spec!r})"

    def __eq__(self, other_: Any) -> bool:
        return type(self) is type(other_) and self.spec == other_.spec

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.spec))
