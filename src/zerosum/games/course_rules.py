"""How :class:`~zerosum.games.course.CourseGame` calls a person's game object, in the two styles courses write.

**The course's (and AIMA's) names**: ``initial_state`` (or AIMA's ``initial``; an attribute, a property or a
method of no arguments), ``actions(state)``, ``result(state, action)``, ``is_terminal(state)`` (or AIMA's
``terminal_test``), ``utility(state, player)``, ``to_move(state)`` (or ``player(state)``), and optionally one
of ``display(state)`` / ``print_state(state)`` (which may print) / ``render(state)`` and
``evaluate(state, player)``.  Players are whatever ``to_move`` returns ('X'/'O', 1/2, 'MAX'/'MIN').

**easyAI's names** (``TwoPlayerGame``): the object *is* the position: ``possible_moves()``,
``make_move(move)`` (then the player switches: ``switch_player()`` when the class has it, else
``current_player = 3 - current_player``), ``current_player`` (or the older ``nplayer``), ``scoring()`` (the
score for the player to move; at the end > 0 a win, < 0 a loss) or ``lose()`` / ``win()``, and optionally
``is_over()`` (default: no possible move), ``show()`` and ``ttentry()`` (a hashable key of the position).
A position is a copy of the object (``copy.deepcopy``, its ``players`` shared, not copied).

Each style is a small object with one vocabulary (:class:`Rules`): ``initial``, ``mover``, ``moves``,
``play``, ``over``, ``score`` (the first player's utility at the end), ``show``, ``key`` and ``evaluation``.
What a game lacks is found when it is adapted: each style's ``missing`` lists the methods to add, and
:data:`NEEDS` says what each must return, for one line naming them all.  How a state becomes hashable is
:func:`freeze`.
"""

from __future__ import annotations

import copy
import numbers
from typing import Any, Callable

from ..core.per_thread import captured_stdout
from ..errors import GameError, InvalidPositionError, InvalidSpecError
from ..game import Game, safe_repr
from .course_bugs import MAX_MESSAGE, GameBug, MethodFailed, describe_call_error, one_line, raised

__all__ = ["one_line", "NEEDS", "Rules", "CourseRules", "EasyRules", "rules_for", "freeze", "own", "plain_eq",
           "COURSE_NAMES", "describe_call_error", "GameBug", "MethodFailed", "MAX_MESSAGE"]

#: the names that make an object a course game (one is enough to be adapted, not refused as "no game")
COURSE_NAMES = ("actions", "result", "is_terminal", "terminal_test", "utility", "to_move", "possible_moves",
                "make_move", "initial", "initial_state")

#: how deep :func:`freeze` follows nested containers before it asks for a ``state_key``
MAX_NESTING = 40


#: what each method a style needs must do (the one-line error of a missing one names it so)
NEEDS = {
    "initial_state": "initial_state (or AIMA's initial): the start state",
    "actions": "actions(state) returning the legal moves (a list)",
    "result": "result(state, action) returning the next state (a new one)",
    "is_terminal": "is_terminal(state) (or terminal_test) returning True when the game is over",
    "utility": "utility(state, player) returning a number at the end (> 0 player won, < 0 lost, 0 a draw)",
    "to_move": "to_move(state) (or player) returning the player to move (any two values, such as 'X' and 'O')",
    "possible_moves": "possible_moves() returning the legal moves (a list)",
    "make_move": "make_move(move) playing move on the object itself",
    "current_player": "current_player: 1 or 2, the player to move (an attribute)",
    "scoring": "scoring() returning the score for the player to move (at the end > 0 a win, < 0 a loss, "
               "0 a draw), or lose() returning True when the player to move has lost",
}


def own(obj: Any, name: str) -> Any:
    """``obj``'s own attribute ``name``, or None: zerosum.Game's defaults and the stand-ins it gives course
    subclasses (:meth:`zerosum.game.Game.__init_subclass__`) are not the object's own."""
    if isinstance(obj, Game) and name not in getattr(obj, "__dict__", {}):
        attr = getattr(type(obj), name, None)
        if attr is None or attr is getattr(Game, name, None) or getattr(attr, "standin", False):
            return None
    try:
        return getattr(obj, name, None)
    except Exception:  # noqa: BLE001 - a property that fails is not there
        return None


def plain_eq(value: Any) -> bool:
    """True when ``value``'s class compares by identity (object's own ``__eq__``): its fields make its key."""
    return type(value).__eq__ is object.__eq__  # type: ignore[comparison-overlap]


def freeze(value: Any, depth: int = 0) -> Any:
    """A hashable key equal for equal positions: hashable values as they are; lists and tuples as tuples,
    dicts and sets as frozensets (their order does not count), numpy arrays by shape, type and bytes, and
    objects that compare by identity by their class and fields.  Anything else: InvalidPositionError asking
    for ``state_key(state)``."""
    if depth > MAX_NESTING:
        raise InvalidPositionError("a state nested deeper than 40 levels: add state_key(state) to the game, "
                                   "returning a hashable value equal for equal positions")
    kind = type(value)
    if kind in (int, str, float, bool, bytes, type(None)):
        return value
    try:  # the quick way: containers of hashable values
        if isinstance(value, (list, tuple)):
            return _hashed(tuple(value))
        if isinstance(value, dict):
            return _hashed(frozenset(value.items()))
        if isinstance(value, (set, frozenset)):
            return _hashed(frozenset(value))
    except TypeError:
        pass
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return frozenset((freeze(k, depth + 1), freeze(v, depth + 1)) for k, v in value.items())
    if isinstance(value, (set, frozenset)):
        return frozenset(freeze(v, depth + 1) for v in value)
    if hasattr(value, "tobytes") and hasattr(value, "shape") and hasattr(value, "dtype"):
        return ("array", tuple(value.shape), str(value.dtype), value.tobytes())
    if plain_eq(value) and hasattr(value, "__dict__"):
        return (kind.__qualname__, freeze(vars(value), depth + 1))
    try:
        hash(value)
    except TypeError:
        raise InvalidPositionError(
            f"a state holds a {kind.__name__}, which cannot be hashed: add state_key(state) to the game, "
            "returning a hashable value (a tuple) equal for equal positions") from None
    return value


def _hashed(value: Any) -> Any:
    hash(value)  # TypeError when something inside cannot be hashed
    return value


def _shown(call: Callable[[], Any]) -> str:
    """What ``call`` printed, else what it returned (``display`` prints, ``render`` returns): text as it is,
    None as nothing, anything else as ``print`` would show it."""
    with captured_stdout() as out:  # this thread's prints alone; sys.stdout as it was after
        back = call()
    if out.getvalue() or back is None:
        return out.getvalue().rstrip("\n")
    if isinstance(back, str):
        return back
    try:
        return str(back)
    except Exception:  # noqa: BLE001 - a value that cannot print itself is shown as zerosum shows values
        return safe_repr(back)


class Rules:
    """One style of calling a game object; see the module doc.  ``name`` is its class's name."""

    style = ""

    def __init__(self, obj: Any) -> None:
        self.obj, self.name = obj, type(obj).__name__
        custom = own(obj, "state_key")
        self.custom_key = custom if callable(custom) else None

    def call(self, what: str, func: Callable[..., Any], *args: Any) -> Any:
        """``func(*args)``; a bare NotImplementedError (AIMA's base class) becomes one line naming the method,
        and anything else your method raises one :class:`GameError` line naming it and the state."""
        try:
            return func(*args)
        except NotImplementedError as exc:
            raise InvalidSpecError(f"{self.name}.{what} is not written yet (it raised NotImplementedError"
                                   f"{': ' + str(exc) if str(exc) else ''}): {self.needs(what)}") from None
        except (GameError, RecursionError, KeyboardInterrupt):  # a search too deep for Python is named where
            raise  # the search began; Ctrl-C stops whatever runs
        except BaseException as exc:  # noqa: BLE001 - a person's code (sys.exit, GeneratorExit too): one line
            where = f" at state {safe_repr(args[0], 80)}" if args else ""
            raise MethodFailed(one_line(f"{self.name}.{what} {raised(exc)}{where}"), exc) from None

    def needs(self, what: str) -> str:
        return ""

    def on_start(self, role: str) -> str:
        """How the probe of a new game names the call of ``role`` on the start position, by the method's
        real name (``is_terminal(initial state)``, ``terminal_test(initial state)``, ``show()``)."""
        return {"key": "state_key(initial state)" if self.custom_key else "hash(initial state)"}.get(
            role, f"{role}(initial state)")

    missing: list[str] = []
    evaluation: Callable[..., Any] | None = None

    def key(self, value: Any) -> Any:
        """The hashable key of a state (``state_key(state)`` when the game has one, else :func:`freeze`)."""
        if self.custom_key is not None:
            return self.call("state_key(state)", self.custom_key, value)
        if not plain_eq(value):
            try:
                hash(value)
                return value
            except TypeError:
                pass
        return freeze(value)


class CourseRules(Rules):
    """The course's and AIMA's names (module doc)."""

    style = "course"

    def __init__(self, obj: Any) -> None:
        super().__init__(obj)
        self.first_of = {"initial_state": ("initial_state", "initial"), "actions": ("actions",),
                         "result": ("result",), "is_terminal": ("is_terminal", "terminal_test"),
                         "utility": ("utility",), "to_move": ("to_move", "player")}
        self.found = {role: next((n for n in names if own(obj, n) is not None), None)
                      for role, names in self.first_of.items()}
        self.missing = [role for role, name in self.found.items() if name is None]
        self.methods = {role: own(obj, name) for role, name in self.found.items() if name is not None}
        shows = [n for n in ("render", "display", "print_state") if callable(own(obj, n))]
        self.shower = own(obj, shows[0]) if shows else None
        self.show_name = shows[0] if shows else "repr"
        evaluate = own(obj, "evaluate")
        self.evaluation = evaluate if callable(evaluate) else None

    def needs(self, what: str) -> str:
        role = next((r for r, names in self.first_of.items() if what.split("(")[0] in names), what)
        return f"add {NEEDS.get(role, what)}"

    def on_start(self, role: str) -> str:
        name = {"display": self.show_name}.get(role) or self.found.get(role)
        return f"{name}(initial state)" if name else super().on_start(role)

    def method(self, role: str) -> Callable[..., Any]:
        return self.methods[role]  # type: ignore[no-any-return]

    def initial(self) -> Any:
        found = own(self.obj, self.found["initial_state"])  # type: ignore[arg-type]
        return self.call("initial_state()", found) if callable(found) else found

    def mover(self, value: Any) -> Any:
        return self.call(f"{self.found['to_move']}(state)", self.method("to_move"), value)

    def moves(self, value: Any) -> Any:
        return self.call("actions(state)", self.method("actions"), value)

    def play(self, value: Any, action: Any) -> Any:
        return self.call("result(state, action)", self.method("result"), value, action)

    def over(self, value: Any) -> Any:
        return self.call(f"{self.found['is_terminal']}(state)", self.method("is_terminal"), value)

    def score(self, value: Any, player: Any) -> Any:
        return self.call("utility(state, player)", self.method("utility"), value, player)

    def show(self, value: Any) -> str:
        shower = self.shower
        if shower is None:
            return repr(value)
        return _shown(lambda: self.call(f"{self.show_name}(state)", shower, value))

    def evaluate(self, value: Any, player: Any) -> Any:
        return self.evaluation(value, player)  # type: ignore[misc]


class EasyRules(Rules):
    """easyAI's names (module doc): a position is a copy of the object."""

    style = "easyAI"

    def __init__(self, obj: Any) -> None:
        super().__init__(obj)
        self.turn = next((n for n in ("current_player", "nplayer") if own(obj, n) is not None), None)
        self.missing = [n for n in ("possible_moves", "make_move") if not callable(own(obj, n))]
        self.missing += [] if self.turn else ["current_player"]
        self.ends = [n for n in ("scoring", "lose", "win") if callable(own(obj, n))]
        if not self.ends:
            self.missing.append("scoring")
        self.evaluation = own(obj, "scoring") if "scoring" in self.ends else None

    def needs(self, what: str) -> str:
        return f"add {NEEDS.get(what.split('(')[0], what)}"

    def on_start(self, role: str) -> str:
        over = "is_over()" if callable(getattr(self.obj, "is_over", None)) else "possible_moves()"
        named = {"key": "ttentry()" if callable(getattr(self.obj, "ttentry", None)) else "the key",
                 "to_move": self.turn, "is_terminal": over, "display": "show()"}.get(role, f"{role}()")
        return f"{named} of the initial position"

    def copy(self, value: Any) -> Any:
        players = getattr(value, "__dict__", {}).get("players")
        return copy.deepcopy(value, {id(players): players} if players is not None else {})

    def initial(self) -> Any:
        return self.copy(self.obj)

    def mover(self, value: Any) -> Any:
        return getattr(value, self.turn)  # type: ignore[arg-type]

    def moves(self, value: Any) -> Any:
        return self.call("possible_moves()", value.possible_moves)

    def play(self, value: Any, action: Any) -> Any:
        after = self.copy(value)
        self.call("make_move(move)", after.make_move, action)
        switch = getattr(after, "switch_player", None)
        if callable(switch):
            self.call("switch_player()", switch)
        else:
            setattr(after, self.turn, 3 - getattr(after, self.turn))  # type: ignore[arg-type]
        return after

    def over(self, value: Any) -> Any:
        done = getattr(value, "is_over", None)
        return self.call("is_over()", done) if callable(done) else not list(self.moves(value))

    def score(self, value: Any, player: Any) -> Any:
        """The score at the end for ``player``: scoring() (the mover's view), else lose() / win()."""
        sign = 1 if self.mover(value) == player else -1
        if "scoring" in self.ends:
            mine = self.call("scoring()", value.scoring)
        elif "lose" in self.ends and self.call("lose()", value.lose):
            mine = -1
        else:
            mine = 1 if "win" in self.ends and self.call("win()", value.win) else 0
        return mine * sign if isinstance(mine, numbers.Real) and not isinstance(mine, bool) else mine

    def show(self, value: Any) -> str:
        shower = getattr(value, "show", None)
        if not callable(shower):
            return repr(value)
        return _shown(lambda: self.call("show()", shower))

    def evaluate(self, value: Any, player: Any) -> Any:
        return self.score(value, player)

    def key(self, value: Any) -> Any:
        entry = getattr(value, "ttentry", None)
        if callable(entry):
            return self.call("ttentry()", entry)
        fields = {k: v for k, v in vars(value).items() if k != "players"}
        return freeze(fields)


def rules_for(obj: Any) -> "CourseRules | EasyRules":
    """The style ``obj`` is written in: easyAI's when it has ``possible_moves`` or ``make_move``."""
    easy = any(callable(own(obj, n)) for n in ("possible_moves", "make_move"))
    return EasyRules(obj) if easy else CourseRules(obj)
