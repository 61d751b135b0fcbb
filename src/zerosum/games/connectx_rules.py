"""The board and the rules of Connect-X (:mod:`zerosum.games.connectx`, which names, writes and draws them):
:class:`ConnectXRules`, the base of :class:`~zerosum.games.connectx.ConnectX`, holds a board's bitboard
geometry (each column's bottom, cells and top bits, the masks of the bottom row and of the whole board, the
four directions of a line and the shifts that grow a run to ``k``), the traits it declares, and the rules on
bitboards: the columns open to a move, the position after one (a stone on the lowest empty cell, and a win
when it makes ``k`` in a row), the end, and why a move is not legal.  The bit layout is the one
:mod:`zerosum.games.connectx` describes; ``ConnectX.check_options`` checks the options first.
"""

from __future__ import annotations

from ..errors import IllegalMoveError
from ..game import COLUMN_BITBOARD, Game, GameTraits, Origin, Outcome, as_index, check_player
from .connectx_state import UNKNOWN, ConnectXState, fits

__all__ = ["ConnectXRules"]


class ConnectXRules(Game[ConnectXState, int]):
    """Connect-X's board and rules on ``rows`` x ``cols`` with ``k`` in a row (actions: 0-based columns)."""

    def __init__(self, rows: int = 6, cols: int = 7, k: int = 4) -> None:
        self.check_options("", {"rows": rows, "cols": cols, "k": k})
        self.rows, self.cols, self.k = rows, cols, k
        self.spec = f"connectx:rows={rows},cols={cols},k={k}"
        h1 = rows + 1
        self.height = h1  # bits per column, sentinel included
        self.bottom = [1 << (c * h1) for c in range(cols)]
        self.column = [((1 << rows) - 1) << (c * h1) for c in range(cols)]
        self.top = [1 << (rows - 1 + c * h1) for c in range(cols)]
        self.bottom_mask = sum(self.bottom)
        self.board_mask = sum(self.column)
        self.cells = rows * cols
        self.directions = (1, h1, h1 - 1, h1 + 1)  # vertical, horizontal, two diagonals
        self.fits_64 = cols * h1 <= 64
        # the solver takes boards up to 128 bits (past 64 on its 128-bit bitboards)
        self.traits = GameTraits(solver=cols * h1 <= 128, layout=COLUMN_BITBOARD, winner_moves_last=True)
        # per direction, the shifts that grow a run to k by doubling (k=4: d, then 2d)
        grows, length = [], 1
        while length < k:
            grow = min(length, k - length)
            grows.append(grow)
            length += grow
        self._line_shifts = tuple(tuple(d * g for g in grows) for d in self.directions)
        self._initial = ConnectXState(0, 0, 1, 0, 0, Origin(self.spec))  # the history's root names the game

    # ---- the protocol ------------------------------------------------------------------------

    @property
    def initial_state(self) -> ConnectXState:
        return self._initial

    def check_state(self, state: object) -> ConnectXState:
        if not fits(state, self.board_mask, self.bottom_mask):
            raise self.state_error(state)
        return state  # type: ignore[return-value]

    def player(self, state: ConnectXState) -> int:
        if type(state) is ConnectXState:
            return state[2]
        raise self.state_error(state)

    def actions(self, state: ConnectXState) -> list[int]:
        try:
            mask = state[1]
            if state[4] or mask == self.board_mask:
                return []
            return [c for c, top in enumerate(self.top) if not mask & top]
        except Exception:  # noqa: BLE001 - the rules check a state only when it fails them (Game.check_state)
            self.check_state(state)
            raise

    def result(self, state: ConnectXState, action: int) -> ConnectXState:
        try:
            current, mask, to_move, ply, won_by, hist = state
            if type(action) is int and 0 <= action < self.cols and not won_by and not mask & self.top[action]:
                col = action  # the common case, checked inline
            else:
                col = self._check_action(state, action)  # raises with the reason (or converts numpy ints)
            new_mask = mask | (mask + self.bottom[col])
            mover = current | (new_mask ^ mask)
            won = to_move if self._has_line_bits(mover) else 0
            return ConnectXState(
                mover ^ new_mask, new_mask, 3 - to_move, ply + 1, won, UNKNOWN if hist is UNKNOWN else (hist, col)
            )
        except Exception:  # noqa: BLE001 - as actions
            self.check_state(state)
            raise

    def outcome(self, state: ConnectXState) -> Outcome | None:
        won = self.winner(state)
        if won:
            return Outcome(won, f"{self.k} in a row")
        return Outcome(None, "board full") if state[1] == self.board_mask else None

    def is_terminal(self, state: ConnectXState) -> bool:
        try:
            return bool(state[4]) or state[1] == self.board_mask
        except Exception:  # noqa: BLE001 - as actions
            self.check_state(state)
            raise

    def winner(self, state: ConnectXState) -> int | None:
        if type(state) is ConnectXState:
            return state[4] or None
        raise self.state_error(state)

    def utility(self, state: ConnectXState, player: int) -> int:
        if type(state) is not ConnectXState:
            raise self.state_error(state)
        if type(player) is not int or not 1 <= player <= 2:
            player = check_player(player)
        won = state[4]
        return 0 if not won else 1 if won == player else -1

    # ---- rules helpers -----------------------------------------------------------------------

    def _check_action(self, state: ConnectXState, action: object) -> int:
        action = as_index(action, "a Connect-X action is a 0-based column number")
        assert isinstance(action, int)
        if not 0 <= action < self.cols:
            raise self._outside(action)
        if state.won_by:
            raise IllegalMoveError(f"the game is over: player {state.won_by} has {self.k} in a row")
        if state.mask & self.top[action]:
            if state.mask == self.board_mask:
                raise IllegalMoveError("the game is over: the board is full")
            raise IllegalMoveError(f"column {action + 1} is full")
        return action

    def _outside(self, col: int) -> IllegalMoveError:
        """The one wording of a column off the board, wherever a 0-based column is given (``result``,
        ``place``, ``column_height``): the column as people number it, then the action as Python does."""
        return IllegalMoveError(f"column {col + 1} is outside 1..{self.cols} (action {col} is outside 0..{self.cols - 1})")

    def _has_line_bits(self, stones: int) -> bool:
        for shifts in self._line_shifts:
            run = stones
            for s in shifts:
                run &= run >> s
            if run:
                return True
        return False
