"""Move orders for OpenSpiel: the action numbers that reach a zerosum state from the start.

OpenSpiel builds a state by playing moves, so a zerosum position needs its history: the one it keeps
(:meth:`~zerosum.game.Game.moves_played`), or, for a position built from a grid or from cells of a game
where every move adds one piece (``TURN_FROM_PIECES``), one found by taking pieces back.
"""

from __future__ import annotations

from typing import Any, Iterator

from ..errors import InvalidPositionError
from ..game import Game, other

__all__ = ["move_sequence"]


def _unplay(game: "Game[Any, Any]", state: Any) -> Iterator[tuple[Any, Any]]:
    """(action, previous state) for each piece the player who just moved could have placed last."""
    cells = [list(row) for row in game.board_view(state).cells]
    mover = other(game.player(state))
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            if value != mover:
                continue
            row[c] = 0
            try:
                prev = game.from_board(cells, mover)
            except InvalidPositionError:
                continue  # no such position (a stone left floating)
            finally:
                row[c] = mover
            if game.is_terminal(prev):
                continue  # the game would already have ended before this piece
            for action in game.actions(prev):
                if game.result(prev, action) == state:
                    yield action, prev


def move_sequence(game: "Game[Any, Any]", state: Any) -> list[int]:
    """Action numbers from the start that reach ``state``: its history when known, else (a game whose every
    move adds one piece) one found by taking pieces back.

    Raises :class:`InvalidPositionError` when no order of play reaches the position, or when its history
    is unknown and cannot be found.
    """
    moves = game.moves_played(state)
    if moves is None:
        if not game.TURN_FROM_PIECES:
            raise InvalidPositionError(
                f"this {game.title} position has no move history, and OpenSpiel builds states by playing "
                "moves: reach it by playing moves from the start"
            )
        moves = _search_back(game, state)
    return [game.action_index(action) for action in moves]


def _search_back(game: "Game[Any, Any]", state: Any) -> list[Any]:
    start = game.initial_state
    dead: set[Any] = set()

    def back(s: Any) -> list[Any] | None:  # depth-first, remembering positions that lead nowhere
        if s == start:
            return []
        if s in dead:
            return None
        for action, prev in _unplay(game, s):
            path = back(prev)
            if path is not None:
                return path + [action]
        dead.add(s)
        return None

    path = back(state)
    if path is None:
        raise InvalidPositionError("no order of play reaches this position")
    return path
