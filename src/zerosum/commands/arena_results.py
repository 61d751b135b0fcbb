"""The results file of ``zerosum match`` and ``zerosum tournament`` (:mod:`zerosum.commands.arena`): its name
(``-o/--output``, else :data:`RESULTS` or the next free name after it), and a new one written whole with the
run's plan and settings, or an old one replaced (``--overwrite``) without ever leaving half a file.

A new run takes the file's run lock (:func:`zerosum.arena.store_files.claim`) before it judges what the file
holds: a file another run holds, even one it is still making, is "in use by another run", never "not a
results file", and a run that names no file passes it for the next free name.

Kept quick to import (``--help`` loads no solver): the arena's modules load when a run is built.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GameError

if TYPE_CHECKING:
    from ..arena.store_files import Claim

__all__ = ["RESULTS", "held_games", "results_path", "start_new", "release_claim", "ARENA_NOT_EMPTY"]

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
    named on the command line (``--overwrite`` given for ``--pgnout`` once replaced an unnamed ``results.db``),
    and passes one another run holds; the name is claimed at once, so two runs started together take two.
    The line that says so is kept in ``args.results_notice``, for the run to print once it has started.  First
    of all, an output (``-o``, ``--pgnout``, ``--ranking``) that is one of the run's inputs (an agent file, an
    ``eval=`` file, the game file, ``--openings``, an engine's program) is one line, whatever ``--overwrite``
    says (:mod:`zerosum.commands.inputs`)."""
    from .inputs import arena_outputs, check_inputs, run_inputs
    from .options import refuse_empty

    refuse_empty(args, ARENA_NOT_EMPTY)  # --sprt '', --openings '': one line, not the option left out
    args.results_notice = args.results_claim = None
    if args.out is not None or args.resume:
        name = RESULTS if args.out is None else str(args.out)
    else:
        name = _free_name(args)
    try:
        check_inputs(run_inputs(args), arena_outputs(args, name, getattr(args, "pgnout", None)))
    except BaseException:
        release_claim(args)
        raise
    return name


#: what :func:`_free_name` says of a results.db it passes other than one holding a run: another run holds it
#: (-2), or it is not a results file (-1, as held_games says)
_PASSED = {-2: "is in use by another run", -1: "is not a results file"}


def _free_name(args: argparse.Namespace) -> str:
    """The first of :data:`RESULTS`, ``results-2.db``, ... that holds nothing, claimed for the run (its lock held,
    the file made empty when missing, so a run started at the same moment passes it too) in
    ``args.results_claim``, which :func:`start_new` writes.  A claim the run never uses (the command stopped
    before it) is let go, and the file made for it removed, by :func:`release_claim`, which the command calls
    on every way out before :func:`start_new`."""
    from ..arena.store_files import claim

    number, first = 1, 0
    while True:
        path = Path(RESULTS if number == 1 else f"{Path(RESULTS).stem}-{number}{Path(RESULTS).suffix}")
        held, taken = -1, None
        if not os.path.islink(path) and (path.is_file() or not os.path.lexists(path)):  # else: not a results file
            taken = claim(path)
            try:
                held = -2 if taken is None else 0 if taken.empty else held_games(path)  # judged while held
            except BaseException:
                if taken is not None:
                    taken.close()
                raise
        if held == 0 and taken is not None:
            break
        if taken is not None:
            taken.close()
        first, number = first or held, number + 1
    args.results_claim = taken
    if number > 1:
        what = _PASSED.get(first, f"holds a run ({first} games)")
        replace = f"; -o {RESULTS} --overwrite replaces {RESULTS}" if first != -2 else ""
        args.results_notice = (f"{RESULTS} {what}: this run writes {path} (to carry it on later: --resume -o "
                               f"{path}{replace}; -o FILE names the file)")
    return str(path)


def release_claim(args: argparse.Namespace) -> None:
    """The results file :func:`results_path` claimed for a run that stops before it starts: let go, and removed
    when made for it (nothing is left of a command that fails)."""
    taken, args.results_claim = getattr(args, "results_claim", None), None
    if taken is not None:
        taken.close(keep=False)


def start_new(args: argparse.Namespace, config: Any, out: Path) -> Any:
    """A new results file (or ``--overwrite``: a replaced one), locked, holding the run's plan and settings.
    Its SQLite companions (``-wal``, ``-shm``, ``-journal``) are checked before anything is touched.  The file's
    run lock is taken first (:func:`results_path` took it for a file the run does not name), and only then is
    what it holds judged: another run's file, even one still being made, is in use; so is the run's record file
    (``--pgnout``) while another run writes it.  A file replaced is built whole beside it first, then renamed over
    it while the old file's run lock is held, so a run that cannot store its plan (a full disk, Ctrl-C) leaves
    the old file (or none) and nothing else."""
    from ..arena.store import lock_file
    from ..arena.store_files import claim, in_use
    from ..core.files import _kind, shown
    from ..errors import InvalidFileError
    from .inputs import JOURNALS
    from .options import UsageError

    taken, args.results_claim = getattr(args, "results_claim", None) or claim(out), None
    if taken is None:
        raise in_use(out)
    started = False
    try:
        journals = [Path(str(out) + suffix) for suffix in JOURNALS]
        for companion in journals:  # SQLite writes them beside the file: regular files or none
            kind = _kind(os.lstat(companion).st_mode) if os.path.lexists(companion) else None
            if kind is not None:
                raise InvalidFileError(f"results file {shown(out)}: {shown(companion)} beside it is {kind}, not "
                                       "SQLite's journal: remove it (or name another file) and run the command again")
        if getattr(args, "pgnout", None) is not None:  # another run's record file: refused before anything is written
            with lock_file(Path(args.pgnout), "record file"):
                pass
        if not taken.empty and args.overwrite:
            store = _replaced(args, config, out, journals)  # a run still writing the old file keeps it
        else:
            held = 0 if taken.empty else held_games(out)  # an empty file (made just now) has nothing to lose
            if held != 0:
                what = f"already holds {held} games" if held > 0 else "exists and is not a results file"
                raise UsageError(f"{shown(out)} {what}: use --resume to carry on, --overwrite to replace, "
                                 f"or -o/--output to choose another file")
            store = _stored(args, config, out, taken=taken)  # in place, under the lock taken
        started = True
        return store
    finally:
        taken.close(keep=started)  # the store keeps the lock; a file made for a run that never began is removed


def _replaced(args: argparse.Namespace, config: Any, out: Path, journals: list[Path]) -> Any:
    """The locked store of a new file built whole beside ``out``, then renamed over it (the old file's run lock
    held by the caller until the new file is in its place)."""
    from ..arena.store import Store

    built = _stored(args, config, out, replace=True)  # whole in a temporary file beside it, closed
    try:
        for companion in journals:  # the old file's journal would be read into the new one
            companion.unlink(missing_ok=True)
        os.replace(built.path, out)
    except BaseException:
        built.path.unlink(missing_ok=True)
        raise
    return Store(out, create=True, lock=True)


def _stored(args: argparse.Namespace, config: Any, out: Path, replace: bool = False,
            taken: Claim | None = None) -> Any:
    """The locked store of a new file ``out`` holding the run's plan and settings (``taken``: the claim of ``out``,
    whose lock the store keeps); ``replace``: the closed store of a temporary file beside ``out`` to be renamed
    ``out``, in SQLite's rollback mode (whole in itself), on disk.  On any failure the files it made are removed;
    a full disk (...) is one line naming ``out``."""
    import tempfile

    from ..arena.forfeits import run_move_cpu
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
        store = Store(path, create=True, lock=taken or True)
        db = store.db  # the file whole in itself at each commit, no -wal beside it to lose in the rename
        if replace and db is not None and db.execute("PRAGMA journal_mode=DELETE").fetchone()[0] != "delete":
            raise StorageError(str(out), "its journal mode cannot be set")
        store.initialise(config.to_json(), list(zip(labels_for(config.agents), config.agents)), iter_plan(config))
        if args.engines_seen:  # kept with the run: --resume starts them again, the report shows them
            store.set_meta("engines", args.engines_seen)
        cpu = run_move_cpu(config.limits, args.move_cpu)  # under --nodes: --move-cpu, else the default
        if cpu is not None:  # kept with the run, the default too: --resume plays on under exactly this rule
            store.set_meta("move_cpu", cpu)
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
