"""An agent file that loads in the supervisor but not in a worker process (a game that cannot start)."""

import multiprocessing

if multiprocessing.current_process().name != "MainProcess":
    raise RuntimeError("this agent cannot start in a worker")


def agent(game, state):
    return game.actions(state)[0]
