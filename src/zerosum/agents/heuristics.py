"""Evaluation functions for depth-limited search, each usable by name (``alphabeta:eval=window``).

An evaluation is ``f(game, state, player) -> number``: how good ``state`` looks for ``player``, positive
when ``player`` is ahead.  It may return any real number (fractions are kept, never cut to whole numbers).
Every evaluation here is antisymmetric (``f(.., 1) == -f(.., 2)``) and returns whole numbers, so the numba
kernels of :mod:`zerosum.agents.kernels` reproduce them exactly.

Its point of view is declared with :func:`evaluation` (``@evaluation(view="first")``) and adapted by the
searches (:func:`for_mover`): ``mover`` (the default) is called with the side to move and scores for it;
``player`` is called with the player the search chooses a move for (the root's side to move) and scores
for that player wherever it is evaluated; ``first`` / ``second`` score for player 1 / 2 whoever moves (the
8 x 8 homework's fixed-player evaluation).  ``eval=path/to/file.py:fn`` names a function in a file
(:func:`load_evaluation`).  A person's function is checked (:mod:`zerosum.agents.student`): a wrong
signature when it is loaded; ``None``, NaN, an infinity or a non-number, and an undeclared fixed-side view,
when it first meets a game; every value it returns while searching.

* ``window`` -- the classic course evaluation, :func:`window_eval`: over every line of k cells, k-1 of a
  player's stones and one empty cell count ``three``, k-2 stones and two empties count ``two``; the player's
  total minus the opponent's.  A board where a player already has k in a row scores ``±sys.maxsize`` (the
  searches never call it there: they score finished games as proven wins and losses).
* ``threats`` -- :func:`threats_eval`, a stronger Connect-X evaluation: ``window`` plus the cells that would
  complete a line (threats), weighted by whether their row parity suits their owner (first player: odd rows
  counted from 1 at the bottom; second player: even rows), a quarter when an opposing threat lies below it
  in its column (that one will be met first), a bonus for a threat right above another of the same player,
  plus centre control; a threat the side to move can play at once, or two the opponent can, decide the game.
  It beats ``window`` at equal depth (docs/agents.md gives the match).
* ``runs`` -- Connect-X's :func:`zerosum.games.connectx_eval.runs_eval`, the run-length heuristic of the
  course's Connect Four comparison: every maximal run of L stones (2 <= L < k) in a row, column or
  diagonal counts ``10 ** (L - 1)``, blocked or not; the player's total minus the opponent's.
* ``mobility`` -- :func:`mobility_eval`, for Migration and any game without a better one: the difference
  in the number of legal moves, times ``MOBILITY_SCALE``.
"""

from __future__ import annotations

import inspect
import os
from functools import lru_cache
from typing import Any, Callable

from ..errors import AgentError
from ..game import Game, other
from ..spec import listed, quoted

__all__ = [
    "evaluation",
    "own",
    "for_mover",
    "student_evaluation",
    "load_evaluation",
    "VIEWS",
    "MAX_EVAL_PATH",
    "window_eval",
    "threats_eval",
    "mobility_eval",
    "EVALUATIONS",
    "get_evaluation",
    "bind_evaluation",
    "default_evaluation",
    "MOBILITY_SCALE",
]

Evaluation = Callable[[Game[Any, Any], Any, int], float]

# ---- the evaluations live with their games (games/connectx_eval.py: windows, threats, their weights) --
#: per legal move of difference
MOBILITY_SCALE = 10


def own(game: Game[Any, Any], name: str) -> Callable[..., float] | None:
    """The game's own evaluation called ``name`` (its :meth:`~zerosum.game.Game.evaluations`), or None; a
    person's (a course game's ``evaluate``, marked ``student``) with every answer checked
    (:func:`zerosum.agents.student.checked`)."""
    found = game.evaluations().get(name)
    marked = getattr(found, "student", None)
    if found is None or marked is None:
        return found
    from .student import checked

    shown, players, call, passes = marked
    checked_one = checked(found, shown, players=players, call=call, passes=passes)
    checked_one.__name__ = name
    return checked_one


def _offered(game: Game[Any, Any], name: str) -> Evaluation:
    """The game's own evaluation called ``name`` (its :meth:`~zerosum.game.Game.evaluations`)."""
    found = own(game, name)
    if found is None:
        offered = ", ".join(game.evaluations()) or "none"
        raise AgentError(f"{game.title} ({game.spec!r}) has no {name} evaluation: it offers {offered}")
    return found


def window_eval(game: Game[Any, Any], state: Any, player: int, three: int = 50, two: int = 10) -> float:
    """The classic course evaluation (games made of lines of cells: Connect-X, Tic-Tac-Toe).

    Over every line of k cells: k-1 of a player's stones and one empty cell count ``three`` for that player,
    k-2 stones and two empty cells count ``two``.  The result is ``player``'s total minus the opponent's;
    ``+sys.maxsize`` / ``-sys.maxsize`` when a player has k in a row.
    """
    if player not in (1, 2):
        raise ValueError(f"player must be 1 or 2, not {player!r}")
    return _offered(game, "window")(game, state, player, three, two)  # type: ignore[call-arg]


def threats_eval(game: Game[Any, Any], state: Any, player: int, three: int = 50, two: int = 10) -> float:
    """A stronger Connect-X evaluation: window + threats by row parity + centre control (see module doc)."""
    return _offered(game, "threats")(game, state, player, three, two)  # type: ignore[call-arg]


def mobility_eval(game: Game[Any, Any], state: Any, player: int) -> int:
    """``MOBILITY_SCALE`` x (``player``'s legal moves - the opponent's), for any game.

    Games that can count a player's moves when it is not their turn (Migration) count both sides; for
    the others the side not to move is taken to have as many moves as the side to move, which scores 0.
    """
    moves_of = getattr(game, "_moves", None)
    if moves_of is not None:
        diff = len(moves_of(state, player)) - len(moves_of(state, other(player)))
    else:
        diff = 0
    return MOBILITY_SCALE * diff


def _weighted(func: Callable[..., Any]) -> bool:
    try:
        return "three" in inspect.signature(func).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins
        return False


def _by_name(name: str) -> Evaluation:
    """``f(game, state, player, three=50, two=10)``: the evaluation ``name`` of whatever game it is given."""
    if name == "window":
        return window_eval
    if name == "threats":
        return threats_eval

    def evaluate(game: Game[Any, Any], state: Any, player: int, three: int = 50, two: int = 10) -> float:
        func = own(game, name)
        if func is None:
            if name == "mobility":  # any game: the generic count
                return mobility_eval(game, state, player)
            _offered(game, name)
        assert func is not None
        if (three, two) != (50, 10) and _weighted(func):
            return func(game, state, player, three, two)
        return func(game, state, player)

    evaluate.__name__ = f"{name}_eval"
    return evaluate


@lru_cache(maxsize=1)
def _names(classes: tuple[type[Game[Any, Any]], ...]) -> tuple[str, ...]:
    names = {"window": None, "threats": None, "mobility": None}
    for cls in classes:
        game = cls(**{k: o.default for k, o in cls.OPTIONS.items()})
        names.update(dict.fromkeys(game.evaluations()))
    return tuple(names)


def evaluation_names() -> tuple[str, ...]:
    """Every evaluation a registered game offers, and ``mobility`` (any game)."""
    from ..games import registered_games

    return _names(registered_games())


def __getattr__(attr: str) -> Any:
    # EVALUATIONS: name -> (function, accepts three=/two=), from the games registered when asked
    if attr == "EVALUATIONS":
        return {name: (_by_name(name), name in ("window", "threats")) for name in evaluation_names()}
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


def default_evaluation(game: Game[Any, Any]) -> str:
    """The evaluation used when none is named: the first the game offers (``threats`` for Connect-X,
    ``window`` for Tic-Tac-Toe), ``mobility`` for a game that offers none."""
    return next(iter(game.evaluations()), "mobility")


def bind_evaluation(game: Game[Any, Any], name: str, three: int = 50, two: int = 10) -> Evaluation:
    """``game``'s own evaluation ``name`` (``mobility`` for any game), weights bound, as ``f(game, state,
    player) -> int``: what :func:`get_evaluation` gives, without looking the name up at every call."""
    found = own(game, name)
    if found is None:
        if name != "mobility":
            _offered(game, name)  # raises, naming what the game offers
        found = mobility_eval
    func = found
    if (three, two) != (50, 10) and _weighted(func):
        def weighted(g: Game[Any, Any], state: Any, player: int) -> float:
            return func(g, state, player, three, two)  # type: ignore[call-arg]

        weighted.__name__ = f"{name}_eval(three={three}, two={two})"
        return weighted
    return func  # the game's own function, called directly at every leaf


def get_evaluation(name: str, three: int = 50, two: int = 10) -> Evaluation:
    """The evaluation named ``name`` with its weights bound: ``f(game, state, player) -> int``."""
    names = evaluation_names()
    if name not in names:
        raise AgentError(f"unknown evaluation {quoted(name)}: choose one of {listed(names)}")
    func = _by_name(name)
    if (three, two) == (50, 10):
        return func

    def weighted_eval(game: Game[Any, Any], state: Any, player: int) -> float:
        return func(game, state, player, three, two)  # type: ignore[call-arg]

    weighted_eval.__name__ = f"{name}_eval(three={three}, two={two})"
    return weighted_eval


# ---- student evaluations: a declared point of view, and functions in files -----------------------------

#: the points of view an evaluation may declare (see the module doc)
VIEWS = ("mover", "player", "first", "second")
#: the longest ``eval=path/to/file.py:fn`` accepted, in characters
MAX_EVAL_PATH = 1000


def evaluation(view: str = "mover") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare an evaluation's point of view: ``@evaluation(view="first")`` sets ``f.view`` (see module doc)."""
    if view not in VIEWS:
        raise AgentError(f"evaluation view {quoted(view)} is not one of {', '.join(VIEWS)}")

    def declare(func: Callable[..., Any]) -> Callable[..., Any]:
        try:
            func.view = view  # type: ignore[attr-defined]
        except (AttributeError, TypeError):
            raise AgentError(f"cannot declare the view of {quoted(func)}: give a plain function") from None
        return func

    return declare


def view_of(func: Callable[..., Any]) -> str:
    """The view ``func`` declares (``mover`` when it declares none); one AgentError line for a bad one."""
    view = getattr(func, "view", "mover")
    if view not in VIEWS:
        name = getattr(func, "__name__", "the evaluation")
        raise AgentError(f"{quoted(name)}.view is {quoted(view)}: expected one of {', '.join(VIEWS)}")
    return str(view)


def for_mover(func: Callable[..., Any], root_player: int) -> Callable[..., Any]:
    """``func`` as the searches call it: ``f(game, state, mover)`` scoring for ``mover``, the side to move.

    A ``mover`` evaluation is returned as it is (no cost); the others are called with their fixed player
    (``root_player`` for ``player``) and negated where the other side moves.
    """
    view = view_of(func)
    if view == "mover":
        return func
    fixed = root_player if view == "player" else 1 if view == "first" else 2

    def adapted(game: Game[Any, Any], state: Any, mover: int) -> Any:
        value = func(game, state, fixed)
        return value if mover == fixed else -value

    adapted.__name__ = f"{getattr(func, '__name__', 'evaluation')}[view={view}]"
    return adapted


def student_evaluation(func: Callable[..., Any], game: Game[Any, Any], root_player: int) -> Callable[..., Any]:
    """A person's evaluation as the searches call it, ``f(game, state, mover)`` scoring for ``mover``: probed
    once per game (:func:`zerosum.agents.student.probe_evaluation`: its values, and the view check), every
    answer checked (:func:`zerosum.agents.student.checked`), its declared view adapted (:func:`for_mover`)."""
    from .student import checked, probe_evaluation

    view = view_of(func)
    probe_evaluation(func, game, view)
    return for_mover(checked(func), root_player)


def load_evaluation(text: str) -> Callable[..., Any]:
    """The function ``fn`` of ``path/to/file.py:fn`` (the file is run once, here); one AgentError line for
    a path that is too long, a missing file, a file that fails, or a name that is not a function in it."""
    from ..core.files import load_user_module

    if len(text) > MAX_EVAL_PATH:
        raise AgentError(f"eval={quoted(text)}: the limit is {MAX_EVAL_PATH} characters")
    path, _, attr = text.rpartition(":")
    if not path.endswith(".py") or not attr.isidentifier():
        raise AgentError(f"eval={quoted(text)}: expected path/to/file.py:function")
    from .homework import sibling_imports

    siblings: dict[str, Any] = {}
    # the file imports the modules beside it (the student's game, ``from nim import Nim``), as an agent file does
    with sibling_imports(os.path.dirname(os.path.abspath(path)), siblings):
        module = load_user_module(path, what="evaluation file")
    func = getattr(module, attr, None)
    if func is None:
        raise AgentError(f"evaluation file {quoted(path)} has no {quoted(attr)}")
    if not callable(func):
        raise AgentError(f"{quoted(attr)} in {quoted(path)} is not a function f(game, state, player) -> number")
    view_of(func)
    from .student import check_signature

    check_signature(func)  # a wrong signature now; its values when it first meets a game (agents/student.py)
    return func  # type: ignore[no-any-return]
