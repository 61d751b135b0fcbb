"""Shared helpers for the solver tests: a plain brute-force negamax and random positions."""

from __future__ import annotations

import os
import random

import pytest

from zerosum import ConnectX
from zerosum.core.files import benchmark_data

PONS = str(benchmark_data("pons"))  # $ZEROSUM_BENCHMARKS, else ../shared/benchmarks beside the checkout
UCI = str(benchmark_data("uci", "connect-4.data"))


def bench_file(name: str) -> str:
    path = os.path.normpath(os.path.join(PONS, name))
    if not os.path.exists(path):
        pytest.skip(f"benchmark file {path} not present")
    return path


def read_bench(name: str, limit: int | None = None) -> list[tuple[str, int]]:
    out = []
    with open(bench_file(name)) as fh:
        for line in fh:
            if line.strip():
                moves, score = line.split()
                out.append((moves, int(score)))
                if limit is not None and len(out) >= limit:
                    break
    return out


def brute_score(game: ConnectX, state, memo: dict) -> int:  # type: ignore[no-untyped-def]
    """Plain negamax over the whole game tree (no pruning): the DESIGN.md score of ``state``."""
    key = (state.current, state.mask)
    if key in memo:
        return memo[key]
    best = -game.cells
    for a in game.actions(state):
        child = game.result(state, a)
        if child.won_by:
            s = (game.cells + 2 - child.ply) // 2
        elif child.mask == game.board_mask:
            s = 0
        else:
            s = -brute_score(game, child, memo)
        best = max(best, s)
    memo[key] = best
    return best


def random_positions(game: ConnectX, n: int, seed: int, min_ply: int = 0):  # type: ignore[no-untyped-def]
    """``n`` random positions (not over) with at least ``min_ply`` stones."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        state = game.initial_state
        target = rng.randrange(min_ply, game.cells)
        while state.ply < target and not game.is_terminal(state):
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.is_terminal(state):
            out.append(state)
    return out
