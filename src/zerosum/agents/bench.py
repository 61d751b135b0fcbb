"""``zerosum bench mcts`` and ``zerosum bench alphabeta``: measured speed of the search agents.

``mcts`` runs MCTS from the start position with random playouts and prints ``simulations/s: N``;
``alphabeta`` runs node-limited alpha-beta searches (default: 10,000 nodes with the ``window`` evaluation
on the 8 x 8 board) and prints ``nodes/s: N`` and ``seconds per search: S``.  Each runs a few rounds after
a warm-up (so compiling is not measured) and prints the median.  Heavy imports happen inside ``run``.
"""

from __future__ import annotations

import argparse
import statistics
import time

__all__ = ["BENCH"]


MAX_ROUNDS = 1000


def _common(parser: argparse.ArgumentParser, game: str) -> None:
    from ..commands.options import add_game_option, int_arg
    from .base import MAX_SEED

    add_game_option(parser, default=game)
    parser.add_argument("--rounds", type=int_arg(1, MAX_ROUNDS), default=3,
                        help=f"rounds (1..{MAX_ROUNDS}); the median is printed (default 3)")
    parser.add_argument("--seed", type=int_arg(0, MAX_SEED - MAX_ROUNDS), default=0)
    parser.add_argument("--generic", action="store_true", help="use the Game-protocol path even when a fast one exists")


def _check(args: argparse.Namespace, **positive: float) -> None:
    from ..errors import UsageError

    for name, value in {"rounds": args.rounds, **positive}.items():
        if value <= 0:
            raise UsageError(f"--{name} must be positive, not {value}")


def _add_mcts(parser: argparse.ArgumentParser) -> None:
    from ..commands.options import float_arg, int_arg
    from .base import MAX_SIMULATIONS
    from .mcts import MAX_C

    _common(parser, "connect4")
    parser.add_argument("--sims", type=int_arg(1, MAX_SIMULATIONS), default=None,
                        help=f"simulations per round, 1..{MAX_SIMULATIONS} (default 300000 on the fast path, "
                             "3000 otherwise)")
    parser.add_argument("--playout", default="random", help="playout policy: random, greedy, alphabeta")
    parser.add_argument("-c", type=float_arg(0, MAX_C), default=0.7,
                        help=f"exploration constant, 0..{MAX_C:g} (default 0.7, as the agent)")


def _run_mcts(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..games import get_game
    from .base import Limits
    from .mcts import PLAYOUTS, MCTSAgent

    if args.playout not in PLAYOUTS:
        raise UsageError(f"--playout {args.playout!r}: choose one of {', '.join(PLAYOUTS)}")
    game = get_game(args.game)
    probe = MCTSAgent(playout=args.playout, fast=not args.generic)
    fast = probe._uses_fast_path(game)
    sims = args.sims if args.sims is not None else (300_000 if fast else 3_000)
    _check(args, sims=sims)
    state = game.initial_state
    MCTSAgent(limits=Limits(simulations=50), seed=args.seed, c=args.c, playout=args.playout,
              fast=not args.generic).search(game, state)  # warm-up: compile or load the kernels
    rates = []
    for r in range(args.rounds):
        agent = MCTSAgent(limits=Limits(simulations=sims), seed=args.seed + r, c=args.c, playout=args.playout,
                          fast=not args.generic)
        t0 = time.perf_counter()
        result = agent.search(game, state)
        rates.append(result.nodes / (time.perf_counter() - t0))
    print(f"game: {game.spec}")
    print(f"path: {'numba kernels' if fast else 'generic Game protocol'}")
    print(f"playout: {args.playout}, simulations per round: {sims}")
    print(f"rounds: {', '.join(f'{x:,.0f}' for x in rates)}")
    print(f"simulations/s: {statistics.median(rates):.0f}")
    return 0


def _add_alphabeta(parser: argparse.ArgumentParser) -> None:
    from ..commands.options import int_arg
    from .base import MAX_NODES

    _common(parser, "connect4-8x8")
    parser.add_argument("--nodes", type=int_arg(1, MAX_NODES), default=10_000,
                        help=f"node budget per search, 1..{MAX_NODES} (default 10000)")
    parser.add_argument("--eval", default="window", help="evaluation: window, threats, mobility (default window)")
    parser.set_defaults(rounds=5)


def _run_alphabeta(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    from ..games import get_game
    from .alphabeta import AlphaBetaAgent
    from .base import Limits
    from .heuristics import EVALUATIONS

    _check(args, nodes=args.nodes)
    if args.eval not in EVALUATIONS:
        raise UsageError(f"--eval {args.eval!r}: choose one of {', '.join(EVALUATIONS)}")
    game = get_game(args.game)
    agent = AlphaBetaAgent(limits=Limits(nodes=args.nodes), eval=args.eval, fast=not args.generic)
    state = game.initial_state
    agent.search(game, state)  # warm-up: compile or load the kernels, allocate the table
    times, rates, depths = [], [], []
    for _ in range(args.rounds):
        agent.reset()  # an empty table each round (not timed)
        t0 = time.perf_counter()
        result = agent.search(game, state)
        dt = time.perf_counter() - t0
        times.append(dt)
        rates.append(result.nodes / dt)
        depths.append(result.depth)
    from .minimax import resolve_evaluation

    name, _ = resolve_evaluation(game, args.eval, 50, 10)
    print(f"game: {game.spec}")
    print(f"path: {'numba kernels' if agent._uses_fast_path(game, name) else 'generic Game protocol'}")
    print(f"evaluation: {args.eval}, node budget: {args.nodes}, depth reached: {max(depths)}")
    print(f"rounds: {', '.join(f'{x * 1000:.1f} ms' for x in times)}")
    print(f"seconds per search: {statistics.median(times):.4f}")
    print(f"nodes/s: {statistics.median(rates):.0f}")
    return 0


BENCH = {"mcts": (_add_mcts, _run_mcts), "alphabeta": (_add_alphabeta, _run_alphabeta)}
