"""``zerosum bench analysis``: how long a full analysis (every column's exact score) takes, ply by ply.

It samples quiet positions at each ply of ``--plies`` (:func:`zerosum.solver.sampling.quiet_positions`: random
games from the empty board in which no move hands the opponent a win in one; the same ``--seed`` gives the same
positions) and analyses each with the analysis service (:mod:`zerosum.analysis`), the one behind the terminal's
hint and ``/api/analyze``, in this one process (one solver, its table kept from position to position, as a
face's solver keeps it); ``--no-book``, ``--tt-log-size`` or ``--threads`` measure a service of their own, made
so, and leave the process's alone.  It prints, per ply, the wall time's p50, p90 and max (nearest rank; seconds
to the millisecond, two significant digits below it), the mean nodes, whether every analysis was exact, and the
fallbacks: analyses the faces would have handed to alpha-beta (not exact, or longer than their wait for the
solver).  The command line and the machine's load at the start and the end come first and last, so the figures
can be judged.  The first analysis is preceded by an untimed warm-up (numba's compiled code, the table's
allocation).  By default each analysis is one call of the solver (``Solver.analyze``); ``--progressive``
analyses as the page and the terminal do, in slices, win/draw/loss first (:mod:`zerosum.solver.progressive`),
with no time limit, and adds the p50 and p90 of the time until every column had its win, draw or loss (what the
page shows first).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from typing import Any

from .options import UsageError, add_game_option, int_arg

__all__ = ["MAX_PER_PLY", "MAX_SEED", "DEFAULT_PLIES", "parse_plies", "percentile", "add_bench_analysis", "run_bench_analysis"]

#: ``--per-ply``: at most this many positions a ply
MAX_PER_PLY = 1000
#: the plies sampled by default (the book's last ply and the hard middle game after it)
DEFAULT_PLIES = "5-14"
DEFAULT_PER_PLY = 10
#: ``--seed``: at most 2**62 (README's Limits)
MAX_SEED = 2**62


def parse_plies(text: str, cells: int | None = None) -> tuple[int, int]:
    """``"A-B"`` (or ``"A"``) as ``(A, B)``, ``0 <= A <= B``, and ``B < cells`` when ``cells`` is given;
    UsageError (one line) otherwise."""
    from ..spec import integer, quoted

    head, dash, tail = text.partition("-")
    expect = "A-B with whole numbers 0 <= A <= B (e.g. 5-14), or one ply"
    try:
        lo = integer(head)
        hi = integer(tail) if dash else lo
    except ValueError:
        raise UsageError(f"--plies {quoted(text)}: expected {expect}") from None
    if lo > hi:
        raise UsageError(f"--plies {quoted(text)}: the first ply is after the last; expected {expect}")
    if cells is not None and hi >= cells:
        raise UsageError(f"--plies {quoted(text)}: a position still to play has at most {cells - 1} stones on this "
                         f"board of {cells} cells")
    return lo, hi


def _plies_arg(text: str) -> str:
    try:
        parse_plies(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--plies ")) from None  # argparse names the option
    return text


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank ``q``-quantile (0 < q <= 1) of ``values``: the smallest value with at least a
    fraction ``q`` of them at or below it (p90 of 10 values: the 9th smallest)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def add_bench_analysis(parser: argparse.ArgumentParser) -> None:
    from ..core.processes import FACE_THREADS
    from ..core.processes import MAX_JOBS as MAX_THREADS  # numba-free: help needs no solver
    from ..solver.sampling import MAX_COUNT
    from .solver import TT_LOG_SIZES

    assert MAX_PER_PLY <= MAX_COUNT
    lo, hi = TT_LOG_SIZES
    add_game_option(parser)
    parser.add_argument("--plies", type=_plies_arg, default=DEFAULT_PLIES, metavar="A-B",
                        help=f"the plies (stones on the board) sampled, A-B or one ply; each below the board's "
                             f"cells (default {DEFAULT_PLIES})")
    parser.add_argument("--per-ply", type=int_arg(1, MAX_PER_PLY), default=DEFAULT_PER_PLY, metavar="N",
                        help=f"quiet positions a ply, 1..{MAX_PER_PLY} (default {DEFAULT_PER_PLY})")
    parser.add_argument("--seed", type=int_arg(0, MAX_SEED), default=0,
                        help="the sample's seed, 0..2**62: the same seed, the same positions (default 0)")
    parser.add_argument("--no-book", action="store_true", help="analyse without the opening book")
    parser.add_argument("--tt-log-size", type=int_arg(lo, hi), default=None, metavar="N",
                        help=f"a table of 2**N entries, N in {lo}..{hi} (default: the faces' own solver)")
    parser.add_argument("--progressive", action="store_true",
                        help="analyse as the page and the terminal do: in slices, win/draw/loss first")
    parser.add_argument("--threads", type=int_arg(1, MAX_THREADS), default=None, metavar="N",
                        help=f"the solver's search threads, 1..{MAX_THREADS} (default: the faces' own, "
                             f"{FACE_THREADS} where the machine has the cores)")


def _command(args: argparse.Namespace, game: Any) -> str:
    line = f"zerosum bench analysis --game {game.spec} --plies {args.plies} --per-ply {args.per_ply} --seed {args.seed}"
    line += " --no-book" if args.no_book else ""
    line += " --progressive" if args.progressive else ""
    line += f" --tt-log-size {args.tt_log_size}" if args.tt_log_size is not None else ""
    return line + (f" --threads {args.threads}" if args.threads is not None else "")


def _load() -> str:
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:  # pragma: no cover - no load average on this system
        return "unknown"
    return f"{one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 min; {os.cpu_count()} CPUs)"


def _service_for(args: argparse.Namespace, game: Any) -> Any:
    """The analysis service measured: the process's own, or, for ``--no-book``, ``--tt-log-size`` or
    ``--threads``, one made so (its own solver), which leaves the process's alone."""
    from ..analysis import Service, service

    if not args.no_book and args.tt_log_size is None and args.threads is None:
        return service(game)
    measured = Service(game, table=None if args.tt_log_size is None else 1 << args.tt_log_size)
    if args.threads is not None:
        measured.threads = args.threads
    return measured


class _Outcomes:
    """A progressive analysis's updates watched: :attr:`at`, the seconds from ``start`` until every one of its
    ``moves`` had at least its win, draw or loss (None until then)."""

    def __init__(self, start: float, moves: int) -> None:
        self.start, self.moves = start, moves
        self.at: float | None = None

    def __call__(self, found: Any) -> None:
        if self.at is None and (found.exact or len(set(found.classes) | found.exact_moves) >= self.moves):
            self.at = time.perf_counter() - self.start


def run_bench_analysis(args: argparse.Namespace) -> int:
    from ..agents.base import MAX_TIME
    from ..analysis import service
    from ..arena.stats import fmt_fixed as secs  # never 0.000 for a sub-millisecond analysis: 0.00042
    from ..games import get_game
    from ..solver.sampling import connectx_game, quiet_positions
    from ..ui.analysis import SOLVER_TIME

    if not service(get_game(args.game)).solves:
        raise UsageError(f"--game {args.game}: the solver takes Connect-X boards with cols x (rows + 1) <= 128 "
                         "only (and needs numba)")
    game = connectx_game(args.game)
    lo, hi = parse_plies(args.plies, game.cells)
    out = sys.stdout
    print(f"command: {_command(args, game)}", file=out)
    print(f"load at start: {_load()}", file=out, flush=True)
    engine, use_book = _service_for(args, game), not args.no_book
    with engine.borrowed(book=use_book) as solver:
        book, entries = solver.book, solver.table.shape[0]
    print(f"solver: {engine.threads} thread(s), table of {entries:,} entries, book: "
          f"{'none' if book is None else f'{len(book):,} entries, plies 0-{book.depth}'}", file=out)
    for state in quiet_positions(game, max(0, game.cells - 2), 1, args.seed):
        engine.analyse(state, book=use_book)  # untimed: loads the compiled code and touches the table
    print(f"fallbacks: analyses not exact or longer than the faces' {SOLVER_TIME:g} s wait for the solver "
          "(they would be alpha-beta's)", file=out)
    shown = " wdl p50 s | wdl p90 s |" if args.progressive else ""
    print(f"| ply | positions | p50 s | p90 s | max s | mean nodes | exact | fallbacks |{shown}", file=out)
    print("| --- " * (10 if args.progressive else 8) + "|", file=out, flush=True)
    wall = cpu = 0.0
    worst: tuple[float, str] = (0.0, "")
    for ply in range(lo, hi + 1):
        states = quiet_positions(game, ply, args.per_ply, args.seed)
        times, nodes, exact, fallbacks, outcomes = [], [], True, 0, []
        for state in states:
            c0, t0 = time.process_time(), time.perf_counter()
            seen = _Outcomes(t0, len(game.actions(state)))
            found = engine.analyse(state, book=use_book, seconds=MAX_TIME if args.progressive else None,
                                   on_update=seen if args.progressive else None)
            dt = time.perf_counter() - t0
            outcomes.append(dt if seen.at is None else seen.at)
            cpu += time.process_time() - c0
            times.append(dt)
            nodes.append(found.nodes)
            exact = exact and found.exact
            fallbacks += int(not found.exact or dt > SOLVER_TIME)
            worst = max(worst, (dt, game.to_moves(state)))
        wall += sum(times)
        if not times:
            print(f"| {ply} | 0 |" + " - |" * (8 if args.progressive else 6), file=out, flush=True)
            continue
        first = (f" {secs(percentile(outcomes, 0.5), 3)} | {secs(percentile(outcomes, 0.9), 3)} |"
                 if args.progressive else "")
        print(f"| {ply} | {len(times)} | {secs(percentile(times, 0.5), 3)} | {secs(percentile(times, 0.9), 3)} | "
              f"{secs(max(times), 3)} | {sum(nodes) / len(nodes):,.0f} | {'yes' if exact else 'NO'} | {fallbacks} |"
              f"{first}", file=out, flush=True)
    print(f"total: {secs(wall, 1)} s wall, {secs(cpu, 1)} s CPU; slowest: {secs(worst[0], 3)} s at "
          f"{worst[1] or '(empty)'}", file=out)
    print(f"load at end: {_load()}", file=out)
    return 0
