"""Two arena runs started at once on one results file (audit of runs at once). The run that lost the race
was refused with advice that, followed, would destroy the other run's work (``'r.db' exists and is not a
results file: use --resume to carry on, --overwrite to replace ...``, ``'r.db' already holds 8 games: ...``),
because it judged a file the other run was still making before taking the file's lock; and two runs that named
no file, started together, both took ``results.db`` (one then failed) instead of splitting into
``results.db`` and ``results-2.db``. Now the lock is taken first: a file another run holds, even one it is still
making, is "in use by another run", and a run that names no file passes it for the next free name.

Each race is made certain, never timed: the first run is held still at the moment that matters (by its own
player, or by the lock a run takes when it begins making its file), and the second runs then."""

import fcntl
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: a player holding its run still once a game is stored, until the file ``go`` beside it exists
GATED = Path(__file__).parent / "gated_player.py"
RUN = ["--game", "tictactoe", "--jobs", "1", "--quiet", "--grace", "30", "--deadline", "600"]
SAFETY = 240  # seconds: only a safety net, never reached when all is well

#: a player file whose loading (as a run checks its agents, after choosing its results file) waits for GO
SLOW_START = '''import os
import time

open({mark!r}, "a").close()
_end = time.monotonic() + 300
while not os.path.exists({go!r}) and time.monotonic() < _end:
    time.sleep(0.02)


def slow_start(game, state):
    return game.actions(state)[0]
'''


def games_in(db: Path) -> int:
    """The games stored in ``db`` so far (0 while it is not made yet), read as any reader does while the run
    writes (which sees none if the run's process lost SQLite's locks on the file)."""
    if not db.is_file():
        return 0
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:  # no table yet
        return 0
    finally:
        con.close()


def agents_in(db: Path) -> list[str]:
    con = sqlite3.connect(db)
    try:
        return [spec for (spec,) in con.execute("SELECT spec FROM agents ORDER BY id")]
    finally:
        con.close()


def making_file(path: Path) -> int:
    """A new empty file held as a run holds its results file from the moment it makes it (an exclusive flock)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return fd


def zerosum(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "zerosum", *argv], cwd=cwd, capture_output=True, text=True,
                          timeout=SAFETY)


class Held:
    """A real run started in ``folder`` (``argv`` after ``zerosum``), stopped by the test's kill if it is still
    running at the end; :meth:`release` creates the GO file it waits for and returns its status and output."""

    def __init__(self, folder: Path, *argv: str) -> None:
        self.folder = folder
        self.proc = subprocess.Popen([sys.executable, "-m", "zerosum", *argv], cwd=folder, start_new_session=True,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def wait_until(self, done) -> None:
        deadline = time.monotonic() + SAFETY
        while not done() and self.proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.proc.poll() is None and done():
            return
        self.stop()
        pytest.fail(f"the first run did not get there: {self.proc.communicate()[1][-2000:]}")

    def release(self) -> tuple[int, str, str]:
        (self.folder / "go").touch()
        out, err = self.proc.communicate(timeout=SAFETY)
        return self.proc.returncode, out, err

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=60)


@pytest.fixture
def held(tmp_path):
    runs: list[Held] = []

    def start(*argv: str) -> Held:
        runs.append(Held(tmp_path, *argv))
        return runs[-1]

    yield start
    for run in runs:
        run.stop()


def test_a_results_file_a_run_is_writing_is_in_use_never_a_file_to_resume_or_replace(tmp_path, held):
    player = Path(shutil.copy(GATED, tmp_path))
    first = held("match", f"{player}:gated", "first", "--games", "10", *RUN, "-o", "r.db")
    first.wait_until(lambda: games_in(tmp_path / "r.db") >= 1)
    for extra in ([], ["--overwrite"]):
        done = zerosum("match", "random", "first", "--games", "4", *RUN, "-o", "r.db", *extra, cwd=tmp_path)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
        assert "results file 'r.db' is in use by another run: wait for it to end" in done.stderr, done.stderr
        assert "--resume" not in done.stderr and "--overwrite" not in done.stderr
    code, out, err = first.release()
    assert code == 0, err
    assert games_in(tmp_path / "r.db") == 10 and agents_in(tmp_path / "r.db") == [f"{player}:gated", "first"]


def test_a_results_file_another_run_is_making_is_in_use_and_left_as_it_is(tmp_path):
    # what a run holds the moment it has made its file, before it writes a byte: r.db, and results.db
    making = [making_file(tmp_path / "r.db"), making_file(tmp_path / "results.db")]
    try:
        for extra in ([], ["--overwrite"]):
            done = zerosum("match", "random", "first", "--games", "2", *RUN, "-o", "r.db", *extra, cwd=tmp_path)
            assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
            assert "results file 'r.db' is in use by another run" in done.stderr, done.stderr
        done = zerosum("match", "random", "first", "--games", "2", *RUN, cwd=tmp_path)  # naming no file
        assert done.returncode == 0, done.stderr
        assert done.stderr == ("results.db is in use by another run: this run writes results-2.db (to carry it on "
                               "later: --resume -o results-2.db; -o FILE names the file)\n")
        assert games_in(tmp_path / "results-2.db") == 2
    finally:
        for fd in making:
            os.close(fd)
    for name in ("r.db", "results.db"):  # the other run's files: neither written nor removed, nothing beside them
        assert (tmp_path / name).stat().st_size == 0
        assert not [p.name for p in tmp_path.glob(name + "-*")]


def test_two_runs_naming_no_file_started_together_take_two_files(tmp_path, held):
    """The first run has chosen its file and is checking its agents when the second starts and ends."""
    player = tmp_path / "slow_start.py"
    player.write_text(SLOW_START.format(mark=str(tmp_path / "loading"), go=str(tmp_path / "go")))
    first = held("match", f"{player}:slow_start", "first", "--games", "4", *RUN)
    first.wait_until(lambda: (tmp_path / "loading").exists())
    second = zerosum("match", "random", "first", "--games", "2", *RUN, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert second.stderr == ("results.db is in use by another run: this run writes results-2.db (to carry it on "
                             "later: --resume -o results-2.db; -o FILE names the file)\n")
    assert second.stdout.startswith("2 games in results-2.db")
    code, out, err = first.release()
    assert code == 0 and err == "", err
    assert out.startswith("4 games in results.db"), out
    assert games_in(tmp_path / "results.db") == 4 and agents_in(tmp_path / "results.db")[0] == f"{player}:slow_start"
    assert games_in(tmp_path / "results-2.db") == 2 and agents_in(tmp_path / "results-2.db") == ["random", "first"]
