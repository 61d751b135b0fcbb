"""A player that holds a run still once it has played a game or more (tests of runs at once: a second run then
starts while this one is sure to be running). Copied into a test's own folder and loaded from there as
``FOLDER/gated_player.py:gated``: it counts its moves in ``FOLDER/calls`` and, from its ninth move on, waits
until ``FOLDER/go`` exists (300 s at most, a safety net)."""

import os
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CALLS, GO = os.path.join(HERE, "calls"), os.path.join(HERE, "go")


def gated(game, state):
    """The first legal move; from the ninth on (in tic-tac-toe, after one game at least), only once GO exists."""
    with open(CALLS, "a") as f:
        f.write("x")
    if os.path.getsize(CALLS) > 8:
        end = time.monotonic() + 300
        while not os.path.exists(GO) and time.monotonic() < end:
            time.sleep(0.02)
    return game.actions(state)[0]
