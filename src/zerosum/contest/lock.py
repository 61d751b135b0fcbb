"""One process at a time plays a contest's games: an exclusive lock on ``DIR/server.lock``.

The games' ``running`` marks mean "being played by the process that holds the lock": only the holder may set
them back to ``pending`` (after a kill) or claim games, so two processes never play the same game.  The
server's ladder (:mod:`.ladder`) holds the lock for its life, the final (:mod:`.final`) for its run, and
``contest new --overwrite`` checks it before replacing a contest.

The lock is ``flock`` on the file (its descriptor is not inherited by the processes the holder starts): the
kernel releases it when the holder ends, however it ends (``kill -9`` included), so a stale lock never stays.
The file holds the holder's pid and role (``serve`` or ``final``), for the message of the process refused.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from ..errors import UsageError

__all__ = ["FolderBusy", "FolderLock", "claim", "holder", "LOCK_NAME"]

LOCK_NAME = "server.lock"
_WHAT = {"serve": "a server is serving", "final": "a final is running on"}


class FolderBusy(UsageError):
    """Another process holds the contest's lock (one line naming it and its pid)."""


class FolderLock:
    """The held lock of one contest folder; :meth:`release` (or the process's end) lets it go."""

    def __init__(self, directory: Path, fd: int) -> None:
        self.directory, self._fd = directory, fd

    def release(self) -> None:
        fd, self._fd = self._fd, -1
        if fd >= 0:
            os.close(fd)  # closing the only descriptor of the open file releases the flock

    @property
    def held(self) -> bool:
        return self._fd >= 0


def _read(fd: int) -> tuple[int | None, str]:
    try:
        words = os.pread(fd, 100, 0).decode("ascii", "replace").split()
    except OSError:
        return None, "serve"
    pid = int(words[0]) if words and words[0].isdigit() else None
    return pid, words[1] if len(words) > 1 and words[1] in _WHAT else "serve"


def busy_message(directory: str | Path, pid: int | None, role: str) -> str:
    """``another server is serving the contest in DIR (pid N)``."""
    what = _WHAT.get(role, _WHAT["serve"]).replace("a ", "another ", 1)
    return f"{what} the contest in {directory}" + (f" (pid {pid})" if pid else "")


def claim(directory: str | Path, role: str = "serve") -> FolderLock:
    """Take the lock of the contest folder ``directory`` for ``role`` (``serve`` or ``final``), without
    waiting; :class:`FolderBusy` (one line: who holds it, its pid) when another process holds it."""
    folder = Path(directory)
    try:
        fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise UsageError(f"cannot lock the contest in {directory}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        pid, other = _read(fd)
        os.close(fd)
        raise FolderBusy(busy_message(directory, pid, other)) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()} {role}\n".encode("ascii"), 0)
    return FolderLock(folder, fd)


def holder(directory: str | Path) -> tuple[int | None, str] | None:
    """``(pid, role)`` of the process that holds the folder's lock now, or None when nobody does."""
    path = Path(directory) / LOCK_NAME
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            return _read(fd)
        return None
    finally:
        os.close(fd)
