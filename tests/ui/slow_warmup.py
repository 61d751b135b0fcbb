"""A warm-up for the server's tests: it says what it prepares, then takes its time (a cold compile, in short).
An importable function, as the pool's workers take."""

from __future__ import annotations

import time

from zerosum.pool import report


def slow_warm_up(seconds: float) -> None:
    report(("preparing", "a slow engine"))
    time.sleep(seconds)
