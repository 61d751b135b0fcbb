"""Results in SQLite: the run's configuration, its plan of games, and every finished game.

Tables:

- ``meta(key, value)``: ``config`` (JSON: game, agents, games, seed, limits, ...), ``schema``, ``sprt``
  (the decision, once made), ``pgnout`` (the run's record file, relative to this file's folder, which
  ``--resume`` goes on writing), ``versions`` (the zerosum that began the run and each other version that
  resumed it, with the games stored before it: :meth:`Store.versions`);
- ``agents(id, label, spec)``;
- ``plan(idx, round, pairing, first, second, opening, seed)``: every game the run will play, fixed from
  the seed before the first move, so a resumed run plays exactly the games still missing;
- ``games(idx, ...)``: one row per finished game, written (and committed) the moment it ends.  ``idx`` is
  the primary key, so no game can be stored twice.  Schema 2 added ``exacts`` (whether each move's value
  is a proof); a file of schema 1 is read as it is (no value proven) and upgraded by the first game a
  ``--resume`` stores.  The 0 nodes its zerosum stored for a move nothing counted are read as None
  (:func:`~.store_schema.older_reader`), in an upgraded file too (its older games keep ``exacts`` ``[]``).

The file is opened in WAL mode: a process killed at any moment leaves every committed game intact.
A run holds an exclusive lock on its file (``flock``), so a second run on the same file is refused.
The schema and the records of its rows are :mod:`zerosum.arena.store_schema`.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..core.files import shown
from ..core.sqlite_trouble import sqlite_header
from ..core.version import __version__
from ..errors import InvalidFileError
from ..spec import quoted, unshowable, visible
from .store_files import Claim, StorageError, _failed, _lock, _said, lock_file, read_unchanged
from .store_schema import (_EXACTS, _RESULTS, _SCHEMA, _TABLES, SCHEMA_VERSION, VERSIONS, GameRecord, PlannedGame,
                           _number, older_reader, read_versions)

__all__ = ["Store", "PlannedGame", "GameRecord", "SCHEMA_VERSION", "lock_file", "StorageError"]


class Store:
    """One results file.

    Opening an existing file checks it first (an SQLite database, undamaged, with this module's tables and
    columns); anything else is one :class:`~zerosum.errors.InvalidFileError` line, and the file is left as
    it was.  ``lock=True`` holds an exclusive lock while the store is open, so two runs never write one file
    (the second is refused at once); ``lock`` a :class:`~.store_files.Claim` of the file: that lock, taken
    before.  Every SQLite error later on is an ``InvalidFileError`` too.
    """

    def __init__(self, path: str | Path, create: bool = False, lock: bool | Claim = False) -> None:
        self.path = Path(path)
        self.schema = SCHEMA_VERSION
        self._noted = False  # this zerosum's version is in the file's (:meth:`_note_version`)
        self._lock_fd: int | None = None
        self.db: sqlite3.Connection | None = None
        name = str(path)
        checked = False
        if not create:
            from ..core.files import _readable

            _readable(self.path, "results file")  # missing, a directory, a FIFO, a device: one line each
            checked = self._check_first()  # a file that is none: refused before SQLite makes FILE-wal, -shm
            try:  # asked of SQLite: a plain open and close would drop this process's other connections' locks
                why = sqlite_header(self.path)
            except sqlite3.Error as exc:
                failed = _failed(name, exc, f"results file {shown(name)} cannot be read ({_said(exc)})")
                if not isinstance(failed, StorageError) or lock:
                    raise failed from None
                self._open_unchanged(failed)  # only reading: without room beside it (a full disk)
                return
            if why is not None:  # empty, another kind of file, or unreadable
                said = {"the file is empty": "an empty file", "the file is not an SQLite database":
                        "not an SQLite database"}.get(why, why)
                raise InvalidFileError(f"{shown(name)} is not a zerosum results file ({said})")
        try:
            if lock:
                self._lock_fd = lock.lock() if isinstance(lock, Claim) else _lock(self.path, create)
            self.db = sqlite3.connect(str(self.path), timeout=30.0)
            if create:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.executescript(_SCHEMA)
                if "exacts" not in self._columns("games"):  # an empty results file of schema 1
                    self.db.execute(_EXACTS)
            else:
                if not checked:
                    self._check()
                self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            self.close()  # a full disk, a lock, a read-only folder is no fault of the file
            failed = _failed(name, exc, f"{shown(name)} is not a zerosum results file ({_said(exc)})")
            if not isinstance(failed, StorageError) or create or lock:
                raise failed from None
            self._open_unchanged(failed)  # only reading: without room beside it (a full disk)
        except BaseException:
            self.close()
            raise

    def _check_first(self) -> bool:
        """Whether the file was checked (:meth:`_check`) as it is, on a connection that only reads it and makes
        nothing beside it (SQLite's ``immutable``), before any other connection: a file whose header says WAL
        gets FILE-wal and FILE-shm from the first connection that reads it, even one that only reads, so a
        damaged or foreign file is refused here having made nothing.  Done only when there is no FILE-wal: the
        file then holds all there is, and no connection has it open (one that has keeps FILE-wal, and its
        locks, which closing another descriptor of the file here would drop); False when not done, or when
        SQLite cannot even open it (said below)."""
        if os.path.lexists(f"{self.path}-wal"):
            return False
        name = str(self.path)
        try:
            self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?immutable=1", uri=True, timeout=30.0)
            if int(self.db.execute("PRAGMA page_count").fetchone()[0]) == 0:
                raise InvalidFileError(f"{shown(name)} is not a zerosum results file (an empty file)")
            self._check()
        except sqlite3.DatabaseError as exc:
            failed = _failed(name, exc, f"{shown(name)} is not a zerosum results file ({_not_sqlite(exc)})")
            if isinstance(failed, StorageError):
                return False  # the world outside the file: said by the opening below, as it always was
            raise failed from None
        except sqlite3.Error:
            return False
        finally:
            if self.db is not None:
                self.db.close()
                self.db = None
        return True

    def _open_unchanged(self, failed: StorageError) -> None:
        """Open the file only to read it as it is (:func:`.store_files.read_unchanged`), checked."""
        self.db = read_unchanged(self.path, failed)
        try:
            self._check()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise InvalidFileError(f"{shown(self.path)} is not a zerosum results file ({_said(exc)})") from None
        except BaseException:
            self.close()
            raise

    def _check(self) -> None:
        """Refuse a damaged file, or one without this module's tables."""
        name = str(self.path)
        rows = self._db.execute("PRAGMA quick_check").fetchall()
        if rows != [("ok",)]:
            raise InvalidFileError(f"results file {shown(name)} is damaged ({_first(rows)})")
        if not self._columns("meta"):
            raise InvalidFileError(f"{shown(name)} is not a zerosum results file (it has no table 'meta')")
        schema = self.meta("schema")
        if schema is None:
            raise InvalidFileError(f"{shown(name)} is not a zerosum results file (no schema version)")
        if schema not in (1, SCHEMA_VERSION) or type(schema) is not int:
            raise InvalidFileError(f"results file {shown(name)} has schema {quoted(schema)}; this zerosum reads 1 and "
                                   f"{SCHEMA_VERSION}")
        for table, columns in _TABLES.items():
            have = self._columns(table)
            if not have:
                raise InvalidFileError(f"{shown(name)} is not a zerosum results file (it has no table {table!r})")
            if have != (columns[:-1] if table == "games" and schema == 1 else columns):
                raise InvalidFileError(f"{shown(name)} is not a zerosum results file (table {table!r} has the "
                                       f"columns {quoted(', '.join(have), 200)})")
        self.schema = schema

    def _columns(self, table: str) -> list[str]:
        return [r[1] for r in self._db.execute(f"PRAGMA table_info({table})")]

    @property
    def _db(self) -> sqlite3.Connection:
        if self.db is None:
            raise InvalidFileError(f"results file {shown(self.path)} is closed")
        return self.db

    def _bad(self, what: str) -> InvalidFileError:
        return InvalidFileError(f"results file {shown(self.path)}: {what}")

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the lock
            self._lock_fd = None

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _sql(self) -> Iterator[sqlite3.Connection]:
        """The connection, with any SQLite error turned into one InvalidFileError line (a StorageError for a
        full disk, a lock, ...: the file is not damaged), the file's own text in it made safe to print."""
        try:
            yield self._db
        except sqlite3.DatabaseError as exc:
            raise _failed(str(self.path), exc, str(self._bad(_said(exc)))) from None

    # ---- meta, agents, plan -------------------------------------------------------------------------

    def meta(self, key: str) -> Any:
        with self._sql() as db:
            row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return json.loads(row[0])
        except (TypeError, ValueError, RecursionError):  # nested past the parser's depth: not JSON it reads
            raise self._bad(f"the stored {key!r} is not JSON") from None

    def set_meta(self, key: str, value: Any) -> None:
        with self._sql() as db, db:
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    def is_empty(self) -> bool:
        return self.meta("config") is None

    def initialise(self, config: dict[str, Any], labels: list[tuple[str, str]], plan: Iterable[PlannedGame]) -> None:
        """Write the configuration, the agents and the plan of a new run, all in one transaction."""
        with self._sql() as db, db:
            for table in ("games", "plan", "agents", "meta"):
                db.execute(f"DELETE FROM {table}")
            db.execute("INSERT INTO meta VALUES ('schema', ?)", (json.dumps(SCHEMA_VERSION),))
            db.execute("INSERT INTO meta VALUES ('config', ?)", (json.dumps(config),))
            db.execute("INSERT INTO meta VALUES ('created', ?)", (json.dumps(time.time()),))
            db.execute("INSERT INTO meta VALUES (?, ?)", (VERSIONS, json.dumps([[__version__, 0]])))
            db.executemany("INSERT INTO agents VALUES (?, ?, ?)", [(i, l, s) for i, (l, s) in enumerate(labels)])
            db.executemany(
                "INSERT INTO plan VALUES (?, ?, ?, ?, ?, ?, ?)",
                ((g.idx, g.round, g.pairing, g.first, g.second, g.opening, g.seed) for g in plan),
            )
        self._noted = True

    def versions(self) -> list[tuple[str | None, int]] | None:
        """Which zerosum wrote the run: ``(version, games stored before it)`` for the one that began it, then
        for each other version that resumed it (``[("0.1.0", 0)]``; a version None: a zerosum that kept none
        began it, and a later one resumed it); None when the file keeps none (an older zerosum wrote it)."""
        try:
            return read_versions(self.meta(VERSIONS))
        except InvalidFileError:  # not JSON: as good as none
            return None

    def _note_version(self, db: sqlite3.Connection) -> None:
        """This zerosum's version after the file's, in the transaction of the first game it stores, when it is
        not the last one there (a run resumed by another version, or by any when an older zerosum began it)."""
        versions = self.versions() or [(None, 0)]
        if versions[-1][0] != __version__:
            versions.append((__version__, int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])))
            db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (VERSIONS, json.dumps(versions)))

    def agents(self) -> list[tuple[str, str]]:
        with self._sql() as db:
            rows = db.execute("SELECT label, spec FROM agents ORDER BY id").fetchall()
        if not all(isinstance(l, str) and isinstance(s, str) for l, s in rows):
            raise self._bad("its agents table holds something other than names")
        for text in (t for row in rows for t in row):  # shown in tables: no ESC, bidi override, line break; a
            if why := unshowable(text):  # joiner is kept (an emoji's, a Persian name's): spec.unshowable
                raise self._bad(f"its agents table holds the name {quoted(text)}, with {why}")
        return [(l, s) for l, s in rows]

    def plan(self) -> list[PlannedGame]:
        with self._sql() as db:
            rows = db.execute("SELECT idx, round, pairing, first, second, opening, seed FROM plan ORDER BY idx").fetchall()
        for row in rows:
            if not all(type(v) is int for v in row[:5]) or type(row[6]) is not int or not isinstance(row[5], str):
                raise self._bad(f"planned game {quoted(row[0])} is malformed")
        return [PlannedGame(*row) for row in rows]

    # ---- games ------------------------------------------------------------------------------------

    def add_game(self, rec: GameRecord) -> None:
        """Store one finished game and commit at once (a second copy of a game is refused).  A file of
        schema 1 is upgraded first, in the same transaction."""
        with self._sql() as db, db:
            if self.schema == 1:
                db.execute(_EXACTS)
                db.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (json.dumps(SCHEMA_VERSION),))
            if not self._noted:
                self._note_version(db)
            db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rec.idx, rec.result, rec.winner, visible(rec.reason), int(rec.forfeit), json.dumps(rec.moves),
                    json.dumps(rec.times), json.dumps(rec.nodes), json.dumps(rec.vals), json.dumps(rec.depths),
                    rec.duration, rec.finished or time.time(), json.dumps([e is True for e in rec.exacts]),
                ),
            )
        self.schema = SCHEMA_VERSION
        self._noted = True

    def done(self) -> set[int]:
        with self._sql() as db:
            return {row[0] for row in db.execute("SELECT idx FROM games")}

    def games(self) -> Iterator[GameRecord]:
        """Every stored game in order; a malformed row is an InvalidFileError naming the game.  A game an older
        zerosum stored (schema 1: its ``exacts`` ``[]``, moves played) has the 0 nodes of moves nothing counted,
        and an engine's 0 value and depth, read as None (:func:`~.store_schema.older_reader`), when no zerosum
        that keeps its version began the run."""
        versions = self.versions()
        older = versions is None or versions[0][0] is None
        read: Any = None
        with self._sql() as db:
            rows = db.execute(
                "SELECT idx, result, winner, reason, forfeit, moves, times, nodes, vals, depths, duration, finished, "
                + ("exacts" if self.schema > 1 else "'[]'") + " FROM games ORDER BY idx"
            )
            for r in rows:
                rec = self._record(r)
                if older and rec.moves and not rec.exacts and 0 in (*rec.nodes, *rec.vals, *rec.depths):
                    if read is None:
                        read = older_reader(self.meta("config"), [s for _, s in self.agents()],
                                            {g.idx: g for g in self.plan()}, self.meta("engines"))
                    read(rec)
                yield rec

    def _record(self, r: tuple[Any, ...]) -> GameRecord:
        idx = r[0]
        lists = []
        for name, text in zip(("moves", "times", "nodes", "vals", "depths", "exacts"), (*r[5:10], r[12])):
            try:
                value = json.loads(text)
            except (TypeError, ValueError, RecursionError):
                raise self._bad(f"game {quoted(idx)}: its {name} are not JSON") from None
            if not isinstance(value, list):
                raise self._bad(f"game {quoted(idx)}: its {name} are not a list")
            lists.append(value)
        moves, times, nodes, vals, depths, exacts = lists
        ok = (
            type(idx) is int and r[1] in _RESULTS and (r[2] is None or type(r[2]) is int) and isinstance(r[3], str)
            and r[4] in (0, 1) and all(isinstance(m, str) for m in moves)
            and len(times) == len(nodes) == len(vals) == len(depths) == len(moves)
            and all(_number(t) for t in times) and all(v is None or _number(v) for v in (*nodes, *vals, *depths))
            and _number(r[10]) and _number(r[11])
            and len(exacts) in (0, len(moves)) and all(type(e) is bool for e in exacts)
        )
        if not ok:
            raise self._bad(f"game {quoted(idx)} is malformed")
        return GameRecord(idx, r[1], r[2], r[3], bool(r[4]), moves, times, nodes, vals, depths, r[10], r[11], exacts)

    def count(self) -> int:
        with self._sql() as db:
            return int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def _not_sqlite(exc: BaseException) -> str:
    """SQLite's words for a file that is not a database, as the other checks say it."""
    said = _said(exc)
    return "not an SQLite database" if said == "file is not a database" else said


def _first(rows: list[Any]) -> str:
    """SQLite's first complaint, on one line."""
    text = str(rows[0][0]) if rows and rows[0] else "no answer"
    return " ".join(text.replace("*** in database main ***", "").split())
