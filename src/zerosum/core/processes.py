"""Worker processes that end with the process that started them, even when that one is killed (SIGKILL).

Call :func:`die_with_parent` first thing in the worker.  On Linux the kernel sends the worker SIGKILL when
its parent goes (``prctl(PR_SET_PDEATHSIG)``; note that "parent" is the *thread* that started the worker,
so start workers from a thread that lives as long as they should).  Everywhere, a thread also watches the
parent's id and ends the worker when it changes (it cannot run while native code holds the GIL, which is
why the kernel's signal comes first).
"""

from __future__ import annotations

import os
import threading
import time

__all__ = ["die_with_parent", "descendants", "kill_tree", "usable_cores", "default_threads", "MAX_JOBS",
           "FACE_THREADS"]

#: the most worker processes any command starts (arena --jobs, book --jobs, serve --workers)
MAX_JOBS = 32
#: the cores the faces (``zerosum play``, the server) let one search use, where the machine has them
FACE_THREADS = 2


def usable_cores() -> int:
    """How many cores this process may run on (its CPU affinity where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - no affinity on this system
        return os.cpu_count() or 1


def default_threads() -> int:
    """The threads the faces let one search use: ``FACE_THREADS``, or fewer when this process may run on
    fewer cores."""
    return max(1, min(FACE_THREADS, usable_cores()))


def die_with_parent(parent: int, every: float = 0.5) -> None:
    """End this process when process ``parent`` ends (at once if it has ended already)."""
    armed = False
    try:  # Linux: the kernel sends SIGKILL when the parent goes
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(1, int(signal.SIGKILL)) == 0  # PR_SET_PDEATHSIG
    except Exception:  # pragma: no cover - other systems: the thread below
        pass
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)

    try:
        threading.Thread(target=watch, name="die-with-parent", daemon=True).start()
    except RuntimeError:  # no thread to be had (over a process limit, which counts threads): the kernel's
        if not armed:  # signal is armed, or nothing watches and this process ends now
            os._exit(1)


def _children(pid: int) -> list[int]:
    """The ids of ``pid``'s children now (Linux: ``/proc/PID/task/*/children``; empty elsewhere or once gone)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found += [int(x) for x in f.read().split()]
        except (OSError, ValueError):
            continue
    return found


def descendants(pid: int) -> list[int]:
    """The ids of ``pid``'s descendants now, whatever group or session they are in: its children, theirs and
    so on (a process whose parent has ended belongs to init, or to a subreaper, no longer to ``pid``)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in _children(todo.pop()):
            if child not in found and child != pid:
                found.append(child)
                todo.append(child)
    return found


def kill_tree(leader: int, spare_leader: bool = False) -> None:
    """SIGKILL process group ``leader`` (its id: a group leader's) and every descendant of its leader, also
    those that left the group (``setsid``, ``start_new_session=True``): each is stopped first (SIGSTOP),
    until no new one appears, so that none starts another on the way.  A descendant whose parent has ended
    (a daemon that forked twice) is no longer the leader's and stays out of reach.  ``spare_leader``: only
    the leader's descendants, the leader left running (to end by itself).  Never the caller's own group."""
    import signal

    if not hasattr(os, "killpg") or leader <= 0 or leader == os.getpgrp():
        return
    try:
        if not spare_leader:
            os.killpg(leader, signal.SIGSTOP)  # the group forks no more
    except OSError:  # no such group: not made yet, or everything in it has ended
        pass
    stopped: set[int] = set()
    while True:
        new = [pid for pid in descendants(leader) if pid not in stopped]
        if not new:
            break
        for pid in new:
            stopped.add(pid)
            try:
                os.kill(pid, signal.SIGSTOP)
            except OSError:
                pass
    for pid in stopped:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        if not spare_leader:
            os.killpg(leader, signal.SIGKILL)
    except OSError:
        pass
