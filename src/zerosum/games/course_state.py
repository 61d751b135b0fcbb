"""A position of a course game (:class:`CourseState`: your state with the key it is compared by) and what a
course game's actions must be to pass through the arena as they are (:func:`plain_action`).

A state keeps what :class:`~zerosum.games.course.CourseGame` learns about it once (a state never changes):
its key, its legal actions, where each action stands among them (so that ``result`` finds a move in constant
time however many there are) and its outcome.
"""

from __future__ import annotations

from typing import Any

from ..game import safe_repr
from .course_rules import freeze

__all__ = ["CourseState", "plain_action", "hashable_action"]


class CourseState:
    """A position of a course game: your state (``value``) with the key it is compared and hashed by."""

    __slots__ = ("value", "_key", "_game", "_moves", "_raw", "_end", "_ply", "_index")

    def __init__(self, game: Any, value: Any, ply: int = 0) -> None:
        self.value, self._game, self._key = value, game, self
        self._ply = ply  # plies played from the start (0 for a state handed in as it is)
        self._moves: list[Any] | None = None  # the legal actions, once asked (a state never changes)
        self._raw: list[Any] | None = None  # your own actions, where some had to be made hashable
        self._end: Any = self  # the outcome once asked (self: not asked yet)
        # where each action stands in _moves: None (not looked up yet), False (looked up once, by a scan), or
        # a dict action -> its first index (built at the second look-up: a state expanded, not just played)
        self._index: dict[Any, int] | bool | None = None

    @property
    def key(self) -> Any:
        """The hashable key this state is compared by (derived when first asked: see the module doc)."""
        if self._key is self:
            self._key = self._game.rules.key(self.value)
        return self._key

    def index_of(self, action: Any) -> int:
        """Where ``action`` stands among the legal actions (``_moves``, filled already): ValueError when it
        is none of them.  A scan the first time, a dict look-up after; an unhashable action is scanned."""
        moves: list[Any] = self._moves  # type: ignore[assignment]
        table = self._index
        if table is None:
            self._index = False
            return moves.index(action)
        if table is False:
            table = {}
            for i, legal in enumerate(moves):
                table.setdefault(legal, i)
            self._index = table
        try:
            return table[action]  # type: ignore[index]
        except KeyError:
            raise ValueError(action) from None
        except TypeError:  # an unhashable action: compared as list.index compares
            return moves.index(action)

    def __eq__(self, other: object) -> bool:
        return type(other) is CourseState and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        if type(self.value).__repr__ is not object.__repr__:  # type: ignore[comparison-overlap]
            return f"CourseState({safe_repr(self.value, 200)})"
        try:  # an object without a repr of its own (easyAI's game): what it shows, on one line
            shown = " / ".join(line.strip() for line in self._game.render(self).splitlines() if line.strip())
        except Exception:  # noqa: BLE001 - a show() that fails still leaves a repr
            shown = object.__repr__(self.value)
        return f"CourseState({type(self.value).__name__}: {shown[:200]})"

    def __getattr__(self, name: str) -> Any:
        """Your state's own fields (``state.board``), so a player function written for your game reads them."""
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(object.__getattribute__(self, "value"), name)

    def _repr_svg_(self) -> str:
        return self._game.svg(self)  # type: ignore[no-any-return]


def plain_action(action: Any) -> bool:
    """True for an action the arena passes as it is: a whole number, or a tuple of whole numbers."""
    return type(action) is int or (type(action) is tuple and all(type(v) is int for v in action))


def hashable_action(action: Any) -> Any:
    """``action`` itself when it hashes, else its :func:`~.course_rules.freeze` (a list becomes a tuple)."""
    try:
        hash(action)
        return action
    except TypeError:
        return freeze(action)
