"""Dave: a random column."""

import random


def play(game, state):
    return random.choice(game.actions(state))
