"""The plain records a game hands out (re-exported by :mod:`zerosum.game`): a state's move history
(:class:`Origin`, :func:`unwind`), how a game ended (:class:`Outcome`), one option of a game spec
(:class:`GameOption`), what a face draws (:class:`BoardView`) and what a game declares about itself for the
engines and the faces (:class:`GameTraits`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Origin", "unwind", "Outcome", "GameOption", "Cell", "BoardView", "GameTraits", "COLUMN_BITBOARD"]


@dataclass(frozen=True, slots=True)
class Origin:
    """The root of a state's history list (``(earlier, action)`` pairs, newest last).

    ``spec`` is the spec of the game the state belongs to, so a state whose value does not say its board's size
    (Connect-X and Othello bitboards) can still find its game to draw itself (``_repr_svg_``); ``known`` is
    False for positions built from cells or by :meth:`zerosum.game.Game.place`, whose moves from the start are unknown.
    """

    spec: str
    known: bool = True


def unwind(node: object) -> tuple[list[Any], "Origin | None"]:
    """The actions of history list ``node`` (oldest first) and its root (None when the root is no Origin)."""
    actions: list[Any] = []
    while type(node) is tuple:
        node, action = node
        actions.append(action)
    actions.reverse()
    return actions, node if isinstance(node, Origin) else None


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended: ``winner`` is 1, 2 or None for a draw; ``reason`` is a short phrase."""

    winner: int | None
    reason: str

    def utility(self, player: int) -> int:
        """+1 / 0 / -1 for ``player`` (1 or 2; anything else is an InvalidMoveError)."""
        if type(player) is not int or not 1 <= player <= 2:
            from .checks import check_player

            player = check_player(player)
        if self.winner is None:
            return 0
        return 1 if self.winner == player else -1


@dataclass(frozen=True, slots=True)
class GameOption:
    """One option of a game spec (``rows`` in ``connectx:rows=8``): a whole number ``lo..hi``."""

    default: int
    lo: int
    hi: int
    help: str = ""


Cell = tuple[int, int]

#: a :attr:`GameTraits.layout`: states are a pair of bitboards, the side to move's stones (``current``) and
#: every stone (``mask``), column ``c`` owning bits ``c * (rows + 1)`` up, one empty sentinel bit on top; the
#: game has ``rows``, ``cols``, ``k`` (the line length), ``height``, ``cells``, ``bottom_mask``,
#: ``board_mask`` and ``fits_64`` -- the layout the compiled kernels (:mod:`zerosum.kernels`) and the
#: solver read
COLUMN_BITBOARD = "column-bitboard"


@dataclass(frozen=True, slots=True)
class GameTraits:
    """What a game declares about itself, as data (as OpenSpiel's ``GameType`` does): the engines and the
    faces ask these, never the game's class or name.

    ``solver``: the exact solver (:mod:`zerosum.solver`) takes this game, so the faces may promise exact
    values and progressive analyses.  ``layout``: how its states are laid out for compiled code ("" none;
    :data:`COLUMN_BITBOARD`), so an engine knows which fast path can read them.  ``winner_moves_last``: every
    won game ends on the winner's own move (Connect-X, Tic-Tac-Toe, Migration), so a distance's legend needs
    no second case (Othello's board can fill up on the loser's move; a course game's rules are its own).
    """

    solver: bool = False
    layout: str = ""
    winner_moves_last: bool = False


@dataclass(frozen=True, slots=True)
class BoardView:
    """What a face draws: the board as cells, with labels and highlights (see :meth:`zerosum.game.Game.board_view`).

    ``cells`` are rows, top row first; 0 empty, 1 or 2 the player whose piece stands there.  ``highlight``
    holds the cells of a winning line and ``last`` the cells the last move changed, both ``(row, col)`` with
    row 0 at the top.  ``gravity``: a move is named by its column (Connect-X).  ``pass_action``: the
    notation of a pass move, when the game has one.  ``marks`` are the players' letters in plain text,
    ``glyphs`` their pieces in colour and ``colors`` those pieces' colours (CSS colour names, the player
    labels' colours: Othello's discs are black and white); ``cell_labels`` (rows of str, may be empty) what a
    person types to play on an empty cell when that is not its row and column labels.
    """

    rows: int
    cols: int
    cells: tuple[tuple[int, ...], ...]
    col_labels: tuple[str, ...] = ()
    row_labels: tuple[str, ...] = ()
    highlight: tuple[Cell, ...] = ()
    last: tuple[Cell, ...] = ()
    gravity: bool = False
    pass_action: str | None = None
    marks: tuple[str, str] = ("X", "O")
    glyphs: tuple[str, str] = ("●", "●")
    cell_labels: tuple[tuple[str, ...], ...] = ()
    colors: tuple[str, str] = ("red", "yellow")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values (lists for tuples) for the page."""
        return {
            "rows": self.rows, "cols": self.cols, "cells": [list(r) for r in self.cells],
            "col_labels": list(self.col_labels), "row_labels": list(self.row_labels),
            "highlight": [list(c) for c in self.highlight], "last": [list(c) for c in self.last],
            "gravity": self.gravity, "pass_action": self.pass_action, "marks": list(self.marks),
            "glyphs": list(self.glyphs), "cell_labels": [list(r) for r in self.cell_labels],
            "colors": list(self.colors),
        }
