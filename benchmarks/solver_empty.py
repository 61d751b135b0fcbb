"""Solve the empty 7 x 6 board from scratch (no opening book): the solver's longest benchmark.

    python benchmarks/solver_empty.py [--weak] [--tt-log-size 24] [--game connect4]

Prints the score, nodes, wall and CPU seconds.  The compile (or cache load) happens before the clock starts.
Expect minutes: run it on a quiet machine, and note the load (``uptime``) beside the figure.
"""

from __future__ import annotations

import argparse
import os
import time

from zerosum import Solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--weak", action="store_true")
    parser.add_argument("--tt-log-size", type=int, default=24)
    parser.add_argument("--game", default="connect4")
    args = parser.parse_args()
    solver = Solver(args.game, tt_size=1 << args.tt_log_size, book=False)
    solver.solve("1" * min(solver.game.rows - 1, 3), weak=args.weak)  # compile first
    solver.reset()
    wall, cpu = time.perf_counter(), time.process_time()
    score = solver.solve("", weak=args.weak)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{solver.game.spec} empty board, {'weak' if args.weak else 'strong'}: score {score}, "
          f"{solver.nodes:,} nodes, {wall:.1f} s wall, {cpu:.1f} s CPU, load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
