"""The engine workers of `zerosum serve`: bounded memory, replaced past their bound, dead with their server."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from zerosum.pool import EngineFailed, EngineMemory, Pool

from process_helpers import alive, wait_gone  # noqa: E402

linux = pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="reads /proc (Linux)")




@linux
def test_a_worker_past_its_resident_bound_is_replaced() -> None:
    pool = Pool(size=1, wait=10, rss_limit=1)  # every worker is past 1 byte after a job
    kept = Pool(size=1, wait=10)
    try:
        first = pool.run(os.getpid, (), 30)
        assert pool.run(os.getpid, (), 30) != first  # replaced after its job
        assert wait_gone([first]) == []
        first = kept.run(os.getpid, (), 30)
        assert kept.run(os.getpid, (), 30) == first  # under the bound: kept and reused
    finally:
        pool.close()
        kept.close()


@linux
def test_a_job_is_a_function_never_a_module_function_string() -> None:
    pool = Pool(size=1, wait=5, mode="inline")
    with pytest.raises(TypeError, match="importable function"):
        pool.run("os:getpid", (), 30)  # type: ignore[arg-type]
    assert pool.run(math.hypot, (3, 4), 30) == 5.0


@linux
def test_a_job_past_the_memory_limit_fails_cleanly_and_the_worker_is_replaced() -> None:
    pool = Pool(size=1, wait=5, memory_limit=256 * 2**20)
    try:
        before = pool.run(os.getpid, (), 30)
        with pytest.raises(EngineMemory, match="ran out of memory .a worker may use 256 MB"):
            pool.run(bytearray, (512 * 2**20,), 30)
        assert wait_gone([before]) == []
        assert pool.run(math.hypot, (5, 12), 30) == 13.0  # a fresh worker answers
    finally:
        pool.close()


def test_a_job_whose_result_cannot_be_sent_back_fails_without_losing_the_worker() -> None:
    pool = Pool(size=1, wait=5)
    try:
        first = pool.run(os.getpid, (), 30)
        with pytest.raises(EngineFailed, match="cannot be sent back"):
            pool.run(threading.Lock, (), 30)
        assert pool.run(os.getpid, (), 30) == first
        assert pool.run(math.hypot, (3, 4), 30) == 5.0
    finally:
        pool.close()


OWNER = textwrap.dedent("""
    import sys, threading, time
    from zerosum.pool import Pool
    pool = Pool(size=2, wait=5)
    # started from threads that end at once (as the server's request threads do)
    for _ in range(2):
        t = threading.Thread(target=pool.run, args=(time.sleep, (0.3,), 30))
        t.start()
    time.sleep(0.05)
    t.join()
    time.sleep(1.0)
    print(*pool.pids, flush=True)
    threading.Thread(target=pool.run, args=(time.sleep, (60,), 120), daemon=True).start()
    time.sleep(120)
""")


@linux
def test_workers_die_with_their_server_even_on_sigkill() -> None:
    owner = subprocess.Popen([sys.executable, "-c", OWNER], stdout=subprocess.PIPE, text=True)
    try:
        line = owner.stdout.readline() if owner.stdout else ""
        pids = [int(p) for p in line.split()]
        assert pids and all(alive(p) for p in pids)  # alive after the threads that started them ended
        time.sleep(0.3)  # one is in the middle of a job
        owner.send_signal(signal.SIGKILL)
        owner.wait(10)
        assert wait_gone(pids) == []
    finally:
        if owner.poll() is None:
            owner.kill()
        owner.wait(10)
