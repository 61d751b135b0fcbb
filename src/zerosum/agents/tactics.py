"""Tactics at the root, for any game through the Game protocol: wins in one, moves that win next turn
whatever the reply, and the moves that do not hand the opponent either.  MCTS checks its root with
:func:`tactical_move` before it searches.

The checks take a ``deadline`` (a ``time.perf_counter()`` reading, None: none): a check that reaches it
stops (:class:`OutOfTime` from :func:`wins_now`; :func:`tactical_move` keeps only what it proved by then),
so a root of thousands of moves, where the full check costs about b^3 moves played, stays within a time limit.
"""

from __future__ import annotations

import time
from typing import Any

from ..game import Game, other
from ..values import win_value

__all__ = ["tactical_move", "winning_actions", "wins_now", "OutOfTime"]


class OutOfTime(Exception):
    """The deadline passed before a check could answer."""


def _due(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() >= deadline:
        raise OutOfTime


def winning_actions(game: Game[Any, Any], state: Any, actions: list[Any], me: int,
                    deadline: float | None = None) -> list[Any]:
    """The actions among ``actions`` after which ``me`` has won (:class:`OutOfTime` when ``deadline`` passes
    first)."""
    wins = []
    for a in actions:
        _due(deadline)  # nothing without a deadline
        if game.winner(game.result(state, a)) == me:
            wins.append(a)
    return wins


def wins_now(game: Game[Any, Any], state: Any, player: int, deadline: float | None = None) -> bool:
    """Whether ``player``, to move, can win with one move (:class:`OutOfTime` when ``deadline`` passes first)."""
    for a in game.actions(state):
        _due(deadline)  # nothing without a deadline
        if game.winner(game.result(state, a)) == player:
            return True
    return False


def _first_win(game: Game[Any, Any], state: Any, actions: list[Any], me: int, deadline: float | None) -> Any:
    """The first action of ``actions`` after which ``me`` has won, or None."""
    for a in actions:
        _due(deadline)
        if game.winner(game.result(state, a)) == me:
            return a
    return None


def _forcing_move(game: Game[Any, Any], state: Any, deadline: float | None = None) -> Any:
    """A move after which the side to move wins on its next turn whatever the reply, or None."""
    me = game.player(state)
    for a in game.actions(state):
        _due(deadline)
        s1 = game.result(state, a)
        if game.is_terminal(s1):
            continue
        replies = game.actions(s1)
        if replies and all(not game.is_terminal(s2) and wins_now(game, s2, me, deadline)
                           for s2 in (game.result(s1, b) for b in replies)):
            return a
    return None


def tactical_move(game: Game[Any, Any], state: Any, deadline: float | None = None) -> tuple[Any, int, list[Any]]:
    """The root check: ``(action, value, safe)``.

    ``action`` is a win in one (value ``win_value(1)``, the first in ``game.actions`` order) or a move that
    wins on the next turn whatever the reply (``win_value(3)``), else None.  ``safe`` lists the actions
    after which the opponent can neither win at once nor force a win on its next turn; failing that, those
    after which it cannot win at once; failing that, every action.

    At ``deadline`` the check stops and answers with what it proved: a win found by then, else no action and
    ``safe`` without the moves proven to hand the opponent a win (every move not yet checked is kept).
    """
    me = game.player(state)
    actions = game.actions(state)
    try:
        win = _first_win(game, state, actions, me, deadline)
        if win is not None:
            return win, win_value(1), actions
        forcing = _forcing_move(game, state, deadline)
        if forcing is not None:
            return forcing, win_value(3), actions
    except OutOfTime:  # no win proven: every move stays
        return None, 0, actions
    not_at_once: list[Any] = []
    not_in_two: list[Any] = []
    for i, a in enumerate(actions):
        kept = False  # whether ``a`` is in not_at_once
        try:
            s1 = game.result(state, a)
            if game.is_terminal(s1):  # a draw
                not_at_once.append(a)
                not_in_two.append(a)
                continue
            if wins_now(game, s1, other(me), deadline):
                continue
            not_at_once.append(a)
            kept = True
            if _forcing_move(game, s1, deadline) is None:
                not_in_two.append(a)
        except OutOfTime:  # the moves not proven bad by then stay, in their order
            not_at_once += actions[i + 1:] if kept else actions[i:]
            not_in_two += actions[i:]
            break
    return None, 0, not_in_two or not_at_once or actions
