"""Quiet Connect-X positions at a given ply, sampled reproducibly (for ``zerosum bench analysis``).

A position is **quiet** when nobody has won, the board is not full, and no legal move hands the opponent a
win in one: after every move of the side to move, the opponent has no immediately winning reply.

>>> from zerosum.games import get_game
>>> from zerosum.solver.sampling import quiet_positions
>>> game = get_game("connect4")
>>> states = quiet_positions(game, 8, 3, seed=1)
>>> [s.ply for s in states]
[8, 8, 8]
>>> states == quiet_positions(game, 8, 3, seed=1)
True

:func:`quiet_positions` plays random games from the empty board: each move is drawn uniformly from the
moves that neither win nor hand the opponent a win in one (:func:`safe_moves`), and a game whose
position at ``ply`` is quiet (:func:`is_quiet`) and new (no transposition of one already drawn) is kept.
The same (board, ply, count, seed) always gives the same positions, in the same order; a larger
``count`` extends a smaller one.  Threats come from :func:`zerosum.kernels.bits.win_cells` (plain Python
ints: any board size, no numba).
"""

from __future__ import annotations

import random
from typing import Any, cast

from ..errors import InvalidSpecError, UsageError
from ..game import COLUMN_BITBOARD
from ..games.connectx import ConnectX, ConnectXState
from ..games.registry import get_game
from ..kernels.bits import win_cells

__all__ = ["MAX_COUNT", "quiet_positions", "is_quiet", "safe_moves", "connectx_game"]

#: the most positions one call samples
MAX_COUNT = 100_000
#: random games tried per position asked for (plus a floor), before giving up on finding more
TRIES_PER_POSITION = 200
MIN_TRIES = 2_000


def connectx_game(game: Any) -> ConnectX:
    """``game`` (a Connect-X game or its spec) as a :class:`ConnectX`; InvalidSpecError for any other game."""
    g = get_game(game) if isinstance(game, str) else game
    if getattr(getattr(g, "traits", None), "layout", "") != COLUMN_BITBOARD:  # the game says how its states lie
        raise InvalidSpecError(f"quiet positions are sampled on Connect-X boards only, not {getattr(g, 'spec', g)!r}")
    return cast(ConnectX, g)


def _landing(game: ConnectX, mask: int) -> list[tuple[int, int]]:
    """``(column, cell)`` for every column that is not full: the cell a stone dropped there lands on."""
    return [(c, (mask + game.bottom[c]) & game.column[c]) for c in range(game.cols) if not mask & game.top[c]]


def _safe(game: ConnectX, state: ConnectXState) -> tuple[list[int], list[int]]:
    """The columns that do not hand the opponent a win in one (a winning move ends the game, so it never
    does), and those among them that win at once."""
    current, mask = state.current, state.mask  # current: the side to move's stones
    h, k, board = game.height, game.k, game.board_mask
    mine = win_cells(current, mask, h, k, board)
    theirs = win_cells(current ^ mask, mask, h, k, board)
    landing = _landing(game, mask)
    playable = 0
    for _, cell in landing:
        playable |= cell
    safe, winning = [], []
    for col, cell in landing:
        after = (playable & ~cell) | ((cell << 1) & game.column[col])  # the opponent's playable cells
        if cell & mine:
            winning.append(col)
        if cell & mine or not after & theirs:
            safe.append(col)
    return safe, winning


def is_quiet(game: Any, state: ConnectXState) -> bool:
    """Whether ``state`` is quiet: not over, and no legal move hands the opponent a win in one."""
    g = connectx_game(game)
    if state.won_by or state.mask == g.board_mask:
        return False
    safe, _ = _safe(g, state)
    return len(safe) == len(g.actions(state))


def safe_moves(game: Any, state: ConnectXState) -> list[int]:
    """The columns that keep the game going quietly: they neither win at once nor hand the opponent a win
    in one (empty when the game is over)."""
    g = connectx_game(game)
    if state.won_by:
        return []
    safe, winning = _safe(g, state)
    return [c for c in safe if c not in winning]


def quiet_positions(game: Any, ply: int, count: int, seed: int = 0) -> list[ConnectXState]:
    """``count`` distinct quiet positions with ``ply`` stones on the board, reproducible by ``seed``.

    ``game``: a Connect-X game or its spec.  Each state remembers its moves, so ``game.to_moves(state)``
    is its move string (1-based columns, as ``zerosum analyze`` reads it).  Fewer than ``count`` come back
    only when random games keep failing to find a new one (``TRIES_PER_POSITION`` games per position asked
    for): a board with fewer quiet positions at that ply.  ``ply``: 0 .. cells - 1; ``count``:
    1 .. ``MAX_COUNT``; else UsageError.
    """
    g = connectx_game(game)
    for name, value, hi in (("ply", ply, g.cells - 1), ("count", count, MAX_COUNT)):
        lo = 0 if name == "ply" else 1
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise UsageError(f"{name} must be a whole number in {lo}..{hi} for {g.spec}, not {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UsageError(f"seed must be a whole number, not {seed!r}")
    rng = random.Random(f"{g.spec}|ply={ply}|seed={seed}")  # a string seed: the same stream on every platform
    found: list[ConnectXState] = []
    seen: set[tuple[int, int]] = set()
    tries = max(MIN_TRIES, TRIES_PER_POSITION * count)
    while len(found) < count and tries > 0:
        tries -= 1
        state = _random_game(g, ply, rng)
        if state is None or (state.current, state.mask) in seen or not is_quiet(g, state):
            continue
        seen.add((state.current, state.mask))
        found.append(state)
    return found


def _random_game(game: ConnectX, ply: int, rng: random.Random) -> ConnectXState | None:
    """A random game of ``ply`` moves, each a :func:`safe_moves` one; None when it gets stuck before."""
    state = game.initial_state
    for _ in range(ply):
        moves = safe_moves(game, state)
        if not moves:
            return None
        state = game.result(state, moves[rng.randrange(len(moves))])
    return state

