"""An engine's last line on standard error, as its forfeit reason quotes it: whole up to
:data:`~zerosum.external.process.STDERR_LINE` characters (a contest seat's ``illegal move: ...`` line lists every
legal column: cut at 200 characters it named columns that were not all of them, and said nothing was missing),
cut visibly (``...``) past it, and a line longer than one read of the pipe is never quoted from its middle.
Real programs started through :mod:`zerosum.external`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from zerosum.errors import AgentError
from zerosum.external import Engine
from zerosum.external.process import STDERR_LINE

#: a program that writes the line in $LINE (repeated $TIMES times, no line end between) on standard error and
#: exits with code 1 before the handshake: its start is a crash quoting that line
LAST_WORDS = """import os, sys
line = os.environ["LINE"] * int(os.environ.get("TIMES", "1"))
sys.stderr.write("an earlier line\\n" + line + "\\n")
sys.stderr.flush()
sys.exit(1)
"""
#: the contest seat's line for a player that answered 99 on a 16-column board: every legal column listed
ILLEGAL = ("illegal move: submission.py:player returned 99 (int) in position '4224': column 100 is outside 1..16 "
           "(0-based 99 is outside 0..15); expected a 0-based column 0..15 that is not full: one of "
           + ", ".join(map(str, range(16))))


def _reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, times: int = 1) -> str:
    script = tmp_path / "last_words.py"
    script.write_text(LAST_WORDS)
    monkeypatch.setenv("LINE", line)
    monkeypatch.setenv("TIMES", str(times))
    with pytest.raises(AgentError) as caught:
        Engine([sys.executable, str(script)])
    said, _, reason = str(caught.value).partition("failed its handshake: ")  # its start ended: the crash's reason
    assert said and reason, str(caught.value)[:200]
    return reason


def test_an_illegal_move_line_is_quoted_whole_with_every_legal_column(tmp_path, monkeypatch):
    assert len(ILLEGAL) > 200
    reason = _reason(tmp_path, monkeypatch, ILLEGAL)
    assert reason == f"{ILLEGAL} (the engine exited (exit code 1))", reason
    assert reason.count("...") == 0 and "13, 14, 15 (the engine exited" in reason


def test_a_long_crash_line_is_whole_up_to_its_bound(tmp_path, monkeypatch):
    line = "ValueError: " + " ".join(f"word{i}" for i in range(130))  # 941 characters
    assert 200 < len(line) <= STDERR_LINE
    assert _reason(tmp_path, monkeypatch, line) == f"crash: the engine exited (exit code 1): {line}"


def test_a_line_past_the_bound_is_cut_and_says_so(tmp_path, monkeypatch):
    reason = _reason(tmp_path, monkeypatch, "abcdefghij ", times=300)  # 3,300 characters
    quote = reason.removeprefix("crash: the engine exited (exit code 1): ")
    assert quote.endswith("...") and len(quote) <= STDERR_LINE and quote.startswith("abcdefghij abcdefghij")
    assert len(quote) > STDERR_LINE - 20, len(quote)


def test_a_line_longer_than_a_read_is_quoted_from_its_start_never_from_its_middle(tmp_path, monkeypatch):
    # 80,000 characters in one line: the pipe is read in pieces, and the last piece is no line of its own
    reason = _reason(tmp_path, monkeypatch, "start " + "0123456789" * 8000 + " end")
    quote = reason.removeprefix("crash: the engine exited (exit code 1): ")
    assert quote.startswith("start 0123456789") and quote.endswith("...") and "end" not in quote, quote[:80]
    assert len(quote) <= STDERR_LINE


def test_an_illegal_move_said_by_an_engine_slow_to_exit_is_an_illegal_move(tmp_path, monkeypatch):
    # a contest seat on a loaded machine: its line written and its output closed, its exit more than the 1 s
    # crash() waits away; the reason read 'crash: the engine closed its output: illegal move: ...'
    script = tmp_path / "slow_exit.py"
    script.write_text(LAST_WORDS.replace("sys.exit(1)", "os.close(1)\nimport time\ntime.sleep(5)\nsys.exit(1)"))
    monkeypatch.setenv("LINE", ILLEGAL)
    with pytest.raises(AgentError) as caught:
        Engine([sys.executable, str(script)])
    reason = str(caught.value).partition("failed its handshake: ")[2]
    assert reason == f"{ILLEGAL} (the engine closed its output)", reason
