"""Connect-X as text, apart from the rules: move strings ("4453", "10,4,11") and grid text (top row first,
``.`` empty, ``X`` the first player, ``O`` the second), read and written for
:class:`zerosum.games.connectx.ConnectX`, which checks what they describe against its rules."""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import InvalidMoveError, InvalidPositionError
from ..spec import quoted

__all__ = ["split_moves", "join_moves", "parse_grid", "grid_stones", "render_grid"]

_DIGITS = re.compile(r"[0-9]{1,18}")


def split_moves(moves: str, cols: int) -> list[int]:
    """A move string as 0-based columns of a board ``cols`` wide, without checking legality.

    One digit a move on boards of up to 9 columns ("4453"); on wider boards, or whenever the string
    holds a comma, comma- or space-separated numbers ("10,4,11").
    """
    if not isinstance(moves, str):
        raise InvalidMoveError(f"a move string is text such as '4453', not {type(moves).__name__}")
    text = moves.strip()
    if not text:
        return []
    if "," in text or cols > 9:
        parts = [p for p in re.split(r"[,\s]+", text) if p]
    else:
        parts = [ch for ch in text if not ch.isspace()]
    out = []
    for i, part in enumerate(parts):
        if not _DIGITS.fullmatch(part):  # ASCII only: '4²'.isdigit() is True, int('4²') fails
            raise InvalidMoveError(f"move {i + 1} of {quoted(moves)} is {quoted(part)}, not a column number 1..{cols}")
        out.append(int(part) - 1)
    return out


def join_moves(columns: Sequence[int], cols: int) -> str:
    """The move string of 0-based ``columns`` (1-based; comma-separated past 9 columns)."""
    return ("" if cols <= 9 else ",").join(str(c + 1) for c in columns)


def parse_grid(text: str, rows: int, cols: int) -> list[str]:
    """Grid text as ``rows`` strings of ``cols`` cells from ``.XO``, top row first; a column header, ``|``
    borders, spaces between cells and ``-``/``_`` for empty cells are accepted."""
    if not isinstance(text, str):
        raise InvalidPositionError(f"a grid is text, not {type(text).__name__}")
    out: list[str] = []
    for raw in text.strip("\n").splitlines():
        line = raw.strip()
        if not line or re.fullmatch(r"[\d\s|]+", line):
            continue  # blank or a column header
        line = line.strip("|")
        cells = line.split() if " " in line else list(line)
        norm = []
        for ch in cells:
            up = ch.upper()
            if up in ("X", "O", "."):
                norm.append(up)
            elif ch in ("-", "_"):
                norm.append(".")
            else:
                raise InvalidPositionError(f"unexpected {quoted(ch)} in grid row {quoted(raw.strip())}: use . X O")
        if len(norm) != cols:
            raise InvalidPositionError(f"grid row {quoted(raw.strip())} has {len(norm)} cells; this board has {cols} columns")
        out.append("".join(norm))
    if len(out) != rows:
        raise InvalidPositionError(f"the grid has {len(out)} rows; this board has {rows}")
    return out


def grid_stones(grid: list[str], rows: int, cols: int, height: int) -> tuple[int, int, int]:
    """The bitboards (X's stones, O's stones, all stones) of a parsed grid, in the layout of
    :mod:`zerosum.games.connectx` (``height`` bits a column); a stone above an empty cell is an error."""
    stones_x = stones_o = mask = 0
    for col in range(cols):
        seen_empty = False
        for row in range(rows):  # bottom up
            ch = grid[rows - 1 - row][col]
            bit = 1 << (col * height + row)
            if ch == ".":
                seen_empty = True
                continue
            if seen_empty:
                raise InvalidPositionError(
                    f"floating stone at column {col + 1}, row {row + 1} from the bottom: "
                    "stones must rest on the floor or on other stones"
                )
            mask |= bit
            if ch == "X":
                stones_x |= bit
            else:
                stones_o |= bit
    return stones_x, stones_o, mask


def render_grid(grid: str, cols: int) -> str:
    """Grid text under a 1-based column header; cells are spaced so wide boards stay aligned."""
    width = len(str(cols))
    header = " ".join(str(c + 1).rjust(width) for c in range(cols))
    lines = [" ".join(ch.rjust(width) for ch in line) for line in grid.split("\n")]
    return "\n".join([header, *lines])
