"""A file name in another encoding than UTF-8 (Python reads ``b'\\xff'`` as the lone surrogate ``'\\udcff'``) names
an agent or a game that a results file (SQLite) and a record (UTF-8) cannot hold: one line, before anything is
written, never a UnicodeEncodeError traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

AGENT = "def agent(game, state):\n    return game.actions(state)[0]\n"
GAME = """class Sticks:
    initial = (5, 1)
    def actions(self, state):
        return [n for n in (1, 2) if n <= state[0]]
    def result(self, state, n):
        return (state[0] - n, 3 - state[1])
    def is_terminal(self, state):
        return state[0] == 0
    def utility(self, state, player):
        return -1 if state[1] == player else 1
    def to_move(self, state):
        return state[1]
"""


def zerosum(*args: str, cwd: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120, errors="backslashreplace")


@pytest.mark.parametrize("role", ["agent", "game"])
def test_a_file_name_no_utf8_file_can_hold_is_one_line(tmp_path, role):
    name = os.fsdecode(b"b\xff.py")
    try:
        (tmp_path / name).write_text(AGENT if role == "agent" else GAME)
    except (OSError, UnicodeError):
        pytest.skip("this file system refuses names that are not UTF-8")
    args = ([f"{name}:agent", "random", "--game", "tictactoe"] if role == "agent"
            else ["random", "random", "--game", f"{name}:Sticks"])
    done = zerosum("match", *args, "--games", "2", "-o", "r.db", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    line, = done.stderr.strip().splitlines()
    assert line.startswith(f"zerosum match: error: {role} ") and "no UTF-8 file can hold" in line, line
    assert "\\udcff" in line and sorted(p.name for p in tmp_path.iterdir()) == [name]  # nothing written
