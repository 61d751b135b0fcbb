"""``zerosum bench``: measured speed, never a timed test.

``zerosum bench playouts`` plays uniformly random games from the start to the end and prints
``playouts/s: N``; on Connect-X boards that fit in 64 bits it uses the numba kernels (``--generic`` forces
the Game-protocol path every game has).  ``mcts`` runs MCTS from the start position with random playouts and
prints ``simulations/s: N``; ``alphabeta`` runs node-limited alpha-beta searches (default: 10,000 nodes with
the ``window`` evaluation on the 8 x 8 board) and prints ``nodes/s: N`` and ``seconds per search: S``; each
runs a few rounds after a warm-up (so compiling is not measured) and prints the median.  ``solver`` solves
benchmark files (see :func:`zerosum.commands.solver.run_solver_bench`); ``analysis`` times full analyses of
quiet positions ply by ply (:mod:`zerosum.commands.bench_analysis`); ``review`` times full reviews of recorded
games (:mod:`zerosum.commands.bench_review`).  Heavy imports happen inside ``run``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from ..spec import quoted
from .bench_analysis import add_bench_analysis, run_bench_analysis
from .bench_review import add_bench_review, run_bench_review
from .options import UsageError, add_game_option, float_arg, int_arg
from .solver import add_solver_bench, run_solver_bench

__all__ = ["COMMANDS", "BENCHMARKS", "generic_playouts", "fast_playouts", "has_fast_playouts"]

#: documented maxima of ``bench playouts`` (README, "Limits")
MAX_SECONDS = 3600.0
MAX_ROUNDS = 100
#: ``bench mcts`` and ``bench alphabeta``: at most this many rounds
MAX_SEARCH_ROUNDS = 1000


# ---- playouts -----------------------------------------------------------------------------------


def generic_playouts(game: Any, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Random games through the Game protocol for about ``seconds``: (games, elapsed)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    games = 0
    actions, result = game.actions, game.result
    initial = game.initial_state
    while True:
        state = initial
        legal = actions(state)
        while legal:
            state = result(state, legal[rng.randrange(len(legal))])
            legal = actions(state)
        games += 1
        if games % 64 == 0 and time.perf_counter() - start >= seconds:
            return games, time.perf_counter() - start


def fast_playouts(game: Any, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Random games in the numba kernels for about ``seconds`` (compile excluded): (games, elapsed)."""
    from ..games.connectx_kernels import game_playouts

    game_playouts(game, 1, seed)  # compile (or load from cache) first
    batch, games = 1000, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game_playouts(game, batch, seed + games)
        games += batch
        batch = min(batch * 2, 200_000)
    return games, time.perf_counter() - start


def has_fast_playouts(game: Any) -> bool:
    """Whether ``game`` has the numba playout path (the kernels say; False when numba is missing)."""
    try:
        from ..games.connectx_kernels import supports
    except ImportError:
        return False
    return supports(game)


def _add_playouts(parser: argparse.ArgumentParser) -> None:
    add_game_option(parser)
    parser.add_argument("--seconds", type=float_arg(hi=MAX_SECONDS, above=0), default=3.0,
                        help=f"how long each round runs (default 3, at most {MAX_SECONDS:g})")
    parser.add_argument("--rounds", type=int_arg(1, MAX_ROUNDS), default=3,
                        help=f"rounds; the median is printed (default 3, 1..{MAX_ROUNDS})")
    parser.add_argument("--generic", action="store_true", help="use the Game-protocol path even when a fast one exists")
    parser.add_argument("--seed", type=int_arg(0, 2**62), default=0)


def _run_playouts(args: argparse.Namespace) -> int:
    from ..games import get_game

    game = get_game(args.game)
    fast = not args.generic and has_fast_playouts(game)
    rates = []
    for r in range(args.rounds):
        measure = fast_playouts if fast else generic_playouts
        n, dt = measure(game, args.seconds, args.seed + r)
        rates.append(n / dt)
    print(f"game: {game.spec}")
    print(f"path: {'numba kernels' if fast else 'generic Game protocol'}")
    print(f"rounds: {', '.join(f'{x:,.0f}' for x in rates)}")
    print(f"playouts/s: {statistics.median(rates):.0f}")
    return 0


# ---- mcts and alphabeta -------------------------------------------------------------------------


def _search_options(parser: argparse.ArgumentParser, game: str, rounds: int = 3) -> None:
    from ..agents.base import MAX_SEED

    add_game_option(parser, default=game)
    parser.add_argument("--rounds", type=int_arg(1, MAX_SEARCH_ROUNDS), default=rounds,
                        help=f"rounds (1..{MAX_SEARCH_ROUNDS}); the median is printed (default {rounds})")
    parser.add_argument("--seed", type=int_arg(0, MAX_SEED - MAX_SEARCH_ROUNDS), default=0,
                        help="the searches' seed (default 0)")
    parser.add_argument("--generic", action="store_true", help="use the Game-protocol path even when a fast one exists")


def _add_mcts(parser: argparse.ArgumentParser) -> None:
    from ..agents.base import MAX_SIMULATIONS
    from ..agents.mcts import MAX_C

    _search_options(parser, "connect4")
    parser.add_argument("--sims", type=int_arg(1, MAX_SIMULATIONS), default=None,
                        help=f"simulations per round, 1..{MAX_SIMULATIONS} (default 300000 on the fast path, "
                             "3000 otherwise)")
    parser.add_argument("--playout", default="random", help="playout policy: random, greedy, alphabeta")
    parser.add_argument("-c", type=float_arg(0, MAX_C), default=0.7,
                        help=f"exploration constant, 0..{MAX_C:g} (default 0.7, as the agent)")


def _run_mcts(args: argparse.Namespace) -> int:
    from ..agents.base import Limits
    from ..agents.mcts import PLAYOUTS, MCTSAgent
    from ..games import get_game

    if args.playout not in PLAYOUTS:
        raise UsageError(f"--playout {quoted(args.playout)}: choose one of {', '.join(PLAYOUTS)}")
    game = get_game(args.game)
    fast = MCTSAgent(playout=args.playout, fast=not args.generic)._uses_fast_path(game)
    sims = args.sims if args.sims is not None else (300_000 if fast else 3_000)
    state = game.initial_state

    def agent(simulations: int, seed: int) -> Any:
        return MCTSAgent(limits=Limits(simulations=simulations), seed=seed, c=args.c, playout=args.playout,
                         fast=not args.generic)

    agent(50, args.seed).search(game, state)  # warm-up: compile or load the kernels
    rates = []
    for r in range(args.rounds):
        searcher = agent(sims, args.seed + r)
        t0 = time.perf_counter()
        result = searcher.search(game, state)
        rates.append(result.nodes / (time.perf_counter() - t0))
    print(f"game: {game.spec}")
    print(f"path: {'numba kernels' if fast else 'generic Game protocol'}")
    print(f"playout: {args.playout}, simulations per round: {sims}")
    print(f"rounds: {', '.join(f'{x:,.0f}' for x in rates)}")
    print(f"simulations/s: {statistics.median(rates):.0f}")
    return 0


def _add_alphabeta(parser: argparse.ArgumentParser) -> None:
    from ..agents.base import MAX_NODES

    _search_options(parser, "connect4-8x8", rounds=5)
    parser.add_argument("--nodes", type=int_arg(1, MAX_NODES), default=10_000,
                        help=f"node budget per search, 1..{MAX_NODES} (default 10000)")
    parser.add_argument("--eval", default=None, metavar="EVAL",
                        help="evaluation: one of the game's (window, threats on Connect-X; mobility on every game) "
                             "or your own, file.py:function (default: the game's own, window on Connect-X)")


def _run_alphabeta(args: argparse.Namespace) -> int:
    from ..agents.alphabeta import AlphaBetaAgent
    from ..agents.base import Limits
    from ..agents.minimax import resolve_evaluation
    from ..games import get_game

    game = get_game(args.game)
    agent = AlphaBetaAgent(limits=Limits(nodes=args.nodes), eval=args.eval, fast=not args.generic, seed=args.seed)
    state = game.initial_state
    name, _ = resolve_evaluation(game, args.eval, 50, 10, state)  # an evaluation the game lacks: one line
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
    print(f"game: {game.spec}")
    print(f"path: {'numba kernels' if agent._uses_fast_path(game, name) else 'generic Game protocol'}")
    print(f"evaluation: {name or args.eval}, node budget: {args.nodes}, depth reached: {max(depths)}")
    print(f"rounds: {', '.join(f'{x * 1000:.1f} ms' for x in times)}")
    print(f"seconds per search: {statistics.median(times):.4f}")
    print(f"nodes/s: {statistics.median(rates):.0f}")
    return 0


# ---- the bench command --------------------------------------------------------------------------

#: benchmark name -> (help, add_arguments, run)
BENCHMARKS: dict[str, tuple[str, Any, Any]] = {
    "playouts": ("random games per second from the start state", _add_playouts, _run_playouts),
    "mcts": ("MCTS simulations per second on the empty board", _add_mcts, _run_mcts),
    "alphabeta": ("alpha-beta nodes per second and time for a node budget", _add_alphabeta, _run_alphabeta),
    "solver": ("solve benchmark files: time, nodes and wrong scores", add_solver_bench, run_solver_bench),
    "analysis": ("full analysis of quiet positions, ply by ply: p50, p90 and max seconds", add_bench_analysis,
                 run_bench_analysis),
    "review": ("full reviews of recorded games: p50, p90 and max seconds a game, and the first mark's",
               add_bench_review, run_bench_review),
}


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True, parser_class=type(parser))
    for name, (help_text, add, run) in BENCHMARKS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        add(p)
        p.set_defaults(_bench=run)


def _run(args: argparse.Namespace) -> int:
    return int(args._bench(args) or 0)


COMMANDS = {"bench": (_add_arguments, _run)}
