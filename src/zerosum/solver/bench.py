"""``zerosum bench solver FILE... [--weak] [--limit N] [--no-book] [--repeat R]``: the solver against benchmark files.

Each file holds ``moves score`` lines (Pascal Pons' test sets).  For each file it prints the positions
solved, the mean time per position -- wall clock, and the CPU time of this process, the steadier figure on
a shared machine; the solve only: parsing, checking the positions and the one-off compile are left out --
the mean nodes, and the wrong scores (must be 0; with ``--weak``, a wrong sign).  Each file starts with a
cleared table (clearing also maps its pages, as a C++ solver's allocation does, before the clock starts),
and its positions are solved by compiled code without Python between them (``Solver.solve_states``; it
returns to Python only every ``Solver.slice_nodes`` nodes, for Ctrl-C) sharing that table, as
``zerosum solve`` shares it; ``--reset-table`` solves them one call each with the table cleared before
each.  ``--repeat R`` solves each file R times and prints the median times (shared machines are noisy).
Exit status 1 when a score is wrong.
"""

from __future__ import annotations

import argparse
import sys
import time

__all__ = ["BENCH", "run_file", "read_file"]


def _add(parser: argparse.ArgumentParser) -> None:
    from ..cli import add_game_option
    from ..commands.options import int_arg
    from .cli import add_tt_option

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
                        "times")


def read_file(solver: object, path: str, limit: int | None = None,
              text: str | None = None) -> tuple[list[tuple[int, int, int]], list[object]]:
    """The positions of a benchmark file: ``(current, mask, expected score)`` and the states.

    A missing, binary or directory file, or a bad line, is one :class:`~zerosum.errors.GameError` naming it.
    ``text``: the file's text, when it was read already.
    """
    from ..core.files import read_text
    from ..errors import GameError, InvalidFileError
    from ..spec import integer

    items: list[tuple[int, int, int]] = []
    states: list[object] = []
    if text is None:
        text = read_text(path, "benchmark file")
    for number, line in enumerate(text.splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if limit is not None and len(items) >= limit:
            break
        try:
            state = solver.position(parts[0])  # type: ignore[attr-defined]
            expected = integer(parts[1])
        except (GameError, IndexError, ValueError) as exc:
            raise InvalidFileError(f"benchmark file {path!r}, line {number}: "
                                   f"{exc if str(exc) else 'expected moves and a score'}") from None
        items.append((state.current, state.mask, expected))
        states.append(state)
    return items, states


def run_file(solver: object, path: str, weak: bool = False, limit: int | None = None,
             reset_table: bool = False, repeat: int = 1,
             read: tuple[list[tuple[int, int, int]], list[object]] | None = None) -> tuple[int, float, float, float, int]:
    """(positions, mean wall seconds, mean CPU seconds, mean nodes, wrong scores) of one benchmark file.

    With ``repeat > 1`` the file is solved that many times and the times are the medians of the runs.
    ``read``: the file's positions from :func:`read_file`, when they were read already.
    """
    items, states = read if read is not None else read_file(solver, path, limit)
    runs = [_run_once(solver, items, states, weak, reset_table) for _ in range(max(1, repeat))]
    walls = sorted(r[0] for r in runs)
    cpus = sorted(r[1] for r in runs)
    total, cpu = walls[len(runs) // 2], cpus[len(runs) // 2]
    nodes, scores = runs[-1][2], runs[-1][3]
    wrong = 0
    for score, (_, _, expected) in zip(scores, items):
        if weak:
            expected = (expected > 0) - (expected < 0)
        if score != expected:
            wrong += 1
    n = max(len(items), 1)
    return len(items), total / n, cpu / n, nodes / n, wrong


def _run_once(solver: object, items: list[tuple[int, int, int]], states: list[object], weak: bool,
              reset_table: bool) -> tuple[float, float, int, list[int]]:
    """(wall seconds, CPU seconds, nodes, scores) of one pass over a file's positions."""
    nodes = 0
    total = 0.0
    cpu = 0.0
    if reset_table:  # one call per position, the table cleared before each
        solve_bits = solver.solve_bits  # type: ignore[attr-defined]
        scores = []
        for current, mask, _ in items:
            solver.reset()  # type: ignore[attr-defined]
            start, start_cpu = time.perf_counter(), time.process_time()
            scores.append(solve_bits(current, mask, weak))
            total += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            nodes += solver.nodes  # type: ignore[attr-defined]
    else:  # the whole file in compiled code: no Python between positions (only between slices)
        solver.reset()  # type: ignore[attr-defined]
        start, start_cpu = time.perf_counter(), time.process_time()
        scores = solver.solve_states(states, weak)  # type: ignore[attr-defined]
        total = time.perf_counter() - start
        cpu = time.process_time() - start_cpu
        nodes = solver.nodes  # type: ignore[attr-defined]
    return total, cpu, nodes, scores


def _show(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} us"


def _run(args: argparse.Namespace) -> int:
    from ..core.files import read_text
    from .cli import settled
    from .solver import Solver

    texts = [(path, read_text(path, "benchmark file")) for path in args.files]  # before anything is built
    solver = settled(Solver(args.game, tt_size=1 << args.tt_log_size, book=not args.no_book))
    files = [(path, read_file(solver, path, args.limit, text)) for path, text in texts]
    # compile (or load from the cache) before timing anything
    g = solver.game
    warm = g.from_moves([c for c in range(g.cols)][: min(g.cols, g.cells - 1)])
    if not warm.won_by and warm.mask != g.board_mask:
        solver.solve_bits(warm.current, warm.mask, args.weak)
        solver.solve_many([warm], args.weak)
    mode = "weak" if args.weak else "strong"
    print(f"solver benchmark: {g.spec}, {mode}, book {'off' if args.no_book else 'on'}, "
          f"table 2**{args.tt_log_size}{', cleared per position' if args.reset_table else ''}"
          f"{f', median of {args.repeat} runs' if args.repeat > 1 else ''}")
    print(f"{'file':<16}{'positions':>10}{'mean time':>12}{'mean CPU':>12}{'mean nodes':>13}{'wrong':>7}")
    status = 0
    for path, read in files:
        n, seconds, cpu, nodes, wrong = run_file(solver, path, args.weak, args.limit, args.reset_table, args.repeat,
                                                 read)
        name = path.rsplit("/", 1)[-1]
        print(f"{name:<16}{n:>10}{_show(seconds):>12}{_show(cpu):>12}{nodes:>13.0f}{wrong:>7}")
        sys.stdout.flush()
        if wrong:
            status = 1
    return status


BENCH = (_add, _run)
