"""A killed worker leaves no descriptor behind in its owner, at once -- not at the next garbage collection:
its pipe and the two pipes to the spawned process (``Process.close``), whoever still holds the Worker (an
overrun's exception, kept in a log or a reference cycle, holds it through its traceback)."""

from __future__ import annotations

import gc
import os
import time

import pytest

from zerosum.pool import EngineCrashed, EngineTimeout, Pool
from zerosum.pool.worker import Worker

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts /proc/self/fd (Linux)")


def descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.fixture
def no_gc():  # type: ignore[no-untyped-def]
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_killing_a_worker_closes_every_descriptor_it_held(no_gc) -> None:  # type: ignore[no-untyped-def]
    Worker().kill()  # the first one starts multiprocessing's resource tracker, whose pipe stays open
    before = descriptors()
    workers = [Worker() for _ in range(3)]  # all kept: nothing is left to a collection
    assert descriptors() >= before + 3 * 3  # each: its pipe, two pipes to the process
    for worker in workers:
        worker.kill()
    assert descriptors() == before
    for worker in workers:
        worker.kill()  # again: nothing left to do
        assert not worker.alive() and worker.pid > 0 and worker.exitcode is not None
        with pytest.raises(EngineCrashed):
            worker.call(os.getpid, (), 5)


def test_workers_killed_for_overrunning_and_replaced_leave_no_descriptor(no_gc) -> None:  # type: ignore[no-untyped-def]
    pool = Pool(size=1, wait=60)
    try:
        pool.run(time.sleep, (0,), 60)  # one worker, warm
        before = descriptors()
        kept = []
        for _ in range(4):
            with pytest.raises(EngineTimeout) as caught:
                pool.run(time.sleep, (30,), 0.3)  # killed, and replaced
            kept.append(caught.value)
            assert pool.run(os.getpid, (), 60) != os.getpid()  # its replacement answers
        assert descriptors() == before  # one worker, as before: none of the four killed left a pipe
        assert len(pool.pids) == 1
    finally:
        pool.close()
