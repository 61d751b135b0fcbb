"""zerosum agents against Kaggle's built-in ConnectX agents, in real kaggle_environments games (a benchmark).

    python benchmarks/interop_kaggle.py                          # solver vs negamax, 10 games a seat
    python benchmarks/interop_kaggle.py --games 20 --time 0.5    # cap each move at 0.5 s
    python benchmarks/interop_kaggle.py --spec mcts --opponent random --rows 5 --cols 6

Kaggle's negamax and random agents break ties with the global random module, seeded per game here.
Prints wins/draws/losses per seat, the longest move and the overage time left at the end of the game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import kaggle_environments

from zerosum.interop import kaggle


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spec", default="solver")
    parser.add_argument("--opponent", default="negamax", help="a Kaggle agent: negamax or random")
    parser.add_argument("--games", type=int, default=10, help="games per seat")
    parser.add_argument("--time", type=float, default=None, help="cap on seconds per move (default: Kaggle's)")
    parser.add_argument("--rows", type=int, default=6)
    parser.add_argument("--cols", type=int, default=7)
    parser.add_argument("--k", type=int, default=4)
    args = parser.parse_args()
    limits = {} if args.time is None else {"time": args.time}
    config = {"rows": args.rows, "columns": args.cols, "inarow": args.k}
    for seat in (0, 1):
        wdl = [0, 0, 0]
        longest: list[float] = []
        overage: list[float] = []
        fallbacks = 0
        start = time.perf_counter()
        for game in range(args.games):
            ours = kaggle.agent(args.spec, seed=game, **limits)
            times: list[float] = []

            def traced(obs, cfg, ours=ours, times=times):  # type: ignore[no-untyped-def]
                col = ours(obs, cfg)
                times.append(ours.last["seconds"])
                return col

            random.seed(1000 * seat + game)
            env = kaggle_environments.make("connectx", configuration=config)
            env.run([traced, args.opponent] if seat == 0 else [args.opponent, traced])
            reward = env.state[seat].reward
            wdl[0 if reward == 1 else 1 if reward == 0 else 2] += 1
            fallbacks += ours.last.get("fallback", False)
            longest.append(max(times))
            overage.append(env.state[seat].observation.remainingOverageTime)
        elapsed = time.perf_counter() - start
        print(f"{args.spec} as {'first' if seat == 0 else 'second'} vs {args.opponent} on {args.rows}x{args.cols}"
              f" k={args.k}: {wdl[0]} won, {wdl[1]} drawn, {wdl[2]} lost of {args.games}; longest move "
              f"{max(longest):.1f} s (median game {statistics.median(longest):.1f} s); overage left min "
              f"{min(overage):.1f} s; {elapsed / args.games:.1f} s a game", flush=True)


if __name__ == "__main__":
    main()
