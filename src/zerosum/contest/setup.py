"""A new contest's folder (``zerosum contest new``): the roster read and checked, tokens made, openings judged,
everything written at once.

:func:`create_contest` checks every input before it writes anything, builds the folder's files in a fresh
folder beside it, and moves them in at the end, so an error leaves the disk as it was.  The folder is its
owner's only (0700; the database 0600: :func:`.owned.private`), and gets:

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

**After** ``contest new`` the roster changes one person at a time, the server running or not (it asks the
database at each request): :func:`add_students` adds a late student, :func:`new_token` gives one person a new
token (the old one refused from then on) or none; each writes the database, then tokens.csv, and changes
nothing on a bad input.
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

from ..errors import UsageError
from ..spec import quoted
from .checks import check_references, copy_references, is_file_reference
from .game_file import copy_game, is_file_game
from .lock import busy_message, holder
from .owned import CONTEST_FILES, SUBMISSIONS, TOKENS, private
from .store import Store, hash_token, storage_problem
from .submissions import closed_reason

__all__ = ["ContestSettings", "create_contest", "check_name", "read_roster", "parse_deadline", "contest_files",
           "add_students", "new_token", "TEACHER", "MAX_NAME", "MAX_STUDENTS", "TOKENS", "SUBMISSIONS",
           "OPENINGS_JUDGE", "openings_judge"]

#: the teacher's row in ``people`` (a name no student can have: students' names never start with ``#``)
TEACHER = "#teacher"
MAX_NAME = 64
MAX_STUDENTS = 2000
#: what judges openings on games the solver does not take and :func:`openings_judge` does not search to their
#: end (value 0 at its depth: even as far as it sees, not proven)
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


def _key(name: str) -> str:
    """What two names may not share: the name without case and with single spaces."""
    return " ".join(unicodedata.normalize("NFC", name).casefold().split())


def read_roster(text: str) -> list[str]:
    """The names of a roster CSV: the first column of each row (a first row ``name`` is a header); blank lines and a
    leading byte-order mark (Excel's "CSV UTF-8") skipped.  One UsageError line: no name, a bad or repeated one."""
    names: list[str] = []
    seen: dict[str, int] = {}
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))  # as utf-8-sig reads: one further in is refused
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
        key = _key(name)
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
        parse_opening,
        solver_evaluator,
    )
    from ..games import get_game

    game = get_game(settings.game)
    if settings.openings is not None:
        for text in settings.openings:
            parse_opening(game, text)  # an IllegalMoveError line names the opening
        return [format_opening(game, parse_opening(game, text)) for text in settings.openings]
    judge = settings.openings_with or openings_judge(game, settings.opening_plies)
    candidates = candidate_positions(game, settings.opening_plies)
    evaluate = solver_evaluator(game) if judge == "solver" else agent_evaluator(game, judge)
    kept = generate_openings(game, settings.opening_plies, 0, evaluate, seed=settings.seed or 0,
                             candidates=candidates, count=settings.openings_count)
    if not kept:
        raise UsageError(f"no position {settings.opening_plies} plies into {game.spec} is of evaluation 0 for "
                         f"{judge}: ask for other --opening-plies, or give --openings FILE")
    return [format_opening(game, actions) for actions, _ in kept]


def openings_judge(game: Any, plies: int) -> str:
    """What judges ``game``'s default openings ``plies`` in: the solver where it takes the board; else, on a board
    of at most :data:`~zerosum.agents.unbounded.SEARCHABLE_CELLS` cells that every move fills (Tic-Tac-Toe, a
    Connect-X board the solver is not installed for), alpha-beta as deep as the cells left: to the end of every
    game, so evaluation 0 is a draw with perfect play (Tic-Tac-Toe's 756 positions 4 plies in take it under a
    second); else :data:`OPENINGS_JUDGE`, an estimate (at depth 4, 24 of the 152 Tic-Tac-Toe positions it calls
    even are won by the side to move)."""
    from ..agents.unbounded import SEARCHABLE_CELLS
    from ..arena.openings import has_balanced_openings

    if has_balanced_openings(game):
        return "solver"
    view = game.board_view(game.initial_state) if game.TURN_FROM_PIECES else None
    cells = view.rows * view.cols if view is not None else None
    if cells is not None and cells <= SEARCHABLE_CELLS:
        return f"alphabeta:depth={max(1, cells - plies)}"
    return OPENINGS_JUDGE


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
    check_references(game.spec, [r for r in settings.references if not is_file_reference(r)])
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
        config["references"] = copy_references(settings.references, build)
        check_references(game.spec, [r for r in config["references"] if "file" in r], build)
        store = Store(build, create=True)
        store.set_config(**config)
        store.add_people(people)
        store.close()
        (build / SUBMISSIONS).mkdir(mode=0o700)
        fd = os.open(build / TOKENS, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as out:
            writer = csv.writer(out)
            writer.writerow(["name", "token", "link"])
            writer.writerows([(name, token, _link(settings.url, token)) for name, token, _ in people])
        private(build)  # the teacher's only: the folder 0700, the database 0600 (its -wal and -shm follow it)
        moving = True  # from here on the folder changes
        target.mkdir(mode=0o700, exist_ok=True)
        private(target)  # a folder that was there: 0700 too, when it is this account's
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


# -- the roster after `contest new`: a late student, a token reissued or revoked ---------------------------------
def _tokens_file(directory: Path, changes: dict[str, tuple[str, str]]) -> Path:
    """tokens.csv with each ``name: (token, link)`` of ``changes`` put in its row (a new name: a row at the end),
    written beside it (0600) and synced: the file to move over it once the database has the change."""
    path, rows = directory / TOKENS, []
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))[1:]
    except FileNotFoundError:
        pass
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise UsageError(f"{quoted(str(path))} cannot be read ({getattr(exc, 'strerror', None) or exc}): nothing "
                         "was changed") from None
    left = dict(changes)
    rows = [[row[0], *left.pop(row[0])] if row and row[0] in left else row for row in rows]
    fd, temp = tempfile.mkstemp(prefix=".tokens-", suffix=".csv", dir=directory)  # 0600
    with os.fdopen(fd, "w", newline="", encoding="utf-8") as out:
        csv.writer(out).writerows([["name", "token", "link"], *rows, *([n, *v] for n, v in left.items())])
        out.flush()
        os.fsync(out.fileno())
    return Path(temp)


def _change_people(directory: str | Path, change: Any) -> list[tuple[str, str, str]]:
    """Open the contest, let ``change(store, config)`` check its input (a UsageError line, nothing changed) and
    return ``(rows, sql, params)``: the ``(name, token, link)`` rows for tokens.csv and the statement that makes
    the change; then the database and tokens.csv changed together (the database first; nothing when it fails)."""
    store = Store(directory)
    try:
        rows, sql, params = change(store, store.config())
        folder = store.directory
        try:
            temp = _tokens_file(folder, {name: (token, link) for name, token, link in rows})
        except OSError as exc:
            raise UsageError(f"cannot write {quoted(str(folder / TOKENS))}: {exc.strerror or exc}; nothing was "
                             "changed") from None
        try:
            with store.transaction() as db:  # failing: nothing changed (the temporary file goes)
                try:
                    db.executemany(sql, params)
                except sqlite3.IntegrityError:  # another command added the name meanwhile
                    raise UsageError("the roster changed meanwhile: run the command again; nothing was changed") \
                        from None
            try:
                os.replace(temp, folder / TOKENS)
            except OSError as exc:
                links = "; ".join(f"{name}: {link}" for name, token, link in rows if token)
                raise UsageError(f"the change is made, but {TOKENS} could not be written ({exc.strerror or exc})"
                                 + (f": the new link, shown only here: {links}" if links else "")) from None
        finally:
            temp.unlink(missing_ok=True)
        return [row for row in rows if row[1]]
    finally:
        store.close()


def add_students(directory: str | Path, names: Sequence[str]) -> list[tuple[str, str, str]]:
    """Add students to the contest in ``directory`` (a late student): their ``(name, token, link)`` rows, also
    added to tokens.csv.  One UsageError line, nothing changed, for a name the roster refuses (:func:`check_name`)
    or that the contest has (case and spacing aside), past :data:`MAX_STUDENTS`, once uploads are closed (a
    student added then could not submit) or while a final runs."""
    def change(store: Store, config: dict[str, Any]) -> Any:
        running = holder(store.directory)
        if running is not None and running[1] == "final":
            raise UsageError(busy_message(store.directory, *running).replace("another", "a", 1) + ": add students "
                             "once it has ended; nothing was changed")
        closed = closed_reason(config)
        if closed:
            raise UsageError(f"uploads are closed ({closed}): a student added now could not submit; nothing was "
                             "changed")
        have = {_key(n): n for n in store.people()}
        given: dict[str, str] = {}
        for name in names:
            try:
                check_name(name)
            except UsageError as exc:
                raise UsageError(f"{exc}; nothing was changed") from None
            other = have.get(_key(name)) or given.get(_key(name))
            if other is not None:
                where = "in the contest already" if _key(name) in have else "given twice"
                same = f" (as {quoted(other)})" if other != name else ""
                raise UsageError(f"{quoted(name)} is {where}{same}: names must differ in more than case; nothing "
                                 "was changed")
            given[_key(name)] = name
        have.update(given)
        if len(have) - 1 > MAX_STUDENTS:
            raise UsageError(f"the contest would hold {len(have) - 1:,} students, more than {MAX_STUDENTS:,}; "
                             "nothing was changed")
        rows = [(name, token, _link(str(config.get("url", "")), token))
                for name, token in ((n, secrets.token_urlsafe(24)) for n in names)]
        return rows, "INSERT INTO people(name, token_hash, role) VALUES (?, ?, 'student')", \
            [(name, hash_token(token)) for name, token, _ in rows]

    if not names:
        raise UsageError("give the name of each student to add")
    return _change_people(directory, change)


def new_token(directory: str | Path, name: str, revoke: bool = False) -> tuple[str, str, str] | None:
    """Give ``name`` (a student, or :data:`TEACHER`) of the contest in ``directory`` a new token, the old one
    refused from now on: ``(name, token, link)``, also in tokens.csv; ``revoke``: no token at all (its row in
    tokens.csv left without one), None.  One UsageError line, nothing changed, for a name the contest does not
    have.  The server may be running: it asks the database at each request."""
    def change(store: Store, config: dict[str, Any]) -> Any:
        people = store.people()
        if name not in people:
            near = [n for n in people if _key(n) == _key(name)]
            hint = f" (did you mean {quoted(near[0])}?)" if near else f" (the teacher is {quoted(TEACHER)})"
            raise UsageError(f"no one called {quoted(name)} in the contest in {store.directory}{hint}; nothing "
                             "was changed")
        token = "" if revoke else secrets.token_urlsafe(24)
        held = "revoked:" + secrets.token_hex(16) if revoke else hash_token(token)  # no token hashes to it
        row = (name, token, _link(str(config.get("url", "")), token) if token else "")
        return [row], "UPDATE people SET token_hash = ? WHERE name = ?", [(held, name)]

    rows = _change_people(directory, change)
    return rows[0] if rows else None
