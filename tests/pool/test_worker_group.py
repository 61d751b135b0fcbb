"""A worker is the leader of a process group (and session) of its own, killed whole with the worker: whatever a
job started (a student's ``subprocess.Popen``) ends when the pool closes, when the job overruns, when the worker
dies and when it is stopped politely.  Before, those children outlived the pool, adopted by init.  So does what
left the group (``start_new_session=True``, ``setsid``) while it is still below the worker: it was out of reach
before."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import group_jobs as jobs  # noqa: E402
from process_helpers import alive, wait_gone  # noqa: E402

from zerosum.pool import EngineCrashed, EngineTimeout, Pool  # noqa: E402
from zerosum.pool.worker import Worker  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.fixture
def pids(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "pids.txt"
    yield path
    for pid in _started(path):  # what the old code left behind (started by this test's workers)
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def _started(path: Path) -> list[int]:
    try:
        return [int(line) for line in path.read_text().split()]
    except (OSError, ValueError):
        return []


def _assert_gone(path: Path) -> None:
    started = _started(path)
    assert started, "the job started no child"
    left = wait_gone(started, 20.0)
    assert not left, f"children of a job still running after its worker ended: {left}"


def test_a_worker_leads_a_group_and_session_of_its_own() -> None:
    with Pool(size=1, wait=60) as pool:
        pid = pool.run(os.getpid, (), 60)
        assert pool.run(jobs.group, (), 60) == (pid, pid) != (os.getpgrp(), os.getsid(0))


def test_children_of_a_job_end_when_the_pool_closes(pids: Path) -> None:
    pool = Pool(size=1, wait=60)
    try:
        child = pool.run(jobs.start_child, (str(pids),), 60)
        assert alive(child)  # the worker lives on between jobs, and so does what it started
    finally:
        pool.close()
    _assert_gone(pids)


def test_children_of_a_job_that_overruns_end_with_its_worker(pids: Path) -> None:
    with Pool(size=1, wait=60) as pool:
        with pytest.raises(EngineTimeout):
            pool.run(jobs.start_child_and_hang, (str(pids),), 2)
        _assert_gone(pids)  # before the pool closes: the worker killed at the deadline took them along


def test_children_of_a_job_that_kills_its_worker_end_too(pids: Path) -> None:
    with Pool(size=1, wait=60) as pool:
        with pytest.raises(EngineCrashed):
            pool.run(jobs.start_child_and_die, (str(pids),), 60)
        _assert_gone(pids)


def test_children_of_a_job_end_when_the_worker_is_stopped_politely(pids: Path) -> None:
    worker = Worker()
    try:
        status, child, _ = worker.call(jobs.start_child, (str(pids),), 60)
        assert status == "ok" and alive(child), (status, child)
    finally:
        worker.stop()
    _assert_gone(pids)


@pytest.mark.parametrize("end", ["pool closes", "overrun", "stopped politely"])
def test_children_that_left_the_group_end_too(pids: Path, end: str) -> None:
    if end == "overrun":
        with Pool(size=1, wait=60) as pool:
            with pytest.raises(EngineTimeout):
                pool.run(jobs.start_escapees, (str(pids), True), 3)
            _assert_gone(pids)
        return
    if end == "pool closes":
        pool = Pool(size=1, wait=60)
        try:
            child = pool.run(jobs.start_escapees, (str(pids),), 60)
            assert alive(child) and os.getsid(child) == child  # a session of its own, out of the worker's group
        finally:
            pool.close()
    else:
        worker = Worker()
        try:
            status, child, _ = worker.call(jobs.start_escapees, (str(pids),), 60)
            assert status == "ok" and alive(child), (status, child)
        finally:
            worker.stop()
    assert len(_started(pids)) == 2
    _assert_gone(pids)
