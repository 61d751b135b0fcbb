"""Jobs for the pool's tests (importable functions: the pool takes no lambdas and no strings)."""

from __future__ import annotations

import os
import time

from zerosum.errors import InvalidPositionError
from zerosum.pool import report


def chatty(steps: int, pause: float) -> int:
    """Report each step, pausing between them; returns this worker's process id."""
    for i in range(steps):
        report(("step", i))
        time.sleep(pause)
    return os.getpid()


def die(code: int) -> None:
    os._exit(code)


def refuse() -> None:
    raise InvalidPositionError("no such position")


def fail() -> None:
    raise KeyError("a bug")


def pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def supervise_pid(pool, item):  # type: ignore[no-untyped-def]
    """An ``each`` supervisor: the worker's process id for one item."""
    return item, pool.run(pid_after, (0.01,), 60)


def slow_warmup(seconds: float) -> None:
    """A warm-up that reports what it prepares, then takes ``seconds`` (a cold compile, in short)."""
    report(("preparing", "a slow engine"))
    time.sleep(seconds)


def logged_warmup(path: str, seconds: float) -> None:
    """A warm-up that writes when it starts and ends (``start T`` / ``end T`` lines, wall-clock seconds)."""
    with open(path, "a") as f:
        f.write(f"start {time.time()}\n")
    time.sleep(seconds)
    with open(path, "a") as f:
        f.write(f"end {time.time()}\n")
