"""``zerosum review FILE -o OUT`` stopped by Ctrl-C (or SIGTERM) keeps the games reviewed to the end: they are
written to OUT, annotated as a finished review writes them, and the line says how many of how many, which game
was not reviewed, and how to go on one game at a time.  Before, OUT was written only at the very end and an
interrupt said just ``interrupted``: minutes of review were lost.  A real process, a real signal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from process_helpers import zerosum_run  # noqa: E402 (tests/process_helpers.py)


def _games(tmp_path: Path, n: int) -> Path:
    pgn = tmp_path / "games.pgn"
    done = zerosum_run(["match", "random", "first", "--game", "connect4", "--games", str(n), "--seed", "3",
                        "-o", str(tmp_path / "games.db"), "--pgnout", str(pgn), "--quiet"])
    assert done.returncode == 0, done.stderr
    return pgn


def _interrupted(argv: list[str], after: str, sig: int) -> subprocess.CompletedProcess[str]:
    """``zerosum ARGV`` sent ``sig`` once its standard output has shown ``after``."""
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"})
    out = []
    assert proc.stdout is not None
    for line in proc.stdout:
        out.append(line)
        if after in line:
            time.sleep(0.3)
            proc.send_signal(sig)
            break
    rest, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(argv, proc.returncode, "".join(out) + rest, err)


def test_the_games_reviewed_are_kept_when_interrupted(tmp_path: Path) -> None:
    from zerosum.records import read

    out = tmp_path / "reviewed.pgn"
    done = _interrupted(["review", str(_games(tmp_path, 3)), "--agent", "alphabeta:time=0.02", "-o", str(out)],
                        "Game 2 of 3", signal.SIGINT)
    assert done.returncode == 130, (done.stdout, done.stderr)
    assert done.stderr.splitlines()[-1] == (
        f"interrupted: 1 of 3 games reviewed: it is written to {out}, annotated; game 2 on not reviewed (one game "
        "at a time: --index N)"), done.stderr
    kept = read(out)
    assert len(kept) == 1
    assert any(note is not None and note.comment for note in kept[0].notes), "the game kept is annotated"


def test_nothing_reviewed_nothing_written_and_said(tmp_path: Path) -> None:
    out = tmp_path / "reviewed.pgn"
    done = _interrupted(["review", str(_games(tmp_path, 2)), "--agent", "alphabeta:time=0.3", "-o", str(out)],
                        "Game 1 of 2", signal.SIGTERM)
    assert done.returncode == -signal.SIGTERM, (done.stdout, done.stderr)  # it ends as killed by that signal
    assert done.stderr.splitlines()[-1] == (f"interrupted by SIGTERM: 0 of 2 games reviewed: nothing was written to "
                                            f"{out}"), done.stderr
    assert not out.exists()
