"""``zerosum solve``, ``zerosum analyze`` and ``zerosum book``: the solver from the command line.

``zerosum solve`` reads one move string a line from standard input (anything after the first space is
ignored, so benchmark files pipe straight in; blank lines are skipped) and prints ``moves score`` a line;
``--weak`` prints the sign only, ``--stats`` adds the nodes searched and the microseconds taken (the search's
own: the compiled code is loaded and the table allocated before the first line, :func:`warmed`).  A bad line
(a malformed or illegal move string, or a finished game) prints one error line on standard error naming the
line number, and solving goes on with the next line; the exit status is then 2 at the end.  A line is read
at most :data:`~zerosum.commands.solve_input.MAX_MOVES_TEXT` characters at a time (a longer move string is a
bad line), so memory stays bounded whatever the input (:mod:`zerosum.commands.solve_input` reads the lines).

This module imports quickly; the solver (numba) loads inside ``run``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from ..solver.layout import DEFAULT_LOG_SIZE, MAX_PART_BITS  # plain numbers: no numba loaded
from .options import add_game_option, int_arg
from .solve_input import MAX_MOVES_TEXT, stdin_lines

__all__ = ["COMMANDS", "TT_LOG_SIZES", "add_tt_option", "settled", "solver_from", "warmed", "add_solver_bench",
           "run_solver_bench"]


#: the transposition table of every solver command: 2**N entries, 8 or 16 bytes each (``layout.wide_entries``)
TT_LOG_SIZES = (10, 31)


def add_tt_option(parser: argparse.ArgumentParser) -> None:
    """``--tt-log-size N`` (10..31), shared by solve, analyze, book and bench solver (its sizes: the layout's)."""
    (lo, hi), n = TT_LOG_SIZES, DEFAULT_LOG_SIZE
    parser.add_argument("--tt-log-size", type=int_arg(lo, hi), default=n, metavar="N", help=(
        f"transposition table of 2**N entries, N in {lo}..{hi}: 8 bytes each, 16 on a board past 64 bits while "
        f"N < cols x (rows + 1) - {MAX_PART_BITS} (8 x 8, 9 x 7: N < {8 * 9 - MAX_PART_BITS}) (default {n}: "
        f"{8 << n >> 20} MB; {16 << n >> 20} MB on 8 x 8, 9 x 7, 7 x 9)"))


def _common(parser: argparse.ArgumentParser) -> None:
    add_game_option(parser, solver=True)
    parser.add_argument("--weak", action="store_true", help="win / draw / loss only (+1 / 0 / -1): much faster")
    parser.add_argument("--no-book", action="store_true", help="do not use the opening book")
    add_tt_option(parser)


def solver_from(args: argparse.Namespace, book: bool | None = None, wide: bool | None = None) -> Any:
    """The solver the options ask for (``--game``, ``--tt-log-size``, ``--no-book``), :func:`settled`;
    ``wide``: its bitboards' width (``Solver(wide=...)``; by default the board's)."""
    from ..solver.solver import Solver

    use_book = not args.no_book if book is None else book
    return settled(Solver(args.game, tt_size=1 << args.tt_log_size, book=use_book, wide=wide))


def settled(solver: Any) -> Any:
    """``solver``, with every object alive so far (numba's compiled code above all) left out of garbage
    collection: the interpreter's last collection at exit would walk them for about a second, so Ctrl-C
    (or the end of a command) would take that long to return to the shell."""
    import gc

    gc.freeze()
    return solver


# ---- solve --------------------------------------------------------------------------------------


def _add_solve(parser: argparse.ArgumentParser) -> None:
    parser.epilog = ("Prints 'moves score' a line; anything after the first space of a line is ignored and blank "
                     "lines are skipped. A bad line gets one error line on standard error naming it, solving goes "
                     f"on, and the exit status is then 2; a move string is at most {MAX_MOVES_TEXT:,} characters "
                     "(a longer line is such a bad line, never read whole).")
    _common(parser)
    parser.add_argument("--stats", action="store_true", help="add the nodes searched and the microseconds taken "
                        "(the solver is loaded and its table allocated before the first line, untimed)")


def _run_solve(args: argparse.Namespace) -> int:
    from ..analysis import service
    from ..errors import GameError

    solver = solver_from(args)
    if args.stats:  # each line's microseconds are its position's own, not the first one's also the setup's
        warmed(solver)
    status = 0
    out = sys.stdout
    engine = None if solver.game.fits_64 else service(solver.game)  # past 64 bits: an early ply takes hours
    for number, moves, error in stdin_lines(sys.stdin):
        if error is not None:
            print(f"zerosum solve: line {number}: {error}", file=sys.stderr)
            status = 2
            continue
        try:
            if engine is not None and not engine.reaches(state := solver.position(moves)):  # said, not hours of silence
                print(f"zerosum solve: line {number}: {solver.game.cells - state.ply} empty cells: "
                      f"{engine.beyond_reach()}; this solve may take hours (Ctrl-C stops it)", file=sys.stderr, flush=True)
            score = solver.solve(moves, weak=args.weak)
        except GameError as exc:
            print(f"zerosum solve: line {number}: {exc}", file=sys.stderr)
            status = 2
            continue
        if args.stats:
            out.write(f"{moves} {score} {solver.nodes} {solver.elapsed * 1e6:.0f}\n")
        else:
            out.write(f"{moves} {score}\n")
    out.flush()
    return status


def warmed(solver: Any) -> Any:
    """``solver`` ready to be timed: its compiled search loaded (a short search from the start, on the lane
    :meth:`~zerosum.solver.solver.Solver.solve` uses) and its table cleared, which maps every page of it
    (:meth:`~zerosum.solver.solver.Solver.reset`), so the next search starts as a fresh solver's would
    (the same nodes) but pays for neither: tens of milliseconds that went to the first position's time."""
    start = solver.game.initial_state
    solver.search_on(solver.lanes(1)[0], start.current, start.mask, True, 1000)
    solver.reset()
    return solver


# ---- analyze -------------------------------------------------------------------------------------


def _add_analyze(parser: argparse.ArgumentParser) -> None:
    from ..core.processes import MAX_JOBS as MAX_THREADS  # numba-free: help needs no solver

    parser.add_argument("moves", nargs="?", default="", metavar="MOVES",
                        help="the position as a move string, 1-based columns (default: the start)")
    _common(parser)
    parser.add_argument("--threads", type=int_arg(1, MAX_THREADS), default=None, metavar="N",
                        help=f"search threads over one table, 1..{MAX_THREADS} (default: 2 where this process "
                             "may use two cores, as zerosum play and the page do)")


def _past_book(args: argparse.Namespace) -> bool:
    """Whether ``zerosum analyze``'s position needs the solver's search: its moves are past the opening book
    (or there is none, or ``--no-book``).  Read without numba, before any engine starts, so that a typo in the
    moves or a finished game is one line at once (it waited for numba's start, two seconds on a busy machine);
    True for a game that is not Connect-X (the analysis says why)."""
    from ..errors import GameError, InvalidPositionError
    from ..solver.book import load_default
    from ..solver.sampling import connectx_game  # numba-free, as the book: the search's loading starts after

    try:
        game = connectx_game(args.game)
    except GameError:
        return True
    state = game.from_moves(args.moves) if args.moves else game.initial_state  # a bad move: its one line
    if state.won_by or state.mask == game.board_mask:  # as the solver says it
        raise InvalidPositionError("the game is over: " + (f"player {state.won_by} already has {game.k} in a row"
                                                           if state.won_by else "the board is full (a draw)"))
    book = None if args.no_book else load_default(game)
    return book is None or state.ply + 1 > book.depth


def _run_analyze(args: argparse.Namespace) -> int:
    from ..agents.prepare import announce, warm
    from ..agents.prepare_words import on_stderr, said_while
    from ..solver.agent import solver_steps

    # a cold cache compiles the solver for tens of seconds: a line or two say so rather than a silent wait;
    # not its search where the opening book answers (the exit would wait for it: zerosum.agents.prepare)
    steps, past = solver_steps(args.game, args.tt_log_size), _past_book(args)
    announce(steps if past else steps[:-1], on_stderr)
    from ..analysis import service
    from ..core.words import score_words
    from ..solver.solver import solver_game

    game = solver_game(args.game)
    engine, table = service(game), 1 << args.tt_log_size  # the process's analysis service: one solver
    with engine.borrowed(table=table) as solver:
        state = settled(solver).position(args.moves)
    if past:  # the compile's wait (said above) is the preparation's, not the search's "ms" below
        warm(steps)
    began, empty = time.perf_counter(), game.cells - state.ply
    if not engine.reaches(state):  # past 64 bits, early: said rather than a silent wait of hours
        on_stderr(f"{empty} empty cells: {engine.beyond_reach()}; this analysis may take hours (Ctrl-C stops it)")
    try:  # a long analysis is said on standard error, again every 10 s: no silent wait
        with said_while(f"analysing {args.moves or 'the start'} ({empty} empty cells; Ctrl-C stops it, saying the "
                        "columns proven)"):
            found = engine.analyse(state, weak=args.weak, book=not args.no_book, threads=args.threads, table=table)
    except KeyboardInterrupt as stop:  # the columns proven before it (zerosum.solver.solver.Interrupted)
        raise KeyboardInterrupt(_stopped(getattr(stop, "scores", None) or [], args.weak,
                                         time.perf_counter() - began)) from None
    scores = [found.scores.get(c) for c in range(game.cols)]
    width = max(5, len(str(game.cols)) + 1)
    print(f"position: {args.moves or '(start)'}, player {state.to_move} to move")
    print("column:" + "".join(str(c + 1).rjust(width) for c in range(game.cols)))
    print("score: " + "".join(("full" if s is None else f"{s:+d}" if s else "0").rjust(width) for s in scores))
    best, value = found.best, int(found.scores[found.best])
    if args.weak:
        print(f"best: column {best + 1} ({_score_text(value, True)})")
    else:
        said = score_words(value, state.ply, game.cells)  # the one vocabulary: moves of the side concerned
        print(f"best: column {best + 1} (score {value:+d}: {said})" if value else f"best: column {best + 1} (a draw)")
    print(f"nodes: {found.nodes}, {found.elapsed * 1e3:.1f} ms")
    return 0


def _stopped(scores: list[int | None], weak: bool, seconds: float) -> str:
    """What an interrupted analysis says: the columns proven before Ctrl-C, if any."""
    proven = [f"column {c + 1} {_score_text(s, weak)}" for c, s in enumerate(scores) if s is not None]
    said = f"proven before the stop: {', '.join(proven)}" if proven else "no column was proven"
    faster = "" if weak else "; --weak (win / draw / loss only) is much faster"
    return f"{said} (stopped after {seconds:.1f} s of search){faster}"


def _score_text(score: int, weak: bool) -> str:
    if weak:
        return {1: "a win", 0: "a draw", -1: "a loss"}[score]
    return f"{score:+d}" if score else "0"


# ---- book ---------------------------------------------------------------------------------------


def _add_book(parser: argparse.ArgumentParser) -> None:
    from ..core.processes import MAX_JOBS

    add_game_option(parser, solver=True)
    parser.add_argument("--depth", type=int_arg(0, 20), default=4, metavar="D",
                        help="cover every position up to this many plies, 0..20 (default 4)")
    parser.add_argument("--output", "-o", required=True, metavar="FILE",
                        help="the book file to write (e.g. book.zsb: memory-mapped, solver.book_file's format); "
                        "never inside the installed package")
    parser.add_argument("--from", dest="source", metavar="IN", default=None,
                        help="search nothing: write the book of IN, a complete generation checkpoint (its depth is "
                        "the checkpoint's) or a book file of either format (an old .npz converts); IN is only read")
    parser.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    add_tt_option(parser)
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")
    parser.add_argument("--jobs", "-j", type=int_arg(1, MAX_JOBS), default=1, metavar="N",
                        help=f"search in N worker processes, 1..{MAX_JOBS}, each with its own table (default 1)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="worker processes on this machine, or Ray actors (pip install 'zerosum[ray]')")
    parser.add_argument("--ray-address", metavar="ADDR", default=None,
                        help="the Ray cluster to join with --backend ray (default: $RAY_ADDRESS, else a local one)")
    parser.epilog = ("Each position searched is appended to FILE.partial as it is solved; an interrupted run "
                     "started again with the same arguments resumes from there (Ctrl-C, and a write that fails as on a "
                     "full disk, say how many positions it kept and the command to carry on). The file is "
                     "removed once the book is written. To use the book: Solver(book=FILE).")


def _run_book(args: argparse.Namespace) -> int:
    import os

    from ..core.files import check_output
    from ..errors import InvalidFileError
    from ..pool import PositionSolver
    from ..solver import book as book_mod

    path = str(check_output(args.output, overwrite=args.overwrite, what="book file"))
    if args.source is not None:
        from ..solver.solver import solver_game

        start = time.perf_counter()
        book = book_mod.convert(solver_game(args.game), args.source)
        book.save(path, overwrite=args.overwrite)
        print(f"wrote {path}: {len(book)} positions up to ply {book.depth} from {args.source} "
              f"in {time.perf_counter() - start:.1f} s")
        return 0
    check_output(checkpoint := path + ".partial", overwrite=True, what="book checkpoint")
    parallel = args.jobs > 1 or args.backend == "ray"  # Ray is joined here, before anything is written
    solve_many = PositionSolver(args.jobs, args.backend, args.ray_address) if parallel else None
    solver = solver_from(args, book=False)
    last: list[float] = []  # when the last line was printed

    def progress(done: int, total: int, seconds: float) -> None:
        if args.quiet:
            return
        if not last:  # before the first search: no silent wait, however long a position takes
            print(f"book: {done}/{total} positions at ply {args.depth} solved; solving the rest (near the empty "
                  f"board one can take minutes; a line every 5 s at most, after a position)", file=sys.stderr)
            last.append(seconds)
        elif seconds - last[0] >= 5 or done == total:
            print(f"book: {done}/{total} positions at ply {args.depth}, {seconds:.0f} s", file=sys.stderr)
            last[0] = seconds

    start = time.perf_counter()
    try:
        book = book_mod.generate(solver, args.depth, progress, checkpoint, solve_many)
    except KeyboardInterrupt:  # what is kept, and how to go on (the checkpoint, as the epilog says)
        raise KeyboardInterrupt(_book_kept(args, checkpoint)) from None
    except book_mod.CheckpointUnwritable as exc:  # a full disk: the same, after the file and why
        raise InvalidFileError(f"{exc}; {_book_kept(args, checkpoint)}") from None
    try:
        book.save(path, overwrite=args.overwrite)
    except InvalidFileError as exc:  # a full disk: the checkpoint is whole (carrying on searches nothing)
        raise InvalidFileError(f"{exc}; {_book_kept(args, checkpoint)}") from None
    os.remove(checkpoint)
    print(f"wrote {path}: {len(book)} positions up to ply {args.depth} in {time.perf_counter() - start:.1f} s")
    return 0


def _book_kept(args: argparse.Namespace, checkpoint: str) -> str:
    """What a stopped ``zerosum book`` (Ctrl-C, a failed write) kept in its checkpoint, and how to carry on."""
    import shlex

    words = ["zerosum", "book", "--game", args.game, "--depth", str(args.depth), "-o", args.output]
    words += ["--overwrite"] if args.overwrite else []
    words += ["--tt-log-size", str(args.tt_log_size)] if args.tt_log_size != 24 else []
    words += ["--quiet"] if args.quiet else []
    words += ["--jobs", str(args.jobs)] if args.jobs != 1 else []
    words += ["--backend", args.backend] if args.backend != "local" else []
    words += ["--ray-address", args.ray_address] if args.ray_address else []
    again = f"to carry on: {shlex.join(words)}"
    try:
        with open(checkpoint, "rb") as fh:  # whole lines after the header: a position each
            kept = max(sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b"")) - 1, 0)
    except OSError:
        return f"no position of the book was searched yet; {again}"
    return f"{kept:,} position{'s' * (kept != 1)} of the book kept in {checkpoint}; {again}"


# ---- bench solver -------------------------------------------------------------------------------


def add_solver_bench(parser: argparse.ArgumentParser) -> None:
    """``zerosum bench solver FILE... [--weak] [--limit N] [--no-book] [--reset-table] [--repeat R]
    [--wide [on|both]]``."""
    parser.add_argument("files", nargs="+", metavar="FILE", help="benchmark files: 'moves score' a line")
    add_game_option(parser)
    parser.add_argument("--weak", action="store_true", help="weak solve: compare signs only")
    parser.add_argument("--limit", type=int_arg(1, None), default=None, metavar="N",
                        help="only the first N positions of each file (N >= 1)")
    parser.add_argument("--no-book", action="store_true", help="do not use the opening book")
    parser.add_argument("--reset-table", action="store_true", help="clear the table before each position")
    add_tt_option(parser)
    parser.add_argument("--repeat", type=int_arg(1, 1000), default=1, metavar="R",
                        help="solve each file R times (1..1000), each from a cleared table, and report the median "
                        "times (of an even R: the mean of the middle two)")
    parser.add_argument("--wide", nargs="?", const="on", default="off", choices=("off", "on", "both"),
                        help="search on 128-bit bitboards even where the board fits 64 bits ('on'; the default "
                        "'off' takes the board's own width), or both side by side ('both': the runs alternate; the "
                        "last columns are the width and the median CPU time over the 64-bit one's)")


def _show(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} us"


def run_solver_bench(args: argparse.Namespace) -> int:
    """The solver against benchmark files (:mod:`zerosum.solver.bench` measures); exit status 1 when a score
    is wrong."""
    from ..core.files import read_text
    from ..solver.bench import read_file, run_file

    texts = [(path, read_text(path, "benchmark file")) for path in args.files]  # before anything is built
    choices: dict[str, list[bool | None]] = {"off": [None], "on": [True], "both": [False, True]}
    widths = choices[args.wide]
    solvers = [solver_from(args, wide=w) for w in widths]
    files = [(path, read_file(solvers[0], path, args.limit, text)) for path, text in texts]
    g = solvers[0].game
    warm = g.from_moves([c for c in range(g.cols)][: min(g.cols, g.cells - 1)])
    for solver in solvers:  # compile (or load from the cache) before timing anything
        if not warm.won_by and warm.mask != g.board_mask:
            solver.solve_bits(warm.current, warm.mask, args.weak)
            solver.solve_many([warm], args.weak)
    mode = "weak" if args.weak else "strong"
    width = {"off": "", "on": ", 128-bit bitboards", "both": ", 64 and 128-bit bitboards side by side"}[args.wide]
    print(f"solver benchmark: {g.spec}, {mode}, book {'off' if args.no_book else 'on'}, "
          f"table 2**{args.tt_log_size}{', cleared per position' if args.reset_table else ''}{width}"
          f"{f', median of {args.repeat} runs' if args.repeat > 1 else ''}")
    print(f"{'file':<16}{'positions':>10}{'mean time':>12}{'mean CPU':>12}{'mean nodes':>13}{'wrong':>7}"
          + (f"{'bits':>6}{'ratio':>7}" if len(solvers) > 1 else ""))
    status = 0
    for path, read in files:
        runs: list[list[tuple[int, float, float, float, int]]] = [[] for _ in solvers]
        for _ in range(args.repeat):  # side by side: the solvers' runs alternate, so a change of load hits both
            for i, solver in enumerate(solvers):
                runs[i].append(run_file(solver, path, args.weak, args.limit, args.reset_table, 1, read))
        name = path.rsplit("/", 1)[-1]
        medians = []
        for solver, results in zip(solvers, runs):
            n, _, _, nodes, wrong = results[-1]
            seconds = statistics.median(r[1] for r in results)  # of an even count: the mean of the middle two
            cpu = statistics.median(r[2] for r in results)
            medians.append(cpu)
            side = f"{128 if solver.wide else 64:>6}{cpu / medians[0]:>7.2f}" if len(solvers) > 1 else ""
            print(f"{name:<16}{n:>10}{_show(seconds):>12}{_show(cpu):>12}{nodes:>13.0f}{wrong:>7}{side}")
            if wrong:
                status = 1
        sys.stdout.flush()
    return status


COMMANDS = {
    "solve": (_add_solve, _run_solve),
    "analyze": (_add_analyze, _run_analyze),
    "book": (_add_book, _run_book),
}
