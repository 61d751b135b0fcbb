"""Connect-X: Connect Four on any board, with any line length, on bitboards.

Bit layout (the one Pascal Pons' solver uses, and so do our numba kernels): column ``c`` owns the bits
``c*(rows+1) .. c*(rows+1)+rows-1``, bottom cell first, plus one always-empty sentinel bit on top that
stops lines from wrapping from one column into the next.  A state is the side to move's stones, the mask
of all stones and the side to move, so every rule is a few integer operations:

* the cell a stone lands on in column ``c``: ``(mask + bottom(c)) & column(c)``;
* ``k`` in a row along direction ``d`` (1 vertical, rows+1 horizontal, rows and rows+2 the diagonals):
  AND the stones with themselves shifted by ``d``, doubling the run length each time.

Python ints make every size work; boards that fit in 64 bits also run in the numba kernels of
:mod:`zerosum.kernels.connectx`.  The board's geometry and the rules on it are :mod:`zerosum.games.connectx_rules`.
"""

from __future__ import annotations

from typing import Callable, ClassVar, Iterable, Sequence

from ..errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, InvalidSpecError
from ..game import BoardView, GameOption, Origin, as_index, board_cells, check_player, one_based, other
from ..kernels.bits import line_bits
from ..spec import quoted
from .connectx_eval import EVALUATIONS
from .connectx_rules import ConnectXRules
from .connectx_state import ConnectXState
from .connectx_text import board_words, grid_position, join_moves, line_words, render_grid, split_moves
from .registry import register_game

__all__ = ["ConnectX", "ConnectXState"]

@register_game
class ConnectX(ConnectXRules):
    """Connect-X on ``rows`` x ``cols`` with ``k`` in a row; actions are 0-based columns, left to right."""

    #: the largest number of rows or columns (a documented limit, checked before anything is built)
    MAX_SIDE = 64

    name = "connectx"
    presets: ClassVar[dict[str, dict[str, int]]] = {
        "connect4": {"rows": 6, "cols": 7, "k": 4},
        "connect4-8x8": {"rows": 8, "cols": 8, "k": 4},  # the 8 x 8 school variant
        "connect4-5x7": {"rows": 5, "cols": 7, "k": 4},  # 5 rows x 7 columns
    }
    OPTIONS: ClassVar[dict[str, GameOption]] = {
        "rows": GameOption(6, 1, MAX_SIDE, "rows of the board"),
        "cols": GameOption(7, 1, MAX_SIDE, "columns of the board"),
        "k": GameOption(4, 2, MAX_SIDE, "stones in a row that win (at most the longer side)"),
    }
    MOVES_HELP = "1-based columns, one digit a move (comma-separated past 9 columns), e.g. 4453"

    SIDES = ("rows", "cols")

    @classmethod
    def check_options(cls, spec: str, options: dict[str, int]) -> None:
        options = cls.option_values(spec, options)
        rows, cols, k = options["rows"], options["cols"], options["k"]
        if not 1 <= rows <= cls.MAX_SIDE or not 1 <= cols <= cls.MAX_SIDE:
            raise InvalidSpecError(f"a board of {board_words(rows, cols)} is not supported: rows and cols must "
                                   f"be 1..{cls.MAX_SIDE}")
        if not 2 <= k <= max(rows, cols):
            raise InvalidSpecError(f"k={k} does not fit a board of {board_words(rows, cols)}: expected 2..{max(rows, cols)}"
                                   if max(rows, cols) > 1 else f"a board of {board_words(rows, cols)} has no room for a line "
                                   "(k, its length, is at least 2)")

    # ---- rules helpers -----------------------------------------------------------------------

    def place(self, state: ConnectXState, where: int, player: int) -> ConnectXState:
        """``player``'s stone dropped into column ``where`` (0-based): **not a move** (see :meth:`Game.place`).

        Gravity is the only rule: the stone lands on the lowest empty cell, whoever's turn it is and even on a
        board that already has a line.  The other of ``player`` is to move next; a line counts as a win, the
        placed player's first.

        >>> game = ConnectX()
        >>> board = game.place(game.place(game.initial_state, 3, 2), 3, 2)  # O twice in column 4
        >>> game.to_grid(board).splitlines()[-2:], game.player(board)
        (['...O...', '...O...'], 1)
        """
        player, state = check_player(player), self.check_state(state)
        col = as_index(where, f"a Connect-X stone is placed in a column 0..{self.cols - 1} (0-based, as actions)")
        if not 0 <= col < self.cols:
            raise self._outside(col)
        if state.mask & self.top[col]:
            raise IllegalMoveError(f"column {col + 1} is full")  # as result() says it
        mask = state.mask | (state.mask + self.bottom[col])
        stones = {1: state.stones(1), 2: state.stones(2)}
        stones[player] |= mask ^ state.mask
        nxt = other(player)
        won = player if self._has_line_bits(stones[player]) else nxt if self._has_line_bits(stones[nxt]) else 0
        return ConnectXState(stones[nxt], mask, nxt, state.ply + 1, won, Origin(self.spec, known=False))

    def has_line(self, state: ConnectXState, player: int) -> bool:
        """Whether ``player`` has ``k`` in a row (the classic ``checkWin``)."""
        return self._has_line_bits(self.check_state(state).stones(check_player(player)))

    def winning_line(self, state: ConnectXState) -> list[tuple[int, int]]:
        """The cells ``(row, col)`` (row 0 at the top) of a winning line, or [] when nobody has one."""
        if not self.check_state(state).won_by:
            return []
        stones = state.stones(state.won_by)
        for d in self.directions:
            run = line_bits(stones, d, self.k)
            if run:
                start = (run & -run).bit_length() - 1
                bits = [start + i * d for i in range(self.k)]
                return [(self.rows - 1 - b % self.height, b // self.height) for b in bits]
        return []  # pragma: no cover - won_by implies a line

    def describe_win(self, state: ConnectXState) -> str:
        """"4 in a row, column 4, rows 1 to 4" (rows counted from the bottom, both 1-based)."""
        out = self.outcome(state)
        if out is None or out.winner is None:
            return "" if out is None else out.reason
        return line_words(self.winning_line(state), self.rows, self.k)

    def cell(self, state: ConnectXState, row: int, col: int, *, origin: str = "top") -> int:
        """0 empty, 1 or 2: the stone at ``row`` and ``col`` (0-based, as Python numbers them).

        ``origin="top"`` (the default): row 0 is the top row, as the board is drawn and as :meth:`board_view`,
        :meth:`winning_line`, :meth:`from_board`, :meth:`to_grid` and :meth:`place`'s cells count rows;
        ``origin="bottom"``: row 0 is the bottom row, where the first stone of a column lands.

        >>> game = ConnectX(); game.cell(game.from_moves("44"), 5, 3), game.cell(game.from_moves("44"), 0, 3, origin="bottom")
        (1, 1)
        """
        if type(origin) is not str or origin not in ("top", "bottom"):
            raise InvalidPositionError(f"origin={quoted(origin)}: rows are counted from the 'top' or the 'bottom'")
        if not (type(row) is int and type(col) is int and 0 <= row < self.rows and 0 <= col < self.cols):
            raise InvalidPositionError(f"cell (row {quoted(row)}, column {quoted(col)}) is outside the board: rows "
                                       f"0..{self.rows - 1} from the {origin}, columns 0..{self.cols - 1}")
        return self._stone(self.check_state(state), row if origin == "bottom" else self.rows - 1 - row, col)

    def _stone(self, state: ConnectXState, row: int, col: int) -> int:
        bit = 1 << (col * self.height + row)
        if not state.mask & bit:
            return 0
        return state.to_move if state.current & bit else other(state.to_move)

    def column_height(self, state: ConnectXState, col: int) -> int:
        """How many stones column ``col`` (0-based) holds."""
        col = as_index(col, f"a column is a number 0..{self.cols - 1} (0-based, as actions)")
        if not 0 <= col < self.cols:
            raise self._outside(col)
        return ((self.check_state(state).mask & self.column[col]) >> (col * self.height)).bit_length()

    # ---- notation ----------------------------------------------------------------------------

    def parse_action(self, text: str, state: ConnectXState | None = None) -> int:
        """A 1-based column as a person types it; checked against ``state`` when one is given."""
        col = one_based(text, self.cols, "column", f"type 1..{self.cols}")
        if state is not None:
            self._check_action(self.check_state(state), col)
        return col

    def mirrored_actions(self, actions: Sequence[int]) -> list[int]:
        """Column c played as column cols - 1 - c (the rules are symmetric left to right): [3, 0, 6] -> [3, 6, 0]."""
        if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence):
            raise InvalidMoveError(f"a list of actions (0-based columns) is expected, not {type(actions).__name__}")
        cols = [as_index(a, "a Connect-X action is a 0-based column number") for a in actions]
        outside = [c for c in cols if not 0 <= c < self.cols]
        if outside:
            raise self._outside(outside[0])
        return [self.cols - 1 - c for c in cols]

    def format_action(self, action: int) -> str:
        return str(as_index(action, "a Connect-X action is a 0-based column number") + 1)

    def move_tokens(self, text: str) -> list[str]:
        return [str(c + 1) for c in self.split_moves(text)]

    @property
    def move_separator(self) -> str:
        return "," if self.cols > 9 else ""

    # ---- the picture -------------------------------------------------------------------------

    @property
    def title(self) -> str:
        size = board_words(self.rows, self.cols, " x ")  # said as such: "7 x 6" (solvers) and "5x7" (specs) differ
        return f"Connect Four, {size}" if self.k == 4 else f"Connect {self.k} on {size}"

    def board_view(self, state: ConnectXState, last: int | None = None) -> BoardView:
        """Rows top first; a move is named by its column (``gravity``); ``last`` is the column played last."""
        state = self.check_state(state)
        cells = tuple(tuple(self._stone(state, r, c) for c in range(self.cols)) for r in range(self.rows - 1, -1, -1))
        moved: tuple[tuple[int, int], ...] = ()
        last = None if last is None else as_index(last, "the last move is a 0-based column")
        if last is not None and 0 <= last < self.cols and self.column_height(state, last):
            moved = ((self.rows - self.column_height(state, last), last),)
        return BoardView(self.rows, self.cols, cells, col_labels=tuple(str(c + 1) for c in range(self.cols)),
                         highlight=tuple(self.winning_line(state)), last=moved, gravity=True,
                         marks=self.MARKS, glyphs=self.GLYPHS)

    def action_at(self, state: ConnectXState, row: int, col: int) -> int | None:
        return col if type(col) is int and col in self.actions(self.check_state(state)) else None

    def cell_move(self, row: int, col: int) -> str | None:
        inside = type(row) is int and type(col) is int and 0 <= row < self.rows and 0 <= col < self.cols
        return self.format_action(col) if inside else None

    TURN_FROM_PIECES = True

    @property
    def action_space_size(self) -> int:
        return self.cols

    def from_board(self, cells: Sequence[Sequence[int]], to_move: int) -> ConnectXState:
        rows = board_cells(cells, self.rows, self.cols, to_move)
        return self.from_grid("\n".join("".join(".XO"[v] for v in row) for row in rows), strict=False, to_move=to_move)

    def evaluations(self) -> dict[str, Callable[..., float]]:
        """``threats`` (the default) and ``window`` (see :mod:`zerosum.games.connectx_eval`)."""
        return EVALUATIONS  # type: ignore[return-value]

    def split_moves(self, moves: str) -> list[int]:
        """A move string as 0-based columns, without checking legality.

        One digit a move on boards of up to 9 columns ("4453"); on wider boards, or whenever the string
        holds a comma, comma- or space-separated numbers ("10,4,11").
        """
        return split_moves(moves, self.cols)

    def from_moves(self, moves: str | Iterable[int]) -> ConnectXState:
        """The position after a move string (1-based, "4453") or a sequence of 0-based columns."""
        if isinstance(moves, str):
            cols = self.split_moves(moves)
            shown = quoted(moves)
            offset = 1
        else:
            if isinstance(moves, (bytes, bytearray)) or not isinstance(moves, Iterable):
                raise InvalidMoveError(
                    f"moves are a move string such as '4453' or a list of 0-based columns, not {type(moves).__name__}"
                )
            cols = list(moves)
            shown = quoted(cols)
            offset = 0
        state = self._initial
        for i, col in enumerate(cols):
            try:
                state = self.result(state, col)
            except IllegalMoveError as exc:
                if isinstance(col, int) and not isinstance(col, bool) and not 0 <= col < self.cols:
                    lo, hi = offset, self.cols - 1 + offset
                    msg = f"column {col + offset} is outside {lo}..{hi}"
                else:
                    msg = str(exc)
                raise type(exc)(f"move {i + 1} of {shown}: {msg}") from None
        return state

    def to_moves(self, state: ConnectXState) -> str:
        """The move string of a position whose history is known (1-based; comma-separated past 9 columns)."""
        hist = self.check_state(state).history
        if hist is None:
            raise InvalidPositionError("this position was built from a grid, so its move history is unknown")
        return join_moves(hist, self.cols)

    def to_grid(self, state: ConnectXState) -> str:
        """Grid text: top row first, ``.`` empty, ``X`` the first player, ``O`` the second."""
        state, chars = self.check_state(state), ".XO"
        return "\n".join("".join(chars[self._stone(state, r, c)] for c in range(self.cols))
                         for r in range(self.rows - 1, -1, -1))

    def render(self, state: ConnectXState) -> str:
        """The grid under a 1-based column header; cells are spaced so wide boards stay aligned."""
        return render_grid(self.to_grid(state), self.cols)

    def from_grid(self, text: str, strict: bool = True, to_move: int | None = None) -> ConnectXState:
        """A position from grid text (top row first; ``.`` empty, ``X``/``O`` stones; a header is skipped).

        ``strict=True`` accepts only positions that can arise in play.  ``strict=False`` accepts any
        arrangement that respects gravity; the side to move is then the player with fewer stones (X on a
        tie) unless ``to_move`` says otherwise.
        """
        return grid_position(self, text, strict, to_move)

    def position(self, spec: "str | Sequence[int] | ConnectXState") -> ConnectXState:
        """A state from a state, a move string, a list of 0-based columns, or grid text."""
        if isinstance(spec, ConnectXState):
            return self.check_state(spec)
        if isinstance(spec, str) and ("\n" in spec.strip() or any(ch in spec.upper() for ch in "XO.")):
            return self.from_grid(spec)
        return self.from_moves(spec)
