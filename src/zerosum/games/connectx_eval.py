"""Connect-X's evaluations for depth-limited search (``window``, ``threats`` and ``runs``), and the window
score of any game made of lines of cells (Tic-Tac-Toe uses :func:`line_window_score`).

:mod:`zerosum.agents.heuristics` documents them and finds them through :meth:`ConnectX.evaluations`; the numba
kernels of :mod:`zerosum.agents.kernels` use the same constants and reproduce the same numbers (``runs``,
the course comparison's heuristic, has no kernel: the searches run it on their generic path).
"""

from __future__ import annotations

import sys
from typing import Any

from ..game import Game, other
from ..kernels.bits import centre_columns, line_masks, win_cells

__all__ = ["window_eval", "threats_eval", "runs_eval", "runs_by_length", "line_window_score", "windows",
           "winning_cells", "EVALUATIONS", "THREAT_GOOD", "THREAT_OTHER", "THREAT_DECISIVE", "THREAT_STACKED",
           "CENTRE_WEIGHT", "RUN_BASE"]

# ---- tuning constants (the numba kernels use the same numbers) ------------------------------------
#: a threat on a row whose parity suits its owner
THREAT_GOOD = 120
#: any other threat
THREAT_OTHER = 40
#: a threat right above another threat of the same player (one of them will be playable first)
THREAT_STACKED = 200
#: a threat the side to move can play now, or two the opponent can: the game is decided
THREAT_DECISIVE = 100_000
#: per stone in the centre column(s)
CENTRE_WEIGHT = 4
#: ``runs``: a run of L stones (2 <= L < k) counts RUN_BASE ** (L - 1)
RUN_BASE = 10


# ---- the lines of k cells ----------------------------------------------------------------------


def windows(game: Game[Any, Any]) -> tuple[int, ...]:
    """The lines of k cells of a Connect-X board, as bitboard masks (also used by the numba path)."""
    return line_masks(game.rows, game.cols, game.k)  # type: ignore[attr-defined]


def _line_counts(lines: Any, k: int, three: int, two: int) -> int:
    """The window score of ``mine`` against ``theirs`` given per-line stone counts (a, b)."""
    score = 0
    for a, b in lines:
        if b == 0:
            if a == k - 1:
                score += three
            elif a == k - 2:
                score += two
        if a == 0:
            if b == k - 1:
                score -= three
            elif b == k - 2:
                score -= two
    return score


def line_window_score(counts: Any, k: int, three: int, two: int) -> int:
    """The window score from per-line stone counts ``(mine, theirs)``: ``±sys.maxsize`` for a full line."""
    for a, b in counts:
        if a == k:
            return sys.maxsize
        if b == k:
            return -sys.maxsize
    return _line_counts(counts, k, three, two)


def window_eval(game: Game[Any, Any], state: Any, player: int, three: int = 50, two: int = 10) -> int:
    """The classic course evaluation of a Connect-X ``state`` for ``player``.

    Over every line of k cells (rows, columns, both diagonals): k-1 of a player's stones and one empty cell
    count ``three`` for that player, k-2 stones and two empty cells count ``two``.  The result is
    ``player``'s total minus the opponent's; ``+sys.maxsize`` / ``-sys.maxsize`` when a player has k in a row.
    """
    if player not in (1, 2):
        raise ValueError(f"player must be 1 or 2, not {player!r}")
    mine, theirs = state.stones(player), state.stones(other(player))
    counts = [((mine & w).bit_count(), (theirs & w).bit_count()) for w in windows(game)]
    return line_window_score(counts, game.k, three, two)  # type: ignore[attr-defined]


def winning_cells(game: Game[Any, Any], stones: int, mask: int) -> int:
    """Empty cells where one more stone would give ``stones`` k in a row (any board size, Python ints)."""
    return win_cells(stones, mask, game.height, game.k, game.board_mask)  # type: ignore[attr-defined]


def _threat_score(game: Game[Any, Any], threats: int, player: int, rows: int, h: int, against: int = 0) -> int:
    """Threat cells weighted by row parity (player 1 likes odd rows, 1-based; player 2 even rows); a
    threat above an ``against`` threat in its column counts a quarter (that one comes first), a threat
    right above another of the same player adds ``THREAT_STACKED``."""
    score = 0
    every = threats
    while threats:
        low = threats & -threats
        bit = low.bit_length() - 1
        row = bit % h  # 0-based from the bottom
        good = (row % 2 == 0) if player == 1 else (row % 2 == 1)
        weight = THREAT_GOOD if good else THREAT_OTHER
        below = ((1 << bit) - 1) & ~((1 << (bit - row)) - 1)  # the cells under it in its column
        if against & below:
            weight //= 4
        if row > 0 and every & (low >> 1):
            weight += THREAT_STACKED
        score += weight
        threats ^= low
    return score


def threats_eval(game: Game[Any, Any], state: Any, player: int, three: int = 50, two: int = 10) -> int:
    """A stronger Connect-X evaluation: window + threats by row parity + centre control (see module doc).

    Decided positions (the side to move can complete a line now, or the opponent has two playable
    threats) score ``±THREAT_DECISIVE``; finished ones ``±sys.maxsize`` like :func:`window_eval`.
    """
    base = window_eval(game, state, player, three, two)
    if abs(base) == sys.maxsize:
        return base
    rows, h = game.rows, game.height  # type: ignore[attr-defined]
    mask = state.mask
    to_move = state.to_move
    playable = (mask + game.bottom_mask) & game.board_mask  # type: ignore[attr-defined]
    mover, waiter = state.current, state.current ^ mask
    t_mover = winning_cells(game, mover, mask)
    t_waiter = winning_cells(game, waiter, mask)
    sign = 1 if player == to_move else -1
    if t_mover & playable:
        return sign * THREAT_DECISIVE
    if (t_waiter & playable).bit_count() >= 2:
        return -sign * THREAT_DECISIVE
    score = (_threat_score(game, t_mover, to_move, rows, h, t_waiter)
             - _threat_score(game, t_waiter, other(to_move), rows, h, t_mover))
    cols = game.cols  # type: ignore[attr-defined]
    centre = 0
    for c in centre_columns(cols):
        col = game.column[c]  # type: ignore[attr-defined]
        centre += (mover & col).bit_count() - (waiter & col).bit_count()
    score += CENTRE_WEIGHT * centre
    return base + sign * score


# ---- runs: the course comparison's heuristic -------------------------------------------------------


def _directions(game: Game[Any, Any]) -> tuple[int, ...]:
    """The bit steps of the four directions: up a column, along a row, and the two diagonals."""
    h = game.height  # type: ignore[attr-defined]
    return (1, h, h + 1, h - 1)


def runs_by_length(game: Game[Any, Any], stones: int) -> dict[int, int]:
    """Length -> how many maximal runs of that many ``stones`` lie in a line, over the four directions.

    A run is a maximal sequence of consecutive cells holding the stones along a row, a column or a
    diagonal, whatever bounds it (the edge, an empty cell, an opposing stone); a lone stone is a run of 1 in
    each of the four directions.  (The empty row above every column keeps runs from wrapping round.)
    """
    counts: dict[int, int] = {}
    for step in _directions(game):
        starts = stones & ~(stones << step)  # stones with no stone of the same run before them
        run, length, longer = starts, 1, 0
        while run:
            longer = run & (stones >> (length * step))  # runs of more than ``length`` stones
            exact = (run & ~longer).bit_count()
            if exact:
                counts[length] = counts.get(length, 0) + exact
            run, length = longer, length + 1
    return counts


def runs_eval(game: Game[Any, Any], state: Any, player: int) -> int:
    """The run-length heuristic of the course's Connect Four comparison (``eval=runs``).

    Every maximal run of L of a player's stones in a row, column or diagonal (:func:`runs_by_length`),
    2 <= L < k, counts ``RUN_BASE ** (L - 1)`` (in Connect Four: 10 a two, 100 a three), whether or not the
    run can still grow to k (``window`` counts only lines that can); the result is ``player``'s total minus
    the opponent's, ``+sys.maxsize`` / ``-sys.maxsize`` when a player has a run of k or more.
    """
    if player not in (1, 2):
        raise ValueError(f"player must be 1 or 2, not {player!r}")
    k = game.k  # type: ignore[attr-defined]
    score = 0
    for who, sign in ((player, 1), (other(player), -1)):
        for length, count in runs_by_length(game, state.stones(who)).items():
            if length >= k:
                return sign * sys.maxsize
            if length >= 2:
                score += sign * count * RUN_BASE ** (length - 1)
    return score


#: Connect-X's evaluations by name, the default first
EVALUATIONS = {"threats": threats_eval, "window": window_eval, "runs": runs_eval}
