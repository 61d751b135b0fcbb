"""What a search is handed as its position: a state, a move string, or a list of moves, alike.

``agent.search(game, state)`` and :func:`zerosum.trace` take the position in whichever form a person has
it (:func:`search_position`):

* a state of the game, as it is (``game.initial_state``, ``game.from_moves(...)``, ``game.result(...)``);
* a move string in the game's own notation, read from the start: ``"4453"`` on Connect-X (1-based columns,
  as people number them), ``"1 5 9"`` on Tic-Tac-Toe (cells 1..9);
* a list (or tuple) of actions as Python numbers them, played from the start: ``[3, 3, 4, 2]`` is the same
  Connect-X position as ``"4453"`` (actions are 0-based);
* (a string or a tuple is a state, not moves, in a game whose states are strings or tuples);
* None: the start.

A move that is not a move, or not legal where it is played, is the game's one-line
:class:`~zerosum.errors.InvalidMoveError` / :class:`~zerosum.errors.IllegalMoveError`, naming the move
(``move 3 of [3, 3, 9]: column 10 is outside 1..7 (action 9 is outside 0..6)``).  Anything else is left
to :func:`~zerosum.agents.base.check_search`, which names what a position is.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

from ..errors import IllegalMoveError, InvalidMoveError
from ..game import COURSE_HOOKS, Game, safe_repr

__all__ = ["search_position", "play_actions", "position_name", "taking_positions", "course_entry"]


def search_position(game: Any, state: Any) -> Any:
    """The position ``state`` names in ``game`` (see the module doc); ``state`` itself when it is not a
    move string, a list of moves or None (then :meth:`~zerosum.game.Game.check_state` judges it)."""
    kind = type(state)  # a state (the common case) passes after three tests
    if (state is not None and kind is not str and kind is not list and kind is not tuple) \
            or not isinstance(game, Game):  # not a zerosum game: check_search says what a game is
        return state
    if state is None:
        return game.initial_state
    if type(game.initial_state) is kind:  # a game whose states are plain strings or tuples: a state
        return state
    if kind is str:
        return game.parse_position(state)[1]
    return play_actions(game, state)  # a list, or a plain tuple in a game whose states are not tuples


def taking_positions(search: Callable[..., Any]) -> Callable[..., Any]:
    """``search(self, game, state, ...)`` handed a state wherever its caller gave a move string, a list of
    moves or None (:class:`~zerosum.agents.base.SearchAgent` wraps every subclass's ``search`` with it)."""
    if getattr(search, "_takes_positions", False):
        return search

    @functools.wraps(search)
    def taking(self: Any, game: Any, state: Any = None, *args: Any, **kwargs: Any) -> Any:
        return search(self, game, search_position(game, state), *args, **kwargs)

    taking._takes_positions = True  # type: ignore[attr-defined]
    return taking


def play_actions(game: Game[Any, Any], actions: Sequence[Any]) -> Any:
    """The position after ``actions`` (as Python numbers them) from the start; a bad one is the game's own
    error, naming which move of the list it is."""
    state = game.initial_state
    for i, action in enumerate(actions):
        try:
            state = game.result(state, action)
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise type(exc)(f"move {i + 1} of {safe_repr(list(actions))}: {exc}") from None
    return state


def position_name(game: Game[Any, Any], state: Any) -> str:
    """A position as people name it in a message: ``the start position``, ``the position after '4453'``
    (the game's move string), or its board on one line when its moves are not known."""
    try:
        if state == game.initial_state:
            return "the start position"
        moves = game.moves_played(state)
        if moves is not None:
            return "the start position" if not moves else f"the position after {safe_repr(game.format_moves(moves))}"
        board = " / ".join(line.strip() for line in game.render(state).splitlines() if line.strip())
        return f"the position {safe_repr(board)}"
    except Exception:  # noqa: BLE001 - a state the game cannot describe is still named
        return f"the position {safe_repr(state)}"



def course_entry(method: Callable[..., Any]) -> Callable[..., Any]:
    """An agent's ``method(game, state, ...)`` taking a course game object and its own states too; for a
    zerosum Game it costs one ``isinstance`` test (every agent's ``__call__`` and ``search`` are wrapped).
    On a course game a search that recurses past Python's limit is one GameError line
    (:func:`zerosum.games.course_objects.too_deep`), never a RecursionError."""

    @functools.wraps(method)
    def entry(self: Any, game: Any, state: Any, *args: Any, **kwargs: Any) -> Any:
        if (not isinstance(game, Game) or game.COURSE) and "input" in COURSE_HOOKS:
            game, state = COURSE_HOOKS["input"](game, state)
            try:
                return method(self, game, state, *args, **kwargs)
            except RecursionError:  # deeper than Python allows: one line saying whether the game ever ends
                from ..games.course_objects import too_deep

                raise too_deep(game, state, str(getattr(self, "spec", type(self).__name__))) from None
        return method(self, game, state, *args, **kwargs)

    return entry
