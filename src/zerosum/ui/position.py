"""The games and positions of the browser page, no engine involved (re-exported by
:mod:`zerosum.ui.service`): a request's game and moves checked (a :class:`~zerosum.errors.GameError` with a
message for the person), the position as the page shows it (:func:`describe_state`) and the games the page
offers (:func:`games_catalogue`).  A player is named as the page's board names its pieces
(:func:`player_name`): Connect Four's red and yellow, Tic-Tac-Toe's X and O, Othello's black and white.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from ..errors import InvalidMoveError, InvalidPositionError, InvalidSpecError
from ..game import Game
from ..games import get_game, registered_games
from ..analysis import service

__all__ = ["MAX_SPEC", "MAX_MOVES_TEXT", "MAX_SIDE", "DEFAULT_GAME", "check_game", "check_moves", "checked_position",
           "check_position", "solver_plays", "games_catalogue", "describe_state", "player_name"]

MAX_SPEC = 100  # characters of a game or agent spec
MAX_MOVES_TEXT = 2000  # characters of a move string
MAX_SIDE = 16  # rows and columns of a board on the page
DEFAULT_GAME = "connect4"  # the game of a request that names none, and the page's first


def check_game(spec: str | None) -> Game[Any, Any]:
    """The game of a request (``connect4`` when absent); boards above 16 x 16 are refused (those with more
    than 256 cells before they are built)."""
    if spec is not None and not isinstance(spec, str):
        raise InvalidSpecError(f"game must be a string, not {type(spec).__name__}")
    spec = (spec or DEFAULT_GAME).strip()
    if len(spec) > MAX_SPEC:
        raise InvalidSpecError(f"the game spec is {len(spec)} characters long; the limit is {MAX_SPEC}")
    game = get_game(spec, max_cells=MAX_SIDE * MAX_SIDE)  # refused before it is built
    view = game.board_view(game.initial_state)
    if view.rows > MAX_SIDE or view.cols > MAX_SIDE:
        raise InvalidSpecError(
            f"a {view.rows} x {view.cols} board is too big for the page: at most {MAX_SIDE} x {MAX_SIDE}"
        )
    return game


def check_moves(game: Game[Any, Any], moves: str | None) -> list[Any]:
    """The actions of a move string, each checked (raises with the move that is wrong)."""
    return checked_position(game, moves)[0]


def checked_position(game: Game[Any, Any], moves: str | None) -> tuple[list[Any], Any]:
    """The actions of a move string and their position, from one replay (:meth:`Game.parse_position`)."""
    moves = moves or ""
    if not isinstance(moves, str):
        raise InvalidMoveError(f"moves must be a string, not {type(moves).__name__}")
    if len(moves) > MAX_MOVES_TEXT:
        raise InvalidMoveError(f"the move string is {len(moves)} characters long; the limit is {MAX_MOVES_TEXT}")
    return game.parse_position(moves)


def check_position(game_spec: str | None, moves: str | None, over_message: str = ""
                   ) -> tuple[Game[Any, Any], list[Any], Any]:
    """The game, the checked actions and their position, from one parse and one replay (``over_message``:
    refuse a finished game)."""
    game = check_game(game_spec)
    actions, state = checked_position(game, moves)
    if over_message and game.is_terminal(state):
        raise InvalidPositionError(over_message)
    return game, actions, state


def solver_plays(game: Game[Any, Any]) -> bool:
    """Whether the solver can play ``game`` (the analysis service says: the game declares the solver takes it,
    and the solver is installed)."""
    return service(game).solves


def games_catalogue() -> list[dict[str, Any]]:
    """The games the page offers: each registered game's spec name, presets and options (in order)."""
    return _catalogue(registered_games())


@lru_cache(maxsize=4)
def _catalogue(classes: tuple[type[Game[Any, Any]], ...]) -> list[dict[str, Any]]:
    out = []
    for cls in classes:
        for name, preset in (*cls.presets.items(), (cls.name, None)):
            game = get_game(name)
            label = game.title if preset is not None or not cls.OPTIONS else f"{cls.__name__}, any size"
            # every option of a game is a measure of its board, so none goes past the page's largest side
            options = {} if preset is not None else {
                key: {"default": o.default, "lo": o.lo, "hi": min(o.hi, MAX_SIDE), "help": o.help}
                for key, o in cls.OPTIONS.items()}
            out.append({"spec": name, "game": game.spec, "label": label, "options": options,
                        "solver": solver_plays(game)})
    return out


def player_name(game: Game[Any, Any], player: int) -> str:
    """``player`` (1 or 2) as the page names it: as its board names the player's pieces (``/api/state``'s
    ``view.names``, which board.js's ``pieceName`` reads), so that the status line, the review and the board
    say one name.  The
    piece's glyph where it is a letter or a digit on a board whose moves are not columns (Tic-Tac-Toe's X and
    O), else its colour (Connect Four's red and yellow, where the terminal's X and O are drawn nowhere on the
    page; Othello's black and white), else ``player N``."""
    view = game.board_view(game.initial_state)
    glyph = view.glyphs[player - 1] if len(view.glyphs) >= player else ""
    if re.fullmatch(r"[A-Za-z0-9]", glyph) and not view.gravity:
        return glyph
    return view.colors[player - 1] if len(view.colors) >= player else f"player {player}"


def _status(game: Game[Any, Any], state: Any) -> str:
    out = game.outcome(state)
    if out is None:
        player = game.player(state)
        return f"Player {player} ({player_name(game, player)}) to move."
    if out.winner is None:
        return f"Draw: {out.reason}."
    return f"Player {out.winner} ({player_name(game, out.winner)}) wins: {out.reason}."


def describe_state(game: Game[Any, Any], actions: list[Any], state: Any = None, catalogue: bool = True
                   ) -> dict[str, Any]:
    """The position after ``actions`` for the page: board, turn, legal moves, outcome, a status sentence.

    ``state``: that position when the caller has it (else it is built from ``actions``).  ``view`` is the
    game's board description; ``targets`` (rows of move strings or None) the move a click on each cell
    means (on boards whose moves are columns, every cell of a column means that column's move); ``cell_moves``
    the move each cell names, legal or not (:meth:`~zerosum.game.Game.cell_move`: the page asks why a click
    on one that plays nothing is refused), None where it names none.  ``games``
    lists the games the page offers (:func:`games_catalogue`), unless ``catalogue`` is False (the position
    after an engine's move: the page has the list already).
    """
    if state is None:
        state = game.states_of(actions)[-1]
    out = game.outcome(state)
    view = game.board_view(state, actions[-1] if actions else None)
    fmt = game.format_action
    targets = []
    for r in range(view.rows):
        row = []
        for c in range(view.cols):
            action = game.action_at(state, r, c) if out is None else None
            row.append(None if action is None else fmt(action))
        targets.append(row)
    return {
        "game": game.spec,
        "name": game.title,
        "moves": game.format_moves(actions),
        "move_list": [fmt(a) for a in actions],
        "separator": game.move_separator,
        "moves_help": game.MOVES_HELP,
        "ply": len(actions),
        "to_move": None if out else game.player(state),
        "over": out is not None,
        "winner": out.winner if out else None,
        "legal": [fmt(a) for a in game.actions(state)],
        "last": fmt(actions[-1]) if actions else None,
        "labels": {str(p): game.player_label(p) for p in (1, 2)},
        "rows": view.rows,
        "cols": view.cols,
        "board": [list(r) for r in view.cells],
        "winning_line": [list(c) for c in view.highlight],
        "view": {**view.to_dict(), "names": [player_name(game, p) for p in (1, 2)]},  # as board.js says them
        "targets": targets,
        "cell_moves": [[game.cell_move(r, c) for c in range(view.cols)] for r in range(view.rows)],
        "solver": solver_plays(game),
        "status": _status(game, state),
        **({"games": games_catalogue()} if catalogue else {}),
    }
