"""The solver against benchmark files: what ``zerosum bench solver`` measures (its command line lives in
:mod:`zerosum.commands.solver`).

Each file holds ``moves score`` lines (Pascal Pons' test sets).  For each file it prints the positions
solved, the mean time per position -- wall clock, and the CPU time of this process, the steadier figure on
a shared machine; the solve only: parsing, checking the positions and the one-off compile are left out --
the mean nodes, and the wrong scores (must be 0; with ``--weak``, a wrong sign).  Each file starts with a
cleared table (clearing also maps its pages, as a C++ solver's allocation does, before the clock starts),
and its positions are solved by compiled code without Python between them (``Solver.solve_states``; it
returns to Python only every ``Solver.slice_nodes`` nodes, for Ctrl-C) sharing that table, as
``zerosum solve`` shares it; ``--reset-table`` solves them one call each with the table cleared before
each.  ``--repeat R`` solves each file R times and prints the median times (shared machines are noisy; of an
even R, the mean of the middle two).
Exit status 1 when a score is wrong.
"""

from __future__ import annotations

import statistics
import time

__all__ = ["run_file", "read_file"]


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

    With ``repeat > 1`` the file is solved that many times and the times are the medians of the runs (of an
    even count, the mean of the middle two).
    ``read``: the file's positions from :func:`read_file`, when they were read already.
    """
    items, states = read if read is not None else read_file(solver, path, limit)
    runs = [_run_once(solver, items, states, weak, reset_table) for _ in range(max(1, repeat))]
    total, cpu = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
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
