"""A position of a course game (:class:`CourseState`: your state with the key it is compared by), what a
course game's actions must be to pass through the arena as they are (:func:`plain_action`), and how the
legal moves keep an action that does not hash (:func:`hashable_action`: a dict stays a dict, a
:class:`FrozenDict`; a list becomes a tuple) or that is not equal to itself (:func:`unequal_action`: NaN,
which no look-up ever finds, one GameBug line).

A state keeps what :class:`~zerosum.games.course.CourseGame` learns about it once (a state never changes):
its key, its legal actions, where each action stands among them (so that ``result`` finds a move in constant
time however many there are) and its outcome.
"""

from __future__ import annotations

from typing import Any

from ..game import safe_repr
from .course_rules import freeze

__all__ = ["CourseState", "FrozenDict", "plain_action", "hashable_action", "unequal_action", "first_unequal"]


class CourseState:
    """A position of a course game: your state (``value``) with the key it is compared and hashed by, read as
    your state is (its fields, unpacking, indexing: a player or an evaluation written for your game works on it)."""

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
        is none of them.  A scan the first time, a dict look-up after; an unhashable action (your dict, your
        list) is looked up again as the legal moves keep it (:func:`hashable_action`)."""
        moves: list[Any] = self._moves  # type: ignore[assignment]
        table = self._index
        try:
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
        except ValueError:
            kept = hashable_action(action)
            if kept is action:
                raise
            return self.index_of(kept)

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

    # your state read as your own code reads it: unpacked (``piles, player = state``), indexed (``state[0]``),
    # measured and searched, as the value itself is (its own TypeError where it is none of those); and always
    # true, as any state is (an empty tuple of yours is still a position)
    def __iter__(self) -> Any:
        return iter(self.value)

    def __len__(self) -> int:
        return len(self.value)

    def __getitem__(self, index: Any) -> Any:
        return self.value[index]

    def __contains__(self, item: Any) -> bool:
        return item in self.value

    def __bool__(self) -> bool:
        return True

    def _repr_svg_(self) -> str:
        return self._game.svg(self)  # type: ignore[no-any-return]


def plain_action(action: Any) -> bool:
    """True for an action the arena passes as it is: a whole number, or a tuple of whole numbers."""
    return type(action) is int or (type(action) is tuple and all(type(v) is int for v in action))


class FrozenDict(dict):  # type: ignore[type-arg]
    """A dict action of yours as the legal moves keep it: a dict equal to yours and printed as yours (the
    game's own notation, ``{'n':1}``), hashed by its contents (as :func:`~.course_rules.freeze` keys them),
    and never changed (a legal move that changed would no longer be found)."""

    __slots__ = ("_hash",)

    def __init__(self, items: Any) -> None:
        super().__init__(items)
        self._hash = hash(freeze(self))

    def __hash__(self) -> int:  # type: ignore[override]
        return self._hash

    def _unchangeable(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a legal move cannot be changed: copy it first (dict(action))")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _unchangeable

    def __reduce__(self) -> Any:
        return FrozenDict, (dict(self),)


def hashable_action(action: Any) -> Any:
    """``action`` itself when it hashes, a :class:`FrozenDict` for a dict, else its
    :func:`~.course_rules.freeze` (a list becomes a tuple)."""
    try:
        hash(action)
        return action
    except TypeError:
        return FrozenDict(action) if isinstance(action, dict) else freeze(action)


def unequal_action(action: Any, depth: int = 0) -> bool:
    """True for an action not equal to itself: NaN (``nan != nan``), or one holding NaN, or whose ``==``
    says False.  The legal moves could never find it, not even its own copy.  (An ``==`` that fails or
    answers no truth value, as a numpy array's, is not judged here.)"""
    kind = type(action)
    if kind is int or kind is str or kind is bool or depth > 40:
        return False
    if kind is float:
        return bool(action != action)
    if kind is tuple or kind is list or kind is frozenset or kind is set:
        return any(unequal_action(v, depth + 1) for v in action)
    if isinstance(action, dict):
        return any(unequal_action(k, depth + 1) or unequal_action(v, depth + 1) for k, v in action.items())
    try:
        return not bool(action == action)
    except Exception:  # noqa: BLE001 - no truth value: the look-up decides
        return False


def first_unequal(actions: list[Any]) -> int:
    """Where the first action not equal to itself (:func:`unequal_action`) stands in ``actions``, -1 when none
    does; whole numbers and tuples of them (most games' moves) are passed over at once."""
    for i, action in enumerate(actions):
        kind = type(action)
        if kind is int:
            continue
        if kind is tuple:
            for v in action:
                if type(v) is not int:
                    break
            else:
                continue
        if unequal_action(action):
            return i
    return -1
