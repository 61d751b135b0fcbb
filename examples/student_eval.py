"""A student's evaluations for Migration, used by 03_writing_an_evaluation.ipynb (``eval=student_eval.py:...``).

An evaluation is ``f(game, state, player) -> number``: how good ``state`` looks for ``player``.  It may
return any real number (fractions are kept), and it declares its point of view with ``@evaluation``.
"""

from zerosum.agents.heuristics import evaluation


def moves_of(game, state, player):
    """How many legal moves ``player`` has, even when it is not their turn: the same board with that
    player to move (``game.from_board``)."""
    return len(game.actions(game.from_board(state.board, player)))


def share_of_moves(game, state, player):
    """The player's share of the moves left on the board, minus one half: a fraction in -0.5..0.5."""
    mine, theirs = moves_of(game, state, player), moves_of(game, state, 3 - player)
    return mine / (mine + theirs) - 0.5 if mine + theirs else 0.0


@evaluation(view="second")
def share_for_second(game, state, player):
    """The same, always for player 2 (the 8 x 8 homework's fixed-player evaluation, written for O, who
    maximises there): the search calls it with player=2 and negates it where player 1 is to move."""
    assert player == 2
    return share_of_moves(game, state, 2)
