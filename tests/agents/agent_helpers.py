"""Shared helpers for the agent tests: seeded random positions and tactical positions."""

from __future__ import annotations

import random
from typing import Any

from zerosum.games.connectx import ConnectX


def random_position(game: Any, plies: int, seed: int) -> Any:
    """A position reached by ``plies`` uniformly random moves (fewer if the game ends; never a finished one)."""
    rng = random.Random(seed)
    for attempt in range(100):
        state = game.initial_state
        for _ in range(plies):
            acts = game.actions(state)
            nxt = game.result(state, rng.choice(acts))
            if game.is_terminal(nxt):
                break
            state = nxt
        if not game.is_terminal(state):
            return state
    raise AssertionError("no position found")


def immediate_wins(game: Any, state: Any) -> list[Any]:
    me = game.player(state)
    return [a for a in game.actions(state) if game.winner(game.result(state, a)) == me]


def tactical_positions(game: ConnectX, kind: str, count: int, seed: int) -> list[Any]:
    """Positions from random play where the side to move has a win in one (``kind="win"``), or has none
    while the opponent threatens exactly one playable winning column (``kind="block"``)."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = game.initial_state
        while not game.is_terminal(state):
            wins = immediate_wins(game, state)
            if kind == "win" and wins:
                found.append(state)
                break
            if kind == "block" and not wins:
                # the opponent's wins in one if it could move now: its winning cells that are playable
                from zerosum.games.connectx_eval import winning_cells

                playable = (state.mask + game.bottom_mask) & game.board_mask
                theirs = winning_cells(game, state.current ^ state.mask, state.mask) & playable
                if theirs.bit_count() == 1:
                    found.append(state)
                    break
            state = game.result(state, rng.choice(game.actions(state)))
    return found


def blocking_column(game: ConnectX, state: Any) -> int:
    from zerosum.games.connectx_eval import winning_cells

    playable = (state.mask + game.bottom_mask) & game.board_mask
    theirs = winning_cells(game, state.current ^ state.mask, state.mask) & playable
    return (theirs.bit_length() - 1) // game.height
