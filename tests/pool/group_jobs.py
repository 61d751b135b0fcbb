"""Jobs for tests/pool/test_worker_group.py: each starts a child process (as a student's player may), writes its
id to a file and then returns it, overruns, or ends the worker."""

from __future__ import annotations

import os
import subprocess
import time


def _child(pids: str, own_session: bool = False) -> int:
    pid = subprocess.Popen(["sleep", "300"], start_new_session=own_session).pid
    with open(pids, "a") as f:
        f.write(f"{pid}\n")
    return pid


def start_child(pids: str) -> int:
    return _child(pids)


def start_child_and_hang(pids: str) -> int:
    _child(pids)
    time.sleep(100)
    return 0


def start_escapees(pids: str, hang: bool = False) -> int:
    """A child in a session of its own, and one of its own child's (the chain intact): out of the worker's
    group, still below it."""
    first = _child(pids, own_session=True)
    middle = subprocess.Popen(["sh", "-c", f"setsid sleep 300 & echo $! >> {pids}; wait"], start_new_session=True)
    while len(open(pids).read().split()) < 2:  # the grandchild's id is written
        time.sleep(0.01)
    del middle  # left running: its child is still below the worker
    if hang:
        time.sleep(100)
    return first


def start_child_and_die(pids: str) -> int:
    _child(pids)
    os._exit(3)


def group() -> tuple[int, int]:
    """This worker's process group and session."""
    return os.getpgrp(), os.getsid(0)
