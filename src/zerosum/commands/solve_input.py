"""The lines ``zerosum solve`` reads from standard input (:mod:`zerosum.commands.solver` solves them): the first
field of each line but blank ones, read at most :data:`MAX_MOVES_TEXT` characters at a time, so memory stays
bounded whatever the input.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_MOVES_TEXT", "stdin_lines"]


#: the longest move string ``zerosum solve`` reads from a line (README, Limits: a move string is at most 4,000
#: characters); a line is read no further than this before its first field is known whole
MAX_MOVES_TEXT = 4000
#: the rest of a line past its move string (ignored) is skipped this many characters at a time
_SKIP = 1 << 16


def stdin_lines(stream: Any) -> Any:
    """``(number, moves, error)`` of every line of ``stream`` but blank ones: the first field of the line, or
    None and why not.  Memory stays bounded whatever the line's length: a line is read up to
    :data:`MAX_MOVES_TEXT` characters, and the rest of a longer one is skipped in chunks, never held whole."""
    number = 0
    while True:
        head = stream.readline(MAX_MOVES_TEXT + 1)
        if not head:
            return
        number += 1
        error = None
        if not head.endswith("\n") and len(head) > MAX_MOVES_TEXT:  # longer than a move string: its first field?
            fields = head.split(None, 1)
            if len(fields) < 2 and (not fields or not head[-1].isspace()):
                error = (f"the line is longer than {MAX_MOVES_TEXT:,} characters before its first space: a move "
                         f"string is at most {MAX_MOVES_TEXT:,} characters")
            while (rest := stream.readline(_SKIP)) and not rest.endswith("\n"):
                pass
        text = head.strip()
        if error is not None or text:
            yield number, None if error else text.split()[0], error
