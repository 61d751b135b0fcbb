"""Alice: the legal column nearest the centre (Connect Four likes the centre)."""


def play(game, state):
    middle = (len(game.actions(game.initial_state)) - 1) / 2
    return min(game.actions(state), key=lambda column: abs(column - middle))
