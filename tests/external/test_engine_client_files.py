"""The engine client leaves no file of its own open: an audit's long-lived session (a notebook opening engines
round after round) found four ``ResourceWarning: unclosed file`` a round, the engine's standard error read through
a buffer never closed."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = r'''
import gc, sys, warnings
warnings.simplefilter("always", ResourceWarning)
import zerosum
from zerosum.external import Engine
for _ in range(2):
    with Engine([sys.executable, "-m", "zerosum", "engine", "random"]) as engine:
        zerosum.play_game("connect4", engine, "random", seed=0)
    engine = Engine([sys.executable, "-m", "zerosum", "engine", "random"])  # closed by a call, not a with
    zerosum.play_game("connect4", engine, "random", seed=0)
    engine.close()
    del engine
gc.collect()
print("played")
'''


def test_engines_opened_and_closed_leave_no_file_open() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "played", done.stderr
    assert "ResourceWarning" not in done.stderr, done.stderr
