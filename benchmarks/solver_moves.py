"""How long the solver agent takes to move, on the quiet positions `zerosum bench analysis` samples.

    python benchmarks/solver_moves.py [--game connect4] [--plies 8-10] [--per-ply 100] [--seed 1]
                                      [--threads 2] [--time 10] [--face]

The agent is `solver:time=T` searching on the faces' threads, as `zerosum play` and the page use it; its
table is emptied between positions.  By default it moves under a time control (``search``, as the arena
calls it); ``--face`` moves as the page and the terminal ask it to (``search_within``, a person waiting: it
waits for a proven move, except where the solver's reach ends, ``analysis.REACH``).  Prints p50, p90 and the
worst seconds a ply; how many moves were not the solver's (``last_fallback``: alpha-beta moved, and why);
and how many took longer than T + ``ui.engines.MARGIN`` seconds -- the page's hard limit, past which it lets
alpha-beta move instead, when its engine time is T (``zerosum serve``'s default engine time, 5 s, allows 8 s,
so with T = 1 this column is the stricter count).  Run it on a quiet machine and note the load (``uptime``)
beside the figures.
"""

from __future__ import annotations

import argparse
import os
import time

from zerosum import make_agent
from zerosum.solver.sampling import connectx_game, quiet_positions
from zerosum.ui.engines import MARGIN


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="connect4", help="a Connect-X spec (default connect4)")
    parser.add_argument("--plies", default="8-10", help="A-B or one ply (default 8-10)")
    parser.add_argument("--per-ply", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--time", type=float, default=10.0, help="the agent's time a move (default 10 s)")
    parser.add_argument("--face", action="store_true", help="move as the page and the terminal ask it to")
    args = parser.parse_args()
    lo, _, hi = args.plies.partition("-")
    game = connectx_game(args.game)
    agent = make_agent(f"solver:time={args.time:g}")
    agent.use_cores(args.threads)
    agent.warm_up(game)
    limit = args.time + MARGIN
    print(f"game: {game.spec}; agent: {agent.spec} on {args.threads} thread(s), "
          f"{'as the faces ask (search_within)' if args.face else 'under a time control (search)'}")
    print(f"load at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"| ply | positions | p50 s | p90 s | max s | alpha-beta moved | over {limit:g} s |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for ply in range(int(lo), int(hi or lo) + 1):
        seconds, fallbacks = [], 0
        for state in quiet_positions(game, ply, args.per_ply, seed=args.seed):
            agent.reset()
            start = time.perf_counter()
            if args.face:
                agent.search_within(game, state, args.time)
            else:
                agent.search(game, state)
            seconds.append(time.perf_counter() - start)
            fallbacks += bool(agent.last_fallback)
        seconds.sort()
        n = len(seconds)
        if not n:
            print(f"| {ply} | 0 | - | - | - | - | - |")
            continue
        over = sum(s > limit for s in seconds)
        print(f"| {ply} | {n} | {seconds[n // 2]:.3f} | {seconds[min(n - 1, (9 * n) // 10)]:.3f} | {seconds[-1]:.3f} "
              f"| {fallbacks} | {over} |", flush=True)
    print(f"load at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
