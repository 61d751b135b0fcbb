"""Migration(n): two armies cross an n x n board at right angles.

The board is addressed ``board[x][y]``: ``x`` the row from the top, ``y`` the column.  With
``k = ceil(n/2 - 1)``, player 1 starts with a stone at ``(x, y)`` for every ``y < k`` and
``y + 1 <= x <= n - y - 2``; player 2 at ``(n - 1 - x', y')`` for every ``x' < k`` and
``x' + 1 <= y' <= n - x' - 2``.  Player 1 moves a stone one step right, player 2 one step up, onto an empty
cell inside the board.  Player 1 moves first; a player with no legal move loses, so there are no draws.
Actions are ``(x, y, nx, ny)`` tuples, listed in row-major order of the moving stone.

Free boards (:meth:`~zerosum.game.Game.place`, not moves): a stone may be placed on any empty cell, ``(x, y)``
or ``x * n + y``; the other player is to move next.

Notation: a move is the stone that moves, ``x,y`` (row from the top, column, both from 0); its one direction
follows from whose stone it is.  A move string joins moves with ``;`` (``"1,0;5,3"``; spaces around it, or
spaces alone, separate moves too).  ``x,y>nx,ny`` and ``x,y,nx,ny`` are read too.  One separator stands
between two moves or numbers, none at either end: ``1,0;;3,1``, ``3,0;`` and ``3,,0`` are refused.
"""

from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass
from typing import Callable, ClassVar, Sequence

from ..errors import IllegalMoveError, InvalidMoveError, InvalidSpecError
from ..core.checks import check_text
from ..game import BoardView, Game, GameOption, GameTraits, Outcome, as_index, board_cells, check_player, other, safe_repr
from ..spec import quoted
from .move_text import split_joined
from .registry import register_game

__all__ = ["Migration", "MigrationState"]

Action = tuple[int, int, int, int]
_NUMBER = re.compile(r"-?[0-9]{1,18}")
_BRACKETS = str.maketrans("()[]", "    ")  # read as spaces: "(3, 0) > (3, 1)"


@dataclass(frozen=True, slots=True)
class MigrationState:
    """``board[x][y]`` (0 empty, 1, 2) and the side to move."""

    board: tuple[tuple[int, ...], ...]
    to_move: int = 1

    def _repr_svg_(self) -> str:
        """The board as SVG (Jupyter shows states with it; see :meth:`zerosum.game.Game.svg`)."""
        return Migration(len(self.board)).svg(self)


@register_game
class Migration(Game[MigrationState, Action]):
    """Migration on an ``n`` x ``n`` board (any n >= 3)."""

    STEP = {1: (0, 1), 2: (-1, 0)}  # player 1 moves right, player 2 moves up
    #: the largest board side (a documented limit, checked before anything is built)
    MAX_N = 64

    traits = GameTraits(winner_moves_last=True)  # a win is the winner's own move
    name = "migration"
    OPTIONS: ClassVar[dict[str, GameOption]] = {"n": GameOption(8, 3, MAX_N, "the side of the board")}
    MOVES_HELP = "the moving stones as x,y (row from the top, column, both from 0) joined by ';', e.g. 1,0;5,3"
    MARKS = (">", "^")
    GLYPHS = ("▶", "▲")
    MOVE_SEPARATOR = ";"

    SIDES = ("n", "n")

    @classmethod
    def check_options(cls, spec: str, options: dict[str, int]) -> None:
        n = cls.option_values(spec, options)["n"]
        if isinstance(n, bool) or not isinstance(n, int) or not 3 <= n <= cls.MAX_N:
            raise InvalidSpecError(f"Migration needs a whole number n in 3..{cls.MAX_N}, not {quoted(n)}")

    def __init__(self, n: int = 8) -> None:
        self.check_options("", {"n": n})
        self.n = n
        self.spec = f"migration:n={n}"
        board = [[0] * n for _ in range(n)]
        k = math.ceil(n / 2 - 1)
        for y in range(k):
            for x in range(y + 1, n - y - 1):
                board[x][y] = 1
        for xp in range(k):
            for yp in range(xp + 1, n - xp - 1):
                board[n - 1 - xp][yp] = 2
        self._initial = MigrationState(tuple(tuple(r) for r in board), 1)

    @property
    def initial_state(self) -> MigrationState:
        return self._initial

    def check_state(self, state: object) -> MigrationState:
        n, board = self.n, getattr(state, "board", None) if type(state) is MigrationState else None
        to_move = getattr(state, "to_move", None)
        if (type(board) is not tuple or len(board) != n or type(to_move) is not int or to_move not in (1, 2)
                or any(type(row) is not tuple or len(row) != n for row in board)
                or any(type(v) is not int or v not in (0, 1, 2) for row in board for v in row)):
            raise self.state_error(state)
        return state  # type: ignore[return-value]

    def player(self, state: MigrationState) -> int:
        try:
            return state.to_move
        except Exception:  # noqa: BLE001 - the rules check a state only when it fails them (Game.check_state)
            raise self.state_error(state) from None

    def _moves(self, state: MigrationState, player: int) -> list[Action]:
        try:
            dx, dy = self.STEP[player]
            n, board = self.n, state.board
            out = []
            for x in range(n):
                row = board[x]
                for y in range(n):
                    if row[y] == player:
                        nx, ny = x + dx, y + dy
                        if 0 <= nx < n and 0 <= ny < n and board[nx][ny] == 0:
                            out.append((x, y, nx, ny))
            return out
        except Exception:  # noqa: BLE001 - as player
            self.check_state(state)
            raise

    def actions(self, state: MigrationState) -> list[Action]:
        try:
            to_move = state.to_move
        except Exception:  # noqa: BLE001 - as player
            raise self.state_error(state) from None
        return self._moves(state, to_move)

    def _as_action(self, action: object) -> Action:
        """``action`` as four ints (numpy's too, never 1.5 nor True, as Othello's); else one InvalidMoveError."""
        try:
            if isinstance(action, (str, bytes)) or len(action) != 4:  # type: ignore[arg-type]
                raise TypeError
            if any(isinstance(v, bool) for v in action):  # type: ignore[attr-defined]
                raise TypeError
            x, y, nx, ny = (operator.index(v) for v in action)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - whatever a caller passes, the answer is one InvalidMoveError
            raise InvalidMoveError(f"a Migration action is a tuple (x, y, nx, ny), not {safe_repr(action)}") from None
        return x, y, nx, ny

    def result(self, state: MigrationState, action: Action) -> MigrationState:
        x, y, nx, ny = self._as_action(action)
        try:
            p = state.to_move
        except Exception:  # noqa: BLE001 - as player
            raise self.state_error(state) from None
        legal = self._moves(state, p)
        if (x, y, nx, ny) not in legal:
            if not legal:
                raise IllegalMoveError(f"the game is over: player {p} has no legal move")
            raise IllegalMoveError(f"{x},{y}>{nx},{ny} is not legal: {self._why(state, x, y, nx, ny)}")
        rows = [list(r) for r in state.board]
        rows[x][y] = 0
        rows[nx][ny] = p
        return MigrationState(tuple(tuple(r) for r in rows), other(p))

    def _why(self, state: MigrationState, x: int, y: int, nx: int, ny: int) -> str:
        n, p = self.n, state.to_move
        direction = "right" if p == 1 else "up"
        if not (0 <= x < n and 0 <= y < n):
            return f"({x}, {y}) is outside the {n} x {n} board"
        if state.board[x][y] != p:
            return f"player {p} has no stone at ({x}, {y})"
        dx, dy = self.STEP[p]
        if (nx, ny) != (x + dx, y + dy):
            return f"player {p} moves one step {direction}, to ({x + dx}, {y + dy})"
        if not (0 <= nx < n and 0 <= ny < n):
            return f"({nx}, {ny}) is outside the board"
        return f"({nx}, {ny}) is occupied"

    def outcome(self, state: MigrationState) -> Outcome | None:
        try:
            to_move = state.to_move
        except Exception:  # noqa: BLE001 - as player
            raise self.state_error(state) from None
        if self._moves(state, to_move):
            return None
        return Outcome(other(to_move), f"player {to_move} has no legal move")

    def render(self, state: MigrationState) -> str:
        chars, state = {0: ".", 1: ">", 2: "^"}, self.check_state(state)
        width = len(str(self.n - 1))
        lines = [" " * (width + 1) + " ".join(str(y).rjust(width) for y in range(self.n))]
        for x, row in enumerate(state.board):
            lines.append(str(x).rjust(width) + " " + " ".join(chars[v].rjust(width) for v in row))
        return "\n".join(lines)

    def parse_action(self, text: str, state: MigrationState | None = None) -> Action:
        """``x,y`` (the stone to move; its one direction is implied) or ``x,y,nx,ny`` / ``x,y>nx,ny``."""
        raw = check_text(text, "a Migration move", InvalidMoveError, hint=" such as '3,0' (row, column from 0)")
        if state is not None:
            state = self.check_state(state)
        not_a_move = InvalidMoveError(
            f"{quoted(str(text).strip())} is not a Migration move: type the stone as 'x,y' (row, column from 0)"
        )
        if len(raw) > 200:
            raise not_a_move
        parts = split_joined(raw.translate(_BRACKETS), ",>", lambda piece, done: piece.split(), "number",
                             "numbers are separated by one comma each (3,0 or 3,0>3,1)", shown=raw.strip())
        if len(parts) not in (2, 4) or not all(_NUMBER.fullmatch(part) for part in parts):
            raise not_a_move
        nums = [int(part) for part in parts]
        if len(nums) == 2:
            if state is None:
                raise InvalidMoveError("'x,y' needs the position to know who moves: type 'x,y,nx,ny'")
            dx, dy = self.STEP[state.to_move]
            nums += [nums[0] + dx, nums[1] + dy]
        action = (nums[0], nums[1], nums[2], nums[3])
        if state is not None:
            self.result(state, action)
        return action

    def move_tokens(self, text: str) -> list[str]:
        """The moves of a move string (``1,0;5,3``, ``1,0; 5,3``, ``1,0 5,3``), not yet checked."""
        text = check_text(text, "a move string", InvalidMoveError, hint=f" ({self.MOVES_HELP})")
        return split_joined(text, ";", lambda piece, done: piece.split(), "move",
                            "moves are separated by one ';' each (1,0;5,3)")

    def format_action(self, action: Action) -> str:
        """The stone that moves, ``x,y`` (:meth:`parse_action` reads it back in the position it is played)."""
        x, y, _, _ = self._as_action(action)
        return f"{x},{y}"

    # ---- names and the picture ------------------------------------------------------------------

    @property
    def title(self) -> str:
        return f"Migration {self.n} x {self.n}"

    def player_label(self, player: int) -> str:
        return "moves right" if check_player(player) == 1 else "moves up"

    def board_view(self, state: MigrationState, last: Action | None = None) -> BoardView:
        """``board[x][y]`` as rows; rows and columns labelled from 0; ``last`` lights both cells it changed."""
        labels = tuple(str(i) for i in range(self.n))
        last = None if last is None else self._as_action(last)
        moved = ((last[0], last[1]), (last[2], last[3])) if last is not None else ()
        return BoardView(self.n, self.n, self.check_state(state).board, col_labels=labels, row_labels=labels, last=moved,
                         marks=self.MARKS, glyphs=self.GLYPHS)

    def action_at(self, state: MigrationState, row: int, col: int) -> Action | None:
        if type(row) is not int or type(col) is not int:
            return None
        for action in self.actions(self.check_state(state)):
            if action[:2] == (row, col):
                return action
        return None

    def cell_move(self, row: int, col: int) -> str | None:
        """The stone on ``(row, col)`` as typed, ``x,y`` (a click on a cell moves its stone, if it can)."""
        inside = type(row) is int and type(col) is int and 0 <= row < self.n and 0 <= col < self.n
        return f"{row},{col}" if inside else None

    def evaluations(self) -> dict[str, Callable[..., float]]:
        return {"mobility": mobility_eval}

    # numbered actions: the moving stone's cell x * n + y (its direction follows from whose turn it is)
    @property
    def action_space_size(self) -> int:
        return self.n * self.n

    def action_index(self, action: Action) -> int:
        x, y, _, _ = self._as_action(action)
        return x * self.n + y

    def index_action(self, index: int, state: MigrationState) -> Action:
        x, y = divmod(as_index(index, "an action number is x * n + y of the moving stone"), self.n)
        dx, dy = self.STEP[self.check_state(state).to_move]
        return (x, y, x + dx, y + dy)

    def from_board(self, cells: Sequence[Sequence[int]], to_move: int) -> MigrationState:
        return MigrationState(board_cells(cells, self.n, self.n, to_move), to_move)


#: per legal move of difference (the mobility evaluation)
MOBILITY_SCALE = 10


def mobility_eval(game: Migration, state: MigrationState, player: int) -> int:
    """``MOBILITY_SCALE`` x (``player``'s legal moves - the opponent's): both sides' moves are counted."""
    return MOBILITY_SCALE * (len(game._moves(state, player)) - len(game._moves(state, other(player))))
