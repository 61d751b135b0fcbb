"""The evaluations of :mod:`zerosum.games.othello` (for ``alphabeta:eval=NAME``), each antisymmetric and
whole-numbered, from ``player``'s side: ``mobility``, ``corners``, ``stability`` and ``combined`` (the
default; see the game's module doc).  ``game`` is an :class:`~zerosum.games.othello.Othello`, whose legal
placements (``moves_mask``), corners and stable discs they count.
"""

from __future__ import annotations

from typing import Any

from ..game import other
from .othello_state import OthelloState

__all__ = ["mobility_eval", "corners_eval", "stability_eval", "combined_eval"]


def _players(state: OthelloState, player: int) -> tuple[int, int]:
    return (state.black, state.white) if player == 1 else (state.white, state.black)


def mobility_eval(game: Any, state: OthelloState, player: int) -> int:
    """``player``'s legal placements minus the opponent's (each counted as if it were to move)."""
    own, opp = _players(state, player)
    return int(game.moves_mask(own, opp).bit_count() - game.moves_mask(opp, own).bit_count())


def corners_eval(game: Any, state: OthelloState, player: int) -> int:
    """``player``'s corner discs minus the opponent's."""
    own, opp = _players(state, player)
    corners: int = game._corner_mask
    return (own & corners).bit_count() - (opp & corners).bit_count()


def stability_eval(game: Any, state: OthelloState, player: int) -> int:
    """``player``'s stable discs minus the opponent's (filled edges and corner-anchored edge runs)."""
    return int(game.stable_discs(state, player).bit_count() - game.stable_discs(state, other(player)).bit_count())


def combined_eval(game: Any, state: OthelloState, player: int) -> int:
    """``10 * mobility + 100 * corners + 25 * stability``: the default evaluation."""
    return (10 * mobility_eval(game, state, player) + 100 * corners_eval(game, state, player)
            + 25 * stability_eval(game, state, player))
