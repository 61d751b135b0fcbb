"""How a game's end is put in words the arena can keep: one line, every character of it printing, bounded.

A reason holds words from outside: an agent's error message, the ``repr`` of what it answered, a function's
name, an external engine's output, a game file's words.  They may hold anything (a terminal's colour codes,
a line break, a right-to-left override, a zero-width character, a lone surrogate), and the reason goes to the
results file (SQLite, UTF-8), the records (``--pgnout``'s ``Termination`` tag), the tables and ``zerosum
replay``.  :func:`one_line` makes it safe for all of them, the one place that does, and :func:`cleaned` has
every reason :func:`~zerosum.arena.play.play_game` sends pass through it, whoever wrote it.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ..spec import visible

__all__ = ["MAX_TEXT", "MAX_UNSTARTED", "one_line", "cleaned"]

Send = Callable[[tuple[Any, ...]], None]

#: the longest reason a game ends with
MAX_TEXT = 300
#: the longest reason of an agent that could not be built: the run's error line says it whole (the command
#: line's own bound is 1,000 characters, the supervisor's words around it included)
MAX_UNSTARTED = 700

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def one_line(text: Any, limit: int = MAX_TEXT) -> str:
    """One line of at most ``limit`` characters: terminal colour codes dropped, every run of white space one
    space, each other character that does not print escaped as ``repr`` writes it (``\\u202e``, ``\\x07``,
    ``\\ud800``: :func:`~zerosum.spec.visible`), the rest (accents, CJK) as it is.  A longer one is cut at a word
    boundary (never inside a word, a quoted name or an escape) and ends with ``...``.  Applied twice, it
    changes nothing more."""
    text = " ".join(_ANSI.sub("", str(text)).split())
    shown = visible(text[: limit + 1])
    if len(text) <= limit and len(shown) <= limit:
        return shown
    kept, size = [], 0
    for c in text[: limit - 3]:  # each character is at least one of the line's: no more are needed
        piece = visible(c)
        if size + len(piece) > limit - 3:
            break
        kept.append(piece)
        size += len(piece)
    cut = "".join(kept)
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "..."


def cleaned(send: Send) -> Send:
    """``send`` with the reason of every ``end`` and ``unstarted`` message made :func:`one_line` (the other
    messages as they are: their texts are the game's own move strings)."""

    def clean(msg: tuple[Any, ...]) -> None:
        if msg[0] in ("end", "unstarted"):
            limit = MAX_UNSTARTED if msg[0] == "unstarted" else MAX_TEXT
            msg = (*msg[:2], one_line(msg[2], limit), *msg[3:])
        send(msg)

    return clean
