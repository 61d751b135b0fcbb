"""Students' uploads: checked, saved under ``DIR/submissions/``, recorded in the store with their history.

What a student may upload (:func:`prepare`), at most :data:`MAX_UPLOAD` bytes:

* **a Python file** (``.py``, UTF-8): an agent file as everywhere in zerosum -- its ``player(board)`` (the 8 x 8
  homework's contract) or an ``f(game, state)`` function; kind ``python``;
* **a notebook** (``.ipynb``): the one code cell whose first line is :data:`NOTEBOOK_MARK` (``# submission``,
  any case, spaces around it ignored) is extracted into ``submission.py`` and played as a Python file (the
  notebook is kept beside it); no marked cell, or more than one, is refused; kind ``notebook``;
* **a program** speaking the engine protocol (docs/protocol.md): a script that begins with ``#!`` or an ELF
  binary; saved executable and run as it is; kind ``program``.

Each upload gets a folder of its own, ``submissions/<time>-<sha256 prefix>-<random>/``, written and synced
before its row is committed (:meth:`~zerosum.contest.store.Store.add_submission`: every earlier row is kept,
and the name's active one stays until this one is validated ``ok``), so a crash leaves at worst an unused
folder, never a row without its file; a write or a commit that fails (a full disk) removes the folder and
raises :class:`Unsaved`.  :func:`accept` refuses, each in one line, an upload after the deadline (the deadline
stated) or once the entries are frozen (saying so when the teacher froze them before the deadline), one
too large, one that is none of the above, and one whose bytes are those of the student's submission being checked
or of their entry (:func:`repeated`: a double click, a script that posts twice, an upload of the file that plays).
That last look is made again in the transaction that adds the row
(:meth:`~zerosum.contest.store.Store.add_submission`'s ``once``), so two identical uploads at once, from two
threads or two processes, store one: the other is refused so, and its folder removed.

**Private to the teacher's account**: ``submissions/`` and each upload's folder are 0700, their files 0600
(a program 0700), whatever the umask, also where the seats run as users of their own (bubblewrap as root): a
seat never reads the file itself, only a read-only copy the server's own user gives it (:mod:`.sandbox`,
:func:`file_mode`).

**Bounded a student** (:func:`prune`): once a student's upload folders hold more than :data:`STUDENT_BYTES`,
each new upload removes the files of their oldest *replaced* submissions (neither active nor being checked)
until they fit; the rows stay, and the code answers that it is no longer kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from ..errors import UsageError
from .owned import UPLOAD_FOLDER
from .store import Repeated, Store, disk_full, storage_problem

__all__ = ["MAX_UPLOAD", "STUDENT_BYTES", "NOTEBOOK_MARK", "Prepared", "prepare", "accept", "prune", "pruned",
           "file_mode", "closed_reason", "deadline_time", "clean_filename", "repeated", "KINDS", "RUNNABLE", "Unsaved"]

#: the largest upload, bytes
MAX_UPLOAD = 256 * 1024
#: the bytes of a student's upload folders kept: past them their oldest replaced submissions' files go (:func:`prune`)
STUDENT_BYTES = 4 * 1024 * 1024
#: the longest file name kept (a longer one is shortened, its extension kept)
MAX_FILENAME = 120
#: the first line of the notebook cell that is the submission
NOTEBOOK_MARK = "# submission"
KINDS = ("python", "notebook", "program")
#: the file each kind runs as, in its submission's folder
RUNNABLE = {"python": "submission.py", "notebook": "submission.py", "program": "program"}
_ELF = b"\x7fELF"


class Refused(UsageError):
    """An upload that is not taken (the server answers 400 with its line)."""


class Unsaved(UsageError):
    """An upload the server could not save: its disk full (``full``), or the folder or database not writable.
    Nothing of it is kept (the server answers 507 or 503 with its line)."""

    def __init__(self, exc: BaseException) -> None:
        self.full = disk_full(exc)
        if self.full:
            super().__init__("the server's disk is full: your upload was not saved (tell your teacher, and send it "
                             "again once there is room)")
        else:
            super().__init__(f"the server cannot save uploads now ({(storage_problem(exc) or str(exc))[:120]}): your "
                             "upload was not saved (tell your teacher)")


@dataclass(frozen=True)
class Prepared:
    """An upload checked: its kind, the runnable file's bytes and, for a notebook, the notebook itself."""

    kind: str
    runnable: bytes
    original: bytes | None = None


def clean_filename(name: str | None) -> str:
    """The uploaded file's name as stored: its last path part, no control characters, at most
    :data:`MAX_FILENAME` characters, a longer one shortened before its extension, which decides the kind and
    is kept (the name is only ever shown, escaped, never used as a path)."""
    base = (name or "upload").replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(c for c in base if c.isprintable()).strip()
    if len(base) > MAX_FILENAME:
        stem, dot, ext = base.rpartition(".")
        keep = f".{ext}" if dot and stem and len(ext) <= 16 else ""
        base = base[: MAX_FILENAME - len(keep) - 1].rstrip() + "~" + keep
    return base or "upload"


def _notebook_cell(data: bytes) -> bytes:
    try:
        notebook = json.loads(data.decode("utf-8"))
        cells = notebook["cells"]
        assert isinstance(cells, list)
    except (ValueError, UnicodeDecodeError, KeyError, TypeError, AssertionError, RecursionError):
        raise Refused("the .ipynb file is not a Jupyter notebook (JSON with a list of cells)") from None
    marked = []
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) and all(isinstance(s, str) for s in source) else source
        if not isinstance(text, str):
            continue
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        if first.lower() == NOTEBOOK_MARK:
            marked.append((number, text))
    if not marked:
        raise Refused(f"no code cell of the notebook begins with the line {NOTEBOOK_MARK!r}: put all your code in "
                      "one cell and make that its first line")
    if len(marked) > 1:
        raise Refused(f"{len(marked)} cells of the notebook begin with {NOTEBOOK_MARK!r} (cells "
                      f"{', '.join(str(n) for n, _ in marked[:5])}): mark exactly one")
    number, text = marked[0]
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:  # JSON's "\ud800": half of a UTF-16 pair, no character of a Python file
        line = text.count("\n", 0, exc.start) + 1
        raise Refused(f"cell {number} of the notebook holds a lone surrogate, U+{ord(text[exc.start]):04X}, on its "
                      f"line {line}: not text a Python file can hold (remove it)") from None


def prepare(filename: str, data: bytes, programs: bool = True) -> Prepared:
    """The upload's kind and runnable bytes (module docstring); one :class:`Refused` line otherwise.
    ``programs``: whether the game can be played by a protocol program."""
    if len(data) > MAX_UPLOAD:
        raise Refused(f"the file is {len(data):,} bytes, more than the {MAX_UPLOAD:,} allowed")
    if not data:
        raise Refused("the file is empty")
    lower = filename.lower()
    if lower.endswith(".ipynb"):
        return Prepared("notebook", _notebook_cell(data), data)
    if lower.endswith(".py"):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused("the .py file is not UTF-8 text") from None
        return Prepared("python", data)
    if data.startswith((b"#!", _ELF)):
        if not programs:
            raise Refused("this contest's game has no engine protocol: upload a .py file or a notebook")
        return Prepared("program", data)
    raise Refused("send a .py file, a .ipynb notebook (its cell marked '# submission'), or a program speaking "
                  "the engine protocol (a script beginning with #!, or an ELF binary)")


def deadline_time(config: dict[str, Any]) -> datetime | None:
    """The config's deadline as a time in UTC, or None (no deadline).  It is stored as ``contest new`` wrote it,
    ISO 8601 UTC (``2026-12-12T18:00:00Z``); a time without a zone is UTC, as ``--deadline`` reads it (never the
    machine's own zone)."""
    deadline = config.get("deadline")
    if not deadline:
        return None
    when = datetime.fromisoformat(str(deadline).replace("Z", "+00:00"))
    return (when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)).astimezone(timezone.utc)


def closed_reason(config: dict[str, Any], now: float | None = None) -> str | None:
    """Why no upload is taken now (past the deadline, or frozen: by the teacher before the deadline, said so),
    or None."""
    when = deadline_time(config)
    passed = when is not None and (time.time() if now is None else now) >= when.timestamp()
    if config.get("frozen"):
        early = " (the teacher froze them before the deadline)" if when is not None and not passed else ""
        return f"the entries are frozen for the final{early}: no more submissions"
    if when is not None and passed:
        return f"the deadline was {config['deadline']} (UTC {when:%Y-%m-%d %H:%M:%S}): no more submissions"
    return None


def repeated(row: dict[str, Any]) -> str:
    """The line that refuses an upload whose bytes are those of ``row``, the student's submission being checked or
    their entry."""
    now = "is being checked (its answer comes on your page)" if row["status"] == "validating" else "plays as your entry"
    return (f"this file is the same as your submission {row['id']} ({row['filename']}), which {now}: it was not "
            "stored again")


def _write(path: Path, data: bytes, mode: int) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.chmod(path, mode)  # exactly: the umask neither narrows nor widens it


def file_mode(executable: bool = False) -> int:
    """The mode of a file the seat runs: the teacher's only (0600, 0700 for a program), as root or not; the seat,
    even one that runs as a user of its own, sees a read-only copy (mode 0555) made from a descriptor the server
    opens (:mod:`.sandbox`), never the file itself."""
    return 0o700 if executable else 0o600


def accept(store: Store, name: str, filename: str | None, data: bytes, now: float | None = None) -> int:
    """Check and save ``name``'s upload; the new submission's id (status ``validating``; active once ``ok``).
    One :class:`Refused` line (nothing saved) when closed, too large, not a submission, or the same bytes as the
    name's submission being checked or its entry (:func:`repeated`).  Once it is saved, the
    name's oldest replaced submissions lose their files past :data:`STUDENT_BYTES` (:func:`prune`)."""
    config = store.config()
    reason = closed_reason(config, now)
    if reason:
        raise Refused(reason)
    shown = clean_filename(filename)
    game = str(config.get("game", ""))
    prepared = prepare(shown, data, programs=".py:" not in game)
    digest = hashlib.sha256(data).hexdigest()
    same = store.same_upload(name, digest, prepared.kind)
    if same is not None:  # looked at again as the row is added: an identical upload may be under way
        raise Refused(repeated(same))
    created = time.time() if now is None else now
    try:
        (store.directory / "submissions").mkdir(mode=0o700, exist_ok=True)
        target = Path(tempfile.mkdtemp(prefix=f"{int(created * 1e6)}-{digest[:12]}-",  # 0700: the teacher's only
                                       dir=store.directory / "submissions"))
    except OSError as exc:
        raise Unsaved(exc) from None
    try:
        folder = target.relative_to(store.directory)
        runnable = RUNNABLE[prepared.kind]
        _write(target / runnable, prepared.runnable, file_mode(prepared.kind == "program"))
        if prepared.original is not None:
            _write(target / "original.ipynb", prepared.original, 0o600)  # never run: the teacher's only
        fd = os.open(target, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        submission = store.add_submission(name, shown, prepared.kind, digest, str(folder / runnable), created,
                                          once=True)
    except BaseException as exc:  # nothing of an upload that is not recorded is left behind
        shutil.rmtree(target, ignore_errors=True)
        if isinstance(exc, Repeated):  # the same bytes, stored a moment ago by an upload beside this one
            raise Refused(repeated(exc.row)) from None
        if isinstance(exc, OSError) or (isinstance(exc, sqlite3.Error) and storage_problem(exc) is not None):
            raise Unsaved(exc) from None
        raise
    with contextlib.suppress(OSError, sqlite3.Error):  # the upload is saved: a removal left undone waits for the next
        prune(store, name)
    return submission


def _stored(folder: Path) -> int:
    """The bytes of the files in an upload's folder (0 when it is gone)."""
    try:
        return sum(e.stat(follow_symlinks=False).st_size for e in os.scandir(folder) if not e.is_dir())
    except OSError:
        return 0


def pruned(store: Store, row: dict[str, Any]) -> bool:
    """Whether a submission's files were removed (:func:`prune`): its runnable file is gone."""
    return not os.path.lexists(store.directory / str(row["path"]))


def prune(store: Store, name: str, limit: int | None = None) -> list[int]:
    """Remove the files of ``name``'s oldest replaced submissions (neither active nor being checked) while all of
    the name's upload folders hold more than ``limit`` bytes (default :data:`STUDENT_BYTES`); the ids whose files
    went.  Their rows stay (the history: time, file name, SHA-256, answer); a folder ``accept`` did not name so
    is never removed, nor one a removal fails on."""
    limit = STUDENT_BYTES if limit is None else limit
    rows = store.rows("SELECT id, path, status, active FROM submissions WHERE name = ? ORDER BY id", (name,))
    sizes = {row["id"]: _stored(store.directory / Path(str(row["path"])).parent) for row in rows}
    total = sum(sizes.values())
    removed: list[int] = []
    for row in rows:
        if total <= limit:
            break
        folder = store.directory / Path(str(row["path"])).parent
        if row["active"] or row["status"] == "validating" or not sizes[row["id"]] \
                or folder.parent != store.directory / "submissions" or not UPLOAD_FOLDER.fullmatch(folder.name):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            total -= sizes[row["id"]]
            removed.append(int(row["id"]))
    return removed
