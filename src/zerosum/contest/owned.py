"""What ``zerosum contest new DIR --overwrite`` may delete: only what is provably the contest's own.

A folder holds a contest when its ``contest.db`` opens (only read: unchanged) as a contest's database: an
SQLite file with the contest's tables.  Without one, files named as a contest's (``submissions/``,
``references/``, ``tokens.csv``, ``results.csv``, ...) are the user's, whatever their names: ``contest new``
refuses the folder, one line naming what is in the way, with or without ``--overwrite``, and deletes nothing.

With one, ``--overwrite`` replaces the contest's files: the database and its ``-wal``/``-shm``, ``tokens.csv``,
``results.csv``, ``results.json``, ``server.lock``; under ``submissions/`` each file the database records
and each upload folder's own files (``submission.py``, ``program``, ``original.ipynb``, Python's
``__pycache__/*.pyc``) in a folder the database records or named as ``accept`` names them; under
``references/`` the copies the config records, and under ``game/`` the copy of the game file it records (each
with Python's ``__pycache__/*.pyc``).  Anything else there (a student's homework put in
``submissions/alice/``, the teacher's ``references/mine.py``) is not the contest's: the overwrite is refused,
one line naming it, before anything changes.  The rest of the folder is never looked at.

Who may read them (:func:`private`): the folder and its ``submissions/``, ``references/`` and ``game/`` are its
owner's only (0700), the database and ``tokens.csv`` too (0600): ``contest new`` makes them so, and ``serve``
makes an older contest's so.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
from pathlib import Path

from ..errors import UsageError
from ..spec import quoted
from .checks import REFERENCES, TABLES, check_header
from .lock import LOCK_NAME
from .store import DB_NAME

TOKENS = "tokens.csv"
SUBMISSIONS = "submissions"
#: the folder of the game file's copy (``contest new --game file.py:Class``: :mod:`.game_file`)
GAME = "game"
#: the names of the files a contest folder holds (``--overwrite`` replaces only what of them is the contest's
#: own: :func:`contest_owned`)
CONTEST_FILES = (REFERENCES, GAME, DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm", TOKENS, SUBMISSIONS, "results.csv",
                 "results.json", LOCK_NAME)

__all__ = ["contest_owned", "private", "FILES", "UPLOAD_FOLDER"]

#: the single files of a contest folder (the database and its companions, the tokens, the results, the lock)
FILES = (DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm", "tokens.csv", "results.csv", "results.json", "server.lock")
#: the name of an upload's folder (:func:`zerosum.contest.submissions.accept`: time, sha256 prefix, random)
UPLOAD_FOLDER = re.compile(r"[0-9]+-[0-9a-f]{12}-[a-z0-9_]+")
#: the files ``accept`` writes in an upload's folder
UPLOAD_FILES = ("submission.py", "program", "original.ipynb")


def _recorded(db: Path) -> tuple[set[str], set[str]] | None:
    """The submissions' paths and the copies (the references', the game file's) the contest database ``db``
    records, read without changing it; None when ``db`` is not a contest's database."""
    if db.is_symlink() or not db.is_file() or check_header(db) is not None:
        return None
    try:
        conn = sqlite3.connect(db)  # only read: closed last, it leaves no -wal or -shm beside the file
    except sqlite3.Error:
        return None
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not set(TABLES) <= tables:
            return None
        paths = {str(row[0]) for row in conn.execute("SELECT path FROM submissions WHERE path IS NOT NULL")}
        row = conn.execute("SELECT value FROM config WHERE key = 'references'").fetchone()
        game = conn.execute("SELECT value FROM config WHERE key = 'game_file'").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    try:
        refs = json.loads(row[0]) if row is not None else []
    except (TypeError, ValueError):
        refs = []
    files = {str(r["file"]) for r in refs if isinstance(r, dict) and isinstance(r.get("file"), str)} \
        if isinstance(refs, list) else set()
    try:
        copy = json.loads(game[0]) if game is not None else None
    except (TypeError, ValueError):
        copy = None
    if isinstance(copy, dict) and isinstance(copy.get("file"), str) and Path(copy["file"]).parts[:1] == (GAME,):
        files.add(copy["file"])
    return {os.path.normpath(p) for p in paths}, {os.path.normpath(f) for f in files}


def _walk(top: Path) -> list[tuple[Path, bool]]:
    """Every path under ``top`` (not following links), deepest first, each with whether it is a folder."""
    out: list[tuple[Path, bool]] = []
    for where, dirs, files in os.walk(top, topdown=False):
        base = Path(where)
        for name in files:
            out.append((base / name, False))
        for name in dirs:
            path = base / name
            out.append((path, not path.is_symlink()))
    return out


def _owns(rel: Path, folder: bool, subs: set[str], refs: set[str], folders: set[str]) -> bool:
    """Whether ``rel`` (a path under submissions/, references/ or game/, relative to the contest folder, not a
    link) is the contest's own (module docstring)."""
    parts = rel.parts
    if parts[0] in (REFERENCES, GAME):
        if len(parts) == 2:
            return parts[1] == "__pycache__" if folder else str(rel) in refs
        return len(parts) == 3 and parts[1] == "__pycache__" and not folder and parts[2].endswith(".pyc")
    if len(parts) == 2:
        return (parts[1] in folders or bool(UPLOAD_FOLDER.fullmatch(parts[1]))) if folder else str(rel) in subs
    if not (parts[1] in folders or UPLOAD_FOLDER.fullmatch(parts[1])):
        return False
    if len(parts) == 3:
        return parts[2] == "__pycache__" if folder else parts[2] in UPLOAD_FILES
    return len(parts) == 4 and parts[2] == "__pycache__" and not folder and parts[3].endswith(".pyc")


def contest_owned(target: Path, overwrite: bool) -> list[Path]:
    """The paths in ``target`` that replacing its contest deletes, files before their folders (empty when
    ``target`` holds no file a contest writes); one UsageError line, before anything changes, when the folder
    holds files named as a contest's but no contest, a contest and not ``overwrite``, or, under its
    ``submissions/``, ``references/`` or ``game/``, a file the contest did not write (module docstring)."""
    present = [name for name in CONTEST_FILES if os.path.lexists(target / name)]
    if not present:
        return []
    recorded = _recorded(target / DB_NAME)
    if recorded is None:
        if os.path.lexists(target / DB_NAME):
            raise UsageError(f"{quoted(str(target / DB_NAME))} is not a contest's database: the folder holds no "
                             "contest to replace, and its files are left alone: choose an empty or new folder")
        shown = ", ".join(n + "/" if (target / n).is_dir() else n for n in present)
        raise UsageError(f"{quoted(str(target))} holds files a contest would write ({shown}) but no contest "
                         f"({DB_NAME}): they are left alone: choose an empty or new folder")
    if not overwrite:
        raise UsageError(f"{quoted(str(target))} holds a contest already ({DB_NAME}): give --overwrite to replace it "
                         "(its submissions and games are deleted), or choose another folder")
    subs, refs = recorded
    folders = {Path(p).parts[1] for p in subs if len(Path(p).parts) == 3 and Path(p).parts[0] == SUBMISSIONS}
    owned: list[Path] = []
    foreign: list[Path] = []
    for name in present:
        path = target / name
        if name not in (SUBMISSIONS, REFERENCES, GAME):
            (foreign if path.is_dir() and not path.is_symlink() else owned).append(path)
            continue
        if path.is_symlink() or not path.is_dir():
            foreign.append(path)
            continue
        for inner, folder in _walk(path):
            mine = not inner.is_symlink() and _owns(inner.relative_to(target), folder, subs, refs, folders)
            (owned if mine else foreign).append(inner)
        owned.append(path)
    if foreign:
        files = [p for p in foreign if p.is_symlink() or not p.is_dir()] or foreign  # name a file, not its folder
        first = min(files).relative_to(target)
        more = f" (and {len(files) - 1} more)" if len(files) > 1 else ""
        raise UsageError(f"{quoted(str(first))}{more} in {quoted(str(target))} is not the contest's (it did not write "
                         "it): move it away before --overwrite replaces the contest; nothing was changed")
    files = [p for p in owned if p.is_symlink() or not p.is_dir()]
    return files + [p for p in owned if not (p.is_symlink() or not p.is_dir())]


def private(directory: Path) -> list[str]:
    """Make the contest folder ``directory`` its owner's only, as ``contest new`` makes it: the folder and its
    ``submissions/``, ``references/`` and ``game/`` 0700, the database (with its ``-wal`` and ``-shm``) and
    ``tokens.csv`` 0600, each that this account owns and that others could read; the names of those changed."""
    changed = []
    for name, mode in ((".", 0o700), (SUBMISSIONS, 0o700), (REFERENCES, 0o700), (GAME, 0o700), (DB_NAME, 0o600),
                       (DB_NAME + "-wal", 0o600), (DB_NAME + "-shm", 0o600), (TOKENS, 0o600)):
        path = directory / name
        try:
            info = os.lstat(path)
            if info.st_uid == os.geteuid() and not stat.S_ISLNK(info.st_mode) and info.st_mode & 0o077:
                os.chmod(path, mode)
                changed.append(name)
        except OSError:  # not there (or gone meanwhile)
            continue
    return changed
