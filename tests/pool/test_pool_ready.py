"""The pool while its workers warm up: a job waits for the first warm worker (``ready_wait``) instead of being
refused as busy, ``preparing`` says what the warm-up does, and once a worker is warm the usual ``wait`` holds."""

from __future__ import annotations

import functools
import os
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import jobs_for_tests as jobs  # noqa: E402

from zerosum.pool import EngineBusy, Pool  # noqa: E402

WARM_UP = 3.0  # seconds each worker's warm-up takes here


def test_a_job_waits_for_the_first_warm_worker_not_busy() -> None:
    pool = Pool(size=1, wait=0.3, warmup=functools.partial(jobs.slow_warmup, WARM_UP), ready_wait=60)
    try:
        start = time.monotonic()
        pool.start()
        assert pool.ready == 0
        seen = None
        while seen is None and time.monotonic() - start < 30:  # the worker reports what it prepares
            seen = pool.preparing if pool.preparing and pool.preparing[1] else None
            time.sleep(0.05)
        assert seen is not None and seen[1] == "a slow engine" and 0 <= seen[0] < WARM_UP + 30
        pid = pool.run(os.getpid, (), 30)  # far past wait=0.3: it waited for the warm-up, as ready_wait allows
        assert pid in pool.pids and time.monotonic() - start >= WARM_UP - 0.5
        assert pool.ready == 1 and pool.preparing is None
    finally:
        pool.close()


def test_without_ready_wait_a_job_meets_the_usual_wait_and_says_the_engines_are_starting() -> None:
    pool = Pool(size=1, wait=0.3, warmup=functools.partial(jobs.slow_warmup, WARM_UP))
    try:
        with pytest.raises(EngineBusy, match=r"^the engines are still starting after 0.3 s"):
            pool.run(os.getpid, (), 30)
    finally:
        pool.close()


def test_once_a_worker_is_warm_a_job_waits_only_the_usual_wait() -> None:
    pool = Pool(size=1, wait=0.5, warmup=functools.partial(jobs.slow_warmup, 0.2), ready_wait=60)
    try:
        pool.run(os.getpid, (), 30)  # warm now
        busy = threading.Thread(target=pool.run, args=(time.sleep, (5,), 30))
        busy.start()
        time.sleep(0.5)  # the only worker is busy
        start = time.monotonic()
        with pytest.raises(EngineBusy, match=r"^every engine is busy"):
            pool.run(os.getpid, (), 30)
        assert time.monotonic() - start < 3  # wait=0.5, not ready_wait=60
        busy.join()
    finally:
        pool.close()


def test_the_first_warm_up_runs_alone_and_the_others_follow(tmp_path) -> None:
    """A cold compile cache is compiled once: the other workers warm up after the first (and load its work)."""
    log = tmp_path / "warm-ups"
    pool = Pool(size=2, wait=60, warmup=functools.partial(jobs.logged_warmup, str(log), 1.0))
    try:
        pool.start()
        start = time.monotonic()
        while pool.ready < 2 and time.monotonic() - start < 60:
            time.sleep(0.05)
        assert pool.ready == 2
    finally:
        pool.close()
    events = [line.split() for line in log.read_text().splitlines()]
    assert [kind for kind, _ in events] == ["start", "end", "start", "end"]  # one after the other
    assert float(events[2][1]) >= float(events[1][1])
