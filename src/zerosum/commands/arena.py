"""``zerosum match``, ``zerosum tournament`` and ``zerosum report``: the arena from the command line (a run
and its results file; ``zerosum openings`` is :mod:`zerosum.commands.openings`).  A run's configuration is
built or resumed in :mod:`.arena_config` and its results file named and written in :mod:`.arena_results`;
the options it shares with other commands live in :mod:`.arena_options`.

Kept quick to import: the arena's heavy parts load inside ``run``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from ..errors import GameError
from .arena_results import RESULTS

__all__ = ["COMMANDS"]

#: the progress bar's words until the first game of a run ends: a cold numba cache compiles the engines first
FIRST_GAMES = "the first games are starting (a first run also compiles the engines: up to a minute)"


def _prepare_first(config: Any, backend: str, bar: bool, quiet: bool) -> None:
    """Before any worker starts, each external engine is begun on the game here once (:func:`_engine_first`;
    its wait said unless ``quiet``): one that fails there would fail every game alike, after the same wait, so
    the run stops at once, in every mode (a terminal, a pipe, ``--quiet``).  No ``bar`` and not ``quiet`` (a
    pipe, a file): no progress bar to say why the first games wait, so the compiled code of the run's own
    agents is prepared here too, and the wait said
    on standard error as ``zerosum analyze`` says it (:func:`zerosum.agents.prepare.announce`: ``zerosum:
    preparing the engine (alpha-beta's kernel), first run only: compiling for 0.2 s, about 8 s more``, again
    every 10 s); a first run compiles it once, here, and each worker loads it from numba's cache (a warm cache:
    about half a second here).  Not for a Ray cluster, whose workers prepare on their own machines; and whatever
    gets no thread here (a process limit counts threads, ``ulimit -v`` leaves no memory for their stacks) is left
    to the workers, which prepare on their own."""
    if backend != "local":
        return
    import threading

    from ..agents.prepare import announce
    from ..agents.prepare_words import on_stderr
    from ..arena.runs import engine_steps
    from ..external.names import engine_of

    started, failed = [], list[str]()  # failed: why an engine failed as it was begun (the run then stops)
    engines = [threading.Thread(target=_engine_first, args=(spec, config.game, failed, not quiet),
                                name="zerosum-engine-first", daemon=True)
               for spec in dict.fromkeys(config.agents) if engine_of(spec) is not None]
    for thread in engines:
        try:
            thread.start()
        except RuntimeError:  # can't start new thread: the games begin the engine themselves
            continue
        started.append(thread)
    steps = [] if bar or quiet else engine_steps(config.agents, config.game, config.limits)
    try:
        announce(steps, on_stderr)
    except RuntimeError:  # no thread for the work or its words: each worker prepares its own (none waited for)
        steps = []
    for step in steps:  # done by the background thread, in order (Ctrl-C stops the wait)
        step.wait()
    for thread in started:
        thread.join()
    if failed:
        raise GameError(failed[0])


def _engine_first(spec: str, game: str, failed: list[str], say: bool = True) -> None:
    """An external engine prepares for a game in its own process, at its ``newgame`` (a first run of a zerosum
    engine compiles there): started here once and begun on ``game``, so that the workers' engines find its code
    prepared; while that lasts over a second, ``zerosum: engine zs is getting ready for connect4 (newgame; a
    first run may compile its code): 1.0 s`` on standard error, again every 10 s (unless ``say`` is False:
    ``--quiet``).  One whose game setup fails here
    (no ``readyok`` within 110 s, a crash) would fail every game's alike: why goes to ``failed`` (the run stops).
    A handshake failing, or the system refusing a thread or a process, is left to the games: they say it."""
    from ..agents.prepare_words import said_while
    from ..agents.registry import make_agent
    from ..external import EngineFault
    from ..games import get_game

    what = f"engine {spec} is getting ready for {game} (newgame; a first run may compile its code)"
    engine = None
    try:
        with said_while(what if say else lambda _: None, after=1.0):
            engine = make_agent(spec)
            engine.warm_up(get_game(game))
    except EngineFault as fault:  # its game setup failed (the handshake passed): each game's would, after as long
        failed.append(f"engine {spec} failed as it was begun on {game}: {fault.reason} (no game was played)")
    except (GameError, RuntimeError, MemoryError):  # its handshake, or the system's refusal (SystemRefused is
        pass  # one; no thread; no memory): the games meet it and say why
    finally:
        if engine is not None:
            engine.close()  # type: ignore[attr-defined]


def _console() -> Any:
    from rich.console import Console

    console = Console()
    if not console.is_terminal and not os.environ.get("COLUMNS"):  # files and pipes: wide, unless COLUMNS says
        console = Console(width=max(console.width, 160), soft_wrap=True)  # prose one line each: grep finds it
    return console


#: the hard per-move deadline (``--deadline``) is at most two hours
MAX_DEADLINE = 7200.0
#: the extra seconds of an agent's first move in a new worker (``--grace``)
MAX_GRACE = 3600.0


def _add_run_options(p: argparse.ArgumentParser, default_games: int, what: str) -> None:
    from ..agents.base import MAX_DEPTH, MAX_NODES, MAX_SEED, MAX_TIME
    from ..arena.match import DEADLINE_RULE, MAX_GAMES, MAX_JOBS, MAX_PLANNED
    from ..arena.openings import MAX_OPENING_PLIES
    from .arena_options import add_engine_options, add_ranking_options, add_rule_options
    from .options import add_game_option, float_arg, int_arg

    p.add_argument("agents", nargs="*", metavar="AGENT",
                   help="agent specs (random, alphabeta:depth=4, mcts:time=1, solver, path/to/file.py:name; file.py alone plays its player); "
                        "not human: a person plays with zerosum play")
    add_game_option(p)
    p.set_defaults(game=None)  # connect4 for a new run; --resume tells a setting given from one left out
    p.add_argument("--games", type=int_arg(1, MAX_GAMES), default=None,
                   help=f"games per pairing, 1..{MAX_GAMES:,}, played in pairs from one opening with colours swapped "
                        f"(default {default_games}{', or 20000 with --sprt' if what == 'match' else ''}); a run plans "
                        f"at most {MAX_PLANNED:,} games in all")
    p.add_argument("--seed", type=int_arg(0, MAX_SEED), default=None,
                   help="fixes openings, colours and agent seeds, 0..2**63-1 (default 0)")
    p.add_argument("--openings", metavar="FILE",
                   help="openings file, one a line (default for connect4: the shipped balanced set; "
                        "other games: random openings from the seed)")
    p.add_argument("--order", choices=("random", "sequential"), default=None,
                   help="opening order: shuffled from the seed or as in the file (default random)")
    p.add_argument("--opening-plies", type=int_arg(0, MAX_OPENING_PLIES), default=None, metavar="N",
                   help="plies of the random openings used without an openings file, 0..100 and fewer than the "
                        "board's cells (default 2; 0 = start position)")
    p.add_argument("--time", type=float_arg(hi=MAX_TIME, above=0),
                   help=f"seconds per move handed to every agent (Limits.time), up to {MAX_TIME:g}")
    p.add_argument("--nodes", type=int_arg(1, MAX_NODES), help="node budget per move (Limits.nodes), 1..10**9")
    p.add_argument("--depth", type=int_arg(1, MAX_DEPTH), help=f"search depth (Limits.depth), 1..{MAX_DEPTH:,}")
    p.add_argument("--deadline", type=float_arg(hi=MAX_DEADLINE, above=0),
                   help=f"hard seconds per move after which the agent forfeits, up to {MAX_DEADLINE:g} "
                        f"(default: {DEADLINE_RULE.replace('%', '%%')}; --time 1 allows 1.25 s, --time 30 33 s)")
    p.add_argument("--grace", type=float_arg(0, MAX_GRACE), default=None,
                   help=f"extra seconds for each agent's first move in a new worker process (imports, "
                        f"compilation), 0..{MAX_GRACE:g} (default 30)")
    add_rule_options(p)  # --tc, --adjudicate
    add_engine_options(p)  # --engine NAME=COMMAND, --engine-dir, --engine-option
    add_ranking_options(p, grade=what != "match")  # --ranking, --grade
    if what == "match":
        p.add_argument("--sprt", metavar="ELO0,ELO1[,ALPHA,BETA]",
                       help="stop as soon as the sequential probability ratio test decides (alpha = beta = 0.05)")
    else:
        p.add_argument("--gauntlet", action="store_true", help="the first agent plays every other; no other pairings")
    p.add_argument("--jobs", type=int_arg(1, MAX_JOBS), default=None,
                   help=f"games played in parallel, 1..{MAX_JOBS} (default: the number of cores, {os.cpu_count()}, "
                        f"at most {MAX_JOBS})")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes, or a Ray cluster (pip install 'zerosum[ray]')")
    p.add_argument("--ray-address", metavar="ADDR", default=None,
                   help="the Ray cluster to join with --backend ray (default: $RAY_ADDRESS, else a local one)")
    p.add_argument("-o", "--output", "--out", dest="out", default=None, metavar="FILE",
                   help=f"SQLite results file (default {RESULTS}; when it holds a run, a new run takes the next free "
                        f"name, results-2.db, ..., and says so)")
    p.add_argument("--pgnout", metavar="FILE", help="also write each game's record to FILE as it ends (docs/records.md); "
                   "an existing FILE is refused unless --overwrite (replaces it) or --resume (appends); --resume "
                   "without --pgnout goes on writing the file named at the start")
    p.add_argument("--resume", action="store_true", help="carry on the run stored in -o/--output with its stored configuration (agents, games, seed, "
                        "openings, limits): a setting of the run given again must be the run's (else one line); no game is played twice; "
                        "every agent is checked first (a changed agent file is refused)")
    p.add_argument("--overwrite", action="store_true", help="replace a results file that already holds a run")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no tables, and no word of the engines' "
                   "preparation (without a terminal: a first run's compile on standard error)")


def _add_match(p: argparse.ArgumentParser) -> None:
    _add_run_options(p, 100, "match")


def _add_tournament(p: argparse.ArgumentParser) -> None:
    _add_run_options(p, 20, "tournament")


def _grace_words(config: Any) -> str:
    """Who gets ``--grace`` on a first move, as the run's header says it: zerosum's own agents (imports,
    compilation); an external engine has none (it prepares at its ``isready``, before any clock runs)."""
    from ..external.names import definitions_for

    engines = {name for name, _ in definitions_for(config.agents)}
    ours = [spec for spec in config.agents if spec.strip().partition(":")[0].strip().lower() not in engines]
    grace = f"each agent's first move in a new worker: +{config.grace:g} s"
    if not engines:
        return grace
    none = "an external engine's first move gets no extra time: it prepares at isready, before its clock starts"
    return f"{grace.replace('agent', 'zerosum agent', 1)}; {none}" if ours else none


def _run_arena(args: argparse.Namespace, mode: str) -> int:
    from ..arena.match import run_arena
    from ..arena.report import print_tables, summarize
    from ..arena.runner import make_runner

    from ..arena.store import StorageError
    from ..core.files import check_output, shown
    from ..errors import InvalidFileError
    from .arena_config import _build_config, _open_resumed, _resume_notes
    from .arena_options import check_clashes, check_ranking, finish_ranking
    from .arena_results import release_claim, results_path, start_new
    from .replay import check_pgnout, open_pgnout, resumed_pgnout

    if args.ray_address is not None and args.backend != "ray":  # else silently unused (as contest serve says)
        from .options import UsageError

        raise UsageError("--ray-address needs --backend ray")
    # every output, before any work: regular files (or none yet), never a FIFO, link or device
    try:  # a check that fails lets go of the results file claimed for an unnamed run (removed when made for it)
        out = check_output(results_path(args), overwrite=True, what="results file")
        pgnout = check_pgnout(args, out)
        check_clashes(args, out, pgnout)  # -o, --pgnout, --ranking: three files (a resumed run's records: below)
        if args.resume:
            store, config = _open_resumed(args, mode, out)
            try:
                pgnout, notice = resumed_pgnout(args, pgnout, store)  # the record file the run began with goes on
                check_ranking(args, config, out, pgnout)  # --ranking, --grade; no clash of outputs
                runner = make_runner(args.backend, args.jobs, config.grace, args.ray_address)
                notes = _resume_notes(args, store)  # what an older zerosum left unknown; its CPU rule kept
            except BaseException:
                store.close()
                raise
            for line in (notice, *notes) if notice else notes:  # said once the run is sure to start: an error
                print(line, file=sys.stderr)  # before it is the only line
        else:
            config = _build_config(args, mode)
            check_ranking(args, config, out, pgnout)  # --ranking, --grade: before anything is written
            runner = make_runner(args.backend, args.jobs, config.grace, args.ray_address)  # before writing: a missing Ray fails cleanly
            store = start_new(args, config, out)
            if args.results_notice:  # said once the run is sure to start: an error before it writes nothing
                print(args.results_notice, file=sys.stderr)
    except BaseException:
        release_claim(args)
        raise
    console = _console()
    show = console.is_terminal and not args.quiet
    start = time.perf_counter()
    writer = None
    try:
        writer, on_game = open_pgnout(pgnout, args, store)  # --pgnout: each game as it ends (refused: no header)
        if not args.quiet:  # the rule every move is held to, before the first move
            from rich.markup import escape

            from ..arena.match import describe_deadline, describe_rules

            console.print(escape(f"{describe_deadline(config)}: a move over it forfeits ({_grace_words(config)})"))
            for line in describe_rules(config):  # --tc, --adjudicate
                console.print(escape(line))
        _prepare_first(config, args.backend, show, args.quiet)  # engines begun; no bar: agents compiled
        if show:
            from rich.markup import escape
            from rich.progress import Progress

            from ..arena.report import progress_columns

            with Progress(*progress_columns(console), console=console, transient=False) as bar:
                task_id = bar.add_task("starting", total=None)
                first = [True]

                def progress(done: int, total: int, text: str) -> None:
                    if first[0]:  # until a game ends, say why a first run may wait (no silent wait: #21)
                        first[0] = False
                        text += f" · {FIRST_GAMES}"
                    bar.update(task_id, completed=done, total=total, description=escape(text))

                tally = run_arena(store, config, runner, progress, on_game=on_game)
                stopped = tally.sprt_state()
                if stopped is not None and stopped[1] is not None:  # the bar ends at the real count, not N/20000
                    done = store.count()
                    bar.update(task_id, completed=done, total=done, description=escape(
                        f"{tally.describe()} · {done} games (SPRT stopped: {stopped[1]} accepted)"))
        else:
            run_arena(store, config, runner, on_game=on_game)
        elapsed = time.perf_counter() - start
        if not args.quiet:
            report = summarize(store)
            print_tables(report, console)
            console.print(f"{report.played} games in {out!s} ({elapsed:.1f} s this run)")
        else:
            print(f"{store.count()} games in {out} ({elapsed:.1f} s this run)")
        if getattr(args, "grade", None) is not None or args.ranking is not None:
            finish_ranking(args, summarize(store), console, args.quiet)  # grades, --ranking
    except StorageError as exc:  # a full disk, a file-size limit: every stored game is kept
        try:
            kept = f"it holds {store.count()} of {len(store.plan())} games, not damaged"
        except GameError:
            kept = "every game stored is kept"
        raise InvalidFileError(f"results file {shown(out)} cannot be written: {exc.problem}; {kept}: free space, "
                               f"then carry on: zerosum {'match' if mode == 'match' else 'tournament'} --resume "
                               f"-o {shown(out)}") from None
    except KeyboardInterrupt:  # what is kept, and how to go on: the games in flight are not results
        stored, planned, decided = store.count(), len(store.plan()), store.meta("sprt")
        if decided or stored >= planned:  # the run is whole: Ctrl-C came while its tables were being made
            done = (f"the SPRT decided ({decided['decision']} accepted) after {stored} games" if decided
                    else f"all {planned} games are stored")
            raise KeyboardInterrupt(f"the run is complete: {done} in {out}; its tables: zerosum report {out}") from None
        raise KeyboardInterrupt(f"{stored} of {planned} games stored in {out}; to carry on: "
                                f"zerosum {'match' if mode == 'match' else 'tournament'} --resume -o {out}") from None
    finally:
        store.close()
        if writer is not None:
            writer.close()
    return 0


# ---- report --------------------------------------------------------------------------------------


def _add_report(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a results file written by match or tournament")
    p.add_argument("--plots", metavar="DIR", help="where to write the PNG plots (default: next to FILE)")
    p.add_argument("--no-plots", action="store_true", help="tables only")
    p.add_argument("-o", "--output", "--export", dest="export", metavar="RECORDS",
                   help="instead of tables and plots, write the record of every finished game to RECORDS "
                        "(docs/records.md); an existing file is refused unless --overwrite")
    p.add_argument("--overwrite", action="store_true",
                   help="replace an existing --export or --ranking file, or a plot's file that is not a PNG image")
    p.add_argument("--game", metavar="FILE.py:Class", help="with --export, a run on your own game file: that file "
                   "(the very one the run played; a results file never runs a file it names)")
    from .arena_options import add_ranking_options

    add_ranking_options(p, grade=True)


def _run_report(args: argparse.Namespace) -> int:
    from ..arena.match import open_run
    from ..arena.report import plot_names, print_tables, summarize, write_plots
    from ..core.files import check_output, shown
    from ..errors import InvalidFileError

    if args.export is not None:  # records, not tables (--export "" is refused: it names no file)
        if args.ranking is not None or args.grade is not None:
            raise GameError("--export writes records only: run report again for --ranking or --grade")
        from .replay import export_records

        return export_records(args.file, args.export, args.overwrite, args.game)
    if args.game is not None:
        raise GameError("--game names the game of a run for --export: the tables need no game")
    path = Path(args.file)
    store, config = open_run(path)  # a missing, damaged or foreign file is one line
    with store:
        report = summarize(store)
    from .arena_options import check_ranking, finish_ranking, is_png

    check_ranking(args, config, path)  # --ranking, --grade (never the results file itself)
    out_dir, unwritten = None, ""
    if not args.no_plots:  # the plots' folder and files are checked before anything is shown or written
        if args.plots is not None and not args.plots.strip():
            raise InvalidFileError("--plots needs a folder name (leave it out for the results file's folder)")
        out_dir = Path(args.plots) if args.plots is not None else path.resolve().parent
        if args.plots is None and not os.access(out_dir, os.W_OK | os.X_OK):  # a shared, read-only run: tables
            unwritten, out_dir = (f"zerosum report: no plots: the results file's folder {shown(out_dir)} is not "
                                  "writable (--plots DIR writes them elsewhere)"), None
        elif out_dir.is_dir():
            for name in plot_names(report, path.stem):  # an earlier report's PNG is replaced, nothing else
                check_output(out_dir / name, overwrite=args.overwrite or is_png(out_dir / name), what="plot")
        elif out_dir.exists():
            raise InvalidFileError(f"--plots {shown(out_dir)} is not a folder: name a folder for the plots")
        else:
            check_output(out_dir, what="plots folder")
    console = _console()
    print_tables(report, console)
    finish_ranking(args, report, console, quiet=False)  # grades, --ranking
    if out_dir is not None:
        out_dir.mkdir(exist_ok=True)
        for written in write_plots(report, out_dir, path.stem):
            print(f"wrote {written}")
    if unwritten:
        print(unwritten, file=sys.stderr)
    return 0


COMMANDS = {
    "match": (_add_match, lambda args: _run_arena(args, "match")),
    "tournament": (_add_tournament, lambda args: _run_arena(args, "tournament")),
    "report": (_add_report, _run_report),
}
