"""A contest's database checked when it is opened (:class:`~.store.Store`): ``serve`` and ``final`` refuse, in one
line and before any change, a ``contest.db`` that is not a readable SQLite database of a contest (empty,
overwritten, damaged, tables missing), a config value that is not what the contest needs (the key named),
and a reference whose file is gone.  The database is only ever read through SQLite (:func:`sqlite_header`), never
as a plain file: in a process that holds a connection to it (the server), opening and closing the file would
drop SQLite's locks.

``reference_spec(ref, folder)`` is the agent spec a reference plays as: a reference file that ``contest new``
copied into the contest's folder (``"file"``: its path in the folder, ``"entry"``: its function) is played
from that copy, wherever the command runs; an older contest's file spec (``instructor.py:player``) is read
relative to the folder the command runs in, as it was given.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from ..core.sqlite_trouble import sqlite_header
from ..errors import UsageError
from ..spec import quoted

__all__ = ["HEADER", "TABLES", "check_header", "check_config", "reference_spec", "reference_file"]

#: the first 16 bytes of every SQLite database
HEADER = b"SQLite format 3\x00"
TABLES = ("config", "people", "submissions", "games")
#: config keys every contest has
REQUIRED = ("game", "limits", "references")


def check_header(path: Path) -> str | None:
    """Why ``path`` cannot be an SQLite database (empty, another file, unreadable), or None
    (:func:`sqlite_header`, its disk's errors said as a reason too)."""
    try:
        return sqlite_header(path)
    except sqlite3.Error as exc:
        return f"it cannot be read: {' '.join(str(exc).split())[:200]}"


def _number(x: Any, low: float = 0.0, above: bool = False) -> bool:
    ok = isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
    return ok and (x > low if above else x >= low)


def _limits(v: Any) -> bool:
    if not isinstance(v, dict):
        return False
    nodes, move_time, tc = v.get("nodes"), v.get("move_time"), v.get("tc")
    return ((nodes is None or (isinstance(nodes, int) and not isinstance(nodes, bool) and nodes > 0))
            and (move_time is None or _number(move_time, above=True))
            and (tc is None or (isinstance(tc, list) and len(tc) == 2 and all(_number(x) for x in tc))))


def _references(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(
        isinstance(r, dict) and isinstance(r.get("name"), str) and isinstance(r.get("spec"), str) for r in v)


def _deadline(v: Any) -> bool:
    if v is None:
        return True
    try:
        datetime.fromisoformat(str(v).replace("Z", "+00:00"))
    except ValueError:
        return False
    return isinstance(v, str)


#: each known key: the test of its value and what it should be
SHAPES: dict[str, tuple[Callable[[Any], bool], str]] = {
    "game": (lambda v: isinstance(v, str) and bool(v.strip()), "a game spec"),
    "limits": (_limits, '{"nodes": N or null, "move_time": S or null, "tc": [BASE, INC] or null}'),
    "openings": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of move strings"),
    "references": (_references, 'a list of {"name", "spec"}, one at least'),
    "deadline": (_deadline, "an ISO 8601 time or null"),
    "seed": (lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)), "a whole number"),
    "frozen": (lambda v: isinstance(v, bool), "true or false"),
    "url": (lambda v: isinstance(v, str), "an address"),
    "created": (lambda v: v is None or _number(v), "a time"),
    "sandbox": (lambda v: v is None or isinstance(v, dict), "an object of sandbox limits"),
    "ladder_pairs": (lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 1),
                     "a whole number >= 1"),
    "grade": (lambda v: v is None or isinstance(v, str), "LOW,HIGH"),
    "last_game": (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0, "a whole number >= 0"),
    "final": (lambda v: v is None or (isinstance(v, dict) and isinstance(v.get("entries"), list)),
              "the final's entries, seed and rounds"),
}


def check_config(rows: list[tuple[str, str]], where: str) -> dict[str, Any]:
    """The config decoded from its ``(key, JSON text)`` rows; one UsageError line naming the first key whose
    value is not JSON or not of its shape (:data:`SHAPES`), or a missing key (:data:`REQUIRED`)."""
    config: dict[str, Any] = {}
    for key, text in rows:
        try:
            config[key] = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            raise UsageError(f"{where}: the config's {quoted(key)} is not JSON ({quoted(str(text), 40)}): the "
                             "database was edited by hand; set it back, or make the contest again") from None
        test, wanted = SHAPES.get(key, (lambda v: True, ""))
        if not test(config[key]):
            raise UsageError(f"{where}: the config's {quoted(key)} is {quoted(str(text), 60)}, not {wanted}")
    for key in REQUIRED:
        if key not in config:
            raise UsageError(f"{where}: the config has no {quoted(key)}: this is not a whole contest")
    return config


def reference_file(ref: dict[str, Any], folder: Path) -> str | None:
    """The file of a file reference (its copy in the contest's folder, or an older contest's path as given),
    or None for any other reference (a built-in agent, an external engine)."""
    if isinstance(ref.get("engine"), dict):
        return None
    if isinstance(ref.get("file"), str):
        return str(folder / ref["file"])
    head = str(ref.get("spec", "")).strip().partition(":")[0]
    return head if head.endswith(".py") else None


def reference_spec(ref: dict[str, Any], folder: str | Path) -> str:
    """The agent spec the reference ``ref`` of the contest in ``folder`` plays as (module docstring)."""
    if isinstance(ref.get("file"), str) and not isinstance(ref.get("engine"), dict):
        path = str(Path(folder).resolve() / ref["file"])
        return f"{path}:{ref['entry']}" if ref.get("entry") else path
    return str(ref["spec"])


def check_reference_files(config: dict[str, Any], folder: Path, where: str) -> None:
    """One UsageError line for a reference whose file is not there (a copy deleted; an older contest's
    relative path, from another folder)."""
    for ref in config.get("references") or []:
        path = reference_file(ref, folder)
        if path is None or os.path.isfile(path):
            continue
        if isinstance(ref.get("file"), str):
            raise UsageError(f"{where}: the file of the reference {quoted(ref['name'])}, {quoted(path)}, is gone (the "
                             "copy `contest new` kept): put it back, or make the contest again")
        raise UsageError(f"the file of the reference {quoted(ref['name'])}, {quoted(path)}, is not found from "
                         f"{os.getcwd()}: this contest keeps the path `contest new` was given, relative to the "
                         "folder it ran in: run the command from there")
