"""``zerosum bench review [FILE]``: how long a full review (:func:`zerosum.review`) of each recorded game
takes, and how soon its first mark comes.

Every game of the record file (default ``benchmarks/review_games.pgn``: 21 games, 20 of the solver against
alpha-beta and MCTS on 7 x 6 and a 42-ply full-board draw, written by ``benchmarks/review_games.py``) is
reviewed in this one process, as
``zerosum review FILE`` reviews it, with the solver's table emptied before each game (so no game is helped by
the one before; the opening book stays).  It prints a line a game (plies, seconds, the first mark's seconds,
the slowest mark's), then p50, p90 and max (nearest rank) of the seconds a game and of the first mark's, and
the machine's load at the start and the end.  An untimed warm-up (numba's compiled code, the table, the book)
comes first.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from .bench_analysis import _load, percentile
from .options import UsageError, int_arg

__all__ = ["DEFAULT_FILE", "add_bench_review", "run_bench_review"]

#: the recorded games reviewed when no file is named (run from the repository's root)
DEFAULT_FILE = "benchmarks/review_games.pgn"


def add_bench_review(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default=DEFAULT_FILE, metavar="FILE",
                        help=f"a record file of the games to review (default {DEFAULT_FILE})")
    parser.add_argument("--games", type=int_arg(1, 10_000), default=None, metavar="N",
                        help="review only the first N games of the file")
    parser.add_argument("--threads", type=int_arg(1, 64), default=None, metavar="N",
                        help="the solver's threads (default: the faces', two where the machine has them)")


def run_bench_review(args: argparse.Namespace) -> int:
    from ..analysis import service
    from ..records import read
    from ..reviewer import iter_review

    games = read(args.file)[: args.games]
    if not games:
        raise UsageError(f"record file {args.file!r} holds no games")
    out = sys.stdout
    print(f"zerosum bench review {args.file} ({len(games)} games); load at start: {_load()}", file=out, flush=True)
    service(games[0].game).analyse(games[0].game.initial_state)  # untimed warm-up
    totals, firsts, plies = [], [], 0
    for i, record in enumerate(games, 1):
        engine = service(record.game)
        if engine.solves:
            engine.solver.reset()
        began, first, slowest, last = time.perf_counter(), None, 0.0, time.perf_counter()
        marks: list[Any] = []
        for mark in iter_review(record, threads=args.threads):  # each mark as it comes
            now = time.perf_counter()
            first = now - began if first is None else first
            slowest, last = max(slowest, now - last), now
            marks.append(mark)
        total = time.perf_counter() - began
        totals.append(total)
        firsts.append(first or 0.0)
        plies += len(marks)
        print(f"game {i:>3}: {len(marks):>3} plies  {total:6.2f} s  first mark {first or 0:.3f} s  slowest mark "
              f"{slowest:.2f} s  ({record.tags['First']} - {record.tags['Second']}, {record.result})",
              file=out, flush=True)
    print(f"seconds a game: p50 {percentile(totals, 0.5):.2f}  p90 {percentile(totals, 0.9):.2f}  max "
          f"{max(totals):.2f}  ({plies} plies in {sum(totals):.1f} s)", file=out)
    print(f"first mark: p50 {percentile(firsts, 0.5):.3f}  p90 {percentile(firsts, 0.9):.3f}  max "
          f"{max(firsts):.3f} s", file=out)
    print(f"load at end: {_load()}", file=out)
    return 0
