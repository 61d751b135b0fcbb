"""A contest's state: one SQLite database, ``DIR/contest.db``, in WAL mode.

Everything a contest knows lives here (the files of submissions sit beside it, under ``DIR/submissions``):

``config(key TEXT PRIMARY KEY, value TEXT)``
    JSON values: ``game`` (spec), ``limits`` ({nodes, move_time, tc}), ``openings`` (move strings),
    ``references`` ([{name, spec}]), ``deadline`` (ISO 8601 UTC or null), ``seed``, ``frozen``, ``created``.
``people(name TEXT PRIMARY KEY, token_hash TEXT UNIQUE NOT NULL, role TEXT NOT NULL)``
    ``role`` is ``student`` or ``teacher``; ``token_hash`` the sha256 hex of the token (the token itself is
    never stored).
``submissions(id, name, created, filename, kind, sha256, path, status, message, ply, active)``
    ``kind`` ``python`` | ``notebook`` | ``program``; ``path`` relative to DIR; ``status`` ``validating`` |
    ``ok`` | ``failed``; ``message`` and ``ply`` the validation's answer; at most one ``active`` row a name, its
    *entry*: its latest submission answered ``ok`` (:data:`ENTRY_IDS`; an upload that fails its check never
    replaces it); every submission kept (the history).
``games(id, stage, pairing, first, second, opening, seed, status, result, reason, moves, record, started,
finished, forfeit)``
    ``stage`` ``ladder`` | ``final``; ``first`` / ``second`` entry ids, ``sub:ID`` or ``ref:NAME``; ``status``
    ``pending`` | ``running`` | ``done``; ``result`` ``1-0`` | ``0-1`` | ``1/2-1/2``; ``forfeit`` 1 when the loser
    forfeited (the ladder's, :mod:`.ladder`; added to an older database when the ladder opens it).

Durability: every change is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) with ``synchronous=FULL``, so
a process killed at any moment (SIGKILL included) loses nothing that was committed, and never leaves half a
change.  Several processes (the server, the ladder's workers) may open the same database: WAL lets readers go
on while one writes, and a writer waits up to :data:`BUSY_SECONDS` for another.  A :class:`Store` may be used
from several threads: each thread gets its own connection.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterator

from ..core.sqlite_trouble import DISK_FULL, outside, sqlite_header
from ..errors import UsageError

__all__ = ["Store", "DB_NAME", "hash_token", "SCHEMA", "BUSY_SECONDS", "storage_problem", "disk_full", "unopenable",
           "ENTRY_IDS", "NOT_TAKEN", "SAME_UPLOAD", "Repeated", "settle_active"]

DB_NAME = "contest.db"
#: how long a writer waits for another process's transaction before giving up
BUSY_SECONDS = 30.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS config (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS people (
    name TEXT PRIMARY KEY, token_hash TEXT UNIQUE NOT NULL, role TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, created REAL NOT NULL, filename TEXT, kind TEXT,
    sha256 TEXT, path TEXT, status TEXT, message TEXT, ply INTEGER, active INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS submissions_name ON submissions(name);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, stage TEXT, pairing TEXT, first TEXT, second TEXT, opening TEXT, seed INTEGER,
    status TEXT, result TEXT, reason TEXT, moves TEXT, record TEXT, started REAL, finished REAL,
    forfeit INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS games_first ON games(first);
CREATE INDEX IF NOT EXISTS games_second ON games(second);
"""


#: each name's entry, what the ladder and the final play: the id of its latest submission answered ``ok`` (a
#: later upload that fails its check, or is still being checked, leaves it in place)
ENTRY_IDS = "SELECT MAX(id) FROM submissions WHERE status = 'ok' GROUP BY name"
#: a name's submission with these bytes (``sha256``, ``kind``) that is being checked or is its entry, latest first:
#: an upload of the same bytes is the same submission again (parameters: name, sha256, kind)
SAME_UPLOAD = ("SELECT id, filename, status FROM submissions WHERE name = ? AND sha256 = ? AND kind = ? AND "
               f"(status = 'validating' OR id IN ({ENTRY_IDS})) ORDER BY id DESC LIMIT 1")
#: the end of a failed submission's message when an earlier one of its author stays their entry
NOT_TAKEN = "This upload was not taken: your submission {id} ({filename}) still plays"


class Repeated(Exception):
    """An upload not added: its bytes are those of ``row`` (id, filename, status), its author's submission being
    checked or their entry (:data:`SAME_UPLOAD`)."""

    def __init__(self, row: dict[str, Any]) -> None:
        super().__init__(f"the same file as submission {row['id']}")
        self.row = row


def settle_active(db: sqlite3.Connection, name: str | None = None) -> None:
    """Mark ``active`` each name's entry (:data:`ENTRY_IDS`) and nothing else, for ``name`` (else everyone), in
    the caller's transaction; a database of an older zerosum, where a failed upload was made active, is set right
    so."""
    where, params = (" AND name = ?", (name,)) if name is not None else ("", ())
    db.execute(f"UPDATE submissions SET active = (id IN ({ENTRY_IDS})) WHERE active != (id IN ({ENTRY_IDS}))"
               + where, params)


def disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` says the disk is full or a file-size limit was reached (or SQLite's I/O error, which is
    how a write that fails so reaches it)."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
    return outside(exc) in DISK_FULL


def storage_problem(exc: BaseException) -> str | None:
    """What is wrong, one line, when ``exc`` is the disk's or the folder's failure (full, a file-size limit, an
    I/O error, no permission, a lock held) rather than a damaged or foreign database; None otherwise."""
    if isinstance(exc, OSError):
        what = exc.strerror or str(exc)
    elif outside(exc) is not None:  # zerosum.core.sqlite_trouble
        what = " ".join(str(exc).split())
    else:
        return None
    if disk_full(exc):
        return f"{what}: the disk is full, or a file-size limit was reached"
    return what


def unopenable(where: str, trouble: str) -> str:
    """The line for a contest database that the disk or the folder keeps from opening (not a damaged one)."""
    return (f"{where} cannot be opened ({trouble[:200]}); the database itself is not damaged by this: free some "
            "space on its disk (or give its folder back its permissions) and start again")


def hash_token(token: str) -> str:
    """The sha256 hex of a token: what the store keeps instead of it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Store:
    """The database of the contest in ``directory`` (``create=True`` makes the schema; otherwise the database
    must exist, and is checked before anything else: a UsageError line names what is wrong, see
    :meth:`_check`)."""

    def __init__(self, directory: str | Path, *, create: bool = False) -> None:
        self.directory = Path(directory)
        self.path = self.directory / DB_NAME
        if not create and not self.path.is_file():
            raise UsageError(f"{str(self.directory)[:120]!r} is not a contest folder (no {DB_NAME}): make one with "
                             "`zerosum contest new`")
        self._local = threading.local()
        if create:
            self.connection().executescript("BEGIN IMMEDIATE;" + SCHEMA + "COMMIT;")
        else:
            self._check()

    def _check(self) -> None:
        """One UsageError line, before any change, for a database that is not a readable contest's (empty,
        not SQLite, damaged, tables missing), a config value that is not what the contest needs, or a reference
        whose file is gone (:mod:`.checks`)."""
        from .checks import TABLES, check_config, check_reference_files

        where = str(self.directory / DB_NAME)
        if not os.access(self.path, os.R_OK):  # never open() it: closing that would drop SQLite's locks (checks)
            raise UsageError(unopenable(where, os.strerror(errno.EACCES)))
        try:
            why = sqlite_header(self.path)  # before the WAL pragma: an empty file would become a database
        except sqlite3.Error as exc:
            raise UsageError(unopenable(where, storage_problem(exc) or str(exc))) from None
        if why is None:
            try:
                db = self.connection()
                found = [row[0] for row in db.execute("PRAGMA quick_check(1)")]
                tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                missing = [t for t in TABLES if t not in tables]
                if found != ["ok"]:
                    why = " ".join(str(found[0] if found else "no answer").replace("*** in database main ***", "")
                                   .split())[:200]
                elif missing:
                    why = f"no table {', '.join(missing)}"
                else:
                    rows = [(row[0], row[1]) for row in db.execute("SELECT key, value FROM config")]
            except sqlite3.Error as exc:
                trouble = storage_problem(exc)
                if trouble is not None:  # the disk or the folder, not the file: no advice to make it again
                    self.close()
                    raise UsageError(unopenable(where, trouble)) from None
                why = " ".join(str(exc).split())[:200]
        if why is not None:
            self.close()
            raise UsageError(f"{where} is not a readable contest database ({why}): restore it from a backup, "
                             "or make the contest again")
        try:
            config = check_config(rows, where)
            check_reference_files(config, self.directory, where)
        except UsageError:
            self.close()
            raise

    # -- connections and transactions ------------------------------------------------------------------
    def connection(self) -> sqlite3.Connection:
        """This thread's connection (autocommit: changes go through :meth:`transaction`)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic change: committed when the block ends, rolled back when it raises."""
        db = self.connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except sqlite3.Error:  # a full disk: the change is not made, and the connection stays usable
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """A read query's rows as dicts."""
        return [dict(row) for row in self.connection().execute(sql, params)]

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    # -- config ----------------------------------------------------------------------------------------
    def set_config(self, **values: Any) -> None:
        """Store each keyword as a JSON value, in one transaction."""
        with self.transaction() as db:
            db.executemany("INSERT OR REPLACE INTO config(key, value) VALUES (?, ?)",
                           [(key, json.dumps(value)) for key, value in values.items()])

    def config(self) -> dict[str, Any]:
        """Every config value, decoded."""
        return {row["key"]: json.loads(row["value"]) for row in self.rows("SELECT key, value FROM config")}

    def get(self, key: str, default: Any = None) -> Any:
        row = self.connection().execute("SELECT value FROM config WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    # -- people ----------------------------------------------------------------------------------------
    def add_people(self, people: list[tuple[str, str, str]]) -> None:
        """Add ``(name, token, role)`` rows at once (only each token's hash is stored)."""
        with self.transaction() as db:
            db.executemany("INSERT INTO people(name, token_hash, role) VALUES (?, ?, ?)",
                           [(name, hash_token(token), role) for name, token, role in people])

    def person(self, token: str) -> tuple[str, str] | None:
        """``(name, role)`` of whoever holds ``token``, or None."""
        row = self.connection().execute("SELECT name, role FROM people WHERE token_hash = ?",
                                        (hash_token(token),)).fetchone()
        return None if row is None else (row["name"], row["role"])

    def people(self, role: str | None = None) -> list[str]:
        """Names, in order, of everyone (or of one role)."""
        if role is None:
            return [r["name"] for r in self.rows("SELECT name FROM people ORDER BY name")]
        return [r["name"] for r in self.rows("SELECT name FROM people WHERE role = ? ORDER BY name", (role,))]

    # -- submissions -----------------------------------------------------------------------------------
    def add_submission(self, name: str, filename: str, kind: str, sha256: str, path: str,
                       created: float | None = None, *, once: bool = False) -> int:
        """A new submission, status ``validating``, not active (the name's entry stays what it was until this one
        is answered ``ok``: :meth:`set_status`); its id.  ``once``: unless the name has a submission of these bytes
        being checked or as its entry (:data:`SAME_UPLOAD`): then nothing is added and :class:`Repeated` names it.
        The look and the insert are one transaction (``BEGIN IMMEDIATE``: one writer at a time, across threads and
        processes), so of two identical uploads at once the second finds the first."""
        with self.transaction() as db:
            same = db.execute(SAME_UPLOAD, (name, sha256, kind)).fetchone() if once else None
            if same is not None:
                raise Repeated(dict(same))
            cursor = db.execute(
                "INSERT INTO submissions(name, created, filename, kind, sha256, path, status, active) "
                "VALUES (?, ?, ?, ?, ?, ?, 'validating', 0)",
                (name, time.time() if created is None else created, filename, kind, sha256, path))
            return int(cursor.lastrowid or 0)

    def set_status(self, submission: int, status: str, message: str | None = None, ply: int | None = None) -> None:
        """A submission's validation answer, in one transaction with its name's entry (:func:`settle_active`):
        ``ok`` makes it the entry (unless a later one is ok already); a failure leaves the entry as it was, and its
        message then ends by saying so (:data:`NOT_TAKEN`)."""
        with self.transaction() as db:
            row = db.execute("SELECT name FROM submissions WHERE id = ?", (submission,)).fetchone()
            if row is not None and status == "failed":
                entry = db.execute(f"SELECT id, filename FROM submissions WHERE name = ? AND id != ? AND id IN "
                                   f"({ENTRY_IDS})", (row[0], submission)).fetchone()
                if entry is not None:
                    note = NOT_TAKEN.format(id=entry[0], filename=entry[1])
                    message = f"{(message or 'failed').rstrip('. ')}. {note}"
            db.execute("UPDATE submissions SET status = ?, message = ?, ply = ? WHERE id = ?",
                       (status, message, ply, submission))
            if row is not None:
                settle_active(db, str(row[0]))

    def submission(self, submission: int) -> dict[str, Any] | None:
        found = self.rows("SELECT * FROM submissions WHERE id = ?", (submission,))
        return found[0] if found else None

    def submissions(self, name: str | None = None) -> list[dict[str, Any]]:
        """Every submission (or one person's), newest first."""
        if name is None:
            return self.rows("SELECT * FROM submissions ORDER BY id DESC")
        return self.rows("SELECT * FROM submissions WHERE name = ? ORDER BY id DESC", (name,))

    def active(self) -> list[dict[str, Any]]:
        """Each person's active submission (their entry: the latest answered ``ok``), in name order."""
        return self.rows("SELECT * FROM submissions WHERE active = 1 ORDER BY name")

    def same_upload(self, name: str, sha256: str, kind: str) -> dict[str, Any] | None:
        """``name``'s submission of these bytes being checked or as their entry (:data:`SAME_UPLOAD`), or None."""
        found = self.rows(SAME_UPLOAD, (name, sha256, kind))
        return found[0] if found else None

    def recent_uploads(self, name: str, since: float) -> int:
        """How many submissions ``name`` made since ``since`` (seconds since the epoch)."""
        row = self.connection().execute("SELECT COUNT(*) FROM submissions WHERE name = ? AND created >= ?",
                                        (name, since)).fetchone()
        return int(row[0])

    # -- games -----------------------------------------------------------------------------------------
    def games(self, entries: list[str] | None = None, stage: str | None = None) -> list[dict[str, Any]]:
        """Games (those where one of ``entries`` plays, of one ``stage``), newest first."""
        sql, params = "SELECT * FROM games WHERE 1", []
        if entries is not None:
            marks = ",".join("?" * len(entries)) or "NULL"
            sql += f" AND (first IN ({marks}) OR second IN ({marks}))"
            params += entries + entries
        if stage is not None:
            sql += " AND stage = ?"
            params.append(stage)
        return self.rows(sql + " ORDER BY id DESC", tuple(params))

    def game(self, game: int) -> dict[str, Any] | None:
        found = self.rows("SELECT * FROM games WHERE id = ?", (game,))
        return found[0] if found else None
