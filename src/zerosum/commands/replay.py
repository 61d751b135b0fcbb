"""``zerosum replay FILE [--index N] [--list]``: step through a game record (:mod:`zerosum.ui.replay`); and the
records side of the arena's commands: ``--pgnout FILE`` of match and tournament, ``report DB --export FILE``.

The format is :mod:`zerosum.records` (docs/records.md).  Quick to import: the face loads inside ``run``.
"""

from __future__ import annotations

import argparse
import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from .options import UsageError, float_arg, int_arg

__all__ = ["COMMANDS", "MAX_GAME_NUMBER", "PGNOUT_KEY", "READING_SAID", "check_pgnout", "export_records",
           "open_pgnout", "reading", "resumed_pgnout"]

#: the results file's meta key naming the run's record file (relative to the results file's folder)
PGNOUT_KEY = "pgnout"

#: ``zerosum replay --index N``: at most this (a record file is at most 256 MB)
MAX_GAME_NUMBER = 10_000_000
#: seconds of loading a record file before it is said (:func:`reading`)
READING_SAID = 1.0


def _add_replay(p: argparse.ArgumentParser) -> None:
    from .play import MAX_HINT_TIME, MAX_SOLVER_TIME

    p.add_argument("file", metavar="FILE", help="a record file (zerosum match --pgnout, zerosum report --export)")
    p.add_argument("--index", "-n", dest="number", type=int_arg(1, MAX_GAME_NUMBER), default=None, metavar="N",
                   help=f"which game of the file, counted from 1 as --list numbers them (default 1, at most "
                        f"{MAX_GAME_NUMBER:,})")
    p.add_argument("--game", dest="old_number", metavar="FILE.py:Class",
                   help="the game of a record of your own game file: a record never runs the file it names, so "
                        "name it yourself (the same file name and class as the record's Game tag; the folder may "
                        "differ); zerosum's own games come from the record (--game N: the old spelling of --index N)")
    p.add_argument("--list", action="store_true",
                   help="print one line per game (number, players, result, termination, moves and variations) "
                        "and stop")
    p.add_argument("--hint-time", type=float_arg(hi=MAX_HINT_TIME, above=0), default=1.0, metavar="SECONDS",
                   help=f"the analysis (a): alpha-beta's time where the solver cannot go (default 1, at most "
                        f"{MAX_HINT_TIME:g})")
    p.add_argument("--solver-time", type=float_arg(hi=MAX_SOLVER_TIME, above=0), default=10.0, metavar="SECONDS",
                   help=f"the analysis (a): how long it waits for the solver (default 10, at most {MAX_SOLVER_TIME:g})")
    p.add_argument("--no-color", action="store_true", help="plain text even on a terminal")


def _run_replay(args: argparse.Namespace) -> int:
    import sys

    from ..core.files import shown
    from ..ui.replay import ReplaySession, key_reader
    from ..ui.terminal import Output, _stdin_reader, use_color

    number, game = _index(args)
    listed, record, total = _scan(args.file, number, args.list, game)  # a missing, binary or malformed file: one line
    if not total:
        raise UsageError(f"record file {shown(args.file)} holds no games")
    if args.list:
        for line in listed:
            print(line)
        return 0
    if record is None:
        raise UsageError(f"--index {number}: record file {shown(args.file)} holds {total} "
                         f"game{'s' if total != 1 else ''} (1..{total})")
    out = sys.stdout
    if out is None:
        raise UsageError("standard output is closed: zerosum replay needs somewhere to draw the board")
    output = Output(out, use_color(out, args.no_color))
    session = ReplaySession(record, key_reader(out, _stdin_reader(out)), output, number=number,
                            total=total, hint_time=args.hint_time, solver_time=args.solver_time)
    return session.run()


def _scan(path: str, number: int, listing: bool, game: Any = None) -> tuple[list[str], Any, int]:
    """``(the --list lines in blocks, game number, how many games)`` of a record file, every game checked but read one
    at a time, so that only the text, the lines and the game asked for are held (the lines are printed once
    the whole file is known to be sound: a malformed file is one line and nothing else); ``game``: the game
    ``--game`` names (a record of a game file is read only with it)."""
    from ..core.files import shown
    from ..errors import InvalidFileError
    from ..records.reading import iter_read

    listed: list[str] = []  # the lines, joined in blocks (a string a line would cost twice the text)
    block: list[str] = []
    chosen, total, failed = None, 0, False
    try:
        with reading(path, "replay"):
            for total, r in enumerate(iter_read(path, game=game), 1):
                if listing:
                    block.append(_listed(total, r))
                    if len(block) == 1024:
                        listed.append("\n".join(block))
                        block.clear()
                elif total == number:
                    chosen = r
        listed += ["\n".join(block)] if block else []
    except MemoryError:
        failed = True
    if failed:  # outside the handler, so that the lines made so far are let go first
        raise InvalidFileError(f"record file {shown(path)}: not enough memory to read it")
    return listed, chosen, total


@contextmanager
def reading(path: str, command: str, up_to: int | None = None) -> Iterator[None]:
    """While the block loads the record file ``path``: should it take longer than :data:`READING_SAID` seconds,
    one line on standard error says so (``zerosum replay: reading 'big.pgn' (14.0 MB): every game checked as
    read, under a second a megabyte``: 14 MB took 9 s at a load of 2.6 on two cores; ``up_to``: the block
    reads as far as game N), and nothing once it is over."""
    import sys

    from ..core.files import shown

    try:
        size = f" ({os.stat(path).st_size / 1e6:.1f} MB)"
    except (OSError, ValueError):  # missing: the reader says so
        size = ""
    what = "every game" if up_to is None else f"as far as game {up_to:,}, each game"
    said, over = threading.Lock(), threading.Event()

    def say() -> None:
        with said:
            if not over.is_set() and sys.stderr is not None:
                print(f"zerosum {command}: reading {shown(path)}{size}: {what} checked as read, under a second a "
                      "megabyte", file=sys.stderr, flush=True)

    timer = threading.Timer(READING_SAID, say)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with said:
            over.set()
        timer.cancel()


def _listed(i: int, r: Any) -> str:
    """``--list``'s line for game ``i``: the players, result, termination, game, moves, variations and round."""
    t = r.tags
    plies, branches = len(r.moves), r.count_variations()
    also = f", {branches} variation{'s' if branches != 1 else ''}" if branches else ""
    return (f"{i:>4}  {t['First']} - {t['Second']}  {r.result}  {t['Termination']}  "
            f"({t['Game']}, {plies} move{'s' if plies != 1 else ''}{also}, round {t['Round']})")


def _index(args: argparse.Namespace) -> tuple[int, Any]:
    """``(the game number, the game --game names or None)``: ``--index N`` (default 1), or the old ``--game N``
    with a note on standard error; ``--game FILE.py:Class``, your own game, made here (the record's tag is
    never run); a ``--game`` of zerosum's games is one line pointing to ``--index``."""
    import sys

    from ..games import get_game
    from ..records.trust import names_file

    index = 1 if args.number is None else int(args.number)
    if args.old_number is None:
        return index, None
    text = args.old_number.strip()
    if names_file(text):
        return index, get_game(text)  # a game file the user names (one line when it cannot be made)
    if args.number is not None and text.isascii() and text.isdigit():
        raise UsageError("--index and --game both pick a game: give --index N alone")
    if not (text.isascii() and text.isdigit()):
        raise UsageError(f"--game {args.old_number!r}: replay takes zerosum's games from the record (its Game tag), "
                         "and --game names your own game file (FILE.py:Class) for a record of it; pick a game of "
                         "the file with --index N")
    try:
        number = int_arg(1, MAX_GAME_NUMBER)(text)
    except (argparse.ArgumentTypeError, ValueError) as exc:
        raise UsageError(f"--game {text}: {exc}") from None
    print(f"zerosum replay: note: --game {text} is now --index {text} (--game names a game type elsewhere)",
          file=sys.stderr)
    return number, None


# ---- the arena's records -------------------------------------------------------------------------


def check_pgnout(args: argparse.Namespace, results: Path) -> Path | None:
    """``--pgnout``'s path once it may be written, before any work (None without it): a regular file or
    none (never a FIFO, link or device, even with ``--overwrite``); a new run refuses an existing file unless
    ``--overwrite`` (which replaces it); ``--resume`` appends to it.  ``--pgnout ""`` is refused."""
    from ..arena.store_files import lock_file
    from ..core.files import check_output, shown

    if getattr(args, "pgnout", None) is None:
        return None
    check_output(args.pgnout, overwrite=True, what="record file")  # a FIFO, link or device first
    with lock_file(Path(args.pgnout), "record file"):  # another run's records: "in use", not "pass --overwrite"
        pass
    path = check_output(args.pgnout, overwrite=bool(args.resume or args.overwrite), what="record file")
    if path.resolve() == results.resolve():
        raise UsageError(f"--pgnout {shown(args.pgnout)} is the results file: name another file for the records")
    return path


def _remembered(store: Any) -> Path | None:
    """The record file the results file names (None: the run has none, or was stored by an older version)."""
    name = store.meta(PGNOUT_KEY)
    if not isinstance(name, str) or not name:
        return None
    return Path(os.path.normpath(Path(store.path).resolve().parent / name))


def resumed_pgnout(args: argparse.Namespace, path: Path | None, store: Any) -> tuple[Path | None, str]:
    """``(the record file a resumed run writes to, what to say of it)``: the one the run began with (the
    results file remembers it), with a notice for standard error once the run is sure to start, unless
    ``--pgnout`` names one; a file other than the remembered one must be new (it then gets every game of the
    run, the stored ones first), so no game is in it twice."""
    from ..core.files import check_output, shown

    before = _remembered(store)
    if path is None:
        if before is None:
            return None, ""
        return (check_output(before, overwrite=True, what="record file"),
                f"--resume: the records go on in {shown(before)}, the record file this run began with "
                "(--pgnout NEW names a new file for every game)")
    if before is not None and path.resolve() != before and path.exists():
        raise UsageError(f"--pgnout {shown(path)}: this run writes its records to {shown(before)}; leave --pgnout "
                         "out to go on there, or name a new file (it gets every game of the run)")
    return path, ""


def open_pgnout(path: Path | None, args: argparse.Namespace, store: Any) -> tuple[Any, Any]:
    """``(writer, on_game)`` for ``run_arena`` (``(None, None)`` without ``--pgnout``); the results file
    remembers the record file (relative to its folder), so that ``--resume`` goes on writing it."""
    if path is None:
        return None, None
    import sys

    from ..records import Writer

    writer = Writer(path, overwrite=not args.resume)  # --resume: a torn last game removed, a damaged file refused
    try:
        where = os.path.relpath(Path(path).resolve(), Path(store.path).resolve().parent)
        if store.meta(PGNOUT_KEY) != where:
            store.set_meta(PGNOUT_KEY, where)
        # the run's game, which this run plays (a game file is already made: --game named it, or --resume)
        hook = writer.game_hook(store, game=_run_game(store))  # --resume: the stored games the file lacks first
    except BaseException:
        writer.close()
        raise
    for note in writer.notes:  # what was mended, one line each
        print(note, file=sys.stderr)
    return writer, hook


def _run_game(store: Any) -> Any:
    """The game of the run being played in ``store``."""
    from ..arena.match import ArenaConfig
    from ..games import get_game

    return get_game(ArenaConfig.from_json(store.meta("config"), f"results file {str(store.path)!r}").game)


def export_records(results: str, target: str, overwrite: bool, game: str | None = None) -> int:
    """``zerosum report DB --export FILE [--game SPEC]``: every finished game of ``DB`` as records in ``FILE``
    (``game``: the run's own game file, which the results file alone never runs)."""
    from ..arena.match import open_run
    from ..core.files import check_output, shown
    from ..records import from_store, write
    from ..records.sources import check_stored_game
    from ..records.trust import given_game
    from .inputs import check_inputs, stored_inputs

    if target.strip() and Path(results).resolve() == Path(target).resolve():  # said first: --overwrite cannot help
        raise UsageError(f"-o/--export {shown(target)} is the results file itself: name another file for the records")
    given = None if game is None else given_game(game)  # the user names their own game file: trusted
    check_stored_game(Path(results), given)  # a run on a game file: refused unless given, before any work
    store, config = open_run(Path(results))  # a missing, damaged or foreign file is one line
    with store:  # never one of the run's own files (an agent file...), whatever --overwrite says
        check_inputs(stored_inputs(config), [(target, f"-o {shown(target)}", "name another file for the records", ())])
        path = check_output(target, overwrite=overwrite, what="record file")  # before any work: a regular file
        count = write(from_store(store, game=given), path, overwrite=overwrite)
    print(f"wrote {count} game{'s' if count != 1 else ''} to {target}")
    return 0


COMMANDS = {"replay": (_add_replay, _run_replay)}
