"""One adapter per game object (:func:`course_game`), what agents are handed (:func:`course_input`),
zerosum.Game subclassed with the course's names (:func:`complete_subclass`), and the arena's numbered view
of a game whose moves are not numbers (:class:`NumberedGame`).

**Numbered moves.**  The arena passes only whole numbers and tuples of them between an agent and the game
(nothing an agent returns may run code when it is compared or printed).  A game whose actions are other
values (easyAI's Nim plays ``"2,3"``) is played there through :class:`NumberedGame`: each action is the
whole number that spells its notation (``str(action)`` without spaces, as UTF-8 bytes after a 1 byte), so it
means the same in every process and reads back without a position; people and records see the notation.
A game loaded from a file (``get_game("nim.py:Nim")``) is that view; an object (``get_game(Nim())``) keeps
your own actions, and ``play_game``/``match`` hand its numbered view to the arena themselves.
"""

from __future__ import annotations

import sys
import weakref
from typing import Any, Callable

from ..errors import AgentError, GameError, IllegalMoveError, InvalidMoveError, InvalidSpecError
from ..game import COURSE_HOOKS, Game
from .course import CourseGame, CourseState, plain_action
from .course_rules import COURSE_NAMES, GameBug, own

__all__ = ["course_game", "course_input", "is_course_game", "object_game", "arena_view", "NumberedGame",
           "complete_subclass", "too_deep"]

_BY_OBJECT: "weakref.WeakValueDictionary[int, CourseGame]" = weakref.WeakValueDictionary()
_BY_SPEC: "weakref.WeakValueDictionary[str, CourseGame]" = weakref.WeakValueDictionary()


def is_course_game(obj: Any) -> bool:
    """True for a zerosum Game subclass written with the course's names, and for any object that has one of
    them (a complete game or not: :func:`course_game` names what is missing)."""
    if isinstance(obj, Game):
        return bool(obj.COURSE)
    try:
        return any(own(obj, name) is not None for name in COURSE_NAMES)
    except Exception:  # noqa: BLE001 - a hostile object is no game
        return False


def course_game(obj: Any, spec: str | None = None) -> CourseGame:
    """The zerosum Game of ``obj`` (one per object: asked again, the same one)."""
    if isinstance(obj, CourseGame):
        return obj
    if isinstance(obj, type):
        raise InvalidSpecError(f"{obj.__name__} is a class: pass a game made from it, such as {obj.__name__}()")
    known = _BY_OBJECT.get(id(obj))
    if known is not None and known.obj is obj and (spec is None or known.spec == spec):
        game = known
    else:
        game = CourseGame(obj, spec if spec is not None else f"<{type(obj).__name__}>")
        _BY_OBJECT[id(obj)] = game
    _BY_SPEC[game.spec] = game  # an object's spec, <TicTacToe>, names the one asked for last (in a match: its own)
    return game


def object_game(spec: str) -> CourseGame | None:
    """The game of an object adapted in this process, by its spec (``<TicTacToe>``: of two objects of one class,
    the one asked for last), or None."""
    return _BY_SPEC.get(spec)


def course_input(game: Any, state: Any) -> tuple[Any, Any]:
    """What an agent is handed, as zerosum sees it: a course object becomes its :class:`CourseGame`, and a
    position (your state, a move string, a list of your actions, None) its :class:`CourseState`; anything
    else is returned as it is (the agent's own checks name it)."""
    if not is_course_game(game):
        return game, state
    adapted = course_game(game)
    return adapted, adapted.position(state)


# ---- the arena's view: moves as whole numbers -------------------------------------------------------------

def _number(text: str) -> int:
    return int.from_bytes(b"\x01" + text.encode("utf-8"), "big")


def _text(number: int) -> str:
    data = number.to_bytes((number.bit_length() + 7) // 8, "big")
    if not data or data[0] != 1:
        raise ValueError(number)
    return data[1:].decode("utf-8")


class NumberedGame(CourseGame):
    """``base`` with every action numbered by its notation (the module doc); its states are ``base``'s."""

    def __init__(self, base: CourseGame) -> None:  # noqa: D107 - shares everything with base
        self.__dict__.update(base.__dict__)
        self.base = base

    def check_state(self, state: Any) -> CourseState:
        return self.base.check_state(state)

    def actions(self, state: CourseState) -> list[Any]:
        return [_number(self.base.format_action(a)) for a in self.base.actions(state)]

    def _own(self, number: Any, state: CourseState) -> Any:
        try:
            text = _text(number) if type(number) is int and number > 0 else None
        except (ValueError, OverflowError, UnicodeDecodeError):
            text = None
        if text is None:
            raise InvalidMoveError(f"an action of the numbered {self.name_} is a number from "
                                   f"game.actions(state), not {number!r}")
        found = [a for a in self.base.actions(state) if self.base.format_action(a) == text]
        if not found:
            raise IllegalMoveError(f"{text} is not a legal move here")
        return found[0]

    def result(self, state: CourseState, action: Any) -> CourseState:
        return self.base.result(state, self._own(action, self.check_state(state)))

    def format_action(self, action: Any) -> str:
        try:
            return _text(action) if type(action) is int and action > 0 else self.base.format_action(action)
        except (ValueError, UnicodeDecodeError):
            return str(action)

    def parse_action(self, text: str, state: CourseState | None = None) -> Any:
        return _number(self.base.format_action(self.base.parse_action(text, state)))

    def __eq__(self, other: Any) -> bool:
        return type(other) is NumberedGame and other.base == self.base

    def __hash__(self) -> int:
        return hash(("numbered", self.spec))


def arena_view(game: Game[Any, Any]) -> Game[Any, Any]:
    """The game the arena plays for ``game``: its :class:`NumberedGame` when it is a course game whose start
    position has an action that is not a whole number or a tuple of them, else ``game`` itself."""
    if type(game) is not CourseGame:
        return game
    if all(plain_action(a) for a in game.actions(game.initial_state)):
        return game
    view = game.__dict__.get("numbered")
    if view is None:
        view = game.__dict__["numbered"] = NumberedGame(game)
    return view


def too_deep(game: Any, state: Any, who: str) -> GameError:
    """The one line for a search of ``who`` on course game ``game`` from ``state`` that recursed past Python's
    limit: the game's own :class:`~.course_rules.GameBug` when it does not end (the first legal move
    followed from ``state`` until the game ends or :data:`~.course.MAX_PLIES` plies pass), else an
    :class:`~zerosum.errors.AgentError` asking for a depth limit."""
    try:
        current = game.position(state)
        while not game.is_terminal(current):
            current = game.result(current, game.actions(current)[0])
    except GameBug as exc:
        return exc
    except Exception:  # noqa: BLE001 - the search's own error line follows
        pass
    return AgentError(f"{who}: the search of {game.title} went deeper than Python allows (about "
                      f"{sys.getrecursionlimit():,} nested calls): give it a depth limit (depth=N)")


# ---- zerosum.Game subclassed with the course's names ----------------------------------------------------

def _standin(name: str) -> Callable[..., Any]:
    """A course subclass's ``name`` (``outcome``, ``render``...) answered by its adapter."""

    def method(self: Any, state: Any, *args: Any) -> Any:
        adapter = course_game(self)
        return getattr(adapter, name)(adapter.check_state(state), *args)

    method.__name__ = method.__qualname__ = name
    method.standin = True  # type: ignore[attr-defined]
    return method


class _InitialState(property):
    """A course subclass's ``initial_state``: its own once it sets one (``self.initial_state = ...``), else its
    adapter's (from AIMA's ``initial``)."""

    standin = True

    def __init__(self) -> None:
        def get(game: Any) -> Any:
            mine = getattr(game, "__dict__", {})
            return mine["initial_state"] if "initial_state" in mine else course_game(game).initial_state.value

        def put(game: Any, value: Any) -> None:
            game.__dict__["initial_state"] = value

        super().__init__(get, put)


def complete_subclass(cls: type) -> None:
    """Fill in what a zerosum.Game subclass written with the course's names leaves abstract (called by
    :meth:`zerosum.game.Game.__init_subclass__`), so it can be made; its adapter plays it."""
    for name in ("outcome", "render", "player", "actions", "result", "initial_state"):
        if getattr(getattr(cls, name, None), "__isabstractmethod__", False):
            setattr(cls, name, _InitialState() if name == "initial_state" else _standin(name))


COURSE_HOOKS.update(subclass=complete_subclass, input=course_input)
