"""No covert channel between two seats running at once through a file both see: the seats share the read-only
views of /usr, the Python installation and the zerosum package (the same files on the machine), so a lock one
holds there, or an open one makes, would be a message to the other (two students' programs colluding in a game).
The seat's system-call filter (:func:`zerosum.contest.cgroups.seccomp_filter`) refuses file locks and file
watches (EPERM); each test runs two real seats side by side, and one that a seat's ordinary Python still works."""

from __future__ import annotations

import os
import select
import signal
import subprocess
from pathlib import Path

import pytest

from zerosum.contest.cgroups import SYSCALLS
from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.seats import seat_definition

PROBLEM = sandbox_problem()
needs_filter = pytest.mark.skipif(PROBLEM is not None or os.uname().machine not in SYSCALLS,
                                  reason=f"no sandbox with a system-call filter here: {PROBLEM or os.uname().machine}")
#: a file every seat sees, read-only, at the same path: the standard library's os.py
SHARED = os.path.realpath(os.__file__)

#: what a program seat's code starts with: ``tried(call)``, what the call answered (``ok``, or a word it gave) or
#: ``-1/errno``; ``call(function, *args)`` of the C library, its result and ``ok`` or ``-1/errno``
PRELUDE = """#!/usr/bin/env python3
import ctypes, fcntl, os, select, signal, struct, sys
SHARED = %r
libc = ctypes.CDLL(None, use_errno=True)
def tried(call):
    try:
        result = call()
    except OSError as exc:
        return f"-1/{exc.errno}"
    return result if isinstance(result, str) else "ok"
def call(function, *args):
    ctypes.set_errno(0)
    result = function(*args)
    return result, f"{result}/{ctypes.get_errno()}" if result < 0 else "ok"
def lock(kind):  # struct flock on x86_64 and aarch64: type, whence, start, length, pid
    return struct.pack("hhqqi4x", kind, 0, 0, 0, 0)
def held(answer):  # F_GETLK's answer: a lock in the way, or none (F_UNLCK)
    return "held" if struct.unpack("hhqqi4x", answer)[0] != fcntl.F_UNLCK else "free"
fd = os.open(SHARED, os.O_RDONLY)
""" % SHARED
#: seat A: locks the shared file every way it can (flock, a classic and an open-file read lock, a lease), says so,
#: and holds its locks until its standard input ends
HOLDER = PRELUDE + """
said = [tried(lambda: fcntl.flock(fd, fcntl.LOCK_EX)), tried(lambda: fcntl.fcntl(fd, 6, lock(fcntl.F_RDLCK))),
        tried(lambda: fcntl.fcntl(fd, 37, lock(fcntl.F_RDLCK))), tried(lambda: fcntl.fcntl(fd, 1024, fcntl.F_RDLCK))]
print("HOLDS", *said, flush=True)
sys.stdin.read()
"""
#: seat B: what it can learn of locks on the shared file (flock without waiting, then F_GETLK and F_OFD_GETLK for
#: a write lock, F_GETLEASE)
PROBER = PRELUDE + """
said = [tried(lambda: fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)),
        *[tried(lambda: held(fcntl.fcntl(fd, command, lock(fcntl.F_WRLCK)))) for command in (5, 36)],
        tried(lambda: fcntl.fcntl(fd, 1025))]
print("SEES", *said, flush=True)
"""
#: seat B: watches the shared file and its folder every way it can (inotify, fanotify, dnotify), says so, and
#: after a line on its standard input says what it saw (the events read, or "none": no watch to read)
WATCHER = PRELUDE + """
signal.signal(signal.SIGIO, signal.SIG_IGN)  # dnotify's signal, where a watch is had
said, fds = [], []
if os.uname().machine == "x86_64":  # inotify_init: x86_64 only
    w, text = call(libc.syscall, 253)
    said.append(text)
w, text = call(libc.inotify_init1, os.O_NONBLOCK)
said.append(text)
r, text = call(libc.inotify_add_watch, w, SHARED.encode(), 0x21)  # IN_ACCESS | IN_OPEN
said.append(text)
if r >= 0:
    fds.append(w)
f, text = call(libc.fanotify_init, 0x200 | 0x2, os.O_RDONLY)  # FAN_REPORT_FID, FAN_NONBLOCK
said.append(text)
if f >= 0 and libc.fanotify_mark(f, 1, ctypes.c_uint64(0x21), -100, SHARED.encode()) == 0:  # FAN_OPEN | FAN_ACCESS
    fds.append(f)
folder = os.open(os.path.dirname(SHARED), os.O_RDONLY)
said.append(tried(lambda: fcntl.fcntl(folder, 1026, 1)))  # F_NOTIFY, DN_ACCESS
print("WATCHES", *said, flush=True)
sys.stdin.readline()
select.select(fds, [], [], 2.0)
seen = 0
for w in fds:
    try:
        seen += len(os.read(w, 65536))
    except BlockingIOError:
        pass
print("SAW", seen if fds else "none", flush=True)
"""
#: seat A of the watch: opens and reads the shared file
OPENER = PRELUDE + """
for _ in range(5):
    with open(SHARED, "rb") as f:
        f.read()
print("OPENED", flush=True)
"""


def _seat(folder: Path, name: str, text: str) -> list[str]:
    """The command of a program seat playing ``text`` (as a ladder game would start it)."""
    (folder / name).write_text(text)
    return list(seat_definition(str(folder), name, "program", name=name).command)


def _start(command: list[str], folder: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(command, cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def _line(seat: subprocess.Popen[bytes], timeout: float = 60) -> str:
    """The seat's next line of output, within ``timeout`` seconds."""
    assert seat.stdout is not None
    ready, _, _ = select.select([seat.stdout], [], [], timeout)
    assert ready, "the seat said nothing"
    return seat.stdout.readline().decode().strip()


def _end(seat: subprocess.Popen[bytes]) -> str:
    """End a seat (its input closed, then killed whole if it lingers); its standard error."""
    try:
        _, errors = seat.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(seat.pid, signal.SIGKILL)
        _, errors = seat.communicate()
    return errors.decode(errors="replace")


def _run(command: list[str], folder: Path) -> str:
    done = subprocess.run(command, cwd=folder, capture_output=True, timeout=60)
    return done.stdout.decode().strip()


@needs_filter
def test_a_seat_cannot_learn_of_a_lock_another_seat_holds(tmp_path: Path) -> None:
    prober = _seat(tmp_path, "prober", PROBER)
    alone = _run(prober, tmp_path)  # nobody else holds a lock
    holder = _start(_seat(tmp_path, "holder", HOLDER), tmp_path)
    try:
        holds = _line(holder)
        beside = _run(prober, tmp_path)  # seat A holds whatever it could take
    finally:
        errors = _end(holder)
    assert beside == alone, f"seat B learns of seat A's locks: {alone!r} alone, {beside!r} beside it ({holds})"
    assert holds == "HOLDS -1/1 -1/1 -1/1 -1/1", (holds, errors)  # flock, F_SETLK, F_OFD_SETLK, F_SETLEASE
    assert beside == "SEES -1/1 -1/1 -1/1 -1/1", beside  # flock, F_GETLK, F_OFD_GETLK, F_GETLEASE


@needs_filter
def test_a_seat_cannot_watch_another_seat_open_a_shared_file(tmp_path: Path) -> None:
    watcher = _start(_seat(tmp_path, "watcher", WATCHER), tmp_path)
    try:
        watches = _line(watcher)
        opened = _run(_seat(tmp_path, "opener", OPENER), tmp_path)  # seat A opens and reads the file 5 times
        assert watcher.stdin is not None
        watcher.stdin.write(b"read\n")
        watcher.stdin.flush()
        saw = _line(watcher)
    finally:
        errors = _end(watcher)
    assert opened == "OPENED" and saw == "SAW none", f"seat B saw seat A open the file: {saw} ({watches}; {errors})"
    refused = ["-1/1"] * (5 if os.uname().machine == "x86_64" else 4)  # [inotify_init], inotify_init1, its
    assert watches.split() == ["WATCHES", *refused], watches  # watch, fanotify_init, F_NOTIFY


#: a Python seat's ordinary work that takes no file lock: numba compiling into its scratch cache, multiprocessing's
#: lock and queue (in /dev/shm), sqlite in memory and without locking; and sqlite on a file, refused at once
ORDINARY = """#!/usr/bin/env python3
import multiprocessing, os, sqlite3, sys, time
with open("/tmp/kernel.py", "w") as f:
    f.write("import numba\\n@numba.njit(cache=True)\\ndef twice(x):\\n    return 2 * x\\n")
sys.path.insert(0, "/tmp")
import kernel
cached = any(name.endswith(".nbi") for _, _, names in os.walk(os.environ["NUMBA_CACHE_DIR"]) for name in names)
lock, queue = multiprocessing.Lock(), multiprocessing.Queue()
with lock:
    queue.put(kernel.twice(21))
said = [str(queue.get(timeout=10)), str(cached)]
for name, uri in ((":memory:", False), ("file:/tmp/free.db?nolock=1", True), ("/tmp/locked.db", False)):
    started = time.monotonic()
    try:
        with sqlite3.connect(name, uri=uri) as db:
            db.execute("CREATE TABLE t (x)")
        said.append("ok")
    except sqlite3.OperationalError as exc:
        said.append(f"{exc}:{time.monotonic() - started < 1}".replace(" ", "-"))
print("ORDINARY", *said, flush=True)
"""


@needs_filter
def test_a_seats_python_works_without_file_locks_and_sqlite_on_a_file_says_so(tmp_path: Path) -> None:
    said = _run(_seat(tmp_path, "ordinary", ORDINARY), tmp_path)
    assert said == "ORDINARY 42 True ok ok access-permission-denied:True", said
