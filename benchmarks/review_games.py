"""Write benchmarks/review_games.pgn: the 21 recorded 7 x 6 games `zerosum bench review` and the review's
truth test (tests/review/) read -- the solver against alpha-beta and against MCTS, each side first in turn,
then a 42-ply game (the longest a 7 x 6 game can be: a full board, drawn) between alpha-beta and MCTS.

    python benchmarks/review_games.py [--out benchmarks/review_games.pgn] [--draw-only]

Alpha-beta at depths 2..6 and MCTS at 300..3000 simulations (seeded) lose to the solver in different ways,
so the file holds blunders, mistakes, slow wins and only moves.  The solver never lets a game reach a full
board, so the 42-ply game is the first full-board draw found by playing alpha-beta (depths 4..6) and MCTS
(1000 and 3000 simulations) against each other, every pairing, seed after seed (``--draw-only``: print that
game alone, as it was appended to the file).  The games are fixed once written: the file is checked in, and
this script says how it was made.
"""

from __future__ import annotations

import argparse

import itertools
import sys

from zerosum import ConnectX, make_agent, play_game, records

OPPONENTS = ["alphabeta:depth=2", "alphabeta:depth=3", "alphabeta:depth=4", "alphabeta:depth=5",
             "alphabeta:depth=6", "mcts:sims=300", "mcts:sims=600", "mcts:sims=1000", "mcts:sims=2000",
             "mcts:sims=3000"]


#: the agents played against each other for the full-board draw
DRAWERS = ["alphabeta:depth=4", "alphabeta:depth=5", "alphabeta:depth=6", "mcts:sims=1000", "mcts:sims=3000"]


def full_board_draw(game: ConnectX, round_: int) -> records.Record:
    """The first game between two of :data:`DRAWERS` (every ordered pairing, seeds 1, 2, ...) that fills the
    board without a line: 42 plies."""
    for seed in itertools.count(1):
        for first, second in itertools.permutations(DRAWERS, 2):
            played = play_game(game, make_agent(first, seed=seed), make_agent(second, seed=seed + 1), seed=seed)
            rec = records.from_game_record(played)
            if rec.result == "1/2-1/2" and len(rec.moves) == game.rows * game.cols:
                rec.tags.update(Round=str(round_), Event="zerosum review benchmark", Site="?")
                return rec
    raise AssertionError("unreachable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="benchmarks/review_games.pgn")
    parser.add_argument("--draw-only", action="store_true", help="print the 42-ply game alone (game 21)")
    args = parser.parse_args()
    game = ConnectX()
    if args.draw_only:
        sys.stdout.write(records.format(full_board_draw(game, 2 * len(OPPONENTS) + 1)))
        return
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
    out.append(full_board_draw(game, len(out) + 1))
    print(out[-1].tags["Round"], out[-1].tags["First"], "-", out[-1].tags["Second"], out[-1].result, "42 plies")
    records.write(out, args.out, overwrite=True)


if __name__ == "__main__":
    main()
