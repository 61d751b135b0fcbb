"""A new contest's folder (``zerosum contest new``): the roster read and checked, tokens made, openings judged,
everything written at once.

:func:`create_contest` checks every input before it writes anything, builds the folder's files in a fresh
folder beside it, and moves them in at the end, so an error leaves the disk as it was.  The folder gets:

* ``contest.db`` (:mod:`.store`): the config, the people (each token's sha256 only), empty submissions and
  games;
* ``tokens.csv`` (mode 0600): ``name,token,link`` a person, the teacher first -- the only place the tokens
  are written; hand each student their link;
* ``submissions/``: where uploads will go;
* ``references/``: a copy of each reference given as a file (``instructor=teacher.py:player``), with its
  SHA-256 in the config: the contest plays the file as it was at ``contest new``, from whatever folder
  ``serve`` and ``final`` run in (a later edit of the teacher's file does not change the contest);
* ``game/``: a copy of the game file, when the game is one (``--game file.py:Class``), pinned by its SHA-256
  in the config (``game_file``); the config's ``game`` names the copy by its full path, which every seat sees
  read-only (:mod:`.game_file`).

**Names** (:func:`check_name`): 1..:data:`MAX_NAME` characters of letters (any alphabet, with their combining
marks), digits, spaces and ``. - _ '``, beginning with a letter or digit, no two spaces in a row and none at the
ends. Anything else (``<``, ``&``, quotes, slashes, control characters, a right-to-left override) is refused,
and so are two names that differ only in case or spacing. The pages escape every name anyway; the rule keeps
names that are meant to fool a reader out of the roster.
"""

from __future__ import annotations

import csv
import io
import os
import secrets
import shutil
import sqlite3
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

from ..errors import AgentError, UsageError
from ..spec import quoted
from .game_file import copy_game, is_file_game
from .lock import holder
from .owned import CONTEST_FILES, REFERENCES, SUBMISSIONS, TOKENS  # noqa: F401 - the folder's names, kept here too
from .store import DB_NAME, Store, storage_problem

__all__ = ["ContestSettings", "create_contest", "check_name", "read_roster", "parse_deadline", "contest_files",
           "TEACHER", "MAX_NAME", "MAX_STUDENTS", "TOKENS", "SUBMISSIONS", "OPENINGS_JUDGE"]

#: the teacher's row in ``people`` (a name no student can have: students' names never start with ``#``)
TEACHER = "#teacher"
MAX_NAME = 64
MAX_STUDENTS = 2000
#: what judges openings on games the solver does not take (value 0 at its depth: an even position)
OPENINGS_JUDGE = "alphabeta:depth=4"
_PUNCT = set(" .-_'")


@dataclass
class ContestSettings:
    """What ``zerosum contest new`` was given (limits: at most one of ``move_time`` and ``tc``)."""

    game: str
    roster: list[str]
    nodes: int | None = None
    move_time: float | None = None
    tc: list[float] | None = None
    openings: list[str] | None = None  # move strings; None: judged by zerosum
    opening_plies: int = 4
    openings_count: int = 8
    openings_with: str | None = None
    references: list[dict[str, str]] = field(default_factory=lambda: [{"name": "random", "spec": "random"}])
    deadline: str | None = None
    seed: int | None = None
    url: str = "http://localhost:8000"


def check_name(name: str) -> str:
    """``name`` if it is a fair roster name (module docstring), else one UsageError line saying why."""
    if not name:
        raise UsageError("an empty name: every row of the roster needs a name")
    if len(name) > MAX_NAME:
        raise UsageError(f"the name {quoted(name)} is longer than {MAX_NAME} characters")
    bad = [c for c in name if not (c in _PUNCT or unicodedata.category(c)[0] in "LMN")]  # M: accents, vowel signs
    if bad:
        raise UsageError(f"the name {quoted(name)} holds {bad[0]!r}: names are letters, digits, spaces and . - _ '")
    if not unicodedata.category(name[0])[0] in "LN" or name != name.strip() or "  " in name:
        raise UsageError(f"the name {quoted(name)} must begin with a letter or digit, without spaces at its ends "
                         "or two in a row")
    return name


def read_roster(text: str) -> list[str]:
    """The names of a roster CSV: the first column of each row (a first row ``name`` is a header); blank
    lines skipped.  One UsageError line for an empty roster, a bad name (:func:`check_name`) or a duplicate."""
    names: list[str] = []
    seen: dict[str, int] = {}
    rows = list(csv.reader(io.StringIO(text)))
    for number, row in enumerate(rows, 1):
        if not row or all(not cell.strip() for cell in row):
            continue
        name = row[0]
        if number == 1 and name.strip().lower() in ("name", "names", "student"):
            continue
        try:
            check_name(name)
        except UsageError as exc:
            raise UsageError(f"roster line {number}: {exc}") from None
        key = " ".join(unicodedata.normalize("NFC", name).casefold().split())
        if key in seen:
            raise UsageError(f"roster line {number}: {quoted(name)} is already on line {seen[key]} (names must "
                             "differ in more than case)")
        seen[key] = number
        names.append(name)
    if not names:
        raise UsageError("the roster holds no names: give a CSV with one student's name a line")
    if len(names) > MAX_STUDENTS:
        raise UsageError(f"the roster holds {len(names):,} names, more than {MAX_STUDENTS:,}")
    return names


def parse_deadline(text: str, now: float | None = None) -> str:
    """An ISO 8601 time (``2026-12-01T18:00``, ``...Z``, ``...+01:00``; without a zone: UTC) as ISO 8601 UTC;
    one UsageError line when it does not parse or is past."""
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise UsageError(f"--deadline {quoted(text)} is not an ISO 8601 time such as 2026-12-01T18:00Z") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    when = when.astimezone(timezone.utc)
    if when.timestamp() <= (time.time() if now is None else now):
        raise UsageError(f"--deadline {quoted(text)} is past (now {datetime.now(timezone.utc):%Y-%m-%dT%H:%MZ})")
    return when.isoformat(timespec="seconds").replace("+00:00", "Z")


def _openings(settings: ContestSettings) -> list[str]:
    """The contest's openings: the given ones checked, else ``openings_count`` judged of evaluation 0."""
    from ..arena.openings import (
        agent_evaluator,
        candidate_positions,
        format_opening,
        generate_openings,
        has_balanced_openings,
        parse_opening,
        solver_evaluator,
    )
    from ..games import get_game

    game = get_game(settings.game)
    if settings.openings is not None:
        for text in settings.openings:
            parse_opening(game, text)  # an IllegalMoveError line names the opening
        return [format_opening(game, parse_opening(game, text)) for text in settings.openings]
    judge = settings.openings_with or ("solver" if has_balanced_openings(game) else OPENINGS_JUDGE)
    candidates = candidate_positions(game, settings.opening_plies)
    evaluate = solver_evaluator(game) if judge == "solver" else agent_evaluator(game, judge)
    kept = generate_openings(game, settings.opening_plies, 0, evaluate, seed=settings.seed or 0,
                             candidates=candidates, count=settings.openings_count)
    if not kept:
        raise UsageError(f"no position {settings.opening_plies} plies into {game.spec} is of evaluation 0 for "
                         f"{judge}: ask for other --opening-plies, or give --openings FILE")
    return [format_opening(game, actions) for actions, _ in kept]


def _check_references(game_spec: str, references: Sequence[dict[str, Any]], folder: Path | None = None) -> None:
    from ..agents.registry import make_agent
    from ..agents.simple import HumanAgent
    from ..games import get_game
    from .checks import reference_spec

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


def _copy_references(references: Sequence[dict[str, Any]], build: Path) -> list[dict[str, Any]]:
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
        (build / REFERENCES).mkdir(exist_ok=True)
        (build / REFERENCES / copy).write_bytes(data)
        out.append({**ref, "file": f"{REFERENCES}/{copy}", "entry": entry or None,
                    "sha256": hashlib.sha256(data).hexdigest()})
    return out


def _is_file(ref: dict[str, Any]) -> bool:
    return not isinstance(ref.get("engine"), dict) and str(ref["spec"]).strip().partition(":")[0].endswith(".py")


def contest_files(directory: Path) -> list[Path]:
    """The files and folders named as a contest's that exist in ``directory`` (whose they are is
    :func:`.owned.contest_owned`'s question)."""
    return [directory / name for name in CONTEST_FILES if os.path.lexists(directory / name)]


def _link(url: str, token: str) -> str:
    return f"{url.rstrip('/')}/s/{token}"


def create_contest(directory: str | Path, settings: ContestSettings, *,
                   overwrite: bool = False) -> list[tuple[str, str, str]]:
    """Make the contest folder ``directory``; its ``(name, token, link)`` rows as written to tokens.csv (the
    teacher first).  Every check happens before anything is written; a UsageError/GameError line otherwise."""
    from .owned import contest_owned

    target = Path(directory)
    if os.path.lexists(target) and not target.is_dir():
        raise UsageError(f"{quoted(str(target))} exists and is not a folder")
    replaced = contest_owned(target, overwrite) if target.is_dir() else []  # only the contest's own files
    busy = holder(target) if replaced else None
    if busy is not None:
        from .lock import busy_message

        raise UsageError(busy_message(target, *busy).replace("another", "a", 1) + ": stop it before replacing "
                         "the contest")
    if not target.parent.is_dir():
        raise UsageError(f"the folder {quoted(str(target.parent))} does not exist")
    from ..games import get_game

    game = get_game(settings.game)
    names = [str(r["name"]) for r in settings.references]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is not None:
        raise UsageError(f"--reference: two references are called {quoted(twice)}: name them NAME=SPEC")
    _check_references(game.spec, [r for r in settings.references if not _is_file(r)])
    if settings.seed is None:
        settings.seed = secrets.randbelow(2**31)
    openings = _openings(settings)
    people = [(TEACHER, secrets.token_urlsafe(24), "teacher")]
    people += [(name, secrets.token_urlsafe(24), "student") for name in settings.roster]
    config: dict[str, Any] = {
        "game": game.spec, "limits": {"nodes": settings.nodes, "move_time": settings.move_time, "tc": settings.tc},
        "openings": openings, "references": settings.references, "deadline": settings.deadline,
        "seed": settings.seed, "frozen": False, "created": time.time(), "url": settings.url}
    store, moving = None, False
    try:
        build = Path(tempfile.mkdtemp(prefix=".contest-new-", dir=target.parent))
    except OSError as exc:
        raise UsageError(f"cannot write the contest to {quoted(str(target))}: {exc.strerror or exc}") from None
    try:
        if is_file_game(settings.game):  # played from its copy in the folder, by every seat (.game_file)
            config["game"], config["game_file"] = copy_game(settings.game, game.spec, build, target)
        config["references"] = _copy_references(settings.references, build)
        _check_references(game.spec, [r for r in config["references"] if "file" in r], build)
        store = Store(build, create=True)
        store.set_config(**config)
        store.add_people(people)
        store.close()
        (build / SUBMISSIONS).mkdir()
        fd = os.open(build / TOKENS, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["name", "token", "link"])
            writer.writerows([(name, token, _link(settings.url, token)) for name, token, _ in people])
        moving = True  # from here on the folder changes
        target.mkdir(exist_ok=True)
        for old in replaced:  # files first, then their folders, each only once empty
            old.rmdir() if old.is_dir() and not old.is_symlink() else old.unlink()
        for name in CONTEST_FILES:  # the database last-but-one: a folder with contest.db is a whole contest
            if os.path.lexists(build / name):
                os.replace(build / name, target / name)
    except (OSError, sqlite3.Error) as exc:
        why = storage_problem(exc) or " ".join(str(exc).split())
        raise UsageError(f"cannot write the contest to {quoted(str(target))}: {why[:300]}"
                         + ("" if moving else "; nothing was written")) from None
    finally:
        if store is not None:
            store.close()
        shutil.rmtree(build, ignore_errors=True)
    return [(name, token, _link(settings.url, token)) for name, token, _ in people]
