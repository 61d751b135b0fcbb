"""The results file on disk (:mod:`.store`): its run lock, the errors of the world outside it (a full disk, a
file-size limit, a read-only folder), and reading it where SQLite has no room beside it.

SQLite reads a file in WAL mode through a shared-memory file beside it (``FILE-shm``, 32 KB), which it must
create or extend even to read.  On a full disk that fails, and a command that only reads the results
(``zerosum report``, ``replay``, a record read from it) would say the file "cannot be written".  So a store
opened only to read (no ``create``, no ``lock``) whose opening fails that way reads the file as it is
(SQLite's ``immutable``: no locks, no shared memory) when its write-ahead log is empty or absent: every game is
then in the file itself (the log is emptied when a run ends).  When the log holds games, reading without it
would miss them: the error is said as a reader's (free space, run the command again), not as a writer's.

A run holds its files with an exclusive ``flock`` for its whole life, the results file (:func:`_lock`) and its
record file (``--pgnout``, :func:`hold`), and a second run that would write, replace or carry on one of them is
refused at once, never made to wait: the file is "in use by another run".  A new run takes its results file's
lock before it judges what the file holds (:func:`claim`), so a file another run is still making is in use,
never "not a results file", and two new runs never pick one file.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from pathlib import Path
from typing import Iterator

from ..core.files import shown
from ..core.sqlite_trouble import OUTSIDE, outside
from ..errors import InvalidFileError
from ..spec import printable

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows: no run locks there
    fcntl = None  # type: ignore[assignment]

__all__ = ["Claim", "StorageError", "claim", "hold", "in_use", "lock_file", "read_unchanged"]


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


def _locked(fd: int) -> bool:
    """Whether this process now holds the run lock of the open file ``fd`` (an exclusive ``flock``, apart from
    SQLite's own ``fcntl`` locks); False at once, never a wait, when another run holds it."""
    if fcntl is None:  # pragma: no cover - not on Windows
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def hold(fd: int, path: Path | str, what: str = "results file") -> None:
    """The run lock of ``path``, open as ``fd``, held until ``fd`` is closed; InvalidFileError (``what`` is in use
    by another run) at once when another run holds it (``fd`` is left open: the caller closes it)."""
    if not _locked(fd):
        raise in_use(path, what)


def in_use(path: Path | str, what: str = "results file") -> InvalidFileError:
    """The one line of a file another run holds."""
    return InvalidFileError(f"{what} {shown(path)} is in use by another run: wait for it to end (or stop it) before "
                            "carrying on")


def _lock(path: Path, create: bool, what: str = "results file") -> int | None:
    """An exclusive lock on ``path`` (a ``what``, the results file of a store) until the descriptor returned is
    closed, or InvalidFileError when another run holds it."""
    if fcntl is None:  # pragma: no cover - not on Windows
        return None
    try:
        flags = os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)  # never wait on a FIFO or write through a link
        fd = os.open(path, flags | ((os.O_RDWR | os.O_CREAT) if create else os.O_RDONLY), 0o644)
    except OSError as exc:
        raise InvalidFileError(f"{what} {shown(path)} cannot be opened: {exc.strerror or exc}") from None
    try:
        hold(fd, path, what)
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def lock_file(path: Path, what: str = "results file") -> Iterator[None]:
    """Hold the run lock of an existing file for a moment (InvalidFileError when a run holds it)."""
    fd = _lock(path, False, what) if path.is_file() else None
    try:
        yield
    finally:
        if fd is not None:
            os.close(fd)


class Claim:
    """The run lock of a new run's results file, taken before the file is judged or written (:func:`claim`).

    ``made``: this run made the file (empty).  :attr:`empty`: the file holds no byte, so nothing in it can be
    lost (made here, or found so), and the run may write it in place.  :meth:`lock` hands the lock to the store
    that writes the file; :meth:`close` ends the claim."""

    def __init__(self, path: Path, fd: int, made: bool) -> None:
        self.path, self.made = path, made
        self._fd: int | None = fd
        self._found_empty = os.fstat(fd).st_size == 0
        self._ended = False

    @property
    def empty(self) -> bool:
        return self._fd is not None and os.fstat(self._fd).st_size == 0

    def lock(self) -> int:
        """The lock's descriptor, handed to the store that writes the file, which closes it after SQLite's own
        connection: a descriptor of the file closed while SQLite has it open drops SQLite's locks on it."""
        fd, self._fd = self._fd, None
        assert fd is not None and not self._ended, "the claim was handed on or ended"
        return fd

    def close(self, keep: bool = True) -> None:
        """Ends the claim (at most once): its lock goes, unless handed to a store.  ``keep=False``: the run
        never began, so the file is first put back as it was found: removed when made here, emptied when found
        empty, else left as it is."""
        if self._ended:
            return
        self._ended = True
        with contextlib.suppress(OSError):  # what cannot be put back stays as it is: the error said is the run's
            if not keep and self.made:
                self.path.unlink(missing_ok=True)
            elif not keep and self._found_empty:
                os.truncate(self.path, 0)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _opened(path: Path) -> tuple[int, bool]:
    """``path`` open to take its lock, and whether it was made here: made (empty) when missing, else opened to
    read (a lock needs no write access), never through a link or blocking on a FIFO."""
    flags = os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(3):  # a file removed between the two opens (by a run that made it, then stopped) is made again
        with contextlib.suppress(FileExistsError):
            return os.open(path, flags | os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644), True
        with contextlib.suppress(FileNotFoundError):
            return os.open(path, flags | os.O_RDONLY), False
    raise OSError("another program makes and removes it")


def claim(path: Path) -> Claim | None:
    """The run lock of the results file ``path`` (made, empty, when missing) before anything judges or writes it;
    None when another run holds it.  A path that cannot be opened (no such folder, no permission, a link, ...)
    or is not a regular file is one InvalidFileError line."""
    try:
        fd, made = _opened(path)
    except OSError as exc:
        raise InvalidFileError(f"results file {shown(path)} cannot be opened: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InvalidFileError(f"results file {shown(path)} is not a regular file")
    if not _locked(fd):
        os.close(fd)
        return None
    return Claim(path, fd, made)


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
