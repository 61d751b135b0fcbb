"""Evaluation functions for depth-limited search, each usable by name (``alphabeta:eval=window``).

An evaluation is ``f(game, state, player) -> number``: how good ``state`` looks for ``player``, positive
when ``player`` is ahead.  Every evaluation here is antisymmetric (``f(.., 1) == -f(.., 2)``) and returns
whole numbers, so the numba kernels of :mod:`zerosum.agents.kernels` reproduce them exactly.

* ``window`` -- the classic course evaluation, :func:`window_eval`: over every line of k cells, k-1 of a
  player's stones and one empty cell count ``three``, k-2 stones and two empties count ``two``; the player's
  total minus the opponent's.  A board where a player already has k in a row scores ``±sys.maxsize`` (the
  searches never call it there: they score finished games as proven wins and losses).
* ``threats`` -- :func:`threats_eval`, a stronger Connect-X evaluation: ``window`` plus the cells that would
  complete a line (threats), weighted by whether their row parity suits their owner (first player: odd rows
  counted from 1 at the bottom; second player: even rows), a quarter when an opposing threat lies below it
  in its column (that one will be met first), a bonus for a threat right above another of the same player,
  plus centre control; a threat the side to move can play at once, or two the opponent can, decide the game.
  It beats ``window`` at equal depth (see the README's match).
* ``mobility`` -- :func:`mobility_eval`, for Migration and any game without a better one: the difference
  in the number of legal moves, times ``MOBILITY_SCALE``.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

from ..errors import AgentError
from ..game import Game, other
from ..kernels.bits import centre_columns, line_masks, win_cells

__all__ = [
    "window_eval",
    "threats_eval",
    "mobility_eval",
    "EVALUATIONS",
    "get_evaluation",
    "default_evaluation",
    "windows",
    "winning_cells",
    "THREAT_GOOD",
    "THREAT_OTHER",
    "THREAT_DECISIVE",
    "THREAT_STACKED",
    "CENTRE_WEIGHT",
    "MOBILITY_SCALE",
]

Evaluation = Callable[[Game[Any, Any], Any, int], int]

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
#: per legal move of difference
MOBILITY_SCALE = 10


# ---- the lines of k cells ----------------------------------------------------------------------


def windows(game: Game[Any, Any]) -> tuple[int, ...]:
    """The lines of k cells of a Connect-X board, as bitboard masks (also used by the numba path)."""
    return line_masks(game.rows, game.cols, game.k)  # type: ignore[attr-defined]


def _is_connectx(game: Game[Any, Any]) -> bool:
    from ..games.connectx import ConnectX

    return isinstance(game, ConnectX)


def _is_tictactoe(game: Game[Any, Any]) -> bool:
    from ..games.tictactoe import TicTacToe

    return isinstance(game, TicTacToe)


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


def window_eval(game: Game[Any, Any], state: Any, player: int, three: int = 50, two: int = 10) -> int:
    """The classic course evaluation of ``state`` for ``player`` (Connect-X and Tic-Tac-Toe).

    Over every line of k cells (rows, columns, both diagonals): k-1 of a player's stones and one empty cell
    count ``three`` for that player, k-2 stones and two empty cells count ``two``.  The result is
    ``player``'s total minus the opponent's; ``+sys.maxsize`` / ``-sys.maxsize`` when a player has k in a row.
    """
    if player not in (1, 2):
        raise ValueError(f"player must be 1 or 2, not {player!r}")
    if _is_connectx(game):
        mine, theirs = state.stones(player), state.stones(other(player))
        k = game.k  # type: ignore[attr-defined]
        counts = [((mine & w).bit_count(), (theirs & w).bit_count()) for w in windows(game)]
    elif _is_tictactoe(game):
        from ..games.tictactoe import LINES

        k = 3
        cells = state.cells
        counts = [
            (sum(cells[i] == player for i in line), sum(cells[i] == other(player) for i in line)) for line in LINES
        ]
    else:
        raise AgentError(f"the window evaluation needs lines of cells (Connect-X, Tic-Tac-Toe), not {game.spec!r}")
    for a, b in counts:
        if a == k:
            return sys.maxsize
        if b == k:
            return -sys.maxsize
    return _line_counts(counts, k, three, two)


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
    if not _is_connectx(game):
        raise AgentError(f"the threats evaluation is for Connect-X, not {game.spec!r}")
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


def mobility_eval(game: Game[Any, Any], state: Any, player: int) -> int:
    """``MOBILITY_SCALE`` x (``player``'s legal moves - the opponent's), for any game.

    Games that can count a player's moves when it is not their turn (Migration) count both sides; for
    the others the side not to move is taken to have as many moves as the side to move, which scores 0.
    """
    moves_of = getattr(game, "_moves", None)
    if moves_of is not None:
        diff = len(moves_of(state, player)) - len(moves_of(state, other(player)))
    else:
        diff = 0
    return MOBILITY_SCALE * diff


#: evaluation name -> (function, accepts three=/two=)
EVALUATIONS: dict[str, tuple[Evaluation, bool]] = {
    "window": (window_eval, True),
    "threats": (threats_eval, True),
    "mobility": (mobility_eval, False),
}


def default_evaluation(game: Game[Any, Any]) -> str:
    """The evaluation used when none is named: ``threats`` for Connect-X, ``window`` for Tic-Tac-Toe,
    ``mobility`` for everything else."""
    if _is_connectx(game):
        return "threats"
    if _is_tictactoe(game):
        return "window"
    return "mobility"


def get_evaluation(name: str, three: int = 50, two: int = 10) -> Evaluation:
    """The evaluation named ``name`` with its weights bound: ``f(game, state, player) -> int``."""
    if name not in EVALUATIONS:
        raise AgentError(f"unknown evaluation {name!r}: choose one of {', '.join(EVALUATIONS)}")
    func, weighted = EVALUATIONS[name]
    if not weighted:
        return func
    if (three, two) == (50, 10):
        return func

    def weighted_eval(game: Game[Any, Any], state: Any, player: int) -> int:
        return func(game, state, player, three, two)  # type: ignore[call-arg]

    weighted_eval.__name__ = f"{name}_eval(three={three}, two={two})"
    return weighted_eval
