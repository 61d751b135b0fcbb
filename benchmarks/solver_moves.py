"""How long the solver agent takes to move, on the quiet positions `zerosum bench analysis` samples.

    python benchmarks/solver_moves.py [--plies 8-10] [--per-ply 100] [--seed 1] [--threads 2] [--time 10]

The agent is `solver:time=T` searching on the faces' threads, as `zerosum play` and the page use it; its
table is emptied between positions.  Prints p50, p90 and the worst seconds a ply.  Run it on a quiet machine
and note the load (``uptime``) beside the figures.
"""

from __future__ import annotations

import argparse
import os
import time

from zerosum import ConnectX, make_agent
from zerosum.solver.sampling import quiet_positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", default="8-10", help="A-B or one ply (default 8-10)")
    parser.add_argument("--per-ply", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--time", type=float, default=10.0, help="the agent's time a move (default 10 s)")
    args = parser.parse_args()
    lo, _, hi = args.plies.partition("-")
    game = ConnectX()
    agent = make_agent(f"solver:time={args.time:g}")
    agent.use_cores(args.threads)
    agent.warm_up(game)
    print(f"load at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("| ply | positions | p50 s | p90 s | max s |\n| --- | --- | --- | --- | --- |")
    for ply in range(int(lo), int(hi or lo) + 1):
        seconds = []
        for state in quiet_positions(game, ply, args.per_ply, seed=args.seed):
            agent.reset()
            start = time.perf_counter()
            agent.search(game, state)
            seconds.append(time.perf_counter() - start)
        seconds.sort()
        n = len(seconds)
        print(f"| {ply} | {n} | {seconds[n // 2]:.3f} | {seconds[min(n - 1, (9 * n) // 10)]:.3f} | {seconds[-1]:.3f} |")


if __name__ == "__main__":
    main()
