"""Othello (Reversi) on an even ``n`` x ``n`` board, ``n`` in 4..16: ``othello`` is 8 x 8, ``othello:n=6``.

Rules.  Black (player 1) moves first from the standard start: the four centre cells, with black on the
cells d5 and e4 and white on d4 and e5 (on 8 x 8; the same pattern in the centre of any board).  A move
places a disc of the mover's colour on an empty cell so that, in at least one of the eight directions, a
run of the opponent's discs lies between it and another disc of the mover's; every such run is flipped.
A side with no such move must pass, and a pass is then its only action; when neither side can move (a
full board, or no move for either) the game is over and the side with more discs wins (equal: a draw).

Actions.  The cell in row ``r`` (0 the top row) and column ``c`` (0 the left column) is ``r * n + c``; the
pass is ``n * n``.  On 8 x 8 these are OpenSpiel's ``othello`` action numbers (0..63, pass 64), listed in
increasing order.

Notation.  A cell is its column letter (a, b, ... left to right) and its row number (1, 2, ... top to
bottom): ``d3``, ``c4``, ``a10`` on larger boards; the pass is ``pass``.  A move string is the moves written
one after another, ``f5d6c3`` (spaces, or one comma, between two moves are allowed, ``f5, d6 c3``, but no
comma at either end or two in a row; letters may be capitals); :meth:`Othello.format_moves` writes passes
as ``pass`` (``...g8passh1``).  When reading, a pass may also be left out, as game records usually do: a
move named while the side to move can only pass is read as the pass followed by that move.

Free boards (:meth:`~zerosum.game.Game.place`, not moves): a disc may be placed on any empty cell, and it
flips nothing; the other player is to move next.

Evaluations (for ``alphabeta:eval=NAME``), each antisymmetric and whole-numbered, from ``player``'s side:

* ``mobility``: ``player``'s legal placements minus the opponent's (both counted as if each were to move);
* ``corners``: ``player``'s corner discs minus the opponent's;
* ``stability``: ``player``'s stable discs minus the opponent's, with a simple, documented notion of
  stable: the discs on an edge that is completely filled, and the discs joined to a corner of their own
  colour by an unbroken run of their colour along an edge (neither kind can ever be flipped);
* ``combined`` (the default): ``10 * mobility + 100 * corners + 25 * stability``.

The position is :mod:`zerosum.games.othello_state`, the board and its rules :mod:`zerosum.games.othello_rules`
and the evaluations :mod:`zerosum.games.othello_eval` (the stable discs they count: :meth:`Othello.stable_discs`,
here, from the board's edges).
"""

from __future__ import annotations

import re
from typing import Callable, ClassVar, Sequence

from ..core.checks import check_actions, check_player, check_text
from ..errors import IllegalMoveError, InvalidMoveError
from ..game import BoardView, GameOption, Origin, as_index, board_cells, unwind
from ..spec import quoted
from .move_text import split_joined
from .othello_eval import combined_eval, corners_eval, mobility_eval, stability_eval
from .othello_rules import OthelloRules
from .othello_state import OthelloState
from .registry import register_game

__all__ = ["Othello", "OthelloState"]

LETTERS = "abcdefghijklmnop"  # column letters, up to MAX_N columns
_TOKEN = re.compile(r"\s*(?:([a-pA-P])([0-9]{1,2})|(pass))\s*", re.IGNORECASE)
_MAX_TEXT = 4000  # the longest move string read (a 16 x 16 game with every pass written takes < 1,500)


Evaluation = Callable[..., float]


@register_game
class Othello(OthelloRules):
    """Othello on an ``n`` x ``n`` board (``n`` even, 4..16)."""

    name: ClassVar[str] = "othello"
    OPTIONS: ClassVar[dict[str, GameOption]] = {
        "n": GameOption(8, OthelloRules.MIN_N, OthelloRules.MAX_N, "board side, an even number")}
    MOVES_HELP: ClassVar[str] = (
        "cells as column letter and row number (a1 the top left), one after another, 'pass' for a pass, e.g. f5d6c3"
    )
    MARKS: ClassVar[tuple[str, str]] = ("X", "O")
    GLYPHS: ClassVar[tuple[str, str]] = ("●", "○")
    COLORS: ClassVar[tuple[str, str]] = ("black", "white")
    MOVE_SEPARATOR: ClassVar[str] = ""

    # ---- registration -------------------------------------------------------------------------------

    SIDES = ("n", "n")

    @property
    def title(self) -> str:
        return f"Othello {self.n} x {self.n}"

    def player_label(self, player: int) -> str:
        return "black" if check_player(player) == 1 else "white"

    # ---- notation -----------------------------------------------------------------------------------

    def format_action(self, action: int) -> str:
        action = as_index(action, f"an Othello action is a cell number 0..{self.cells - 1} or {self.cells} (pass)")
        if not 0 <= action <= self.cells:
            raise IllegalMoveError(f"{action} is not an action: cells are 0..{self.cells - 1}, the pass {self.cells}")
        if action == self.pass_action:
            return "pass"
        row, col = divmod(action, self.n)
        return f"{LETTERS[col]}{row + 1}"

    def _cell(self, letter: str, digits: str, shown: str) -> int:
        col, row = LETTERS.index(letter.lower()), int(digits) - 1
        if not (col < self.n and 0 <= row < self.n):
            raise IllegalMoveError(
                f"{shown} is outside the {self.n} x {self.n} board (columns a-{LETTERS[self.n - 1]}, rows 1-{self.n})"
            )
        return row * self.n + col

    def _not_a_move(self, text: object) -> InvalidMoveError:
        return InvalidMoveError(
            f"{quoted(str(text).strip())} is not an Othello move: type a column letter a-{LETTERS[self.n - 1]} "
            f"and a row number 1-{self.n} (e.g. d3), or pass"
        )

    def parse_action(self, text: str, state: OthelloState | None = None) -> int:
        """One move as a person types it: ``d3`` (column letter, row number from the top) or ``pass``."""
        raw = check_text(text, "an Othello move", InvalidMoveError, hint=" such as d3").strip()[:_MAX_TEXT]
        match = re.fullmatch(r"([a-pA-P])([0-9]{1,2})|(pass)", raw, re.IGNORECASE)
        if not match:
            raise self._not_a_move(raw)
        action = self.pass_action if match.group(3) else self._cell(match.group(1), match.group(2), raw)
        if state is not None:
            self.result(state, action)
        return action

    def move_tokens(self, text: str) -> list[str]:
        """The moves of a move string (``f5d6c3``, ``f5 d6, c3``), not yet checked against a position."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move string is text such as 'f5d6c3', not {type(text).__name__}")
        if len(text) > _MAX_TEXT:
            raise InvalidMoveError(f"a move string has at most {_MAX_TEXT} characters, not {len(text)}")
        return split_joined(text, ",", lambda piece, done: self._moves_in(piece, done, text), "move",
                            "at most one comma between two moves (f5d6c3 or f5,d6,c3)")

    def _moves_in(self, piece: str, done: int, text: str) -> list[str]:
        """The moves of ``piece``, a part of move string ``text`` between commas, after ``done`` moves."""
        pos, out = 0, list[str]()
        while pos < len(piece):
            if not (match := _TOKEN.match(piece, pos)):
                raise InvalidMoveError(f"move {done + len(out) + 1} of {quoted(text.strip())}: "
                                       f"{self._not_a_move(piece[pos:pos + 6])}")
            out.append(match.group(0).strip())
            pos = match.end()
        return out

    def parse_position(self, text: str) -> tuple[list[int], OthelloState]:
        """The actions of a move string (``f5d6c3``) from the start, each checked (passes may be left out),
        and the position they reach."""
        state, actions = self._initial, []
        for i, token in enumerate(self.move_tokens(text)):
            try:
                action = self.parse_action(token)
                if action != self.pass_action and self.actions(state) == [self.pass_action]:  # a pass left out
                    state = self.result(state, self.pass_action)
                    actions.append(self.pass_action)
                state = self.result(state, action)
            except IllegalMoveError as exc:
                raise type(exc)(f"move {i + 1} of {quoted(text.strip())}: {exc}") from None
            actions.append(action)
        return actions, state

    def format_moves(self, actions: Sequence[int]) -> str:
        """The move string of ``actions`` (``f5d6c3``; passes written as ``pass``), the inverse of parse_moves."""
        return "".join(self.format_action(a) for a in check_actions(actions, "moves"))

    def render(self, state: OthelloState) -> str:
        n, marks, state = self.n, {0: ".", 1: self.MARKS[0].lower(), 2: self.MARKS[1].lower()}, self.check_state(state)
        width = len(str(n))
        lines = [" " * (width + 1) + " ".join(LETTERS[:n])]
        for r in range(n):
            row = " ".join(marks[self._at(state, r * n + c)] for c in range(n))
            lines.append(f"{r + 1:>{width}} {row}")
        return "\n".join(lines)

    # ---- the picture --------------------------------------------------------------------------------

    def board_view(self, state: OthelloState, last: int | None = None) -> BoardView:
        """The discs, column letters and row numbers; ``last`` (the move just played): the disc placed and
        the discs it flipped."""
        n, state = self.n, self.check_state(state)
        last = None if last is None else as_index(last, "the last move is an action number")
        cells = tuple(tuple(self._at(state, r * n + c) for c in range(n)) for r in range(n))
        changed = 0
        if last is not None and 0 <= last < self.cells:  # a pass (or no cell) changes no disc
            hist = state.hist
            changed = state.changed if type(hist) is tuple and hist[1] == last else 1 << last
        return BoardView(
            rows=n, cols=n, cells=cells, col_labels=tuple(LETTERS[:n]),
            row_labels=tuple(str(r + 1) for r in range(n)),
            last=tuple(divmod(i, n) for i in range(self.cells) if changed >> i & 1),
            gravity=False, pass_action="pass", marks=self.MARKS, glyphs=self.GLYPHS,
            colors=self.COLORS,
        )

    def action_at(self, state: OthelloState, row: int, col: int) -> int | None:
        """Placing a disc on ``(row, col)`` when that is legal, else None (a pass is not on the board)."""
        if type(row) is not int or type(col) is not int or not (0 <= row < self.n and 0 <= col < self.n):
            return None
        state = self.check_state(state)
        action = row * self.n + col
        own, opp = self._sides(state)
        return action if self.moves_mask(own, opp) >> action & 1 else None

    def cell_move(self, row: int, col: int) -> str | None:
        inside = type(row) is int and type(col) is int and 0 <= row < self.n and 0 <= col < self.n
        return self.format_action(row * self.n + col) if inside else None

    # ---- numbered actions (the pass is n * n) and positions from cells ------------------------------

    @property
    def action_space_size(self) -> int:
        return self.cells + 1

    def from_board(self, cells: Sequence[Sequence[int]], to_move: int) -> OthelloState:
        flat = [v for row in board_cells(cells, self.n, self.n, to_move) for v in row]
        black, white = (sum(1 << i for i, v in enumerate(flat) if v == p) for p in (1, 2))
        return OthelloState(black, white, to_move, Origin(self.spec, known=False))

    def moves_played(self, state: OthelloState) -> list[int] | None:
        """The actions played, or None for a position built from cells (its history is unknown)."""
        moves, root = unwind(self.check_state(state).hist)
        known = root.known if root is not None else state.hist is not None
        return moves if known or state == self._initial else None

    def _at(self, state: OthelloState, index: int) -> int:
        bit = 1 << index
        return 1 if state.black & bit else 2 if state.white & bit else 0

    # ---- evaluations --------------------------------------------------------------------------------

    def stable_discs(self, state: OthelloState, player: int) -> int:
        """The bitboard of ``player``'s stable discs (see the module's note: filled edges, corner-anchored runs)."""
        own, filled = self.check_state(state).discs(check_player(player)), state.black | state.white
        stable = 0
        for bits, mask in self._edges:
            if filled & mask == mask:
                stable |= own & mask
                continue
            for run in (bits, bits[::-1]):
                for bit in run:
                    if not own & bit:
                        break
                    stable |= bit
        return stable

    def evaluations(self) -> dict[str, Evaluation]:
        """The evaluations alpha-beta and minimax may name (``eval=``); the first is the default."""
        return {"combined": combined_eval, "mobility": mobility_eval, "corners": corners_eval,
                "stability": stability_eval}
