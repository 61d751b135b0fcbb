"""The Connect-X position: an immutable tuple of Python ints (Pascal Pons' bitboards).

``current`` holds the side to move's stones and ``mask`` all stones, in the layout of
:mod:`zerosum.games.connectx`; the move history (a linked list of columns) serves notation only and takes no
part in equality or hashing, so transpositions meet in sets and tables.
"""

from __future__ import annotations

from operator import itemgetter
from typing import TYPE_CHECKING

from ..game import unwind
from ..core.checks import player_error

__all__ = ["ConnectXState", "UNKNOWN", "fits"]

#: the history marker of states built from a grid, whose moves are not known (picklable)
UNKNOWN = False


class ConnectXState(tuple[int, int, int, int, int, object]):
    """An immutable Connect-X position.

    ``current``: the side to move's stones; ``mask``: all stones; ``to_move``: 1 or 2; ``ply``: stones on
    the board; ``won_by``: 0 while nobody has a line, else the player who has one.  Equality and hashing
    use the position only, never the move history kept for notation.  (A tuple underneath: cheap to make.)
    """

    __slots__ = ()

    def __new__(cls, current: int, mask: int, to_move: int, ply: int, won_by: int, hist: object) -> "ConnectXState":
        return tuple.__new__(cls, (current, mask, to_move, ply, won_by, hist))

    if TYPE_CHECKING:  # what checkers see; at run time, C-speed itemgetters below
        current: int
        mask: int
        to_move: int
        ply: int
        won_by: int
        _hist: object
    else:
        current = property(itemgetter(0))
        mask = property(itemgetter(1))
        to_move = property(itemgetter(2))
        ply = property(itemgetter(3))
        won_by = property(itemgetter(4))
        _hist = property(itemgetter(5))

    def __eq__(self, other_: object) -> bool:
        if not isinstance(other_, ConnectXState):
            return NotImplemented
        return self[0] == other_[0] and self[1] == other_[1] and self[2] == other_[2]

    def __ne__(self, other_: object) -> bool:
        eq = self.__eq__(other_)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash((self[0], self[1], self[2]))

    def __repr__(self) -> str:
        return f"ConnectXState(current={self[0]:#x}, mask={self[1]:#x}, to_move={self[2]})"

    def __getnewargs__(self) -> tuple[object, ...]:  # pickling (the arena sends states to processes)
        return tuple(self)

    def stones(self, player: int) -> int:
        """The bitboard of ``player``'s stones (1 or 2; anything else is an InvalidMoveError)."""
        try:
            if player == self[2]:
                return self[0]
            if player == 3 - self[2]:
                return self[0] ^ self[1]
        except Exception:  # noqa: BLE001 - what cannot be compared with a player is no player
            pass
        raise player_error(player)

    @property
    def history(self) -> tuple[int, ...] | None:
        """The 0-based columns played from the empty board, or None for a position made from a grid."""
        # a linked list (the earlier list, column) whose root is the game's Origin (older states: None)
        moves, root = unwind(self._hist)
        if self._hist is UNKNOWN or (root is not None and not root.known):
            return None
        return tuple(moves)

    def _repr_svg_(self) -> str | None:
        """The board as SVG (Jupyter shows states with it): the game is found from the root of the history
        list (:class:`~zerosum.game.Origin`); None (text instead) for a state that does not know it."""
        root = unwind(self._hist)[1]
        if root is None:
            return None
        from .registry import get_game

        return get_game(root.spec).svg(self)


def fits(state: object, board_mask: int, bottom_mask: int) -> bool:
    """Whether ``state`` is a position of the board whose cells are ``board_mask`` (their bottom row
    ``bottom_mask``): a :class:`ConnectXState` of whole-number bitboards whose stones all lie on the board, each
    on the floor or on another stone, the side to move's among them, as many as its ply count, with 1 or 2 to
    move and 0, 1 or 2 as the player with a line (for :meth:`zerosum.games.connectx.ConnectX.check_state`)."""
    if type(state) is not ConnectXState:
        return False
    current, mask, to_move, ply, won_by, _ = state
    if not all(type(v) is int for v in (current, mask, to_move, ply, won_by)) or current < 0 or mask < 0:
        return False
    return (not mask & ~board_mask and not (mask + bottom_mask) & mask and not current & ~mask
            and to_move in (1, 2) and won_by in (0, 1, 2) and ply == mask.bit_count())
