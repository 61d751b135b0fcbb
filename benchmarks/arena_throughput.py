"""How many games a second the arena plays, and what its safety (worker processes, deadlines, SQLite
commits) costs over playing the same games in one plain loop.

    python benchmarks/arena_throughput.py [--games 200] [--jobs 1 2] [--rounds 3]

Prints, per setting, the median over the rounds of games/s; `plain loop` is the same agents playing the
same number of games in this process with no isolation at all.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from zerosum import get_game, make_agent
from zerosum.cli import main


def plain_loop(games: int, seed: int) -> float:
    game = get_game("connect4")
    start = time.perf_counter()
    for i in range(games):
        a, b = make_agent("random", seed=seed + 2 * i), make_agent("random", seed=seed + 2 * i + 1)
        state = game.initial_state
        while not game.is_terminal(state):
            state = game.result(state, (a if game.player(state) == 1 else b)(game, state))
    return games / (time.perf_counter() - start)


def arena(games: int, jobs: int, seed: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bench.db")
        start = time.perf_counter()
        code = main(["match", "random", "random", "--games", str(games), "--jobs", str(jobs), "--seed", str(seed),
                     "--opening-plies", "0", "--out", out, "--quiet"])
        elapsed = time.perf_counter() - start
        assert code == 0
    return games / elapsed


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f}, cores: {os.cpu_count()}; random vs random on connect4, {args.games} games")
    rates = [plain_loop(args.games, r) for r in range(args.rounds)]
    print(f"plain loop          : {statistics.median(rates):8.1f} games/s")
    for jobs in args.jobs:
        rates = [arena(args.games, jobs, r) for r in range(args.rounds)]
        print(f"arena --jobs {jobs:<7}: {statistics.median(rates):8.1f} games/s (rounds: "
              f"{', '.join(f'{x:.1f}' for x in rates)})")


if __name__ == "__main__":
    run()
