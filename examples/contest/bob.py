"""Bob: win at once if he can, else block the opponent's win in one, else a random column."""

import random


def play(game, state):
    me = game.player(state)
    actions = game.actions(state)
    for column in actions:  # a win in one
        if game.winner(game.result(state, column)) == me:
            return column
    opponent = 3 - me
    for column in actions:  # the opponent's win in one: take that cell first
        if game.winner(game.place(state, column, opponent)) == opponent:
            return column
    return random.choice(actions)  # zerosum seeds the global generator for every game
