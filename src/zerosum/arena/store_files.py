"""The results file on disk (:mod:`.store`): its run lock, the errors of the world outside it (a full disk, a
file-size limit, a read-only folder), and reading it where SQLite has no room beside it.

SQLite reads a file in WAL mode through a shared-memory file beside it (``FILE-shm``, 32 KB), which it must
create or extend even to read.  On a full disk that fails, and a command that only reads the results
(``zerosum report``, ``replay``, a record read from it) would say the file "cannot be written".  So a store
opened only to read (no ``create``, no ``lock``) whose opening fails that way reads the file as it is
(SQLite's ``immutable``: no locks, no shared memory) when its write-ahead log is empty or absent: every game is
then in the file itself (the log is emptied when a run ends).  When the log holds games, reading without it
would miss them: the error is said as a reader's (free space, run the command again), not as a writer's.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Iterator

from ..core.files import shown
from ..core.sqlite_trouble import OUTSIDE, outside
from ..errors import InvalidFileError
from ..spec import printable

__all__ = ["StorageError", "lock_file", "read_unchanged"]


class StorageError(InvalidFileError):
    """A results file SQLite could not write or open for a reason outside it (a full disk, ...): not damaged."""

    def __init__(self, name: str, problem: str) -> None:
        super().__init__(f"results file {shown(name)} cannot be written: {problem}: it is not damaged; free space "
                         "(or remove the cause) and carry on with --resume")
        self.problem = problem


#: SQLite's extended codes of an I/O error in reading a file (sqlite3.h), and what each says happened: no full
#: disk (nothing is written to read a file), no cause to free space
_READ_ERRORS = {
    266: "the device failed a read (SQLITE_IOERR_READ)",
    522: "the file ended before the data it promised (SQLITE_IOERR_SHORT_READ)",
    1802: "its size and kind could not be asked (SQLITE_IOERR_FSTAT)",
    5642: "a seek in it failed (SQLITE_IOERR_SEEK)",
    6154: "mapping it into memory failed (SQLITE_IOERR_MMAP)",
    8458: "a read fell outside what the file holds: a special file such as /proc's, or a damaged file system "
          "(SQLITE_IOERR_CORRUPTFS)",
}


def _failed(name: str, exc: sqlite3.Error, otherwise: str) -> InvalidFileError:
    """A StorageError when SQLite's error is of the world outside the file (:mod:`zerosum.core.sqlite_trouble`),
    else InvalidFileError(otherwise) (a damaged file, one that is no database, text that is not UTF-8); an
    I/O error in reading it is said as what it is, one InvalidFileError line (no full disk, no free space)."""
    read = _READ_ERRORS.get(getattr(exc, "sqlite_errorcode", None))  # type: ignore[arg-type]
    if read is not None:
        return InvalidFileError(f"results file {shown(name)} cannot be read: an I/O error in reading it: {read}")
    code = outside(exc)
    return InvalidFileError(otherwise) if code is None else StorageError(name, OUTSIDE[code][1])


def _said(exc: BaseException) -> str:
    """SQLite's message on one line; quoted as repr does, bounded, when it quotes the file's own text."""
    return printable(" ".join(str(exc).split()), 200)


def _lock(path: Path, create: bool) -> int | None:
    """An exclusive lock on the results file for this process's lifetime of the store, or InvalidFileError
    when another run holds it.  ``flock`` locks are apart from SQLite's own (``fcntl``) locks."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Windows
        return None
    try:
        flags = os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)  # never wait on a FIFO or write through a link
        fd = os.open(path, flags | ((os.O_RDWR | os.O_CREAT) if create else os.O_RDONLY), 0o644)
    except OSError as exc:
        raise InvalidFileError(f"results file {shown(path)} cannot be opened: {exc.strerror or exc}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise InvalidFileError(f"results file {shown(path)} is in use by another run: "
                               "wait for it to end (or stop it) before carrying on") from None
    return fd


@contextlib.contextmanager
def lock_file(path: Path) -> Iterator[None]:
    """Hold the run lock of an existing file for a moment (InvalidFileError when a run holds it)."""
    fd = _lock(path, False) if path.is_file() else None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)


def read_unchanged(path: Path, failed: StorageError) -> sqlite3.Connection:
    """A connection that reads ``path`` as it is, without locks or shared memory, when its write-ahead log is
    empty (see the module doc); else ``failed`` said as a reader's error (InvalidFileError, one line)."""
    wal = Path(str(path) + "-wal")
    try:
        pending = wal.stat().st_size > 0
    except FileNotFoundError:
        pending = False
    except OSError:
        pending = True
    unread = InvalidFileError(f"results file {shown(path)} cannot be read here: {failed.problem}: it is not damaged; "
                              "free space (or remove the cause) and run the command again")
    if pending:
        raise unread
    try:
        return sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True, timeout=30.0)
    except sqlite3.Error:
        raise unread from None
