"""Strength of the search agents: the course experiments, run as small matches (a benchmark, not a test).

    python benchmarks/agents_strength.py                  # everything below
    python benchmarks/agents_strength.py random --games 500
    python benchmarks/agents_strength.py mcts --games 100
    python benchmarks/agents_strength.py threats --depth 4

* ``random``: alpha-beta depth 3 with a heuristic against a random player, 7 x 6, seats alternating
  (the well-known notebook reports 99.4% wins in about 10 minutes).
* ``mcts``: MCTS with 200 simulations a move against a random player.
* ``threats``: alpha-beta with ``eval=threats`` against ``eval=window`` at equal depth, from every
  opening of ``--plies`` moves (default 2), each side playing both seats.

The arena is a separate package; this script keeps its own thirty-line match loop on purpose.
"""

from __future__ import annotations

import argparse
import itertools
import time
from typing import Any

from zerosum import ConnectX, make_agent


def play(game: Any, first: Any, second: Any, state: Any = None) -> int | None:
    """One game; the winner (1, 2) or None."""
    state = game.initial_state if state is None else state
    players = {1: first, 2: second}
    while not game.is_terminal(state):
        state = game.result(state, players[game.player(state)](game, state))
    return game.winner(state)


def versus_random(spec: str, games: int, seed: int = 10_000) -> None:
    game = ConnectX()
    wins = draws = losses = 0
    t0 = time.perf_counter()
    for i in range(games):
        seat = 1 + i % 2
        agent = make_agent(spec, seed=i)
        rand = make_agent("random", seed=seed + i)
        winner = play(game, agent, rand) if seat == 1 else play(game, rand, agent)
        if winner == seat:
            wins += 1
        elif winner is None:
            draws += 1
        else:
            losses += 1
    dt = time.perf_counter() - t0
    print(f"{spec} vs random, {games} games on 7 x 6 (seats alternate): "
          f"{wins} wins, {draws} draws, {losses} losses ({100 * wins / games:.1f}% wins) in {dt:.1f} s")


def threats_vs_window(depth: int, plies: int = 2) -> None:
    game = ConnectX()
    a_spec, b_spec = f"alphabeta:depth={depth},eval=threats", f"alphabeta:depth={depth},eval=window"
    score = {"threats": 0.0, "window": 0.0}
    tally = {"threats": 0, "window": 0, "draw": 0}
    t0 = time.perf_counter()
    openings = list(itertools.product(range(7), repeat=plies))
    for opening in openings:
        start = game.from_moves(list(opening))
        for threats_first in (True, False):
            a, b = make_agent(a_spec), make_agent(b_spec)
            winner = play(game, a, b, start) if threats_first else play(game, b, a, start)
            if winner is None:
                tally["draw"] += 1
                score["threats"] += 0.5
                score["window"] += 0.5
            else:
                name = "threats" if (winner == 1) == threats_first else "window"
                tally[name] += 1
                score[name] += 1
    n = 2 * len(openings)
    dt = time.perf_counter() - t0
    print(f"threats vs window, alpha-beta depth {depth}, {n} games (every {plies}-ply opening, both seats): "
          f"threats {tally['threats']} wins, window {tally['window']} wins, {tally['draw']} draws; "
          f"threats scores {100 * score['threats'] / n:.1f}% ({dt:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("which", nargs="?", default="all", choices=["all", "random", "mcts", "threats"])
    parser.add_argument("--games", type=int, default=None, help="games (default 500 for random, 100 for mcts)")
    parser.add_argument("--depth", type=int, default=4, help="depth for the threats match (default 4)")
    parser.add_argument("--seed", type=int, default=10_000, help="the random player's seeds start here (default 10000)")
    parser.add_argument("--plies", type=int, default=2, help="opening length for the threats match (default 2)")
    args = parser.parse_args()
    if args.which in ("all", "random"):
        for evaluation in ("window", "threats"):
            versus_random(f"alphabeta:depth=3,eval={evaluation}", args.games or 500, args.seed)
    if args.which in ("all", "mcts"):
        versus_random("mcts:sims=200", args.games or 100, args.seed)
    if args.which in ("all", "threats"):
        threats_vs_window(args.depth, args.plies)


if __name__ == "__main__":
    main()
