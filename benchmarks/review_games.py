"""Write benchmarks/review_games.pgn: the 20 recorded 7 x 6 games `zerosum bench review` and the review's
truth test (tests/review/) read -- the solver against alpha-beta and against MCTS, each side first in turn.

    python benchmarks/review_games.py [--out benchmarks/review_games.pgn]

Alpha-beta at depths 2..6 and MCTS at 300..3000 simulations (seeded) lose to the solver in different ways,
so the file holds blunders, mistakes, slow wins and only moves.  The games are fixed once written: the file
is checked in, and this script says how it was made.
"""

from __future__ import annotations

import argparse

from zerosum import ConnectX, make_agent, play_game, records

OPPONENTS = ["alphabeta:depth=2", "alphabeta:depth=3", "alphabeta:depth=4", "alphabeta:depth=5",
             "alphabeta:depth=6", "mcts:sims=300", "mcts:sims=600", "mcts:sims=1000", "mcts:sims=2000",
             "mcts:sims=3000"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="benchmarks/review_games.pgn")
    args = parser.parse_args()
    game = ConnectX()
    out = []
    for i, spec in enumerate(OPPONENTS):
        for solver_first in (True, False):
            seed = 100 + 2 * i + solver_first
            other = make_agent(spec, seed=seed)
            pair = (make_agent("solver"), other) if solver_first else (other, make_agent("solver"))
            rec = records.from_game_record(play_game(game, *pair, seed=seed))
            rec.tags["Round"] = str(len(out) + 1)
            rec.tags["Event"] = "zerosum review benchmark"
            rec.tags["Site"] = "?"
            out.append(rec)
            print(rec.tags["Round"], rec.tags["First"], "-", rec.tags["Second"], rec.result, len(rec.moves), "plies")
    records.write(out, args.out, overwrite=True)


if __name__ == "__main__":
    main()
