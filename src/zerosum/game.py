"""The Game protocol shared by every game, its players and its outcome.

A game object holds the rules; states are immutable, hashable values.  Two states are equal exactly when
their positions are equal (a move history kept for notation takes no part in equality).

Players are the integers 1 (moves first) and 2.  The end of a game has one answer, :meth:`Game.outcome`,
from which :meth:`Game.winner`, :meth:`Game.is_terminal` and :meth:`Game.utility` are all derived.

The checks of what callers hand a game live in :mod:`zerosum.core.checks` and the records a game hands out
in :mod:`zerosum.core.game_types`; both are re-exported here, where the games import them from.  The spec,
options and rules every game declares, and what follows from ``outcome()``, are :mod:`zerosum.core.game_rules`.
"""

from __future__ import annotations

import re
from typing import Any, Callable, ClassVar, Sequence

from .core.checks import as_index, board_cells, check_actions, check_player, check_text, one_based, other, safe_repr
from .core.game_rules import A, GameRules, S
from .core.game_types import COLUMN_BITBOARD, BoardView, Cell, GameOption, GameTraits, Origin, Outcome, unwind
from .spec import quoted

__all__ = ["Game", "Outcome", "BoardView", "GameOption", "GameTraits", "COLUMN_BITBOARD", "PLAYER1", "PLAYER2",
           "other", "as_index", "one_based",
           "safe_repr", "board_cells", "Origin", "unwind", "check_player", "check_actions"]

PLAYER1 = 1
PLAYER2 = 2


class Game(GameRules[S, A]):
    """Rules of a two-player, zero-sum, perfect-information, deterministic game.

    Subclasses implement ``initial_state``, ``player``, ``actions``, ``result``, ``outcome`` and
    ``render``; the rest follows from those.  The spec, the options and the rules are declared in its base,
    :class:`~zerosum.core.game_rules.GameRules`; the names, the notation and the picture here.
    """

    # ---- how players and moves are shown --------------------------------------------------------
    #: how a person names a move (for help texts and errors)
    MOVES_HELP: ClassVar[str] = ""
    #: the players' marks in plain text and their pieces in colour
    MARKS: ClassVar[tuple[str, str]] = ("X", "O")
    GLYPHS: ClassVar[tuple[str, str]] = ("●", "●")
    #: the colours of the players' pieces (CSS colour names; :attr:`BoardView.colors`)
    COLORS: ClassVar[tuple[str, str]] = ("red", "yellow")
    #: what joins the moves of a move string (:meth:`format_moves`)
    MOVE_SEPARATOR: ClassVar[str] = " "

    #: True for a game written with the course's names (no ``outcome``; :mod:`zerosum.games.course`): every
    #: entry (``get_game``, the agents) plays it through its adapter, ``CourseGame``, which sets it too
    COURSE: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass without ``outcome`` (the course's names) gets from its adapter what it still lacks."""
        super().__init_subclass__(**kwargs)
        if getattr(getattr(cls, "outcome", None), "__isabstractmethod__", False):
            cls.COURSE = True
            if "subclass" in COURSE_HOOKS:
                COURSE_HOOKS["subclass"](cls)

    # ---- names ----------------------------------------------------------------------------------

    @property
    def title(self) -> str:
        """The game's name for people ("Connect Four 6 x 7")."""
        return self.spec

    def player_label(self, player: int) -> str:
        """How a person calls ``player`` ("X", "moves right")."""
        return self.MARKS[check_player(player) - 1]

    def describe_win(self, state: S) -> str:
        """How a finished game was won or drawn, in words ("4 in a row, column 4, rows 1 to 4")."""
        out = self.outcome(state)
        return "" if out is None else out.reason

    # ---- notation: one move and a move string (each game overrides what makes sense for it) ----

    def parse_action(self, text: str, state: S) -> A:
        """Parse one move as a person types it (1-based columns, cell numbers, ...).  Default: the legal action
        that :meth:`format_action` prints as ``text`` (spaces and case aside), else the one of that number (1 for
        the first); :class:`~zerosum.errors.IllegalMoveError` naming the legal moves otherwise."""
        from .errors import IllegalMoveError

        text = check_text(text, "a move", IllegalMoveError, hint=f" ({self.MOVES_HELP})")
        legal, typed = self.actions(state), "".join(text.split()).casefold()
        printed = ["".join(self.format_action(a).split()).casefold() for a in legal]
        named = [a for a, p in zip(legal, printed) if p == typed]
        numbered = not any(p.isdigit() for p in printed)  # moves that are numbers: a number is one of them
        if named or (numbered and re.fullmatch("[0-9]{1,9}", typed) and 1 <= int(typed) <= len(legal)):
            return named[0] if named else legal[int(typed) - 1]
        shown = " ".join(self.format_action(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
        if not legal:
            raise IllegalMoveError(f"the game is over: there is no move ({quoted(text)})")
        raise IllegalMoveError(f"{quoted(text)} is not a legal move here: type one of {shown}"
                               + (f", or its number 1..{len(legal)}" if numbered else ""))

    def format_action(self, action: A) -> str:
        """Print one action the way :meth:`parse_action` reads it."""
        return str(action)

    def move_tokens(self, text: str) -> list[str]:
        """The moves of a move string, not yet checked (default: separated by spaces or ``;``)."""
        from .errors import InvalidMoveError

        text = check_text(text, "a move string", InvalidMoveError, hint=f" ({self.MOVES_HELP})")
        return [part for part in re.split(r"[;\s]+", text.strip()) if part]

    def parse_moves(self, text: str) -> list[A]:
        """The actions of move string ``text`` from the start, each one checked.

        Raises :class:`~zerosum.errors.InvalidMoveError` / :class:`~zerosum.errors.IllegalMoveError`
        naming the move that is wrong.
        """
        return self.parse_position(text)[0]

    def parse_position(self, text: str) -> tuple[list[A], S]:
        """The actions of move string ``text`` and the position they reach, from one replay (each move is
        checked as it is played; raises as :meth:`parse_moves`).  Games whose notation needs more than one
        move at a time override this, and :meth:`parse_moves` follows."""
        from .errors import IllegalMoveError, InvalidMoveError

        if not isinstance(text, str):
            raise InvalidMoveError(f"a move string is text ({self.MOVES_HELP}), not {type(text).__name__}")
        state = self.initial_state
        actions: list[A] = []
        for i, token in enumerate(self.move_tokens(text)):
            try:
                action = self.parse_action(token, state)
                state = self.result(state, action)
            except IllegalMoveError as exc:
                raise type(exc)(f"move {i + 1} of {quoted(text.strip())}: {exc}") from None
            actions.append(action)
        return actions, state

    @property
    def move_separator(self) -> str:
        """What joins the moves of a move string."""
        return self.MOVE_SEPARATOR

    def format_moves(self, actions: Sequence[A]) -> str:
        """The move string of ``actions`` (the inverse of :meth:`parse_moves`)."""
        return self.move_separator.join(self.format_action(a) for a in check_actions(actions, "moves"))

    def states_of(self, actions: Sequence[A]) -> list[S]:
        """The states from the start through every action (``len(actions) + 1`` of them)."""
        states = [self.initial_state]
        for action in check_actions(actions, "moves"):
            states.append(self.result(states[-1], action))
        return states

    # ---- the picture ----------------------------------------------------------------------------

    def board_view(self, state: S, last: A | None = None) -> BoardView:
        """What faces draw: the cells, labels, the winning line and the cells ``last`` changed."""
        raise NotImplementedError(f"{type(self).__name__} has no board description")

    def svg(self, state: S, last: A | None = None, *, cell: int = 40) -> str:
        """The board as SVG, drawn from :meth:`board_view` (see :mod:`zerosum.core.svg`); ``last``: the move
        to outline (default: the state's last move, when it remembers its moves); ``cell``: pixels, 8..200.

        States draw themselves with it in Jupyter (``_repr_svg_``, as python-chess boards do).
        """
        from .core.svg import board_svg

        state = self.check_state(state)
        if last is None:
            played = self.moves_played(state)
            last = played[-1] if played else None
        return board_svg(self.board_view(state, last), cell=cell, title=self.title)

    # ---- free boards for exercises: not moves -----------------------------------------------------

    def place(self, state: S, where: Any, player: int) -> S:
        """A new state with ``player``'s piece put ``where`` the board physically allows: **not a move**.

        For exercises that build boards by hand.  Whose turn it is and the rules of play are ignored (a
        player may place twice, on a board that already has a line); only the board's physics hold: a
        Connect-X stone drops to the lowest empty cell of column ``where`` (0-based, as actions); in other
        games ``where`` is any empty cell, as ``(row, col)`` (row 0 at the top, as :attr:`BoardView.cells`)
        or its number ``row * cols + col``.  The side to move afterwards is the other of ``player``, except
        where the game derives it from the pieces (Tic-Tac-Toe: X moves when both have as many).  A game
        that is won stays won (the placed player's line counts first).  ``state`` itself never changes; the
        new state's moves from the start are unknown (:meth:`moves_played` is None).

        Bad input is one line: :class:`~zerosum.errors.InvalidMoveError` for a player other than 1 or 2 or a
        ``where`` that is no cell, :class:`~zerosum.errors.IllegalMoveError` for a taken cell or a full column.
        The default puts the piece into :meth:`board_view`'s cells and rebuilds with :meth:`from_board`.
        """
        player = check_player(player)
        view = self.board_view(state)
        row, col = self.place_cell(view, where)
        if view.cells[row][col]:
            from .errors import IllegalMoveError

            raise IllegalMoveError(f"cell ({row}, {col}) is taken: a piece can only be placed on an empty cell")
        cells = [list(r) for r in view.cells]
        cells[row][col] = player
        return self.from_board(cells, other(player))

    def place_cell(self, view: BoardView, where: Any) -> Cell:
        """``(row, col)`` of a cell named ``(row, col)`` or ``row * cols + col`` on ``view``'s board (for
        :meth:`place`); :class:`~zerosum.errors.InvalidMoveError` for anything else."""
        from .errors import InvalidMoveError

        if not isinstance(view, BoardView):
            raise InvalidMoveError(f"a board view is game.board_view(state), not {safe_repr(view)}")
        hint = (f"a cell is (row, col) with row 0..{view.rows - 1} from the top and col 0..{view.cols - 1}, "
                f"or its number row * {view.cols} + col")
        if type(where) is tuple and len(where) == 2:
            row, col = (as_index(v, hint) for v in where)
        else:
            index = as_index(where, hint)
            row, col = divmod(index, view.cols) if index >= 0 else (-1, 0)
        if not (0 <= row < view.rows and 0 <= col < view.cols):
            raise InvalidMoveError(f"{safe_repr(where)} is outside the board: {hint}")
        return row, col

    def action_at(self, state: S, row: int, col: int) -> A | None:
        """The legal action a click on cell ``(row, col)`` (row 0 at the top) means, or None."""
        return None

    def cell_move(self, row: int, col: int) -> str | None:
        """The move a click on cell ``(row, col)`` names, legal or not, as typed (the page asks
        :meth:`parse_action` why a click that plays nothing is refused: ``cell 5 is taken``); None: no one move."""
        return None

    def winning_line(self, state: S) -> list[Cell]:
        """The cells ``(row, col)`` (row 0 at the top) of the winning line; [] when there is none."""
        return []

    def evaluations(self) -> dict[str, Callable[..., float]]:
        """Heuristic evaluations ``f(game, state, player)`` by name, the first the default (may be empty)."""
        return {}

    # ---- for machines (PettingZoo, OpenSpiel): numbered actions, positions from cells ------------

    #: True when whose turn it is follows from the pieces (players take turns adding one piece each and
    #: nothing moves, flips or passes: player 1 is to move when both have as many pieces)
    TURN_FROM_PIECES: ClassVar[bool] = False

    @property
    def action_space_size(self) -> int:
        """How many action numbers there are: every action of every state has one in ``0..size - 1``."""
        raise NotImplementedError(f"{type(self).__name__} does not number its actions")

    def action_index(self, action: A) -> int:
        """The number of ``action`` (default: the action itself, for games whose actions are numbers)."""
        return as_index(action, f"a {type(self).__name__} action is a number")

    def index_action(self, index: int, state: S) -> A:
        """The action numbered ``index`` in ``state`` (not checked for legality); inverse of :meth:`action_index`."""
        return index  # type: ignore[return-value]

    def from_board(self, cells: Sequence[Sequence[int]], to_move: int) -> S:
        """The position with ``cells`` (as :attr:`BoardView.cells`: rows top first, 0/1/2) and ``to_move`` to
        move, without a move history; :class:`~zerosum.errors.InvalidPositionError` when the game has none."""
        raise NotImplementedError(f"{type(self).__name__} cannot build a position from its cells")

    def mirrored_actions(self, actions: Sequence[A]) -> list[A] | None:
        """The actions that play ``actions``' position mirrored, where the rules are symmetric under a mirror
        that maps actions to actions (Connect-X: column c to cols - 1 - c), else None (the default): openings
        keep one of each mirrored pair."""
        return None

    def moves_played(self, state: S) -> list[A] | None:
        """The actions played from the start to ``state`` when the state remembers them, else None
        (default: the state's ``history`` attribute, when it has one)."""
        history = getattr(self.check_state(state), "history", None)
        return None if history is None else list(history)

    def __repr__(self) -> str:
        return f"get_game({self.spec!r})"

    def __eq__(self, other_: Any) -> bool:
        return type(self) is type(other_) and self.spec == other_.spec

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.spec))


#: how a course game plays (registered by :mod:`zerosum.games.course_objects`): ``"subclass"`` completes a
#: course subclass, ``"input"`` turns (game object, your state) into (its adapter, its position)
COURSE_HOOKS: dict[str, Callable[..., Any]] = {}

