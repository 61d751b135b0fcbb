"""An engine's answers read as zerosum's (:class:`~zerosum.external.Engine`): whether a game its handshake lists
is the game played (:func:`plays`), the range of ``score exact`` it may report (:func:`exact_scores`) and a
reported score as a zerosum value, and the moves of its principal variation that can be played.  What an
engine says is never trusted: a score out of its range is a protocol error (:mod:`.session`), a variation's
move that does not parse or is not legal ends the variation, and a game in a file is never loaded from what an
engine names.
"""

from __future__ import annotations

from typing import Any

from ..errors import GameError
from ..game import Game
from ..values import HEURISTIC_BOUND, clamp, score_to_value

__all__ = ["plays", "exact_scores"]


def plays(listed: str, game: Game[Any, Any]) -> bool:
    """Whether a ``game SPEC`` line of the handshake names ``game``: a game's registered name alone (``connectx``,
    ``othello``) names every board of it; a spec (``connect4``, ``connectx:rows=8,cols=8,k=4``) that one board."""
    from ..games import get_game
    from ..games.course_files import same_course_file

    if listed.lower() == getattr(type(game), "name", None):
        return True
    if ".py" in listed:  # a game in a file: never loaded from what an engine says; the same file however its
        return same_course_file(listed, game.spec)  # path is written (the engine's nim.py, our /abs/nim.py)
    try:
        return get_game(listed).spec == game.spec
    except GameError:
        return False


def _exact_kind(game: Game[Any, Any]) -> bool:
    """Whether ``score exact S`` is the solver's convention here (distance included): the games the solver
    takes; elsewhere S is only the sign of the result (docs/protocol.md)."""
    return bool(game.traits.solver) and isinstance(getattr(game, "cells", None), int)


def exact_scores(game: Game[Any, Any], ply: int) -> tuple[int, int]:
    """The lowest and highest ``score exact`` an engine may report after ``ply`` moves (docs/protocol.md, Scores):
    a win with the side to move's next stone at best, a loss to the other side's next one at worst; -1..1 where
    the score is only the result's sign."""
    if not _exact_kind(game):
        return -1, 1
    cells = game.cells  # type: ignore[attr-defined]
    return -((cells - ply) // 2), (cells + 1 - ply) // 2


def _value(game: Game[Any, Any], ply: int, exact: int | None, est: float | None) -> float:
    """A reported score as a zerosum value (the side to move's view): an exact score with its distance as a
    proven value; a result without one (1 or -1 where the convention has no meaning) at the heuristic bound."""
    if exact is not None:
        if exact == 0:
            return 0
        if _exact_kind(game):
            return score_to_value(exact, ply, game.cells)  # type: ignore[attr-defined]
        return HEURISTIC_BOUND if exact > 0 else -HEURISTIC_BOUND
    return clamp(est) if est is not None else 0


def _pv(game: Game[Any, Any], state: Any, text: str | None) -> tuple[Any, ...]:
    """The principal variation's moves that parse and are legal, in order (the rest is dropped)."""
    if not text:
        return ()
    out = []
    try:
        for token in game.move_tokens(text):
            action = game.parse_action(token, state)
            state = game.result(state, action)
            out.append(action)
            if game.is_terminal(state):
                break
    except GameError:
        pass
    return tuple(out)
