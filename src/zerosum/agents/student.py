"""A person's own functions, checked: probed once when first met, and their answers checked while searching.

An evaluation ``f(game, state, player) -> number`` given to a search (``eval=path/to/file.py:fn``, or any
callable as ``eval=``) fails early and in one line, naming the function (``file.py:fn``), the position (its
move string) and what was expected:

* **when it is loaded**: a function that cannot be called as ``f(game, state, player)`` (a wrong
  signature) is refused at once (:func:`check_signature`);
* **when it first meets a game** (before the first search of that game, :func:`probe_evaluation`): it is
  called on the start position and on a few positions of one fixed random game (seed 0, at most
  ``PROBE_PLIES`` plies); an exception, ``None`` (a missing ``return``), NaN, an infinity, a bool or
  anything that is not a real number is one :class:`~zerosum.errors.AgentError` line;
* **while searching** (:func:`checked`): every value it returns is checked the same way, for the price of
  one type test on the common answers (a Python ``int`` or a finite ``float``); numpy numbers, fractions and
  the like take a slower check.  The searches that run compiled code (alpha-beta's and MCTS's numba paths)
  never call a Python evaluation, so they pay nothing.

**The view check.**  An evaluation is called with the side to move and scores for it, unless it declares
another point of view (``@evaluation(view="second")``: :mod:`zerosum.agents.heuristics`).  A function
written from one fixed side (the 8 x 8 homework's scores for O, whoever moves) and not declared is read from
the wrong side half the time, silently.  What can be told from its values: if, on the probed positions, it
returns the same value for player 1 as for player 2 everywhere, that value is not 0 somewhere, and not
every value is the same (a constant is no side's score), its answer does not depend on the ``player`` it is
asked about; the probe then refuses it, in one line saying how to declare it (the one rule, shared with a
course game's own ``evaluate`` method: :func:`zerosum.games.course_players.ignores_player`).  What
cannot be told: which side such a function scores for (the message names both declarations), and a function
that ignores ``player`` because it reads the side to move from the state itself (correct as it is: declare
``@evaluation(view="mover")`` and the check is skipped).  A function that depends on ``player`` only a
little (a fixed-side score plus a small term in ``player``), or that scores 0 on every probed position, is
not caught.  A function that declares any view is not checked for it.
"""

from __future__ import annotations

import math
import numbers
import os
import sys
import weakref
from typing import Any, Callable

from ..core.files import describe_exception
from ..errors import AgentError
from ..game import Game, safe_repr
from ..values import HEURISTIC_BOUND
from ..games.course_bugs import raised
from ..games.course_players import PROBE_PLIES, ignores_player, probe_positions
from .positions import position_name

__all__ = ["check_signature", "probe_evaluation", "checked", "function_name", "bad_value",
           "probe_player", "player_raised", "player_answer", "PROBE_PLIES"]

#: (function, game key) pairs probed already, so that each function meets each game once per process
_PROBED: "weakref.WeakKeyDictionary[Any, set[Any]]" = weakref.WeakKeyDictionary()


def function_name(func: Any) -> str:
    """How a message names ``func``: ``path/to/file.py:name`` for a function defined in a file, else its
    name (a notebook's function, a callable object's class)."""
    name = getattr(func, "__qualname__", None) or getattr(func, "__name__", None) or type(func).__name__
    name = str(name).rpartition("<locals>.")[2]  # a function made inside another: its own name
    filename = getattr(getattr(func, "__code__", None), "co_filename", "")
    if filename.endswith(".py") and os.path.isfile(filename) and "ipykernel" not in filename:
        try:
            shown = os.path.relpath(filename)
        except ValueError:  # another drive (Windows)
            shown = filename
        return f"{shown if not shown.startswith('..') else filename}:{name}"
    return str(name)


def check_signature(func: Any, what: str = "evaluation", call: str = "f(game, state, player)") -> None:
    """One AgentError line when ``func`` cannot be called with as many positional arguments as ``call``
    names (a function whose signature cannot be read, a builtin, passes)."""
    import inspect

    count = call.count(",") + 1
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*range(count))
    except TypeError:
        raise AgentError(f"{what} {function_name(func)}({', '.join(signature.parameters)}) cannot be called as "
                         f"{call}: expected "
                         f"{count} arguments, {call[call.index('(') + 1:-1]}") from None


def bad_value(value: Any) -> str | None:
    """Why ``value`` is no evaluation (``returned None (a missing return?)``), or None for a finite real
    number.  A bool is refused: ``True`` is a number only by accident."""
    if value is None:
        return "returned None (a missing return?)"
    if isinstance(value, bool):
        return f"returned {value!r}, a bool"
    if not isinstance(value, numbers.Real):
        return f"returned {safe_repr(value)} ({type(value).__name__})"
    try:
        finite = math.isfinite(value)
    except OverflowError:  # a whole number too large for a float is still finite
        return None
    except (TypeError, ValueError):  # a Real that will not convert
        return f"returned {safe_repr(value)} ({type(value).__name__})"
    return None if finite else f"returned {safe_repr(value)}"


def _fail(name: str, game: Game[Any, Any], state: Any, player: Any, why: str,
          players: Callable[[Any], str] | None = None, call: str = "f(game, state, player)") -> AgentError:
    return AgentError(f"evaluation {name} {why} at {position_name(game, state)} for {_player(player, players)}: "
                      f"expected a finite number ({call} -> int or float)")


def _player(player: Any, players: Callable[[Any], str] | None) -> str:
    """How a message names ``player``: ``players(player)`` when given (a course game's own names for its
    players), else ``player 1``."""
    return players(player) if players is not None else f"player {player}"


def _call(func: Any, name: str, game: Game[Any, Any], state: Any, player: int) -> Any:
    """``func(game, state, player)``, its value checked; one AgentError line for anything wrong."""
    try:
        value = func(game, state, player)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a person's code: any failure (sys.exit too) is one line
        raise AgentError(f"evaluation {name} {raised(exc)} at {position_name(game, state)} "
                         f"for player {player}") from None
    why = bad_value(value)
    if why is not None:
        raise _fail(name, game, state, player, why)
    return value


def checked(func: Callable[..., Any], name: str | None = None, *, players: Callable[[Any], str] | None = None,
            call: str = "f(game, state, player)",
            passes: tuple[type[BaseException], ...] = ()) -> Callable[..., Any]:
    """``func(game, state, player)`` with every answer checked (see the module doc): the value as it is, or
    one AgentError line naming ``name`` (default: :func:`function_name`), the position and the player.

    For a game's own evaluation written by a person (a course game's ``evaluate(state, player)``:
    :meth:`zerosum.games.course.CourseGame.evaluations`): ``players`` names the players as that game does
    (``player 1 ('MAX')``), ``call`` is how the function is called (the message's expected form),
    and exceptions of the kinds ``passes`` leave as they are (the game's own bug, named already)."""
    shown = name or function_name(func)

    def evaluate(game: Any, state: Any, player: int) -> Any:
        try:
            value = func(game, state, player)
        except passes:
            raise
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - as _call
            raise AgentError(f"evaluation {shown} {raised(exc)} at "
                             f"{position_name(game, state)} for {_player(player, players)}") from None
        if type(value) is int or (type(value) is float and value - value == 0.0):  # the common answers
            if -HEURISTIC_BOUND <= value <= HEURISTIC_BOUND or shown in _NOTED:
                return value
        else:
            why = bad_value(value)
            if why is not None:
                raise _fail(shown, game, state, player, why, players, call)
            if shown in _NOTED or -HEURISTIC_BOUND <= value <= HEURISTIC_BOUND:
                return value
        _NOTED.add(shown)
        _note(f"evaluation {shown} returned {safe_repr(value, 40)} at {position_name(game, state)}: the searches "
              f"count any value past ±{HEURISTIC_BOUND:,} as ±{HEURISTIC_BOUND:,}, so moves it tells apart only "
              "beyond that look alike; scale it down (said once a run)")
        return value

    evaluate.__name__ = getattr(func, "__name__", "evaluation")
    if hasattr(func, "view"):
        evaluate.view = func.view  # type: ignore[attr-defined]
    return evaluate


#: the evaluations (by name) whose values past the bound were said, once a process (:func:`checked`)
_NOTED: set[str] = set()


def _note(text: str) -> None:
    """``zerosum: note: text``, a line on standard error (if there is one to write to)."""
    try:
        if sys.stderr is not None:
            print(f"zerosum: note: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):  # standard error closed
        pass


def probe_evaluation(func: Callable[..., Any], game: Game[Any, Any], view: str = "mover") -> None:
    """Call ``func`` on :func:`~zerosum.games.course_players.probe_positions` (once per function and game in a process): one AgentError
    line for a value that is no number, and for an undeclared function whose value does not depend on the
    player it is asked about (the view check of the module doc).  ``view``: the function's declared view."""
    key = game.spec or id(game)
    try:
        seen = _PROBED.setdefault(func, set())
    except TypeError:  # not weakly referable (a bound method, a callable object without __weakref__)
        seen = set()
    if key in seen:
        return
    name = function_name(func)
    check_signature(func)
    fixed = {"first": (1,), "second": (2,)}.get(view, (1, 2))
    values = []
    for state, _ in probe_positions(game):
        values.append((state, *(_call(func, name, game, state, p) for p in fixed)))
    if view == "mover" and not hasattr(func, "view") and (found := ignores_player(values)) is not None:
        state, value = found

        def who(n: int) -> str:  # the game's own name of the player: O, MIN (not "O" in a game without one)
            label = str(game.player_label(n))
            return f"player {n}" if label.startswith("player") else f"player {n}, {label}"

        raise AgentError(
            f"evaluation {name} gives {safe_repr(value)} for player 1 and for player 2 at "
            f"{position_name(game, state)}: it scores from one fixed side, but is called with the side to "
            f"move; declare its side with @evaluation(view=\"second\") ({who(2)}) or view=\"first\" "
            f"({who(1)}), or @evaluation(view=\"mover\") if it reads the side to move from the state "
            f"(from zerosum.agents.heuristics import evaluation)")
    seen.add(key)


def probe_player(func: Callable[..., Any], game: Game[Any, Any], name: str | None = None) -> Any:
    """Call player ``func(game, state) -> action`` on the start position: its action, or one AgentError line
    naming the function for a wrong signature, an exception, or an answer that is not one of the legal
    actions (Python's numbering: ``game.actions(state)``)."""
    shown = name or function_name(func)
    check_signature(func, "player", "f(game, state)")
    state = game.initial_state
    try:
        action = func(game, state)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - a person's code (sys.exit too)
        raise AgentError(f"player {player_raised(shown, exc, game, state)}") from None
    if _plain(action) in game.actions(state):
        return action
    raise AgentError(f"player {player_answer(shown, action, game, state)}")


def player_raised(shown: str, exc: BaseException, game: Game[Any, Any], state: Any) -> str:
    """``f(game, state) raised ZeroDivisionError: division by zero at the start position``: a player
    function's exception in words (``shown``: how it is named), for its forfeit's reason."""
    return f"{shown} raised {describe_exception(exc)} at {position_name(game, state)}"


def player_answer(shown: str, action: Any, game: Game[Any, Any], state: Any) -> str:
    """``f(game, state) returned '0' (str) at the start position: expected one of the legal actions [0, 1,
    ...] (int, numbered as in Python)``: a player function's answer that is no action, in words.  Nothing of
    ``action`` runs (its repr is bounded and guarded)."""
    legal = game.actions(state)
    kinds = sorted({type(a).__name__ for a in legal})
    return (f"{shown} returned {safe_repr(action)} ({type(action).__name__}) at {position_name(game, state)}: "
            f"expected one of the legal actions {safe_repr(legal, 60)} ({' or '.join(kinds)}, numbered as in "
            f"Python)")


def _plain(action: Any) -> Any:
    """``action`` as the games number actions (a whole number, or a tuple of them), or None: a float, a
    bool or a string is no action, however it compares."""
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        return int(action)
    if type(action) in (tuple, list):
        items = tuple(_plain(v) for v in action)
        return None if any(v is None or isinstance(v, tuple) for v in items) else items
    return None
