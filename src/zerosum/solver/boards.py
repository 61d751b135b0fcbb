"""Which games the solver takes, and its scores as the faces use them, without the compiled search.

Importing this module loads no numba: a face asks :func:`supports` or :func:`solver_game` before it decides to
build a :class:`~zerosum.solver.solver.Solver` at all.
"""

from __future__ import annotations

from typing import Any, Sequence, cast

from ..errors import InvalidPositionError, InvalidSpecError
from ..game import COLUMN_BITBOARD
from ..games.connectx import ConnectX
from ..games.registry import get_game
from ..values import score_to_value

__all__ = ["MAX_BITS", "supports", "solver_game", "score_value", "best_of"]

MAX_BITS = 128  #: the widest board the solver takes, cols * (rows + 1) (128-bit bitboards past 64)


def supports(game: Any) -> bool:
    """Whether the solver takes ``game`` (Connect-X, cols x (rows + 1) <= ``MAX_BITS``; past 64 bits a waiting
    person's faces ask it only where ``zerosum.analysis.Service.reaches``): the one capability question of the
    faces, the arena and the commands, answered by the game (:attr:`~zerosum.game.GameTraits.solver`)."""
    return bool(getattr(getattr(game, "traits", None), "solver", False))


def score_value(game: Any, state: Any, score: int) -> int:
    """A solver score of ``state`` (side to move's view) as an agent value (:func:`score_to_value`)."""
    g = solver_game(game)
    return score_to_value(score, state.ply, g.cells)


def solver_game(game: Any) -> ConnectX:
    """The Connect-X game of ``game`` (a spec or a game), checked to be one the solver takes (up to
    ``MAX_BITS``: :func:`supports`)."""
    found = get_game(game)  # a game passes through
    if found.traits.layout != COLUMN_BITBOARD:  # the game says how its states lie
        raise InvalidSpecError(f"the solver plays Connect-X only, not {found.spec!r}")
    g, bits = cast(ConnectX, found), found.cols * (found.rows + 1)  # type: ignore[attr-defined]
    if bits > MAX_BITS or not supports(g):
        raise InvalidSpecError(f"a {g.rows} x {g.cols} board needs {bits} bits; the solver takes boards with "
                               f"cols x (rows + 1) <= {MAX_BITS}")
    return g


def best_of(scores: Sequence[int | None], cols: int) -> int:
    """The centre-most column among those with the best score (left first between equals)."""
    best: int | None = None
    for col in sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c)):
        s = scores[col]
        if s is not None and (best is None or s > scores[best]):  # type: ignore[operator]
            best = col
    if best is None:
        raise InvalidPositionError("no legal move: every column is full")
    return best
