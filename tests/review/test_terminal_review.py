"""``zerosum play`` offers the review when a person's game ends: at a real terminal (a pseudo-terminal, as
tests/ui's helpers drive it), ``r`` prints a row a move and the summary; Enter leaves at once; another answer
leaves saying so, with the command that gives the review later."""

from __future__ import annotations

import os
import pty
import re
import signal
import sys
import time

import pytest
from process_helpers import pty_read

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def play(answers: list[str], timeout: float = 300.0) -> tuple[str, int]:
    """``zerosum play --game tictactoe --second first`` in a pseudo-terminal; each answer is sent when the
    screen asks (a move prompt, or the review's question); the text shown and the exit status."""
    pid, fd = pty.fork()
    if pid == 0:
        env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "140"}
        os.execvpe(sys.executable, [sys.executable, "-m", "zerosum", "play", "--game", "tictactoe", "--second",
                                    "first", "--no-color"], env)
    seen, asked, deadline, status = b"", 0, time.monotonic() + timeout, None
    try:
        while time.monotonic() < deadline:
            data = pty_read(fd, 0.2)
            if data is None:
                break
            seen += data
            text = ANSI.sub("", seen.decode(errors="replace"))
            prompts = text.count("to move: ") + text.count("Review the game move by move?")
            if prompts > asked and asked < len(answers):
                os.write(fd, (answers[asked] + "\n").encode())
                asked += 1
        else:
            raise TimeoutError(ANSI.sub("", seen.decode(errors="replace"))[-2000:])
    finally:
        status = _reaped(pid)
        os.close(fd)
    return ANSI.sub("", seen.decode(errors="replace")), status


def _reaped(pid: int, wait: float = 30.0) -> int:
    """The child's exit status once it ends (killed after ``wait`` seconds: -9)."""
    end = time.monotonic() + wait
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@pytest.mark.parametrize("answer", ["r", "", "u"])
def test_the_end_of_a_game_offers_the_review(answer):
    out, status = play(["1", "4", "7", answer])
    assert status == 0, out[-2000:]  # X takes 1, 4, 7 (a column); O (first) takes 2 and 3
    assert "You win!" in out and "Review the game move by move?" in out
    if answer == "r":
        assert "Review of tictactoe by" in out
        rows = [line.split() for line in out.splitlines() if re.match(r"\d+ +\S+ +(best|good|mistake|blunder)", line)]
        assert [r[0] for r in rows] == ["1", "2", "3", "4", "5"]
        assert rows[4][:3] == ["5", "7", "best"] and "win in 1 move" in out
        assert "X: kept the result with 3 of 3 moves (100%)" in out
        assert "The same from the command line: zerosum review" in out
    else:
        assert "Review of" not in out
    if answer == "u":  # a slip leaves without a word no more: it says so, and the command for later
        assert "'u' is not r: left without a review; the same review later: zerosum review " in out, out[-1000:]
    else:
        assert "is not r" not in out
