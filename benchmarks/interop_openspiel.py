"""zerosum ``mcts`` against OpenSpiel's C++ MCTS bot (``openspiel-mcts``): equal simulations, equal time.

    python benchmarks/interop_openspiel.py                       # 20 games at sims=1000, 20 at time=0.2
    python benchmarks/interop_openspiel.py --games 40 --sims 2000 --time 0.5
    python benchmarks/interop_openspiel.py --ours "mcts:c=1.0" --theirs "openspiel-mcts:c=1.4"

Both play with their own defaults (zerosum: c=0.7 on rewards scaled to 0..1, random playouts, MCTS-Solver
proofs and a root check for wins in one or two; OpenSpiel: uct_c=2, one random rollout a leaf, solve=1).
Seats alternate, every game from the empty 7 x 6 board; each game gets fresh agents seeded by its number.
Prints zerosum's wins/draws/losses and, for equal time, the simulations a move each side managed when the
agent reports them (zerosum does, in ``SearchResult.nodes``).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from zerosum import ConnectX, make_agent


def play(game: Any, first: Any, second: Any, sims: list[int]) -> int | None:
    state = game.initial_state
    players = {1: first, 2: second}
    while not game.is_terminal(state):
        agent = players[game.player(state)]
        if hasattr(agent, "search") and agent.name == "mcts":
            result = agent.search(game, state)
            sims.append(result.nodes)
            action = result.action
        else:
            action = agent(game, state)
        state = game.result(state, action)
    return game.winner(state)


def match(ours: str, theirs: str, games: int) -> tuple[list[int], list[int], float]:
    game = ConnectX()
    wdl = [0, 0, 0]
    sims: list[int] = []
    start = time.perf_counter()
    for i in range(games):
        a, b = make_agent(ours, seed=i), make_agent(theirs, seed=10_000 + i)
        first, second = (a, b) if i % 2 == 0 else (b, a)
        winner = play(game, first, second, sims)
        our_seat = 1 if i % 2 == 0 else 2
        wdl[0 if winner == our_seat else 1 if winner is None else 2] += 1
    return wdl, sims, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--time", type=float, default=0.2)
    parser.add_argument("--ours", default="mcts")
    parser.add_argument("--theirs", default="openspiel-mcts")
    parser.add_argument("--only", choices=("sims", "time"), help="run one of the two matches")
    args = parser.parse_args()
    sep = "," if ":" in args.ours else ":"
    sep2 = "," if ":" in args.theirs else ":"
    for label, extra in ((f"sims={args.sims}", f"sims={args.sims}"), (f"time={args.time}", f"time={args.time}")):
        if args.only and not label.startswith(args.only):
            continue
        ours, theirs = f"{args.ours}{sep}{extra}", f"{args.theirs}{sep2}{extra}"
        wdl, sims, elapsed = match(ours, theirs, args.games)
        line = (f"{ours} vs {theirs}: {wdl[0]} won, {wdl[1]} drawn, {wdl[2]} lost of {args.games} "
                f"({elapsed / args.games:.1f} s a game)")
        if label.startswith("time") and sims:
            line += f"; zerosum median {statistics.median(sims):.0f} simulations a move"
        print(line, flush=True)


if __name__ == "__main__":
    main()
