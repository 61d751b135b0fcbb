"""``zerosum play --log`` on a terminal is a scrolling log (docs/terminal.md, "In place or a log"): a hint's
analysis filling in, and the solver's move filling in, are not redrawn there -- no cursor movement, no carriage
return -- and a hint's table is printed once, at the end.  Audit: one hint printed 136 cursor-up codes and 158
erase-line codes, and drew the table 16 times.  A real ``zerosum play`` in a pseudo-terminal
(``tests/ui/pty_play.py``)."""

from __future__ import annotations

import os
import re

import pytest

from pty_play import ANSI, play

#: any control sequence but a colour's (SGR, ending in ``m``): the cursor moved, a line erased, the cursor hidden
MOVES_CURSOR = re.compile(r"\x1b\[[0-9;?]*[A-Za-ln-z]")
TABLE = "move  value"


def _env() -> dict[str, str]:
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="40")
    env.pop("NO_COLOR", None)
    return env


def _raw(args: list[str], keys: dict[int, str], moves: int) -> str:
    session = play(args, _env(), moves=moves, think=0.3, keys=keys, timeout=240)
    return b"".join(b for _, b in session.chunks).decode(errors="replace")


@pytest.mark.parametrize("colour", [[], ["--no-color"]], ids=["colour", "plain"])
def test_a_log_on_a_terminal_moves_no_cursor(colour: list[str]) -> None:
    """Past the opening book (ply 10): a hint (the solver's analysis fills in), a move, the solver's move (it
    fills in too), another hint, then ``q``."""
    raw = _raw(["--log", "--moves", "4444443332", *colour], {0: "h", 1: "3", 2: "h"}, moves=2)
    text = ANSI.sub("", raw)
    assert "Hint from the solver" in text and "O (solver) plays" in text, text[-2000:]
    assert MOVES_CURSOR.findall(raw) == [], sorted(set(MOVES_CURSOR.findall(raw)))
    assert raw.count("\r") == raw.count("\r\n"), "a line redrawn with a carriage return"
    assert raw.count(TABLE) == 2, raw.count(TABLE)  # each hint's table, once


def test_in_place_the_hint_still_fills_in() -> None:
    """Without ``--log`` the terminal still sees the hint fill in (the start position, from the book: the rows
    redrawn in place before the final table)."""
    raw = _raw([], {0: "h"}, moves=0)
    assert "Hint from the solver" in ANSI.sub("", raw), raw[-2000:]
    assert "\x1b[1A" in raw and raw.count(TABLE) > 1
