"""The terminal's review at the end of a game (``zerosum play``): asked for with ``r`` when a person played,
each move's mark printed as it is judged (:func:`zerosum.review`, the rows of ``zerosum review``), then the
summary per player and the command that gives the same from the command line."""

from __future__ import annotations

import shlex
from typing import Any

from rich.markup import escape

from ..spec import quoted

__all__ = ["offer_review", "REVIEW_KEYS", "QUESTION"]

#: the answers that ask for the review
REVIEW_KEYS = ("r", "review", "y", "yes")
#: the question at the end of a game a person played
QUESTION = "Review the game move by move? (r then Enter: review; Enter: leave) "


def offer_review(session: Any) -> int:
    """After the game's end: when a person played, ask whether to review it, and print the review (a row a
    move as it comes); the exit status (0)."""
    if not session.people or not session.actions:
        return 0
    line = session.read(session.output.prompt(QUESTION, f"[bold]{escape(QUESTION)}[/]"))
    game = session.game
    later = f"zerosum review {shlex.quote(game.format_moves(session.actions))} --game {shlex.quote(game.spec)}"
    if line is not None and line.strip() and line.strip().lower() not in REVIEW_KEYS:  # a slip: leave, but say so
        text = f"{quoted(line.strip())} is not r: left without a review; the same review later: {later}"
        session.say(text, escape(text))
    if line is None or line.strip().lower() not in REVIEW_KEYS:
        return 0
    from ..reviewer import start_review
    from ..reviewer.text import heading, row, summary_lines

    found, marks = start_review(list(session.actions), game, seconds=float(getattr(session, "hint_time", 1.0)))
    for text in heading(found):
        session.say(text, escape(text))
    for mark in marks:
        text = row(mark)
        session.say(text, escape(text))
    for text in summary_lines(found):
        session.say(text, escape(text))
    session.say(f"The same from the command line: {later}")
    return 0
