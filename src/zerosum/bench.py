"""``zerosum bench``: measured speed, never a timed test.

``zerosum bench playouts`` plays uniformly random games from the start to the end and prints
``playouts/s: N``; on Connect-X boards that fit in 64 bits it uses the numba kernels (``--generic`` forces
the Game-protocol path every game has).  The other benchmarks live with what they measure; each module
listed in ``BENCHMARKS`` exposes ``BENCH = (add_arguments, run)``.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from typing import Any

from .commands.options import add_game_option, float_arg, int_arg
from .game import Game
from .games import ConnectX, get_game

__all__ = ["generic_playouts", "COMMANDS", "BENCHMARKS"]

#: documented maxima of ``bench playouts`` (README, "Limits")
MAX_SECONDS = 3600.0
MAX_ROUNDS = 100

#: benchmark name -> (module with BENCH, help)
BENCHMARKS: dict[str, tuple[str, str]] = {
    "playouts": ("zerosum.bench", "random games per second from the start state"),
    "mcts": ("zerosum.agents.bench", "MCTS simulations per second on the empty board"),
    "alphabeta": ("zerosum.agents.bench", "alpha-beta nodes per second and time for a node budget"),
    "solver": ("zerosum.solver.bench", "solve benchmark files: time, nodes and wrong scores"),
}


def generic_playouts(game: Game[Any, Any], seconds: float, seed: int = 0) -> tuple[int, float]:
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


def fast_playouts(game: ConnectX, seconds: float, seed: int = 0) -> tuple[int, float]:
    """Random games in the numba kernels for about ``seconds`` (compile excluded): (games, elapsed)."""
    from .solver.bitboard import random_playouts

    random_playouts(1, game.rows, game.cols, game.k, seed)  # compile (or load from cache) first
    batch, games = 1000, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        random_playouts(batch, game.rows, game.cols, game.k, seed + games)
        games += batch
        batch = min(batch * 2, 200_000)
    return games, time.perf_counter() - start


def _add_playouts(parser: argparse.ArgumentParser) -> None:
    add_game_option(parser)
    parser.add_argument("--seconds", type=float_arg(hi=MAX_SECONDS, above=0), default=3.0,
                        help=f"how long each round runs (default 3, at most {MAX_SECONDS:g})")
    parser.add_argument("--rounds", type=int_arg(1, MAX_ROUNDS), default=3,
                        help=f"rounds; the median is printed (default 3, 1..{MAX_ROUNDS})")
    parser.add_argument("--generic", action="store_true", help="use the Game-protocol path even when a fast one exists")
    parser.add_argument("--seed", type=int_arg(0, 2**62), default=0)


def _run_playouts(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    fast = isinstance(game, ConnectX) and game.fits_64 and not args.generic
    rates = []
    for r in range(args.rounds):
        if fast:
            assert isinstance(game, ConnectX)
            n, dt = fast_playouts(game, args.seconds, args.seed + r)
        else:
            n, dt = generic_playouts(game, args.seconds, args.seed + r)
        rates.append(n / dt)
    print(f"game: {game.spec}")
    print(f"path: {'numba kernels' if fast else 'generic Game protocol'}")
    print(f"rounds: {', '.join(f'{x:,.0f}' for x in rates)}")
    print(f"playouts/s: {statistics.median(rates):.0f}")
    return 0


BENCH = (_add_playouts, _run_playouts)


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True,
                                parser_class=type(parser))
    for name, (module_name, help_text) in BENCHMARKS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        bench = getattr(module, "BENCH", None)
        if isinstance(bench, dict):
            bench = bench.get(name)
        if bench is None:
            continue
        add, run = bench
        p = sub.add_parser(name, help=help_text, description=help_text)
        add(p)
        p.set_defaults(_bench=run)


def _run(args: argparse.Namespace) -> int:
    return int(args._bench(args) or 0)


COMMANDS = {"bench": (_add_arguments, _run)}
