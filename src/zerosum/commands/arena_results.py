"""The results file of ``zerosum match`` and ``zerosum tournament`` (:mod:`zerosum.commands.arena`): its name
(``-o/--output``, else :data:`RESULTS` or the next free name after it), and a new one written whole with the
run's plan and settings, or an old one replaced (``--overwrite``) without ever leaving half a file.

Kept quick to import (``--help`` loads no solver): the arena's modules load when a run is built.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from ..errors import GameError

__all__ = ["RESULTS", "held_games", "results_path", "start_new", "ARENA_NOT_EMPTY"]

#: the results file of a run that names none (a new run takes the next free name, results-2.db, ... when it
#: holds a run)
RESULTS = "results.db"


def held_games(path: Path) -> int:
    """The games a results file holds (0: none, or no file; -1: a file that is not a results file).  A file
    that cannot be opened for a reason outside it (a full disk, a lock) is its StorageError line."""
    from ..arena.store import Store, StorageError

    if not os.path.lexists(path):
        return 0
    try:
        with Store(path) as old:
            return old.count() if not old.is_empty() else 0
    except StorageError:
        raise
    except GameError:
        return -1


#: match's and tournament's options whose empty value was once read as the option left out: what each takes
ARENA_NOT_EMPTY = {"sprt": ("--sprt", "ELO0,ELO1[,ALPHA,BETA], such as 0,5"),
                   "openings": ("--openings", "an openings file")}


def results_path(args: argparse.Namespace) -> str:
    """``-o/--output``, else :data:`RESULTS`; a new run that names no file and would meet a run there takes the
    next free name, ``results-2.db``, ``results-3.db``, ..., even with ``--overwrite``, which replaces only files
    named on the command line (``--overwrite`` given for ``--pgnout`` once replaced an unnamed ``results.db``).
    The line that says so is kept in ``args.results_notice``, for the run to print once it has started.  First
    of all, an output (``-o``, ``--pgnout``, ``--ranking``) that is one of the run's inputs (an agent file, an
    ``eval=`` file, the game file, ``--openings``, an engine's program) is one line, whatever ``--overwrite``
    says (:mod:`zerosum.commands.inputs`)."""
    from .inputs import arena_outputs, check_inputs, run_inputs
    from .options import refuse_empty

    refuse_empty(args, ARENA_NOT_EMPTY)  # --sprt '', --openings '': one line, not the option left out
    args.results_notice = None
    if args.out is not None or args.resume:
        name = RESULTS if args.out is None else str(args.out)
    else:
        name, number, held = RESULTS, 1, held_games(Path(RESULTS))
        while held_games(Path(name)) != 0:
            number += 1
            name = f"{Path(RESULTS).stem}-{number}{Path(RESULTS).suffix}"
        if number > 1:
            what = f"holds a run ({held} games)" if held > 0 else "is not a results file"
            args.results_notice = (f"{RESULTS} {what}: this run writes {name} (to carry it on later: --resume -o "
                                   f"{name}; -o {RESULTS} --overwrite replaces {RESULTS}; -o FILE names the file)")
    check_inputs(run_inputs(args), arena_outputs(args, name, getattr(args, "pgnout", None)))
    return name


def start_new(args: argparse.Namespace, config: Any, out: Path) -> Any:
    """A new results file (or ``--overwrite``: a replaced one), locked, holding the run's plan and settings.
    Its SQLite companions (``-wal``, ``-shm``, ``-journal``) are checked before anything is touched.  A file
    replaced is built whole beside it first, then renamed over it while the old file's run lock is held, so a
    run that cannot store its plan (a full disk, Ctrl-C) leaves the old file (or none) and nothing else."""
    from ..arena.store import Store, lock_file
    from ..core.files import _kind, shown
    from ..errors import InvalidFileError
    from .inputs import JOURNALS
    from .options import UsageError

    journals = [Path(str(out) + suffix) for suffix in JOURNALS]
    for companion in journals:  # SQLite writes them beside the file: regular files or none
        kind = _kind(os.lstat(companion).st_mode) if os.path.lexists(companion) else None
        if kind is not None:
            raise InvalidFileError(f"results file {shown(out)}: {shown(companion)} beside it is {kind}, not SQLite's "
                                   "journal: remove it (or name another file) and run the command again")
    if out.exists() and not args.overwrite:
        held = held_games(out)
        if held != 0:
            what = f"already holds {held} games" if held > 0 else "exists and is not a results file"
            raise UsageError(f"{shown(out)} {what}: use --resume to carry on, --overwrite to replace, "
                             f"or -o/--output to choose another file")
    if not (args.overwrite and os.path.lexists(out)):
        return _stored(args, config, out)
    with lock_file(out):  # a run still writing the old file keeps it; held until the new file is in its place
        built = _stored(args, config, out, replace=True)  # whole in a temporary file beside it, closed
        try:
            for companion in journals:  # the old file's journal would be read into the new one
                companion.unlink(missing_ok=True)
            os.replace(built.path, out)
        except BaseException:
            built.path.unlink(missing_ok=True)
            raise
        return Store(out, create=True, lock=True)


def _stored(args: argparse.Namespace, config: Any, out: Path, replace: bool = False) -> Any:
    """The locked store of a new file ``out`` holding the run's plan and settings; ``replace``: the closed store
    of a temporary file beside ``out`` to be renamed ``out``, in SQLite's rollback mode (whole in itself), on
    disk.  On any failure the files it made are removed; a full disk (...) is one line naming ``out``."""
    import tempfile

    from ..arena.match import iter_plan, labels_for
    from ..arena.store import Store, StorageError
    from ..core.files import _mode_for, shown
    from ..core.sqlite_trouble import OUTSIDE, outside
    from ..errors import InvalidFileError
    from .inputs import JOURNALS

    made: list[Path] = []
    store = None
    try:
        path = out
        if replace:
            fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
            path, made = Path(name), [Path(name)]
            os.fchmod(fd, _mode_for(out) | 0o600)  # the old file's mode, writable (mkstemp makes 0600)
            os.close(fd)
        made = [p for p in (path, *(Path(str(path) + s) for s in JOURNALS)) if replace or not os.path.lexists(p)]
        store = Store(path, create=True, lock=True)
        db = store.db  # the file whole in itself at each commit, no -wal beside it to lose in the rename
        if replace and db is not None and db.execute("PRAGMA journal_mode=DELETE").fetchone()[0] != "delete":
            raise StorageError(str(out), "its journal mode cannot be set")
        store.initialise(config.to_json(), list(zip(labels_for(config.agents), config.agents)), iter_plan(config))
        if args.engines_seen:  # kept with the run: --resume starts them again, the report shows them
            store.set_meta("engines", args.engines_seen)
        if args.move_cpu is not None:  # kept with the run: --resume plays on under it (arena/counting.py)
            store.set_meta("move_cpu", args.move_cpu)
        if replace:
            store.close()
            with open(path, "rb") as done:  # on disk before it is renamed
                os.fsync(done.fileno())
    except BaseException as exc:
        if store is not None:
            store.close()
        for made_path in made:
            made_path.unlink(missing_ok=True)
        code = outside(exc)  # a raw SQLite error (the journal mode), an OSError (a file made, the fsync)
        problem = exc.problem if isinstance(exc, StorageError) else OUTSIDE[code][1] if code is not None \
            else exc.strerror if isinstance(exc, OSError) else None
        if problem is None:
            raise
        kept = "the old file is left as it was" if replace else "nothing was kept"
        raise InvalidFileError(f"results file {shown(out)} cannot be written: {problem}; {kept}: free space (or "
                               "remove the cause) and run the command again") from None
    return store
