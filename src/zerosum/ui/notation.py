"""Deprecated: each game owns its move strings (:meth:`zerosum.game.Game.parse_moves`,
:meth:`~zerosum.game.Game.format_moves`, :meth:`~zerosum.game.Game.format_action`).  These names stay only
while the README still shows them; no module of zerosum uses them."""

from __future__ import annotations

from typing import Any, Sequence

from ..game import Game

__all__ = ["replay", "format_moves", "format_move", "states_of"]


def replay(game: Game[Any, Any], text: str) -> list[Any]:
    """The actions of move string ``text`` from the start, each one checked."""
    return game.parse_moves(text)


def states_of(game: Game[Any, Any], actions: Sequence[Any]) -> list[Any]:
    return game.states_of(actions)


def format_move(game: Game[Any, Any], action: Any) -> str:
    return game.format_action(action)


def format_moves(game: Game[Any, Any], actions: Sequence[Any]) -> str:
    return game.format_moves(actions)
