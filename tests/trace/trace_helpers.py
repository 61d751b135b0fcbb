"""Helpers of the trace tests."""

from __future__ import annotations

import random
from typing import Any


def position(game: Any, plies: int, seed: int) -> Any:
    """A fixed position: ``plies`` random moves from ``seed`` (a game never ends on the way)."""
    rng = random.Random(seed)
    while True:
        state = game.initial_state
        for _ in range(plies):
            state = game.result(state, rng.choice(game.actions(state)))
            if game.is_terminal(state):
                break
        else:
            return state
