"""Connect-X as text, apart from the rules: move strings ("4453", "10,4,11") and grid text (top row first,
``.`` empty, ``X`` the first player, ``O`` the second), read and written for
:class:`zerosum.games.connectx.ConnectX`, which checks what they describe against its rules (a grid's
position, :func:`grid_position`, with the game's own line test)."""

from __future__ import annotations

import re
from typing import Any, Sequence

from ..core.checks import check_flag, check_whole, other
from ..errors import InvalidMoveError, InvalidPositionError
from ..game import Origin
from ..spec import quoted
from .connectx_state import ConnectXState

__all__ = ["split_moves", "join_moves", "parse_grid", "grid_stones", "render_grid", "grid_position", "line_words",
           "counted", "board_words"]

_DIGITS = re.compile(r"[0-9]{1,18}")


def counted(n: int, noun: str) -> str:
    """``n`` of ``noun``, singular for one: ``1 row``, ``6 rows``, ``0 cells``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def board_words(rows: int, cols: int, joint: str = " and ") -> str:
    """A board's size in words: ``6 rows and 7 columns``, ``1 row and 5 columns``; ``joint=" x "``:
    ``6 rows x 7 columns`` (a title's)."""
    return f"{counted(rows, 'row')}{joint}{counted(cols, 'column')}"


def split_moves(moves: str, cols: int) -> list[int]:
    """A move string as 0-based columns of a board ``cols`` wide, without checking legality.

    One digit a move on boards of up to 9 columns ("4453"); on wider boards, or whenever the string
    holds a comma, comma- or space-separated numbers ("10,4,11", "10 4 11"): one comma between two moves,
    none at either end (``,1``, ``1,2,`` and ``1,,2`` are refused: a move left out is a mistake).
    """
    if not isinstance(moves, str):
        raise InvalidMoveError(f"a move string is text such as '4453', not {type(moves).__name__}")
    text = moves.strip()
    if not text:
        return []
    if "," in text or cols > 9:
        parts: list[str] = []
        chunks = text.split(",")
        for i, chunk in enumerate(chunks):
            if not chunk.strip():
                where = ("at its start" if i == 0 else "at its end" if i == len(chunks) - 1
                         else f"after move {len(parts)}")
                raise InvalidMoveError(f"{quoted(moves)} has an empty move {where}: columns are separated by one "
                                       "comma each (10,4,11)")
            parts += chunk.split()
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
            raise InvalidPositionError(f"grid row {quoted(raw.strip())} has {counted(len(norm), 'cell')}; this board "
                                       f"has {counted(cols, 'column')}")
        out.append("".join(norm))
    if len(out) != rows:
        raise InvalidPositionError(f"the grid has {counted(len(out), 'row')}; this board has {rows}")
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
                raise InvalidPositionError(  # the row as the grid is written: counted from the top
                    f"floating stone at column {col + 1}, row {rows - row} of the grid (counted from the top): "
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


def grid_position(game: Any, text: str, strict: bool = True, to_move: int | None = None) -> ConnectXState:
    """The position of grid ``text`` on ``game``'s board (:meth:`zerosum.games.connectx.ConnectX.from_grid`, which
    this module does not import): with ``strict``, only one that can arise in play; else any that respects
    gravity."""
    strict = check_flag(strict, "strict", InvalidPositionError)
    if to_move is not None:
        to_move = check_whole(to_move, "to_move (the player to move)", 1, 2, InvalidPositionError)
    grid = parse_grid(text, game.rows, game.cols)
    current_x, current_o, mask = grid_stones(grid, game.rows, game.cols, game.height)
    nx, no = current_x.bit_count(), current_o.bit_count()
    x_line, o_line = game._has_line_bits(current_x), game._has_line_bits(current_o)
    if strict:
        if nx not in (no, no + 1):
            raise InvalidPositionError(
                f"impossible stone counts: {nx} X and {no} O (X moves first, so X has as many or one more)"
            )
        expected = 1 if nx == no else 2
        if to_move is not None and to_move != expected:
            raise InvalidPositionError(f"with {nx} X and {no} O it is player {expected}'s turn")
        to_move = expected
        if x_line and o_line:
            raise InvalidPositionError("both players have a line: play continued after a win")
        if x_line or o_line:
            winner = 1 if x_line else 2
            if winner != other(to_move):
                raise InvalidPositionError(
                    f"{'X' if winner == 1 else 'O'} has a line but the other player moved after it"
                )
            if not _last_stone_can_win(game, current_x if winner == 1 else current_o, mask):
                raise InvalidPositionError("play continued after a win: no single last stone made the line")
    elif to_move is None:
        to_move = 1 if nx <= no else 2
    won_by = 0
    if x_line or o_line:
        if x_line and o_line:
            won_by = other(to_move)
        else:
            won_by = 1 if x_line else 2
    current = current_x if to_move == 1 else current_o
    return ConnectXState(current, mask, to_move, nx + no, won_by, Origin(game.spec, known=False))


def _last_stone_can_win(game: Any, stones: int, mask: int) -> bool:
    """Whether removing one top stone of ``stones`` leaves no line (so that stone could end the game)."""
    for col in range(game.cols):
        col_bits = mask & game.column[col]
        if not col_bits:
            continue
        top_bit = 1 << (col_bits.bit_length() - 1)
        if stones & top_bit and not game._has_line_bits(stones ^ top_bit):
            return True
    return False


def line_words(line: Sequence[tuple[int, int]], rows: int, k: int) -> str:
    """A winning line's cells ``(row, col)`` (row 0 at the top, as :meth:`ConnectX.winning_line` gives them)
    in words: ``4 in a row, column 4, rows 1 to 4`` (rows counted from the bottom, where stones land, and
    columns from the left, both 1-based)."""
    cells = [(rows - 1 - r, c) for r, c in line]  # row 0 at the bottom
    found = sorted({r for r, _ in cells})
    cols = sorted({c for _, c in cells})
    if len(found) == 1:
        where = f"row {found[0] + 1}, columns {cols[0] + 1} to {cols[-1] + 1}"
    elif len(cols) == 1:
        where = f"column {cols[0] + 1}, rows {found[0] + 1} to {found[-1] + 1}"
    else:
        first, last = min(cells, key=lambda rc: rc[1]), max(cells, key=lambda rc: rc[1])
        where = f"diagonal from column {first[1] + 1} row {first[0] + 1} to column {last[1] + 1} row {last[0] + 1}"
    return f"{k} in a row, {where}"
