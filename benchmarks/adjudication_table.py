"""Why the adjudicator keeps a table of its own: its rulings on the process's shared table and on its own.

    python benchmarks/adjudication_table.py [--games N] [--nodes N] [--seed S]

Plays games of the solver agent (``solver:time=0.3``, which borrows the process's one solver of the game from
the analysis service) against ``alphabeta:depth=3`` on 7 x 6, from a random 4-ply opening, in one process as
an arena worker would.  After every move past the opening book it asks for a ruling within ``--nodes`` nodes
(``--adjudicate solver``'s budget) twice: on the adjudicator's own bookless table
(``Service.prove``, as the arena does) and on the shared table the players search (the book left out).  It
prints, per game, the ply of each first ruling and its result, and the result the game reached when played
out; then how many moves each would have skipped and how often its result was the played one.
"""

from __future__ import annotations

import argparse
import os
import random
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--nodes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from zerosum import analysis, get_game, make_agent
    from zerosum.arena.adjudicate import TABLE_SIZE

    game = get_game("connect4")
    engine = analysis.service(game)
    rng = random.Random(args.seed)
    players = [make_agent("solver:time=0.3"), make_agent("alphabeta:depth=3")]
    depth = engine.book_depth or 0
    totals = {"own": [0, 0, 0], "shared": [0, 0, 0]}  # ruled games, moves skipped, rulings that agree
    print(f"{args.games} games, solver:time=0.3 against alphabeta:depth=3, rulings within {args.nodes} nodes, "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    for n in range(args.games):
        state = game.initial_state
        for _ in range(4):
            state = game.result(state, rng.choice(game.actions(state)))
        first: dict[str, tuple[int, int] | None] = {"own": None, "shared": None}
        turn = n % 2  # who of the two moves first alternates
        while not game.is_terminal(state):
            if state.ply > depth:
                for kind in first:
                    if first[kind] is None:
                        if kind == "own":
                            proof = engine.prove(state, args.nodes, TABLE_SIZE)
                        else:
                            with engine.borrowed(book=False) as solver:
                                proof = analysis.prove(solver, state, args.nodes)
                        if proof is not None:
                            winner = 0 if proof[0] == 0 else game.player(state) if proof[0] > 0 else 3 - game.player(state)
                            first[kind] = (state.ply, winner)
            state = game.result(state, players[turn](game, state))
            turn = 1 - turn
        played = game.winner(state) or 0
        line = []
        for kind, ruling in first.items():
            if ruling is not None:
                totals[kind][0] += 1
                totals[kind][1] += state.ply - ruling[0]
                totals[kind][2] += ruling[1] == played
            line.append(f"{kind}: " + ("none" if ruling is None else f"ply {ruling[0]}, winner {ruling[1] or 'none'}"))
        print(f"game {n + 1}: played to ply {state.ply}, winner {played or 'none'}; " + "; ".join(line), flush=True)
    for kind, (ruled, skipped, agree) in totals.items():
        print(f"{kind} table: {ruled} of {args.games} games ruled, {skipped} moves skipped, {agree} of {ruled} "
              f"rulings the played result")
    print(f"load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
