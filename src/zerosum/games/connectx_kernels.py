"""A :class:`~.connectx.ConnectX` game handed to the numba kernels of :mod:`zerosum.kernels.connectx`.

The kernels know no game class: they take a board as plain integers (``rows``, ``cols``, ``k``).  This is
the one place that asks whether they take a game (a Connect-X board that fits 64 bits) and hands them its
board.  Importing it imports numba.
"""

from __future__ import annotations

from ..kernels.connectx import random_playouts
from .connectx import ConnectX

__all__ = ["supports", "game_playouts"]


def supports(game: object) -> bool:
    """Whether the kernels take ``game``: a Connect-X board that fits 64 bits."""
    return isinstance(game, ConnectX) and game.fits_64


def game_playouts(game: object, n: int, seed: int) -> tuple[int, int, int]:
    """:func:`~zerosum.kernels.connectx.random_playouts` on ``game``'s board (one :func:`supports`):
    (first player wins, second player wins, draws)."""
    if not isinstance(game, ConnectX) or not game.fits_64:
        raise ValueError(f"the Connect-X kernels do not take {getattr(game, 'spec', game)!r}")
    return random_playouts(n, game.rows, game.cols, game.k, seed)
