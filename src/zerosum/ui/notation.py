"""Move strings for every game, the form people share and the browser puts in its address.

* Connect-X: 1-based columns, one digit a move up to 9 columns (``"4453"``), comma-separated numbers on
  wider boards (``"10,4,11"``) -- exactly :meth:`ConnectX.from_moves`.
* Tic-Tac-Toe: 1-based cells, row by row from the top left, one digit a move (``"519"``: centre, then the
  top left corner, then the bottom right).
* Migration: the stone that moves, as ``x,y`` (row from the top, column, both from 0), moves joined by
  ``;`` (``"3,0;7,3"``).  Each stone has one direction (player 1 right, player 2 up), so that is enough.

:func:`replay` turns a move string into the list of actions (checking every move), :func:`format_moves`
turns actions back into a string, and :func:`format_move` prints one action the same way.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from ..errors import IllegalMoveError, InvalidMoveError
from ..game import Game
from ..games.connectx import ConnectX
from ..games.migration import Migration
from ..games.tictactoe import TicTacToe

__all__ = ["replay", "format_moves", "format_move", "states_of", "MOVES_HELP"]

#: how each game's move string looks (for help texts and error messages)
MOVES_HELP = {
    "connectx": "1-based columns, one digit a move (comma-separated past 9 columns), e.g. 4453",
    "tictactoe": "1-based cells row by row from the top left, e.g. 519",
    "migration": "the moving stones as x,y joined by ';', e.g. 3,0;7,3",
}


def _kind(game: Game[Any, Any]) -> str:
    if isinstance(game, ConnectX):
        return "connectx"
    if isinstance(game, TicTacToe):
        return "tictactoe"
    if isinstance(game, Migration):
        return "migration"
    raise InvalidMoveError(f"{game.spec} has no move strings")


def _split(game: Game[Any, Any], text: str) -> list[str]:
    """The move tokens of ``text`` (not yet checked against a position)."""
    kind = _kind(game)
    text = text.strip()
    if not text:
        return []
    if kind == "connectx":
        assert isinstance(game, ConnectX)
        return [str(c + 1) for c in game.split_moves(text)]
    if kind == "tictactoe":
        return [ch for ch in text if not ch.isspace() and ch != ","]
    return [part for part in re.split(r"[;\s]+", text) if part]


def replay(game: Game[Any, Any], text: str) -> list[Any]:
    """The actions of move string ``text`` from the start, each one checked.

    Raises :class:`InvalidMoveError` / :class:`IllegalMoveError` naming the move that is wrong.
    """
    state = game.initial_state
    actions: list[Any] = []
    for i, token in enumerate(_split(game, text)):
        try:
            action = game.parse_action(token, state)
            state = game.result(state, action)
        except IllegalMoveError as exc:
            raise type(exc)(f"move {i + 1} of {text.strip()!r}: {exc}") from None
        actions.append(action)
    return actions


def states_of(game: Game[Any, Any], actions: Sequence[Any]) -> list[Any]:
    """The states from the start through every action (``len(actions) + 1`` of them)."""
    states = [game.initial_state]
    for action in actions:
        states.append(game.result(states[-1], action))
    return states


def format_move(game: Game[Any, Any], action: Any) -> str:
    """One action as it appears in a move string (and as a person types it)."""
    if _kind(game) == "migration":
        return f"{action[0]},{action[1]}"
    return str(game.format_action(action))


def format_moves(game: Game[Any, Any], actions: Sequence[Any]) -> str:
    """The move string of ``actions`` (the inverse of :func:`replay`)."""
    kind = _kind(game)
    parts = [format_move(game, a) for a in actions]
    if kind == "migration":
        return ";".join(parts)
    if kind == "connectx" and getattr(game, "cols", 0) > 9:
        return ",".join(parts)
    return "".join(parts)
