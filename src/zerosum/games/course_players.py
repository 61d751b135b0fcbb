"""Where zerosum's player numbers meet a course game's own labels, and the check of a game's own evaluation.

**Numbers and labels.**  zerosum numbers the players 1 (who moves first) and 2; a course game labels them
as its ``to_move`` does ('X'/'O', 0/1, 2 for the first and 1 for the second, True/False...).  Where a label
is a Python int 1 or 2 it could mean either, so zerosum's numbering wins (:func:`player_number`): the
agents, ``play_game`` and the faces ask ``game.utility(state, 1)`` about the first player, always.  A label
that cannot be taken for a number ('X', 0, True, 1.0) is read as yours, and so is the label your own
``to_move`` returns through the adapter (``game.to_move(state)`` in a player function): a colliding int
comes back marked as yours (:class:`PlayerLabel`), equal to your int, so ``game.utility(state,
game.to_move(state))`` is right whatever your labels are.

**A game's own evaluation** (``evaluate(state, player)``, a method of the class) is checked as an
``eval=file.py:fn`` function is (:func:`zerosum.agents.student.probe_evaluation`, which stands a floor above
the games): on the start and the positions of one fixed random game (seed 0), a method that gives the same
value for both players everywhere, nonzero somewhere and not everywhere the same (a constant is no side's
score, and is left alone), ignores ``player``, and is refused in one line
(:func:`fixed_side`) naming the game's own players.  A method that declares its side
(``@evaluation(view="first")``, :mod:`zerosum.agents.heuristics`) is not checked: it is read from that side.
"""

from __future__ import annotations

import math
import numbers
import random
from typing import Any, Callable

from ..game import safe_repr

__all__ = ["PlayerLabel", "number_of", "player_number", "marked", "label_name", "fixed_side",
           "ignores_player", "probe_positions", "PROBE_PLIES"]

#: the probe's positions (:func:`probe_positions`): the start, then those of one fixed random game (seed 0),
#: at most this many plies
PROBE_PLIES = 12


class PlayerLabel(int):
    """Your game's int label of a player where it is zerosum's number of the other one (module doc): equal to,
    hashed and printed as your int; ``game.utility(state, label)`` reads it as yours."""

    __slots__ = ()

    def __repr__(self) -> str:
        return int.__repr__(self)

    __str__ = __repr__


def number_of(label: Any, first: Any, second: Any) -> Any:
    """zerosum's number of your ``label`` (1 for ``first``, 2 for ``second``), else ``label`` as it is."""
    try:
        if label == first:
            return 1
        if second is not None and label == second:
            return 2
    except Exception:  # noqa: BLE001 - a label that cannot be compared is no label of this game
        pass
    return label


def player_number(player: Any, first: Any, second: Any) -> Any:
    """``player`` as zerosum numbers it: a Python int 1 or 2 as it is (zerosum's numbering wins), anything
    else read as your label (:func:`number_of`)."""
    if type(player) is int and (player == 1 or player == 2):
        return player
    return number_of(player, first, second)


def marked(value: Any, first: Any, second: Any) -> Any:
    """Your label ``value`` as the adapter hands it to your code: a :class:`PlayerLabel` where zerosum would
    read the int as its number of the other player, else ``value`` itself."""
    if type(value) is int and (value == 1 or value == 2) and number_of(value, first, second) != value:
        return PlayerLabel(value)
    return value


def label_name(player: int, value: Any) -> str:
    """How people read player ``player`` whose label is ``value``: the label when it is a short string,
    ``player 1`` when it is None or the number itself, else ``player 1 (0)``."""
    if isinstance(value, str) and 0 < len(value) <= 12:
        return value
    if value is None or (type(value) is int and value == player):
        return f"player {player}"
    return f"player {player} ({safe_repr(value, 12)})"


def _number(value: Any) -> bool:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return False
    try:
        return math.isfinite(value)
    except (OverflowError, TypeError, ValueError):
        return False


def probe_positions(game: Any) -> list[tuple[Any, list[Any]]]:
    """The start and the positions of one fixed random game (seed 0), at most ``PROBE_PLIES`` plies, none
    finished (an evaluation is never asked about a finished game), each with the actions that lead to it:
    where an evaluation is probed, here and in :func:`zerosum.agents.student.probe_evaluation`."""
    rng = random.Random(0)
    state, moves = game.initial_state, list[Any]()
    found = []
    for _ in range(PROBE_PLIES + 1):
        if game.is_terminal(state):
            break
        found.append((state, list(moves)))
        action = rng.choice(game.actions(state))
        moves.append(action)
        state = game.result(state, action)
    return found


def ignores_player(values: list[tuple[Any, Any, Any]]) -> tuple[Any, Any] | None:
    """The rule of the module doc over ``(position, value for player 1, value for player 2)`` on the probed
    positions: the first position where both players got the same nonzero value, and that value, when no
    position tells the players apart and not every value is the same (a constant is no side's score); else
    None.  The one rule of both checks: a game's own method (:func:`fixed_side`) and an ``eval=`` function
    (:func:`zerosum.agents.student.probe_evaluation`)."""
    if any(one != two for _, one, two in values) or len({one for _, one, _ in values}) < 2:
        return None
    return next(((where, one) for where, one, _ in values if one != 0), None)


def fixed_side(game: Any, evaluate: Callable[[Any, Any], Any], name: str,
               named: Callable[[int], str]) -> str | None:
    """The one-line refusal of ``evaluate(state, player)``, the game's own evaluation called ``name``, when
    it ignores ``player`` (:func:`ignores_player`), else None.  A method that raises or returns no number here
    is left to the search, which names it where it happens (the caller skips a method that declares its
    view)."""
    if game.second is None:
        return None
    values = []
    for state, moves in probe_positions(game):
        try:
            one, two = evaluate(state.value, game.first), evaluate(state.value, game.second)
        except Exception:  # noqa: BLE001 - named by the search, at the position where it fails
            return None
        if not (_number(one) and _number(two)):
            return None  # no number: the search names it
        values.append((moves, one, two))
    found = ignores_player(values)
    if found is None:
        return None
    where = f"the position after {safe_repr(game.format_moves(found[0]), 30)}" if found[0] else "the start position"
    text = (f"evaluation {name[:50]} gives {safe_repr(found[1], 16)} for both {named(1)} and {named(2)} at {where}: "
            f"it ignores player; score for player, or declare its side on the method: @evaluation(view=\"first\") "
            f"for {named(1)}, view=\"second\" for {named(2)} (zerosum.agents.heuristics)")
    return text if len(text) <= 300 else text[:297] + "..."
