"""The Othello position (:class:`OthelloState`): two bitboards and the side to move, for
:mod:`zerosum.games.othello` (which re-exports it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.checks import player_error
from ..game import unwind

__all__ = ["OthelloState"]


@dataclass(frozen=True, slots=True)
class OthelloState:
    """``black`` and ``white`` bitboards (bit ``r * n + c``) and the side to move (1 black, 2 white).

    Equality and hashing use the position only; ``hist`` (the actions played, a linked list ``(earlier,
    action)``) and ``changed`` (the bits the last move set) are kept for notation and pictures.
    """

    black: int
    white: int
    to_move: int = 1
    hist: Any = field(default=None, compare=False, repr=False)
    changed: int = field(default=0, compare=False, repr=False)

    def discs(self, player: int) -> int:
        """The bitboard of ``player``'s discs (1 or 2; anything else is an InvalidMoveError)."""
        try:
            if player == 1:
                return self.black
            if player == 2:
                return self.white
        except Exception:  # noqa: BLE001 - what cannot be compared with a player is no player
            pass
        raise player_error(player)

    @property
    def history(self) -> tuple[int, ...]:
        """The actions played from the start (the history list's root is the game's Origin)."""
        return tuple(unwind(self.hist)[0])

    def _repr_svg_(self) -> str | None:
        """The board as SVG (Jupyter shows states with it), the game found from the root of ``hist``."""
        root = unwind(self.hist)[1]
        if root is None:
            return None
        from .registry import get_game

        return get_game(root.spec).svg(self)
