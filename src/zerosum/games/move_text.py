"""Move strings whose pieces a separator joins (Tic-Tac-Toe's and Othello's commas, Migration's ``;`` between
moves and ``,`` / ``>`` inside one): one separator between two pieces, none at either end, as
:func:`zerosum.games.connectx_text.split_moves` reads Connect-X's.  A piece left out (``5,``, ``1,0;;3,1``) is
a mistake, refused in one line that says where, never read as if it were not there."""

from __future__ import annotations

import re
from typing import Callable, TypeVar

from ..errors import InvalidMoveError
from ..spec import quoted

__all__ = ["split_joined"]

T = TypeVar("T")


def split_joined(text: str, seps: str, read: Callable[[str, int], list[T]], noun: str, rule: str,
                 shown: str | None = None) -> list[T]:
    """What ``read`` makes of each piece of ``text`` between the separators ``seps`` (any of its characters),
    in order; ``[]`` for blank text.  ``read(piece, done)`` gets a piece (never blank; spaces kept) and how
    many items the pieces before it gave.

    A blank piece raises :class:`~zerosum.errors.InvalidMoveError`: ``'5,' has an empty move at its end:
    RULE`` (``noun`` names what is missing; ``shown``, the text quoted, when ``text`` is a rewriting of it).

    >>> split_joined("5, 1,9", ",", lambda piece, done: piece.split(), "move", "one comma between two moves")
    ['5', '1', '9']
    """
    if not text.strip():
        return []
    pieces = re.split(f"[{re.escape(seps)}]", text)
    out: list[T] = []
    for i, piece in enumerate(pieces):
        if not piece.strip():
            where = "at its start" if i == 0 else "at its end" if i == len(pieces) - 1 else f"after {noun} {len(out)}"
            raise InvalidMoveError(f"{quoted(text if shown is None else shown)} has an empty {noun} {where}: {rule}")
        out += read(piece, len(out))
    return out
