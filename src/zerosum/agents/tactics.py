"""Tactics at the root, for any game through the Game protocol: wins in one, moves that win next turn
whatever the reply, and the moves that do not hand the opponent either.  MCTS checks its root with
:func:`tactical_move` before it searches.
"""

from __future__ import annotations

from typing import Any

from ..game import Game, other
from ..values import win_value

__all__ = ["tactical_move", "winning_actions", "wins_now"]


def winning_actions(game: Game[Any, Any], state: Any, actions: list[Any], me: int) -> list[Any]:
    """The actions among ``actions`` after which ``me`` has won."""
    wins = []
    for a in actions:
        if game.winner(game.result(state, a)) == me:
            wins.append(a)
    return wins


def wins_now(game: Game[Any, Any], state: Any, player: int) -> bool:
    """Whether ``player``, to move, can win with one move."""
    return any(game.winner(game.result(state, a)) == player for a in game.actions(state))


def _forcing_move(game: Game[Any, Any], state: Any) -> Any:
    """A move after which the side to move wins on its next turn whatever the reply, or None."""
    me = game.player(state)
    for a in game.actions(state):
        s1 = game.result(state, a)
        if game.is_terminal(s1):
            continue
        replies = game.actions(s1)
        if replies and all(
            not game.is_terminal(s2) and wins_now(game, s2, me) for s2 in (game.result(s1, b) for b in replies)
        ):
            return a
    return None


def tactical_move(game: Game[Any, Any], state: Any) -> tuple[Any, int, list[Any]]:
    """The root check: ``(action, value, safe)``.

    ``action`` is a win in one (value ``win_value(1)``, the first in ``game.actions`` order) or a move that
    wins on the next turn whatever the reply (``win_value(3)``), else None.  ``safe`` lists the actions
    after which the opponent can neither win at once nor force a win on its next turn; failing that, those
    after which it cannot win at once; failing that, every action.
    """
    me = game.player(state)
    actions = game.actions(state)
    wins = winning_actions(game, state, actions, me)
    if wins:
        return wins[0], win_value(1), actions
    forcing = _forcing_move(game, state)
    if forcing is not None:
        return forcing, win_value(3), actions
    not_at_once, not_in_two = [], []
    for a in actions:
        s1 = game.result(state, a)
        if game.is_terminal(s1):  # a draw
            not_at_once.append(a)
            not_in_two.append(a)
            continue
        if wins_now(game, s1, other(me)):
            continue
        not_at_once.append(a)
        if _forcing_move(game, s1) is None:
            not_in_two.append(a)
    return None, 0, not_in_two or not_at_once or actions
