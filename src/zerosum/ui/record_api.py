"""``POST /api/record``: the games of a game record (:mod:`zerosum.records`), ready for the page's move list.

The page pastes a record (or reads a file) and sends its text; the answer lists every game with its tags,
its moves and result (as :func:`zerosum.records.parse` reads them) and ``line``: the moves from the start
of the game -- the opening's, then the game's (``separator``: what joins them in a move string) -- checked against the page's limits (:func:`check_position`)
so the page can step through them.  A game the page cannot show (a board past 16 x 16, moves that do not
replay) keeps its place in the list with ``error`` saying why; malformed text is a 400 naming the line.
"""

from __future__ import annotations

from typing import Any

from ..errors import GameError
from .service import check_game, checked_position

__all__ = ["record_games", "MAX_RECORD", "MAX_GAMES"]

MAX_RECORD = 256 * 1024  # bytes of a record sent to the page's server
MAX_GAMES = 1000  # games of one record listed (a record of more is cut, and the answer says so)


def record_games(text: str) -> dict[str, Any]:
    """The games of the record ``text`` for the page (raises GameError: the text is not a record)."""
    from ..records import parse

    records = parse(text)
    games = []
    for record in records[:MAX_GAMES]:
        entry: dict[str, Any] = {"tags": dict(record.tags), "moves": list(record.moves), "result": record.result,
                                 "game": None, "line": [], "separator": "", "error": None}
        try:
            game = check_game(record.tags.get("Game"))
            opening = record.tags.get("Opening", "").strip()
            start = [game.format_action(a) for a in game.parse_moves(opening)] if opening not in ("", "-") else []
            line = [*start, *record.moves]
            actions, _ = checked_position(game, game.move_separator.join(line))
            entry.update(game=game.spec, line=[game.format_action(a) for a in actions], separator=game.move_separator)
        except GameError as exc:
            entry["error"] = str(exc)
        games.append(entry)
    note = f"the record holds {len(records)} games; the first {MAX_GAMES} are listed" if len(records) > MAX_GAMES else None
    return {"games": games, "note": note}
