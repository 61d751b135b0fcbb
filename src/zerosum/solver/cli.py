"""``zerosum solve``, ``zerosum analyze`` and ``zerosum book``.

``zerosum solve`` reads one move string a line from standard input (anything after the first space is
ignored, so benchmark files pipe straight in; blank lines are skipped) and prints ``moves score`` a line;
``--weak`` prints the sign only, ``--stats`` adds the nodes searched and the microseconds taken.  A bad line
(a malformed or illegal move string, or a finished game) prints one error line on standard error naming the
line number, and solving goes on with the next line; the exit status is then 2 at the end.

This module imports quickly; the solver (numba) loads inside ``run``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["COMMANDS"]


#: the transposition table of every solver command: 2**N entries, 8 bytes each
TT_LOG_SIZES = (10, 31)


def add_tt_option(parser: argparse.ArgumentParser) -> None:
    """``--tt-log-size N`` (10..31), shared by solve, analyze, book and bench solver."""
    from ..commands.options import int_arg

    lo, hi = TT_LOG_SIZES
    parser.add_argument(
        "--tt-log-size", type=int_arg(lo, hi), default=24, metavar="N",
        help=f"transposition table of 2**N entries, 8 bytes each, N in {lo}..{hi} (default 24: 128 MB)",
    )


def _common(parser: argparse.ArgumentParser) -> None:
    from ..cli import add_game_option

    add_game_option(parser)
    parser.add_argument("--weak", action="store_true", help="win / draw / loss only (+1 / 0 / -1): much faster")
    parser.add_argument("--no-book", action="store_true", help="do not use the opening book")
    add_tt_option(parser)


def _solver(args: argparse.Namespace) -> Any:
    from .solver import Solver

    return settled(Solver(args.game, tt_size=1 << args.tt_log_size, book=not args.no_book))


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
                     "on, and the exit status is then 2.")
    _common(parser)
    parser.add_argument("--stats", action="store_true", help="add the nodes searched and the microseconds taken")


def _run_solve(args: argparse.Namespace) -> int:
    from ..errors import GameError

    solver = _solver(args)
    status = 0
    out = sys.stdout
    for number, line in enumerate(sys.stdin, 1):
        text = line.strip()
        if not text:
            continue
        moves = text.split()[0]
        try:
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


# ---- analyze -------------------------------------------------------------------------------------


def _add_analyze(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("moves", nargs="?", default="", metavar="MOVES",
                        help="the position as a move string, 1-based columns (default: the start)")
    _common(parser)


def _run_analyze(args: argparse.Namespace) -> int:
    from .solver import best_of

    solver = _solver(args)
    game = solver.game
    state = solver.position(args.moves)
    scores = solver.analyze(state, weak=args.weak)
    width = max(5, len(str(game.cols)) + 1)
    print(f"position: {args.moves or '(start)'}, player {state.to_move} to move")
    print("column:" + "".join(str(c + 1).rjust(width) for c in range(game.cols)))
    print("score: " + "".join(("full" if s is None else f"{s:+d}" if s else "0").rjust(width) for s in scores))
    best = best_of(scores, game.cols)
    value = scores[best]
    assert value is not None
    if args.weak:
        verdict = {1: "a win", 0: "a draw", -1: "a loss"}[value]
        print(f"best: column {best + 1} ({verdict})")
    else:
        print(f"best: column {best + 1} (score {value:+d})" if value else f"best: column {best + 1} (a draw)")
    print(f"nodes: {solver.nodes}, {solver.elapsed * 1e3:.1f} ms")
    return 0


# ---- book ---------------------------------------------------------------------------------------


def _add_book(parser: argparse.ArgumentParser) -> None:
    from ..cli import add_game_option
    from ..commands.options import int_arg
    from ..core.processes import MAX_JOBS

    add_game_option(parser)
    parser.add_argument("--depth", type=int_arg(0, 20), default=4, metavar="D",
                        help="cover every position up to this many plies, 0..20 (default 4)")
    parser.add_argument("--output", "-o", required=True, metavar="FILE",
                        help="the book file to write (.npz); never inside the installed package")
    parser.add_argument("--overwrite", action="store_true", help="replace FILE if it exists")
    add_tt_option(parser)
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")
    parser.add_argument("--jobs", "-j", type=int_arg(1, MAX_JOBS), default=1, metavar="N",
                        help=f"search in N worker processes, 1..{MAX_JOBS}, each with its own table (default 1)")
    parser.epilog = ("Each position searched is appended to FILE.partial as it is solved; an interrupted run "
                     "started again with the same arguments resumes from there. The file is removed once the "
                     "book is written. To use the book: Solver(book=FILE).")


def _run_book(args: argparse.Namespace) -> int:
    import os
    import time

    from ..core.files import check_output
    from . import book as book_mod
    from .solver import Solver

    path = str(check_output(args.output, overwrite=args.overwrite, what="book file"))
    checkpoint = path + ".partial"
    check_output(checkpoint, overwrite=True, what="book checkpoint")
    solver = settled(Solver(args.game, tt_size=1 << args.tt_log_size, book=False))
    last = [0.0]

    def progress(done: int, total: int, seconds: float) -> None:
        if not args.quiet and (seconds - last[0] >= 5 or done == total):
            last[0] = seconds
            print(f"book: {done}/{total} positions at ply {args.depth}, {seconds:.0f} s", file=sys.stderr)

    start = time.perf_counter()
    book = book_mod.generate(solver, args.depth, progress, checkpoint, args.jobs)
    book.save(path, overwrite=args.overwrite)
    os.remove(checkpoint)
    print(f"wrote {path}: {len(book)} positions up to ply {args.depth} in {time.perf_counter() - start:.1f} s")
    return 0


COMMANDS = {
    "solve": (_add_solve, _run_solve),
    "analyze": (_add_analyze, _run_analyze),
    "book": (_add_book, _run_book),
}
