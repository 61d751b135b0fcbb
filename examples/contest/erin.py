"""Erin: like Alice, but she numbers the columns from 1 as the board shows them: a bug."""


def play(game, state):
    middle = (len(game.actions(game.initial_state)) - 1) / 2
    column = min(game.actions(state), key=lambda c: abs(c - middle))
    return column + 1  # wrong: actions are 0-based, so this is the column to the right (or off the board)
