"""The Ray backend: actors are the workers (same results as the local pool), a job past its deadline kills
its actor and the next job still runs, joining a cluster on this machine brings the user's token."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import jobs_for_tests as jobs  # noqa: E402
from process_helpers import wait_gone  # noqa: E402

from zerosum.cli import main  # noqa: E402
from zerosum.pool import EngineTimeout  # noqa: E402


@pytest.fixture(scope="module")
def ray_instance():  # type: ignore[no-untyped-def]
    """One new local Ray instance for the module (its workers import this folder's jobs too)."""
    ray = pytest.importorskip("ray")
    from zerosum.pool.ray_connect import connect

    saved = {k: os.environ.get(k) for k in ("PYTHONPATH", "RAY_ADDRESS")}
    here = str(Path(__file__).resolve().parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [here, saved["PYTHONPATH"]]))
    os.environ.pop("RAY_ADDRESS", None)
    try:
        yield connect(None)
    finally:
        ray.shutdown()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _games(db: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as con:
        return con.execute("SELECT idx, result, reason, moves FROM games ORDER BY idx").fetchall()


@pytest.mark.slow  # a Ray instance and a dozen games: tens of seconds on a busy machine
def test_ray_games_are_the_local_pools_games_for_the_same_seed(ray_instance, tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = ["match", "alphabeta:depth=2", "mcts:sims=200", "--games", "6", "--seed", "7", "--quiet"]
    assert main([*run, "--jobs", "2", "--out", str(tmp_path / "local.db")]) == 0
    assert main([*run, "--jobs", "2", "--backend", "ray", "--out", str(tmp_path / "ray.db")]) == 0
    local, remote = _games(tmp_path / "local.db"), _games(tmp_path / "ray.db")
    assert len(local) == 6 and remote == local


@pytest.mark.slow
def test_a_ray_job_past_its_deadline_is_killed_and_the_next_job_still_runs(ray_instance) -> None:  # type: ignore[no-untyped-def]
    from zerosum.pool import RayPool

    pool = RayPool(1)
    try:
        first = pool.run(jobs.pid_after, (0.0,), 60)
        with pytest.raises(EngineTimeout):
            pool.run(jobs.pid_after, (600.0,), 1.0)  # overruns: its actor is killed
        assert wait_gone([first]) == []  # the process that ran it is gone
        second = pool.run(jobs.pid_after, (0.0,), 60)  # a fresh actor took the seat
        assert second != first
        seen: list[object] = []
        assert pool.run(jobs.chatty, (3, 0.0), 60, seen.append) == second  # reports reach the caller
        assert seen == [("step", 0), ("step", 1), ("step", 2)]
    finally:
        pool.close()


@pytest.mark.slow
def test_ray_each_keeps_going_after_a_job_is_killed(ray_instance) -> None:  # type: ignore[no-untyped-def]
    from zerosum.pool import RayPool

    def supervise(seat, item):  # type: ignore[no-untyped-def]  # runs here, in the caller's threads
        try:
            return seat.run(jobs.pid_after, (item,), 1.0)
        except EngineTimeout:
            return "killed"

    got: dict[float, object] = {}
    pool = RayPool(1)
    try:
        assert pool.each(supervise, [0.0, 600.0, 0.0], lambda item, result: got.setdefault(item, result)) is True
    finally:
        pool.close()
    assert got[600.0] == "killed" and isinstance(got[0.0], int)


@pytest.mark.parametrize("address, here", [("auto", True), ("127.0.0.1:6379", True), ("localhost:6379", True),
                                           ("ray://127.0.0.1:10001", True), ("198.51.100.7:6379", False)])
def test_only_a_cluster_on_this_machine_gets_the_users_token_unasked(address, here) -> None:  # type: ignore[no-untyped-def]
    from zerosum.pool.ray_connect import _on_this_machine

    assert _on_this_machine(address) is here


def test_a_cluster_that_asks_for_a_token_is_one_line_naming_what_to_set(monkeypatch, capfd, tmp_path) -> None:  # type: ignore[no-untyped-def]
    ray = pytest.importorskip("ray")
    import zerosum.pool.ray_connect as rc

    def refuse(**_: object) -> None:
        os.write(2, b"gcs_client.cc:210: Failed to get cluster ID: InvalidAuthToken: token missing\n" * 3)
        raise ConnectionError("Failed to connect to Ray cluster at 192.0.2.2:6379")

    monkeypatch.setattr(ray, "init", refuse)
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(rc, "_probe", lambda address: None)
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    db = tmp_path / "r.db"
    assert main(["match", "random", "first", "--game", "tictactoe", "--games", "2", "--backend", "ray",
                 "--ray-address", "198.51.100.7:6379", "--out", str(db)]) == 2
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "RAY_AUTH_MODE=token" in err and "gcs_client" not in err, err
    assert not db.exists()


@pytest.mark.slow  # a fresh Ray instance in a child process: about 15 s
def test_ctrl_c_during_a_ray_match_exits_130_and_leaves_no_ray_process(tmp_path) -> None:
    pytest.importorskip("ray")
    import signal
    import subprocess
    import time

    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    before = set(_ray_daemons())
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "match", "alphabeta:depth=7", "mcts:sims=20000",
                             "--games", "400", "--jobs", "2", "--backend", "ray", "--quiet", "--out",
                             str(tmp_path / "r.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)
    try:
        time.sleep(12)  # Ray started, games under way
        assert proc.poll() is None, "the match ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert len(err.strip().splitlines()) == 1, err
    left = set(_ray_daemons()) - before
    assert wait_gone(sorted(left), 15) == []


def _ray_daemons() -> list[int]:
    """The pids of Ray's daemons on this machine (raylet, the GCS server)."""
    import subprocess

    found = subprocess.run(["pgrep", "-f", "raylet|gcs_server"], capture_output=True, text=True).stdout
    return [int(p) for p in found.split()]
