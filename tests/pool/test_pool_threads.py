"""No thread of the pool prints a traceback (issue #20, item 7): a pool closed while workers are still being
started, a game clock so short that the run ends before its workers are up, a worker that cannot start at
all, and a thread whose work fails in a way nobody expected.

Each case runs in a fresh interpreter and reads its standard error.
"""

from __future__ import annotations

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest


def _run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)


def test_tiny_time_control_prints_no_thread_traceback(tmp_path):
    # the reproduction: 4 runs in 10 printed "Exception in thread zerosum-engine-warmup ... CancelledError"
    def once(i: int) -> str:
        done = subprocess.run([sys.executable, "-m", "zerosum", "match", "random", "first", "--tc", "1e-9", "--games",
                               "2", "--out", str(tmp_path / f"tc{i}.db"), "--quiet"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stderr

    with ThreadPoolExecutor(2) as runs:
        errors = list(runs.map(once, range(6)))
    assert not [e for e in errors if "Traceback" in e or "Exception in thread" in e], errors


def test_a_pool_closed_while_its_workers_start_prints_no_thread_traceback():
    script = ("import time\nfrom zerosum.pool import Pool\nfor _ in range(10):\n    with Pool(size=3) as pool:\n"
              "        pool.start()\ntime.sleep(1)\nprint('closed', flush=True)")
    done = _run(script)
    assert done.stdout == "closed\n" and done.stderr == "", done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts open files in /proc")
def test_a_worker_that_cannot_start_fails_the_job_in_one_line():
    # no process can start (no file descriptor is left for its pipe): each job fails, EngineFailed, and no thread
    # prints a traceback
    script = ("import math, os, resource, time, multiprocessing.connection\nfrom zerosum.pool import EngineFailed, Pool\n"
              "import zerosum.pool.worker\nopen_now = len(os.listdir('/proc/self/fd'))\n"
              "resource.setrlimit(resource.RLIMIT_NOFILE, (open_now, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))\n"
              "with Pool(size=1, wait=30) as pool:\n    for _ in range(2):\n        try:\n"
              "            pool.run(math.hypot, (3, 4), 30)\n        except EngineFailed as exc:\n"
              "            print(exc, flush=True)\ntime.sleep(0.5)")
    done = _run(script)
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("an engine process could not start: ") for line in lines), done
    assert "Too many open files" in lines[0] and done.stderr == "", done.stderr


def test_an_unexpected_failure_in_a_pool_thread_is_one_line():
    script = ("import time\nfrom zerosum.pool.base import start_thread\n"
              "def broken():\n    raise KeyError('a bug')\nstart_thread(broken, 'zerosum-test').join()")
    done = _run(script)
    assert done.stderr == "zerosum: thread zerosum-test: KeyError: 'a bug'\n"
