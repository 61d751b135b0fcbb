"""The value algebra: what a search's numbers mean, in one place.

Values are from the side to move's view.  Proven results score beyond every heuristic value:
``win_value(plies)`` is ``WIN - plies`` (a faster win scores more), a loss is its negative (a slower loss
scores better), a draw 0; heuristic values stay within ``±HEURISTIC_BOUND`` (:func:`clamp`).  One ply up,
a value is negated and, when proven, moved one ply further away (:func:`to_parent`); :func:`to_child` turns
a parent's search bound into the child's.

The solver speaks in scores (DESIGN.md's convention: a win with the stone of ply ``p``, counted from 1,
scores ``(cells + 2 - p) // 2``, a loss the negative of the opponent's win, a draw 0);
:func:`score_to_value` and :func:`value_to_score` convert between the two.  Values are put in words by
:mod:`zerosum.core.words` (one vocabulary: distances in moves of the side concerned).

Everything here is plain arithmetic on module constants, so the numba kernels compile these very
functions (``njit(...)(values.to_parent)``) and never keep a copy of the rules.
"""

from __future__ import annotations

__all__ = [
    "WIN",
    "HEURISTIC_BOUND",
    "INF",
    "win_value",
    "loss_value",
    "is_proven",
    "plies_to_end",
    "to_parent",
    "to_child",
    "clamp",
    "score_to_value",
    "value_to_score",
]

#: proven results score beyond every heuristic value: a win now is ``WIN``
WIN = 1_000_000_000
#: heuristic values lie within ``±HEURISTIC_BOUND``
HEURISTIC_BOUND = 1_000_000
#: beyond every value: the open bounds of a search window
INF = WIN + 1


def win_value(plies: int) -> int:
    """The value of a win ``plies`` plies from now (a faster win scores more)."""
    return WIN - plies


def loss_value(plies: int) -> int:
    """The value of a loss ``plies`` plies from now (a slower loss scores better)."""
    return -(WIN - plies)


def is_proven(value: float) -> bool:
    """Whether ``value`` is a proven win or loss (not a heuristic estimate)."""
    return abs(value) > HEURISTIC_BOUND


def plies_to_end(value: float) -> int:
    """For a proven value, how many plies until the game ends."""
    return int(WIN - abs(value))


def to_parent(v: int) -> int:
    """A child's value seen from its parent: negated, and one ply further away when proven."""
    if v > HEURISTIC_BOUND:
        return -v + 1
    if v < -HEURISTIC_BOUND:
        return -v - 1
    return -v


def to_child(bound: int) -> int:
    """The child's bound that corresponds to a parent's bound (the inverse of :func:`to_parent`)."""
    if bound >= INF or bound <= -INF:
        return -bound
    if bound > HEURISTIC_BOUND:
        return -bound - 1
    if bound < -HEURISTIC_BOUND:
        return -bound + 1
    return -bound


def clamp(v: float) -> float:
    """A heuristic value kept within ``±HEURISTIC_BOUND`` (so it never looks like a proven result).
    Fractions are kept as they are: an evaluation may return any real number.  NaN is no value: ValueError
    (a person's evaluation is checked before it gets here, :mod:`zerosum.agents.student`, naming itself)."""
    if v <= HEURISTIC_BOUND:
        if v < -HEURISTIC_BOUND:
            return -HEURISTIC_BOUND
        return v
    if v > HEURISTIC_BOUND:
        return HEURISTIC_BOUND
    raise ValueError("an evaluation returned NaN: a heuristic value is a number")


def score_to_value(score: int, ply: int, cells: int) -> int:
    """A solver score (side to move's view, ``ply`` stones on a board of ``cells``) as an agent value:
    ``win_value(plies)``, ``loss_value(plies)`` or 0, plies counted from the position.

    A win scoring ``s`` ends with the winner's stone on ply ``p`` where ``(cells + 2 - p) // 2 == s``; of
    the two such plies, the one of the winner's parity (the side to move plays plies ``ply + 1``,
    ``ply + 3``, ...).
    """
    if score == 0:
        return 0
    s = abs(score)
    p = cells + 2 - 2 * s
    winner_parity = (ply + 1) % 2 if score > 0 else ply % 2
    if p % 2 != winner_parity:
        p -= 1
    plies = max(1, p - ply)
    return win_value(plies) if score > 0 else loss_value(plies)


def value_to_score(value: int, ply: int, cells: int) -> int:
    """The solver score of a proven value (or 0 for a draw): the inverse of :func:`score_to_value`."""
    if value == 0:
        return 0
    if not is_proven(value):
        raise ValueError(f"{value!r} is not a proven value")
    last = ply + plies_to_end(value)  # the ply of the winning stone
    score = (cells + 2 - last) // 2
    return score if value > 0 else -score

