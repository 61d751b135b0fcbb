"""What a student's ``player(board)`` starts (``subprocess.Popen``) ends with the worker that ran it: at the
end of a run, when the player forfeits by overrunning its deadline, and on Ctrl-C.

Each worker is the leader of a process group of its own, and the group is killed with the worker.  Before,
``zerosum match p.py:ret_fork first`` exited 0 leaving every ``sleep 300`` its player started running,
adopted by init.  Each test runs a real ``zerosum match`` in a fresh interpreter, its player writing the id
of every child it starts to a file, and checks those ids are gone afterwards (generously: a busy machine).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from process_helpers import alive, wait_gone

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

PLAYER = """
import subprocess, time

def player(board):
    child = subprocess.Popen(["sleep", "300"])
    with open({pids!r}, "a") as f:
        f.write(f"{{child.pid}}\\n")
    time.sleep({pause})
    return 3
"""


def _player(tmp_path: Path, pause: float) -> tuple[Path, Path]:
    pids = tmp_path / "pids.txt"
    path = tmp_path / "kids.py"
    path.write_text(PLAYER.format(pids=str(pids), pause=pause), encoding="utf-8")
    return path, pids


def _started(pids: Path) -> list[int]:
    try:
        return [int(line) for line in pids.read_text().split()]
    except (OSError, ValueError):
        return []


def _match(player: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "zerosum", "match", f"{player}:player", "first", "--game", "connect4-8x8",
            "--jobs", "1", "--quiet", *extra]


def _check_gone(pids: Path) -> None:
    started = _started(pids)
    try:
        assert started, "the player started no child"
        left = wait_gone(started, 20.0)
        assert not left, f"children of the player still running after the match: {left}"
    finally:
        for pid in started:  # what the old code left behind (ours: started by this test's match)
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_children_of_a_player_end_with_the_run(tmp_path: Path) -> None:
    player, pids = _player(tmp_path, 0.0)
    done = subprocess.run(_match(player, "--games", "2", "-o", str(tmp_path / "r.db")), cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    _check_gone(pids)


def test_children_of_a_player_that_overruns_end_with_its_forfeit(tmp_path: Path) -> None:
    player, pids = _player(tmp_path, 100.0)
    done = subprocess.run(_match(player, "--games", "2", "--deadline", "1", "--grace", "0", "-o",
                                 str(tmp_path / "r.db")), cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(_started(pids)) == 2  # one a game: each forfeited on its first move
    _check_gone(pids)


def test_children_of_a_player_end_on_ctrl_c(tmp_path: Path) -> None:
    player, pids = _player(tmp_path, 0.3)
    proc = subprocess.Popen(_match(player, "--games", "200", "-o", str(tmp_path / "r.db")), cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(_started(pids)) < 3 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()[1]
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode != 0 and "Traceback" not in err, err  # stopped, as test_interrupt checks
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    _check_gone(pids)
