"""``zerosum match``, ``zerosum tournament``, ``zerosum report`` and ``zerosum openings``.

Kept quick to import: the arena's heavy parts load inside ``run``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any, Callable

__all__ = ["COMMANDS"]


def _console() -> Any:
    from rich.console import Console

    console = Console()
    if not console.is_terminal:  # files and pipes: wide enough that tables do not wrap
        console = Console(width=max(console.width, 160))
    return console


def _number(kind: Callable[[str], Any], ok: Callable[[Any], bool], expect: str) -> Callable[[str], Any]:
    """An argparse type: ``kind(text)`` that must satisfy ``ok``, else a message saying ``expect``."""

    def parse(text: str) -> Any:
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {expect}") from None
        if not ok(v):
            raise argparse.ArgumentTypeError(f"{text!r} is not {expect}")
        return v

    return parse


_positive_int = _number(int, lambda v: v > 0, "a positive whole number")
_positive_float = _number(float, lambda v: v > 0, "a positive number")
_non_negative_float = _number(float, lambda v: v >= 0, "a number >= 0")


def _add_run_options(p: argparse.ArgumentParser, default_games: int, what: str) -> None:
    from ..cli import add_game_option

    p.add_argument("agents", nargs="*", metavar="AGENT",
                   help="agent specs (random, alphabeta:depth=4, mcts:time=1, solver, path/to/file.py:name)")
    add_game_option(p)
    p.add_argument("--games", type=_positive_int, default=None,
                   help=f"games per pairing, played in pairs from one opening with colours swapped "
                        f"(default {default_games}{', or 20000 with --sprt' if what == 'match' else ''})")
    p.add_argument("--seed", type=int, default=0, help="fixes openings, colours and agent seeds (default 0)")
    p.add_argument("--openings", metavar="FILE",
                   help="openings file, one a line (default for connect4: the shipped balanced set; "
                        "other games: random openings from the seed)")
    p.add_argument("--order", choices=("random", "sequential"), default="random",
                   help="opening order: shuffled from the seed or as in the file (default random)")
    p.add_argument("--opening-plies", type=int, default=None, metavar="N",
                   help="plies of the random openings used without an openings file (default 2; 0 = start position)")
    p.add_argument("--time", type=_positive_float, help="seconds per move handed to every agent (Limits.time)")
    p.add_argument("--nodes", type=_positive_int, help="node budget per move (Limits.nodes)")
    p.add_argument("--depth", type=int, help="search depth (Limits.depth)")
    p.add_argument("--deadline", type=_positive_float,
                   help="hard seconds per move after which the agent forfeits (default: 2 x time + 1, else 60)")
    p.add_argument("--grace", type=_non_negative_float, default=30.0,
                   help="extra seconds for each agent's first move in a new worker process (imports, "
                        "compilation; default 30)")
    if what == "match":
        p.add_argument("--sprt", metavar="ELO0,ELO1[,ALPHA,BETA]",
                       help="stop as soon as the sequential probability ratio test decides (alpha = beta = 0.05)")
    else:
        p.add_argument("--gauntlet", action="store_true", help="the first agent plays every other; no other pairings")
    p.add_argument("--jobs", type=_positive_int, default=None,
                   help=f"games played in parallel (default: the number of cores, {os.cpu_count()})")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes, or a Ray cluster (pip install 'zerosum[ray]')")
    p.add_argument("--out", default="results.db", metavar="FILE", help="SQLite results file (default results.db)")
    p.add_argument("--resume", action="store_true", help="carry on the run stored in --out with its stored configuration (agents, games, seed, "
                        "openings, limits); only --jobs, --backend and --quiet apply; no game is played twice")
    p.add_argument("--overwrite", action="store_true", help="replace a results file that already holds a run")
    p.add_argument("--quiet", action="store_true", help="no progress bar and no tables")


def _add_match(p: argparse.ArgumentParser) -> None:
    _add_run_options(p, 100, "match")


def _add_tournament(p: argparse.ArgumentParser) -> None:
    _add_run_options(p, 20, "tournament")


def _build_config(args: argparse.Namespace, mode: str) -> Any:
    from ..agents.base import Limits, make_agent
    from ..cli import UsageError
    from ..games import get_game
    from .match import ArenaConfig
    from .openings import format_opening, random_openings, read_openings, shipped_openings
    from .stats import Sprt

    n = len(args.agents)
    if mode == "match" and n != 2:
        raise UsageError(f"a match needs exactly two agents, got {n}")
    if mode != "match" and n < 2:
        raise UsageError(f"a tournament needs at least two agents, got {n}")
    game = get_game(args.game)
    limits = {k: getattr(args, k) for k in ("depth", "nodes", "time") if getattr(args, k) is not None}
    lim = Limits(**limits)
    for spec in args.agents:  # bad specs fail here, before anything is written
        make_agent(spec, seed=0, limits=lim)
    sprt = None
    if getattr(args, "sprt", None):
        try:
            s = Sprt.parse(args.sprt)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        sprt = [s.elo0, s.elo1, s.alpha, s.beta]
    games = args.games or (20000 if sprt else 100 if mode == "match" else 20)
    rounds = (games + 1) // 2
    if args.openings:
        if args.opening_plies is not None:
            raise UsageError("--openings and --opening-plies exclude each other")
        openings = read_openings(args.openings, game)
        source = str(args.openings)
    elif args.opening_plies is None and shipped_openings(game) is not None:
        path = shipped_openings(game)
        openings = read_openings(path, game)  # type: ignore[arg-type]
        source = "shipped balanced set"
    else:
        plies = 2 if args.opening_plies is None else args.opening_plies
        if plies < 0:
            raise UsageError("--opening-plies must be >= 0")
        openings = random_openings(game, rounds, plies, args.seed)
        source = f"random, {plies} plies" if plies else "start position"
        if plies == 0:
            openings = [()]
    if mode != "match":
        mode = "gauntlet" if args.gauntlet else "round-robin"
    return ArenaConfig(
        game=game.spec, agents=list(args.agents), games=games, seed=args.seed, mode=mode,
        openings=[format_opening(game, o) for o in openings], openings_source=source, order=args.order,
        limits=limits, deadline=args.deadline, grace=args.grace, sprt=sprt,
    )


def _run_arena(args: argparse.Namespace, mode: str) -> int:
    from ..cli import UsageError
    from .match import ArenaConfig, labels_for, plan_games, run_arena
    from .report import print_tables, summarize
    from .runner import make_runner
    from .store import Store

    out = Path(args.out)
    if args.resume:
        if not out.is_file():
            raise UsageError(f"--resume: no results file {str(out)!r}")
        store = Store(out)
        if store.is_empty():
            raise UsageError(f"--resume: {str(out)!r} holds no run")
        config = ArenaConfig.from_json(store.meta("config"))
        if (config.mode == "match") != (mode == "match"):
            raise UsageError(f"--resume: {str(out)!r} holds a {config.mode}, not a {mode}")
        if args.agents and list(args.agents) != config.agents:
            raise UsageError(f"--resume: {str(out)!r} holds a run of {' '.join(config.agents)}, not of these agents")
    else:
        config = _build_config(args, mode)
        if out.exists() and not args.overwrite:
            try:
                with Store(out) as old:
                    held = old.count() if not old.is_empty() else 0
            except Exception:
                held = -1
            if held != 0:
                what = f"already holds {held} games" if held > 0 else "exists and is not a results file"
                raise UsageError(f"{str(out)!r} {what}: use --resume to carry on, --overwrite to replace, "
                                 f"or --out to choose another file")
        runner = make_runner(args.backend, args.jobs, config.grace)  # before writing: a missing Ray fails cleanly
        if args.overwrite and out.exists():
            for suffix in ("", "-wal", "-shm"):
                Path(str(out) + suffix).unlink(missing_ok=True)
        store = Store(out, create=True)
        plan = plan_games(config)
        store.initialise(config.to_json(), list(zip(labels_for(config.agents), config.agents)), plan)
    if args.resume:
        try:
            runner = make_runner(args.backend, args.jobs, config.grace)
        except BaseException:
            store.close()
            raise
    console = _console()
    show = console.is_terminal and not args.quiet
    start = time.perf_counter()
    try:
        if show:
            from rich.markup import escape
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            with Progress(
                TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
                TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=False,
            ) as bar:
                task_id = bar.add_task("starting", total=len(store.plan()))

                def progress(done: int, total: int, text: str) -> None:
                    bar.update(task_id, completed=done, total=total, description=escape(text))

                run_arena(store, config, runner, progress)
        else:
            run_arena(store, config, runner)
        elapsed = time.perf_counter() - start
        if not args.quiet:
            report = summarize(store)
            print_tables(report, console)
            console.print(f"{report.played} games in {str(out)} ({elapsed:.1f} s this run)")
        else:
            print(f"{store.count()} games in {out} ({elapsed:.1f} s this run)")
    finally:
        store.close()
    return 0


def _run_match(args: argparse.Namespace) -> int:
    return _run_arena(args, "match")


def _run_tournament(args: argparse.Namespace) -> int:
    return _run_arena(args, "tournament")


# ---- report --------------------------------------------------------------------------------------


def _add_report(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a results file written by match or tournament")
    p.add_argument("--plots", metavar="DIR", help="where to write the PNG plots (default: next to FILE)")
    p.add_argument("--no-plots", action="store_true", help="tables only")


def _run_report(args: argparse.Namespace) -> int:
    from ..cli import UsageError
    from .report import print_tables, summarize, write_plots
    from .store import Store

    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"no results file {args.file!r}")
    with Store(path) as store:
        if store.is_empty():
            raise UsageError(f"{args.file!r} holds no run")
        report = summarize(store)
    console = _console()
    print_tables(report, console)
    if not args.no_plots:
        out_dir = Path(args.plots) if args.plots else path.resolve().parent
        for written in write_plots(report, out_dir, path.stem):
            print(f"wrote {written}")
    return 0


# ---- openings ------------------------------------------------------------------------------------


def _add_openings(p: argparse.ArgumentParser) -> None:
    from ..cli import add_game_option

    add_game_option(p)
    p.add_argument("--plies", type=int, default=4, help="moves into the game (default 4)")
    p.add_argument("--max-score", type=int, default=2,
                   help="Connect-X: keep positions whose solved score is within +-this (default 2; 0 = draws only)")
    p.add_argument("--with", dest="evaluator", default="solver", metavar="SPEC",
                   help="Connect-X: what judges a position: solver (default) or a search agent spec, whose "
                        "unproven values count as balanced")
    p.add_argument("--sample", type=_positive_int, default=None, metavar="N",
                   help="Connect-X: judge only N of the positions, drawn from --seed (default: all)")
    p.add_argument("--count", type=_positive_int, default=100,
                   help="other games: how many random openings (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of --sample and of random openings (default 0)")
    p.add_argument("-o", "--output", metavar="FILE", help="write here (default: standard output)")


def _run_openings(args: argparse.Namespace) -> int:
    from ..cli import UsageError
    from ..games import ConnectX, get_game
    from .openings import agent_evaluator, format_opening, generate_openings, random_openings, solver_evaluator

    game = get_game(args.game)
    if args.plies < 0:
        raise UsageError("--plies must be >= 0")
    start = time.perf_counter()
    if isinstance(game, ConnectX):  # bad options fail before any file is written
        if args.max_score < 0:
            raise UsageError("--max-score must be >= 0")
        evaluate = solver_evaluator(game) if args.evaluator == "solver" else agent_evaluator(game, args.evaluator)
    out = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        if isinstance(game, ConnectX):
            sample = f" --sample {args.sample} --seed {args.seed}" if args.sample else ""
            out.write(
                f"# zerosum openings --game {game.spec} --plies {args.plies} --max-score {args.max_score} "
                f"--with {args.evaluator}{sample}\n"
                f"# positions {args.plies} plies in (mirror images once{', a sample' if sample else ''}) whose "
                f"value is within +-{args.max_score}; the number after each is its score for the side to move\n"
            )

            def progress(done: int, total: int) -> None:
                if sys.stderr.isatty():
                    print(f"\r{done}/{total} positions judged", end="", file=sys.stderr, flush=True)

            def found(seq: tuple[int, ...], score: int) -> None:  # written at once: a long run keeps its work
                out.write(f"{format_opening(game, seq)} {score}\n")
                out.flush()

            kept = generate_openings(game, args.plies, args.max_score, evaluate, progress, args.sample, args.seed, found)
            if sys.stderr.isatty():
                print(file=sys.stderr)
            count = len(kept)
        else:
            openings = random_openings(game, args.count, args.plies, args.seed)
            out.write(f"# zerosum openings --game {game.spec} --plies {args.plies} --count {args.count} "
                      f"--seed {args.seed}\n")
            out.writelines(format_opening(game, o) + "\n" for o in openings)
            count = len(openings)
    finally:
        if out is not sys.stdout:
            out.close()
    if args.output:
        print(f"wrote {count} openings to {args.output} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


COMMANDS = {
    "match": (_add_match, _run_match),
    "tournament": (_add_tournament, _run_tournament),
    "report": (_add_report, _run_report),
    "openings": (_add_openings, _run_openings),
}
