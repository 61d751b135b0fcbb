"""Students' player functions for the contest tests (loaded as ``path/to/student_agents.py:name``)."""

import time


def _negamax(game, state):
    """The value of ``state`` for the side to move, by full search (no pruning: every state is expanded)."""
    outcome = game.outcome(state)
    if outcome is not None:
        return 0 if outcome.winner is None else (1 if outcome.winner == game.player(state) else -1)
    return max(-_negamax(game, game.result(state, a)) for a in game.actions(state))


def full_search(game, state):
    """A greedy full-search player: the move with the best value, searched to the end of the game."""
    return max(game.actions(state), key=lambda a: -_negamax(game, game.result(state, a)))


def one_ply(game, state):
    """Expands every child once (a state per legal move) and takes a winning move if there is one."""
    me = game.player(state)
    for a in game.actions(state):
        if game.winner(game.result(state, a)) == me:
            return a
    return game.actions(state)[0]


def stubborn(game, state):
    """Full search that swallows every exception and answers anyway."""
    try:
        return full_search(game, state)
    except Exception:  # noqa: BLE001 - a student's habit
        return game.actions(state)[0]


def first(game, state):
    return game.actions(state)[0]


def slow_1_5(game, state):
    """Thinks 1.5 s a move: over --time 1 and its deadline."""
    time.sleep(1.5)
    return game.actions(state)[0]


def slow_0_9(game, state):
    """Thinks 0.9 s a move: within --time 1."""
    time.sleep(0.9)
    return game.actions(state)[0]
