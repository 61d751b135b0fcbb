"""Helpers for tests that watch processes: worker processes (the pool's and the server's), a command in a
pseudo-terminal, ``zerosum`` with its output captured (:func:`zerosum_run`), a test engine's script, what a run
stored (:func:`rows`), and a small disk (:func:`small_disk`)."""

from __future__ import annotations

import contextlib
import io
import os
import select
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def children(pid: int) -> list[int]:
    """The child processes of ``pid`` (each of its threads' children), from /proc."""
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            found += [int(x) for x in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return found


def wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def pty_read(fd: int, wait: float) -> bytes | None:
    """What a pseudo-terminal's child wrote within ``wait`` seconds (``b""``: nothing yet), None once it closed."""
    if not select.select([fd], [], [], wait)[0]:
        return b""
    try:
        data = os.read(fd, 65536)
    except OSError:  # the child has gone (Linux's EIO)
        return None
    return data or None


class _Text(io.StringIO):
    encoding = "utf-8"  # as a real standard output says (a bare StringIO says None)


def zerosum_run(argv: list[str], stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``zerosum ARGV`` run here (``zerosum.cli.main``), ``stdin`` its standard input, its standard output and
    error captured as text: what ``subprocess.run`` of the command would give, without a Python process's start
    (``timeout`` is not enforced here).  In full runs of three workers the output of some calls once went to
    pytest's own capture: a compile in a background thread swapped sys.stdout and sys.stderr (numba's colorama,
    fixed in zerosum.agents.prepare_words.keep_streams), and these tests ran the command in a process of its own."""
    from zerosum.cli import main

    out, err = _Text(), _Text()
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    try:
        code = main(list(argv))
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return subprocess.CompletedProcess(["zerosum", *argv], code, out.getvalue(), err.getvalue())


def write_script(path: Path, text: str) -> Path:
    """``text`` written as the program at ``path`` (a test engine's script), the path."""
    path.write_text(text, encoding="utf-8")
    return path


def rows(db: Path, sql: str) -> list[tuple]:
    """The rows ``sql`` selects from the SQLite file ``db`` (a run's results, a contest's database)."""
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


@contextlib.contextmanager
def small_disk(where: Path, size: str) -> Iterator[Path]:
    """The folder ``where`` (made) on a tmpfs of ``size`` (``"64k"``), unmounted afterwards; the test is skipped
    when this user may not mount one (root and a working mount(8) only)."""
    import pytest

    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a small tmpfs needs root and mount(8)")
    where.mkdir(exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"this machine does not allow mounting a tmpfs: {done.stderr.decode(errors='replace').strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


#: seconds of the cache's filling before the run says so (then every 10 s)
SAY_WARMING = 2.0


def await_parts(parts, say) -> None:
    """Wait for the processes ``parts`` to end; once :data:`SAY_WARMING` seconds have passed, ``say`` a line of
    how long the wait has lasted, then again every 10 s (no silent wait: on a loaded machine the first test may be
    minutes away)."""
    began, said = time.monotonic(), SAY_WARMING
    for part in parts:
        while part.poll() is None:
            time.sleep(0.1)
            waited = time.monotonic() - began
            if waited >= said:
                say(f"zerosum tests: filling numba's cache before the first test (tests/warm_kernels.py; a fresh "
                    f"checkout compiles for about 40 s on two idle cores): {waited:.0f} s")
                said += 10.0
