"""Tic-Tac-Toe on 3 x 3; actions are 0-based cell indexes, row-major from the top left; X moves first."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..errors import IllegalMoveError, InvalidMoveError, InvalidPositionError
from ..core.checks import check_text, player_error
from ..game import BoardView, Game, GameTraits, Outcome, as_index, board_cells, check_player, one_based
from ..spec import quoted
from .connectx_eval import line_window_score
from .move_text import split_joined
from .registry import register_game

__all__ = ["TicTacToe", "TicTacToeState"]

LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)


@dataclass(frozen=True, slots=True)
class TicTacToeState:
    """Nine cells, row-major: 0 empty, 1 X, 2 O.  The side to move follows from the counts."""

    cells: tuple[int, ...] = (0,) * 9

    def _repr_svg_(self) -> str:
        """The board as SVG (Jupyter shows states with it; see :meth:`zerosum.game.Game.svg`)."""
        return TicTacToe().svg(self)


def _line_winner(cells: tuple[int, ...]) -> int | None:
    for a, b, c in LINES:
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return None


def _line(cells: tuple[int, ...]) -> tuple[int, int, int] | None:
    for line in LINES:
        a, b, c = line
        if cells[a] and cells[a] == cells[b] == cells[c]:
            return line
    return None


@register_game
class TicTacToe(Game[TicTacToeState, int]):
    """The 3 x 3 game: three in a row wins, a full board without one is a draw."""

    spec = "tictactoe"
    traits = GameTraits(winner_moves_last=True)  # a win is the winner's own move
    name = "tictactoe"
    MOVES_HELP = "1-based cells row by row from the top left, e.g. 519"
    GLYPHS = ("X", "O")
    MOVE_SEPARATOR = ""

    SIDES = (3, 3)

    @property
    def title(self) -> str:
        return "Tic-Tac-Toe"

    def check_state(self, state: object) -> TicTacToeState:
        cells = getattr(state, "cells", None) if type(state) is TicTacToeState else None
        if type(cells) is not tuple or len(cells) != 9 or any(type(v) is not int or v not in (0, 1, 2) for v in cells):
            raise self.state_error(state)
        return state  # type: ignore[return-value]

    def describe_win(self, state: TicTacToeState) -> str:
        line = _line(self.check_state(state).cells)
        if line is None:
            return super().describe_win(state)
        return f"three in a row, cells {' '.join(str(c + 1) for c in line)}"

    def winning_line(self, state: TicTacToeState) -> list[tuple[int, int]]:
        line = _line(self.check_state(state).cells)
        return [] if line is None else [(i // 3, i % 3) for i in line]

    def board_view(self, state: TicTacToeState, last: int | None = None) -> BoardView:
        """The 3 x 3 cells; an empty cell is named by its number 1..9."""
        cells = tuple(self.check_state(state).cells[3 * r:3 * r + 3] for r in range(3))
        last = None if last is None else as_index(last, "the last move is a cell index 0..8")
        moved = ((last // 3, last % 3),) if last is not None and 0 <= last < 9 else ()
        labels = tuple(tuple(str(3 * r + c + 1) for c in range(3)) for r in range(3))
        return BoardView(3, 3, cells, highlight=tuple(self.winning_line(state)), last=moved,
                         marks=self.MARKS, glyphs=self.GLYPHS, cell_labels=labels)

    def action_at(self, state: TicTacToeState, row: int, col: int) -> int | None:
        if type(row) is not int or type(col) is not int or not (0 <= row < 3 and 0 <= col < 3):
            return None
        return 3 * row + col if 3 * row + col in self.actions(self.check_state(state)) else None

    def cell_move(self, row: int, col: int) -> str | None:
        inside = type(row) is int and type(col) is int and 0 <= row < 3 and 0 <= col < 3
        return self.format_action(3 * row + col) if inside else None

    def evaluations(self) -> dict[str, Callable[..., float]]:
        return {"window": window_eval}

    TURN_FROM_PIECES = True

    @property
    def action_space_size(self) -> int:
        return 9

    def from_board(self, cells: Sequence[Sequence[int]], to_move: int) -> TicTacToeState:
        flat = tuple(v for row in board_cells(cells, 3, 3, to_move) for v in row)
        nx, no = flat.count(1), flat.count(2)
        if nx - no != to_move - 1:
            raise InvalidPositionError(f"with {nx} X and {no} O it is not player {to_move}'s turn")
        return TicTacToeState(flat)

    def move_tokens(self, text: str) -> list[str]:
        """The cells of a move string, one character each (``519``); spaces anywhere, and one comma between
        two cells (``5,1,9``), are allowed; a comma at either end or two in a row are refused."""
        text = check_text(text, "a move string", InvalidMoveError, hint=f" ({self.MOVES_HELP})")
        return split_joined(text, ",", lambda piece, done: [ch for ch in piece if not ch.isspace()], "move",
                            "at most one comma between two cells (519 or 5,1,9)")

    def place(self, state: TicTacToeState, where: object, player: int) -> TicTacToeState:
        """``player``'s mark on any empty cell (``where``: 0..8 row by row, or ``(row, col)``): **not a move**
        (see :meth:`Game.place`).  The side to move still follows from the counts (X when both have as many).

        >>> game = TicTacToe()
        >>> print(game.render(game.place(game.place(game.initial_state, 4, 2), (0, 0), 2)))
        O..
        .O.
        ...
        """
        player = check_player(player)
        row, col = self.place_cell(self.board_view(state), where)
        if state.cells[3 * row + col]:
            raise IllegalMoveError(f"cell {3 * row + col + 1} is taken; free cells: {self._free(state)}")
        cells = list(state.cells)
        cells[3 * row + col] = player
        return TicTacToeState(tuple(cells))

    @property
    def initial_state(self) -> TicTacToeState:
        return TicTacToeState()

    def player(self, state: TicTacToeState) -> int:
        try:
            filled = 9 - state.cells.count(0)
        except Exception:  # noqa: BLE001 - the rules check a state only when it fails them (Game.check_state)
            self.check_state(state)
            raise
        return 1 if filled % 2 == 0 else 2

    def actions(self, state: TicTacToeState) -> list[int]:
        if self.outcome(state) is not None:  # checks the state as the other rules do
            return []
        return [i for i, v in enumerate(state.cells) if v == 0]

    def result(self, state: TicTacToeState, action: int) -> TicTacToeState:
        action = as_index(action, "a Tic-Tac-Toe action is a cell index 0..8")
        if not 0 <= action < 9:
            raise IllegalMoveError(f"cell {action + 1} is outside 1..9 (action {action} is outside 0..8)")
        out = self.outcome(state)
        if out is not None:
            raise IllegalMoveError(f"the game is over: {_describe(out)}")
        if state.cells[action]:
            raise IllegalMoveError(f"cell {action + 1} is taken; free cells: {self._free(state)}")
        cells = list(state.cells)
        cells[action] = self.player(state)
        return TicTacToeState(tuple(cells))

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        try:
            won = _line_winner(state.cells)
            if won:
                return Outcome(won, "three in a row")
            if 0 not in state.cells:
                return Outcome(None, "board full")
            return None
        except Exception:  # noqa: BLE001 - as player
            self.check_state(state)
            raise

    def _free(self, state: TicTacToeState) -> str:
        return " ".join(str(i + 1) for i, v in enumerate(state.cells) if v == 0)

    def render(self, state: TicTacToeState) -> str:
        chars, cells = {0: ".", 1: "X", 2: "O"}, self.check_state(state).cells
        return "\n".join("".join(chars[v] for v in cells[r * 3 : r * 3 + 3]) for r in range(3))

    def parse_action(self, text: str, state: TicTacToeState | None = None) -> int:
        """A cell number 1..9 as a person types it (row by row from the top left)."""
        cell = one_based(text, 9, "cell", "type 1..9 (row by row from the top left)")
        if state is not None:
            self.result(state, cell)
        return cell

    def format_action(self, action: int) -> str:
        return str(as_index(action, "a Tic-Tac-Toe action is a cell index 0..8") + 1)

    def from_grid(self, text: str) -> TicTacToeState:
        """A state from three rows of ``.``, ``X``, ``O``; positions that cannot arise raise."""
        if not isinstance(text, str):
            raise InvalidPositionError(f"a grid is text, not {type(text).__name__}")
        rows = [r.strip().replace(" ", "") for r in text.strip().splitlines() if r.strip()]
        if len(rows) != 3 or any(len(r) != 3 for r in rows):
            raise InvalidPositionError(f"a Tic-Tac-Toe grid is 3 rows of 3 cells, got {quoted(text)}")
        table = {".": 0, "X": 1, "O": 2}
        try:
            cells = tuple(table[ch.upper()] for ch in "".join(rows))
        except KeyError as exc:
            raise InvalidPositionError(f"unexpected {quoted(exc.args[0])} in grid: use . X O") from None
        nx, no = cells.count(1), cells.count(2)
        if nx not in (no, no + 1):
            raise InvalidPositionError(f"impossible stone counts: {nx} X and {no} O")
        wins = {cells[a] for a, b, c in LINES if cells[a] and cells[a] == cells[b] == cells[c]}
        if len(wins) > 1 or (wins == {1} and nx != no + 1) or (wins == {2} and nx != no):
            raise InvalidPositionError("play continued after a win")
        return TicTacToeState(cells)

    def from_moves(self, moves: str) -> TicTacToeState:
        """A state from 1-based cell numbers, e.g. ``"159"`` (read as :meth:`move_tokens` reads them)."""
        if not isinstance(moves, str):
            raise InvalidMoveError(f"a move string is text such as '159', not {type(moves).__name__}")
        state = self.initial_state
        for i, ch in enumerate(self.move_tokens(moves)):
            try:
                state = self.result(state, self.parse_action(ch))
            except IllegalMoveError as exc:
                raise type(exc)(f"move {i + 1} of {quoted(moves)}: {exc}") from None
        return state


def window_eval(game: TicTacToe, state: TicTacToeState, player: int, three: int = 50, two: int = 10) -> int:
    """The window evaluation over the eight lines (see :func:`zerosum.games.connectx_eval.line_window_score`)."""
    if player != 1 and player != 2:
        raise player_error(player)
    cells, them = state.cells, 3 - player
    counts = [(sum(cells[i] == player for i in line), sum(cells[i] == them for i in line)) for line in LINES]
    return line_window_score(counts, 3, three, two)


def _describe(out: Outcome) -> str:
    return "a draw" if out.winner is None else f"player {out.winner} has won"
