"""SQLite's errors that tell of the world outside a database -- a full disk, a file-size limit, a failing disk,
a read-only file or folder, a lock another program holds -- as opposed to a damaged or foreign file.  Both of
zerosum's databases (the arena's results file, the contest's) answer the first kind "not damaged: free space",
and only the second "damaged"; this is where the two kinds are told apart."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

__all__ = ["outside", "sqlite_header", "OUTSIDE", "DISK_FULL"]

#: SQLite's primary result codes (sqlite3.h) of the world outside the file: code -> (the first words of its
#: message, for an error without ``sqlite_errorcode``; what it means)
OUTSIDE = {
    13: ("database or disk is full", "the disk is full (or a file-size limit)"),
    10: ("disk i/o error", "the disk is full (or a file-size limit) or failing (disk I/O error)"),
    8: ("attempt to write a readonly", "the file or its folder is read-only (SQLite writes FILE-wal, -shm)"),
    5: ("database is locked", "another program holds a lock on it"),
    6: ("database table is locked", "another connection holds a lock on it"),
    14: ("unable to open database", "it cannot be opened (a folder not writable, or no file descriptors)"),
    3: ("access permission denied", "no permission to it or its folder"),
    7: ("out of memory", "the machine is out of memory"),
}
#: the codes a full disk or a file-size limit reaches SQLite as (a failed write is an I/O error)
DISK_FULL = (13, 10)


def outside(exc: BaseException) -> int | None:
    """The primary result code of an SQLite error of the world outside the file (:data:`OUTSIDE`), else None
    (a damaged file, one that is no database, text that is not UTF-8, a programming error)."""
    if not isinstance(exc, sqlite3.Error):
        return None
    code: Any = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF if code & 0xFF in OUTSIDE else None
    text = str(exc).lower()
    return next((number for number, (words, _) in OUTSIDE.items() if text.startswith(words)), None)


def sqlite_header(path: Path) -> str | None:
    """Why ``path`` cannot be an SQLite database (empty, another file), or None, asked of SQLite itself (a
    connection that only reads, closed at once: an empty file stays empty); the file is never opened as a plain
    file here, because closing any descriptor of a file drops every POSIX lock this process holds on it, the
    ones of SQLite's other connections to it included (a live server's, a run's, whose -wal and -shm another
    process would then delete under it).  An error of the disk or the folder (:func:`outside`)
    is raised, as sqlite3.Error."""
    try:
        db = sqlite3.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True, timeout=30.0,
                             isolation_level=None)  # read only: a file that is not there is not made
    except sqlite3.Error as exc:
        if outside(exc) is not None:
            raise
        return f"it cannot be read: {' '.join(str(exc).split())[:200]}"
    try:
        pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        if outside(exc) is not None:
            raise
        return "the file is not an SQLite database"
    finally:
        db.close()
    return "the file is empty" if pages == 0 else None
