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

__all__ = ["die_with_parent", "usable_cores", "default_threads", "MAX_JOBS", "FACE_THREADS"]

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
    try:  # Linux: the kernel sends SIGKILL when the parent goes
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except Exception:  # pragma: no cover - other systems: the thread below
        pass
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="die-with-parent", daemon=True).start()
