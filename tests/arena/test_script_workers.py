"""``zerosum.match(..., jobs=2)`` from a plain script: the workers never run the script again, and a worker
that dies before its game began is no player's forfeit (real scripts, run as a person runs them)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """\
import zerosum
print("script top level runs", flush=True)
r = zerosum.match("alphabeta:depth=2", "random", game="tictactoe", games=4, jobs=2, seed=1)
print("forfeits", sum(g.forfeit for g in r.games), "games", len(r.games), flush=True)
"""

#: a game file (a function returning a game) that kills any worker process loading it, before its game begins
DIES_IN_WORKERS = """\
import multiprocessing
import os

from zerosum import TicTacToe

if multiprocessing.parent_process() is not None:  # a worker of the pool
    os._exit(7)


def game():
    return TicTacToe()
"""


def run(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=folder, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("how", ["script", "module"])
def test_an_unguarded_match_with_jobs_runs_the_script_once_and_plays_for_real(tmp_path: Path, how: str) -> None:
    # before: each worker ran the script again (8 prints), ~225 lines of multiprocessing tracebacks, and every
    # game came back as a 'crash' forfeit of the side to move first, a false result
    (tmp_path / "unguarded.py").write_text(SCRIPT)
    done = run(tmp_path, "unguarded.py") if how == "script" else run(tmp_path, "-m", "unguarded")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.count("script top level runs") == 1, done.stdout
    assert "forfeits 0 games 4" in done.stdout, done.stdout
    assert "Traceback" not in done.stderr and "RuntimeError" not in done.stderr, done.stderr[-2000:]


def test_a_worker_that_dies_before_the_game_began_stops_the_match_in_one_line(tmp_path: Path) -> None:
    # before: the game was a 'crash: the agent's process died (exit code 7)' forfeit of the first seat's agent
    (tmp_path / "dies_in_workers.py").write_text(DIES_IN_WORKERS)
    (tmp_path / "guarded.py").write_text(
        "import zerosum\nfrom zerosum.errors import GameError\nif __name__ == '__main__':\n    try:\n"
        "        r = zerosum.match('first', 'random', game='dies_in_workers.py:game', games=2, jobs=2)\n"
        "    except GameError as exc:\n        print('error:', exc)\n    else:\n        print('result:', r)\n")
    done = run(tmp_path, "guarded.py")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "result:" not in done.stdout, done.stdout
    lines = [line for line in done.stdout.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, done.stdout
    assert "could not be played: its worker process died before the game began (exit code 7" in lines[0], lines


def test_a_tournament_whose_worker_dies_before_the_game_stores_nothing_for_it(tmp_path: Path) -> None:
    (tmp_path / "dies_in_workers.py").write_text(DIES_IN_WORKERS)
    db = tmp_path / "run.db"
    done = run(tmp_path, "-m", "zerosum", "match", "first", "random", "--game", "dies_in_workers.py:game",
               "--games", "2", "--jobs", "2", "--out", str(db), "--quiet")
    assert done.returncode == 2, (done.stdout, done.stderr)
    error = done.stderr.strip().splitlines()
    assert len(error) == 1 and "worker process died before the game began (exit code 7" in error[0], error
    assert "crash" not in done.stdout + done.stderr
    import sqlite3

    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)


def test_a_pool_job_of_the_scripts_own_main_is_one_line_and_the_worker_lives_on(tmp_path: Path) -> None:
    # the workers never load the script, so a function defined in it cannot be a job: said, not a dead worker
    (tmp_path / "main_job.py").write_text(
        "import os\nfrom zerosum.pool import EngineFailed, Pool\ndef mine():\n    return os.getpid()\n"
        "if __name__ == '__main__':\n    with Pool(size=1, wait=60) as pool:\n        try:\n"
        "            pool.run(mine, (), 60)\n        except EngineFailed as exc:\n            print('failed:', exc)\n"
        "        print('same worker', pool.pids == [pool.run(os.getpid, (), 60)])\n")
    done = run(tmp_path, "main_job.py")
    assert done.returncode == 0, done.stderr[-2000:]
    assert "failed: bad job: AttributeError: Can't get attribute 'mine'" in done.stdout, done.stdout
    assert "never from its owner's __main__" in done.stdout and "same worker True" in done.stdout, done.stdout
