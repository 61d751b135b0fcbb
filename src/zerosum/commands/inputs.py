"""The files a command reads, so that none of its outputs is one of them, with or without ``--overwrite``.

A command's inputs are the files its specs and options name: an agent file (``bot.py:agent``, ``hw.py``), a
file an agent's option names (``alphabeta:eval=ev.py:fn``), a game file (``--game nim.py:Nim``), the
openings file (``--openings``), an external engine's program and scripts (``--engine e=./eng``, run in its
``--engine-dir``), and for ``--resume`` and ``report`` the stored run's.  Its outputs are the results file
(``-o``, with SQLite's ``-wal``, ``-shm`` and ``-journal`` beside it), ``--pgnout``, ``--ranking``, a
report's plots, ``zerosum openings -o`` (and its ``.partial``) and ``zerosum kaggle-agent -o``.  An output
that is an input, however spelled (a link, a hard link, ``./``), is one :class:`~zerosum.errors.UsageError`
line naming both roles, before any work (``-o 'bot.py' is the agent file of 'bot.py:agent': name another
file for the results``).  Anything malformed is left to the command's own checks, which say it in their
words.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, Iterable

from ..errors import GameError, UsageError
from ..spec import quoted

__all__ = ["same_file", "spec_inputs", "game_inputs", "run_inputs", "stored_inputs", "check_inputs", "arena_outputs",
           "written", "JOURNALS"]

#: the files SQLite writes beside a results file
JOURNALS = ("-wal", "-shm", "-journal")

#: ``(path, role)``: a file read, and what it is, in words (``the agent file of 'bot.py:agent'``)
Input = tuple[str, str]
#: ``(path, said, advice, suffixes)``: a file written, how the message names it (``-o 'r.db'``), what to do
#: instead (``name another file for the results``), and the files written beside it (``"-wal"``, ...)
Output = tuple[str, str, str, tuple[str, ...]]


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name one file, however spelled (``./r.db``, ``sub/../r.db``, absolute, through a
    linked folder, a hard link), whether or not it exists yet."""
    try:
        if os.path.exists(a) and os.path.exists(b) and os.path.samefile(a, b):
            return True
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def spec_inputs(spec: object) -> list[Input]:
    """The files an agent spec names: its agent file (``bot.py:agent``, ``bot.py``), or each option whose value
    is a Python file (``eval=ev.py:fn``) or a path to a file that is there."""
    from ..spec import parse_spec

    if not isinstance(spec, str):
        return []
    text = spec.strip()
    if text.partition(":")[0].endswith(".py"):  # a file agent: its path runs to the last colon
        return [(text.rpartition(":")[0] if ":" in text else text, f"the agent file of {quoted(spec)}")]
    try:
        _, options = parse_spec(text, GameError)
    except GameError:
        return []
    found = []
    for key, value in options.items():
        path = (value.rpartition(":")[0] if ":" in value else value).strip()
        if path.endswith(".py") or (os.sep in path and os.path.isfile(path)):
            found.append((path, f"the {key}= file of {quoted(spec)}"))
    return found


def game_inputs(game: object) -> list[Input]:
    """The game file of a game spec that names one (``nim.py:Nim``, ``nim.py``)."""
    from ..games.course_files import course_file

    if not isinstance(game, str) or not course_file(game):
        return []
    return [(game.strip().partition(":")[0], f"the game file of --game {quoted(game)}")]


def engine_inputs(definitions: Iterable[Any]) -> list[Input]:
    """The program and script files of external engines (:meth:`~zerosum.external.EngineDefinition.files`)."""
    import shlex

    return [(path, f"a file of engine {definition.name}'s command {quoted(shlex.join(definition.command))}")
            for definition in definitions for path in definition.files()]


def run_inputs(args: argparse.Namespace) -> list[Input]:
    """What ``zerosum match`` or ``tournament`` reads, as its command line names it: agents, ``--game``,
    ``--openings`` and ``--engine`` programs (a malformed flag is the run's own check's to say)."""
    from ..external import parse_engines

    found = [item for spec in getattr(args, "agents", None) or [] for item in spec_inputs(spec)]
    found += game_inputs(getattr(args, "game", None))
    if getattr(args, "openings", None):
        found.append((str(args.openings), "the openings file (--openings)"))
    try:
        definitions = parse_engines(getattr(args, "engine", None) or [], getattr(args, "engine_dir", None) or [],
                                    getattr(args, "engine_option", None) or [])
    except GameError:
        definitions = []
    return found + engine_inputs(definitions)


def stored_inputs(config: Any) -> list[Input]:
    """What a stored run reads (``--resume``, ``report``): its agents' files, its game file, its openings file,
    the files of its engines registered in this process, and every file whose SHA-256 it keeps."""
    from ..external.names import registered

    found = [item for spec in config.agents for item in spec_inputs(spec)]
    found += game_inputs(config.game)
    source = getattr(config, "openings_source", None)
    if isinstance(source, str) and os.path.isfile(source):  # else "shipped balanced set", "random, 2 plies"...
        found.append((source, "the openings file of the run"))
    engines = [registered(spec.strip().partition(":")[0].strip()) for spec in config.agents]
    found += engine_inputs(definition for definition in engines if definition is not None)
    found += [(path, "a file the run reads (its SHA-256 is kept with the run)") for path in config.digests]
    return found


def arena_outputs(args: argparse.Namespace, results: Path | str | None, pgnout: Path | str | None) -> list[Output]:
    """The files a run writes: the results file (with SQLite's journals), ``--pgnout`` and ``--ranking``."""
    from ..core.files import shown

    found: list[Output] = []
    if results is not None:
        found.append((str(results), f"-o {shown(results)}", "name another file for the results", JOURNALS))
    if pgnout is not None:
        found.append((str(pgnout), f"--pgnout {shown(pgnout)}", "name another file for the records", ()))
    ranking = getattr(args, "ranking", None)
    if ranking is not None:
        found.append((str(ranking), f"--ranking {shown(ranking)}", "name another file for the ranking", ()))
    return found


def written(args: argparse.Namespace, results: Path | str | None, pgnout: Path | str | None) -> list[Output]:
    """:func:`arena_outputs` of a run, or of ``zerosum report`` (which reads ``results``): its ``--ranking`` and
    its plots, ``FILE-pairings.png`` and ``FILE-ranking.png`` in ``--plots DIR`` or beside the results file."""
    from ..core.files import shown

    if hasattr(args, "out"):  # match, tournament
        return arena_outputs(args, results, pgnout)
    found = arena_outputs(args, None, pgnout)
    if results is not None and not getattr(args, "no_plots", True):
        folder = Path(args.plots) if args.plots else Path(results).resolve().parent
        plots = [folder / f"{Path(results).stem}-{kind}.png" for kind in ("pairings", "ranking")]
        found += [(str(plot), f"the plot {shown(plot)}", "name another folder for the plots (--plots DIR)", ())
                  for plot in plots]
    return found


def check_inputs(inputs: Iterable[Input], outputs: Iterable[Output]) -> None:
    """One UsageError line for the first output that is an input (or that a file written beside it, a journal,
    would be), naming both; nothing otherwise."""
    from ..core.files import shown

    inputs = [(path, role) for path, role in inputs if isinstance(path, str) and path.strip() and "\0" not in path]
    for path, said, advice, suffixes in outputs:
        if not path.strip() or "\0" in path:
            continue  # no file: the output's own check says so
        for read, role in inputs:
            if same_file(path, read):
                raise UsageError(f"{said} is {role}: {advice}")
            for suffix in suffixes:
                if same_file(path + suffix, read):
                    raise UsageError(f"{said} writes {shown(path + suffix)} beside it, which is {role}: {advice}")
