"""Jobs for tests/pool/test_worker_group.py: each starts a child process (as a student's player may), writes its
id to a file and then returns it, overruns, or ends the worker."""

from __future__ import annotations

import os
import subprocess
import time


def _child(pids: str) -> int:
    pid = subprocess.Popen(["sleep", "300"]).pid
    with open(pids, "a") as f:
        f.write(f"{pid}\n")
    return pid


def start_child(pids: str) -> int:
    return _child(pids)


def start_child_and_hang(pids: str) -> int:
    _child(pids)
    time.sleep(100)
    return 0


def start_child_and_die(pids: str) -> int:
    _child(pids)
    os._exit(3)


def group() -> tuple[int, int]:
    """This worker's process group and session."""
    return os.getpgrp(), os.getsid(0)
