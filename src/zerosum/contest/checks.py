"""A contest's database checked when it is opened (:class:`~.store.Store`): ``serve`` and ``final`` refuse, in one
line and before any change, a ``contest.db`` that is not a readable SQLite database of a contest (empty,
overwritten, damaged, tables missing), a config value that is not what the contest needs (the key named: a
value not of its shape; a game spec zerosum does not know, :func:`check_game_spec`; a reference that does not
build as ``contest new`` built it, :func:`check_reference_specs`), and a reference whose file is gone.  The
database is only ever read through SQLite (:func:`sqlite_header`), never as a plain file: in a process that
holds a connection to it (the server), opening and closing the file would drop SQLite's locks.

``reference_spec(ref, folder)`` is the agent spec a reference plays as: a reference file that ``contest new``
copied into the contest's folder (``"file"``: its path in the folder, ``"entry"``: its function) is played
from that copy, wherever the command runs; an older contest's file spec (``instructor.py:player``) is read
relative to the folder the command runs in, as it was given.  ``contest new`` checks its references
(:func:`check_references`) and copies their files into the folder (:func:`copy_references`) here too.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Sequence

from ..core.sqlite_trouble import sqlite_header
from ..errors import AgentError, GameError, UsageError
from ..spec import quoted

__all__ = ["HEADER", "TABLES", "check_header", "check_config", "check_game_spec", "check_reference_specs",
           "reference_spec", "reference_file"]

#: the first 16 bytes of every SQLite database
HEADER = b"SQLite format 3\x00"
TABLES = ("config", "people", "submissions", "games")
#: the folder of the reference files' copies (a teacher's file.py, copied at ``contest new``)
REFERENCES = "references"
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
    check_game_spec(config, where)
    return config


def _edited(where: str, key: str, what: str, exc: Exception) -> UsageError:
    """The line refusing the config's ``key``, of its shape but not valid: ``what`` it holds, and why (``exc``)."""
    return UsageError(f"{where}: the config's {quoted(key)} {what} ({' '.join(str(exc).split())[:300]}): the "
                      "database was edited by hand; set it back, or make the contest again")


def check_game_spec(config: dict[str, Any], where: str) -> None:
    """One UsageError line naming the config's ``game`` when zerosum does not know it (``get_game`` refuses it:
    ``nope``, ``connectx:rows=99``).  A game in a file is :func:`.game_file.check_game_file`'s to check (its copy
    gone, changed or moved is said so there)."""
    spec = str(config["game"])
    from ..games import get_game
    from ..games.course_files import course_file

    if "game_file" in config or course_file(spec):
        return

    try:
        get_game(spec)
    except (GameError, ValueError) as exc:
        raise _edited(where, "game", f"is {quoted(spec, 80)}, not a game zerosum knows", exc) from None


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
    relative path, from another folder), then for one that does not build (:func:`check_reference_specs`)."""
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
    check_reference_specs(config, folder, where)


def check_reference_specs(config: dict[str, Any], folder: Path, where: str) -> None:
    """One UsageError line naming the config's ``references`` for a reference that does not build as ``contest
    new`` built it (:func:`check_references`, without the warm-up: no engine is compiled or started here): an
    agent or option zerosum does not know, a file's function that is not there, a person, an external engine's
    definition that is not one, two references of one name.  A reference played in the sandbox (``"sandbox":
    true``) is only read (its function looked for in its syntax): none of its code runs in this process."""
    from ..agents.homework import entry_function
    from ..agents.registry import make_agent
    from ..agents.simple import HumanAgent
    from ..external.definitions import EngineDefinition

    names: set[str] = set()
    for ref in config["references"]:
        try:
            if ref["name"] in names:
                raise UsageError(f"two references are called {quoted(ref['name'])}")
            names.add(ref["name"])
            spec = reference_spec(ref, folder)
            if isinstance(ref.get("engine"), dict):  # the teacher's program: started by the games, not here
                EngineDefinition.from_json(ref["engine"])
            elif ref.get("sandbox"):  # played in the sandbox only (:mod:`.playing`): its file read, never run here
                path, sep, function = spec.rpartition(".py:")
                entry_function(path + ".py" if sep else spec, function if sep else None)
            elif isinstance(make_agent(spec, seed=0), HumanAgent):
                raise UsageError("a person cannot be a reference")
        except (GameError, ValueError) as exc:
            raise _edited(where, "references", f"holds {quoted(ref['name'])} = {quoted(ref['spec'], 80)}, which does "
                          "not build", exc) from None


def check_references(game_spec: str, references: Sequence[dict[str, Any]], folder: Path | None = None) -> None:
    """``contest new``'s check of its references: each builds and warms up on the game (a reference file from
    its copy in ``folder``), none is a person and no two share a name; an AgentError or UsageError line else."""
    from ..agents.registry import make_agent
    from ..agents.simple import HumanAgent
    from ..games import get_game

    game = get_game(game_spec)
    names = set()
    for ref in references:
        if ref["name"] in names:
            raise UsageError(f"--reference: two references are called {quoted(ref['name'])}: name them NAME=SPEC")
        names.add(ref["name"])
        spec = reference_spec(ref, folder) if folder is not None else ref["spec"]
        try:  # a bad spec or file is one AgentError line, now
            agent = make_agent(spec, seed=0)
            if isinstance(agent, HumanAgent):  # as match and tournament: it would forfeit every game
                raise UsageError(f"--reference {quoted(ref['name'])}: a person cannot be a reference: a contest's "
                                 "games are played with no one at the keyboard (a person plays with zerosum play); "
                                 "give an agent, e.g. random, alphabeta:depth=4 or instructor=teacher.py:player")
            agent.warm_up(game)
        except AgentError as exc:
            if "file" not in ref or "No module named" not in str(exc):
                raise
            raise AgentError(f"--reference {ref['name']}: {exc} (the file is played from its copy in the contest's "
                             f"folder, {REFERENCES}/, alone: it may import installed packages, not files beside it)"
                             ) from None


def copy_references(references: Sequence[dict[str, Any]], build: Path) -> list[dict[str, Any]]:
    """The references with each agent file (``file.py[:ENTRY]``) copied into ``build/references/``: ``file``
    (the copy's path in the contest's folder), ``entry`` (its function) and ``sha256`` added, so that the contest
    plays the file as it was now, from any folder."""
    import hashlib

    from ..agents.registry import file_agent_parts, named_file_spec

    out: list[dict[str, Any]] = []
    taken: set[str] = set()
    for ref in references:
        spec = str(ref["spec"]).strip()
        if isinstance(ref.get("engine"), dict) or not spec.partition(":")[0].endswith(".py"):
            out.append(dict(ref))
            continue
        named = named_file_spec(spec)  # file.py alone: its player, else its only function
        path, entry = file_agent_parts(named) or (named, "")
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise UsageError(f"--reference {quoted(ref['name'])}: the file {quoted(path)} cannot be read: "
                             f"{exc.strerror or exc}") from None
        stem = "".join(c if c.isalnum() or c in "_-" else "_" for c in Path(path).stem)[:40] or "reference"
        copy, k = f"{stem}.py", 1
        while copy in taken:
            k += 1
            copy = f"{stem}-{k}.py"
        taken.add(copy)
        (build / REFERENCES).mkdir(mode=0o700, exist_ok=True)
        (build / REFERENCES / copy).write_bytes(data)
        out.append({**ref, "file": f"{REFERENCES}/{copy}", "entry": entry or None,
                    "sha256": hashlib.sha256(data).hexdigest()})
    return out


def is_file_reference(ref: dict[str, Any]) -> bool:
    """Whether a reference as given to ``contest new`` is an agent file (``file.py[:ENTRY]``), to be copied."""
    from ..games.course_files import course_file

    return not isinstance(ref.get("engine"), dict) and course_file(str(ref["spec"]))
