"""A run's progress bar says why its first games may wait (a cold cache compiles the engines): #21, item 5."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import time

from zerosum.commands.arena import FIRST_GAMES


def test_a_match_at_a_terminal_says_its_first_games_are_starting(tmp_path) -> None:
    main, child = pty.openpty()
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "match", "random", "first", "--game", "tictactoe",
                             "--games", "2", "--out", str(tmp_path / "r.db")], stdin=child, stdout=child,
                            stderr=child, env=env, cwd=tmp_path)
    os.close(child)
    out = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=30)
    os.close(main)
    text = out.decode("utf-8", "replace")
    assert proc.returncode == 0, text[-2000:]
    assert FIRST_GAMES.split("(")[0].strip() in text, text[-2000:]
