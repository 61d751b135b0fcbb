"""The board and the rules of Othello (:mod:`zerosum.games.othello`, which names, writes and draws them):
:class:`OthelloRules`, the base of :class:`~zerosum.games.othello.Othello`, holds an ``n`` x ``n`` board's
geometry on bitboards (the eight directions with their edge masks, the corners, the edges) and the rules:
where the side to move may place a disc (:meth:`OthelloRules.moves_mask`), the discs a placement flips, the
pass when there is no placement, the position after an action, with the reason when an action is not legal,
and the end, when neither side can move (more discs wins).
"""

from __future__ import annotations

from typing import ClassVar

from ..errors import IllegalMoveError, InvalidPositionError, InvalidSpecError
from ..game import Game, Origin, Outcome, as_index
from ..spec import quoted
from .othello_state import OthelloState

__all__ = ["OthelloRules"]


class OthelloRules(Game[OthelloState, int]):
    """Othello's board and rules on an ``n`` x ``n`` board (``n`` even, :attr:`MIN_N`..:attr:`MAX_N`)."""

    MIN_N: ClassVar[int] = 4
    #: the largest board side (a documented limit, checked before anything is built)
    MAX_N: ClassVar[int] = 16

    def __init__(self, n: int = 8) -> None:
        if isinstance(n, bool) or not isinstance(n, int) or not self.MIN_N <= n <= self.MAX_N or n % 2:
            raise InvalidSpecError(f"Othello needs an even board side n in {self.MIN_N}..{self.MAX_N}, not {quoted(n)}")
        self.n = n
        self.cells = n * n
        self.pass_action = n * n
        self.spec = f"othello:n={n}"
        full = (1 << (n * n)) - 1
        col0 = sum(1 << (r * n) for r in range(n))
        not_left, not_right = full & ~col0, full & ~(col0 << (n - 1))
        #: (shift, mask after shifting): east, west, south, north and the four diagonals
        self._dirs = ((1, not_left), (-1, not_right), (n, full), (-n, full),
                      (n + 1, not_left), (n - 1, not_right), (1 - n, not_left), (-1 - n, not_right))
        self._full = full
        corners = (0, n - 1, n * (n - 1), n * n - 1)
        self._corner_mask = sum(1 << i for i in corners)
        top, left = list(range(n)), [r * n for r in range(n)]
        self._edges = tuple(
            (tuple(1 << i for i in edge), sum(1 << i for i in edge))
            for edge in (top, [i + n * (n - 1) for i in top], left, [i + n - 1 for i in left])
        )
        h = n // 2
        white = (1 << ((h - 1) * n + h - 1)) | (1 << (h * n + h))  # d4, e5
        black = (1 << ((h - 1) * n + h)) | (1 << (h * n + h - 1))  # e4, d5
        self._initial = OthelloState(black, white, 1, Origin(self.spec))  # the history's root names the game

    # ---- rules --------------------------------------------------------------------------------------

    @property
    def initial_state(self) -> OthelloState:
        return self._initial

    def check_state(self, state: object) -> OthelloState:
        if (type(state) is not OthelloState or not self._fits(state.black, state.white)
                or type(state.to_move) is not int or state.to_move not in (1, 2)):
            raise self.state_error(state)
        return state

    def _fits(self, own: object, opp: object) -> bool:
        return type(own) is int and type(opp) is int and 0 <= own <= self._full and 0 <= opp <= self._full

    def player(self, state: OthelloState) -> int:
        try:
            return state.to_move
        except Exception:  # noqa: BLE001 - the rules check a state only when it fails them (Game.check_state)
            raise self.state_error(state) from None

    def moves_mask(self, own: int, opp: int) -> int:
        """The bitboard of the cells where the side with discs ``own`` may place one (against ``opp``)."""
        try:
            empty = self._full & ~(own | opp)
            moves = 0
            for shift, mask in self._dirs:
                mo = mask & opp
                if shift > 0:
                    t = (own << shift) & mo
                    run = 0
                    while t:
                        run |= t
                        t = (t << shift) & mo
                    moves |= (run << shift) & mask
                else:
                    t = (own >> -shift) & mo
                    run = 0
                    while t:
                        run |= t
                        t = (t >> -shift) & mo
                    moves |= (run >> -shift) & mask
            return moves & empty
        except Exception:  # noqa: BLE001 - as player; what fails here is no pair of bitboards
            if self._fits(own, opp):
                raise
            raise InvalidPositionError(f"own and opp are bitboards, whole numbers 0..2**{self.cells} - 1, not "
                                       f"{quoted(own)} and {quoted(opp)}") from None

    def _flips(self, bit: int, own: int, opp: int) -> int:
        flips = 0
        for shift, mask in self._dirs:
            run = 0
            t = ((bit << shift) if shift > 0 else (bit >> -shift)) & mask
            while t & opp:
                run |= t
                t = ((t << shift) if shift > 0 else (t >> -shift)) & mask
            if t & own:
                flips |= run
        return flips

    def _sides(self, state: OthelloState) -> tuple[int, int]:
        try:
            return (state.black, state.white) if state.to_move == 1 else (state.white, state.black)
        except Exception:  # noqa: BLE001 - as player
            raise self.state_error(state) from None

    def actions(self, state: OthelloState) -> list[int]:
        own, opp = self._sides(state)
        moves = self.moves_mask(own, opp)
        if not moves:
            return [self.pass_action] if self.moves_mask(opp, own) else []
        out = []
        while moves:
            low = moves & -moves
            out.append(low.bit_length() - 1)
            moves ^= low
        return out

    def result(self, state: OthelloState, action: int) -> OthelloState:
        action = as_index(action, f"an Othello action is a cell number 0..{self.cells - 1} or {self.cells} (pass)")
        try:
            own, opp = self._sides(state)
            p = state.to_move
            if action == self.pass_action:
                if self.moves_mask(own, opp):
                    raise IllegalMoveError(f"{self.player_label(p)} has a move, so may not pass: {self._legal(state)}")
                if not self.moves_mask(opp, own):
                    raise IllegalMoveError(f"the game is over: {self._score(state)}")
                return OthelloState(state.black, state.white, 3 - p, (state.hist, action), 0)
            if not 0 <= action < self.cells:
                raise IllegalMoveError(f"{action} is not an action: cells are 0..{self.cells - 1}, the pass {self.cells}")
            bit = 1 << action
            flips = 0 if (own | opp) & bit else self._flips(bit, own, opp)
            if not flips:
                raise IllegalMoveError(f"{self.format_action(action)} is not legal: {self._why(state, bit)}")
            own |= bit | flips
            opp &= ~flips
            black, white = (own, opp) if p == 1 else (opp, own)
            return OthelloState(black, white, 3 - p, (state.hist, action), bit | flips)
        except Exception:  # noqa: BLE001 - as player (an IllegalMoveError of a good state passes through)
            self.check_state(state)
            raise

    def _why(self, state: OthelloState, bit: int) -> str:
        if not self.actions(state):
            return f"the game is over ({self._score(state)})"
        if (state.black | state.white) & bit:
            reason = "that cell is taken"
        else:
            reason = "it flips no disc"
        return f"{reason}; {self._legal(state)}"

    def _legal(self, state: OthelloState) -> str:
        return f"legal moves: {' '.join(self.format_action(a) for a in self.actions(state))}"

    def _score(self, state: OthelloState) -> str:
        return f"black {state.black.bit_count()}, white {state.white.bit_count()}"

    def outcome(self, state: OthelloState) -> Outcome | None:
        try:
            b, w = state.black, state.white
        except Exception:  # noqa: BLE001 - as player
            raise self.state_error(state) from None
        if self.moves_mask(b, w) or self.moves_mask(w, b):
            return None
        nb, nw = b.bit_count(), w.bit_count()
        winner = None if nb == nw else (1 if nb > nw else 2)
        return Outcome(winner, f"neither side can move: black {nb}, white {nw}")
