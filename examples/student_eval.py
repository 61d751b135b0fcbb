"""A student's evaluations for Migration, used by 03_writing_an_evaluation.ipynb (``eval=student_eval.py:...``).

An evaluation is ``f(game, state, player) -> number``: how good ``state`` looks for ``player``.  It may
return any real number (fractions are kept), and it declares its point of view with ``@evaluation``.
"""

from zerosum.agents.heuristics import evaluation


def share_of_moves(game, state, player):
    """The player's share of the moves left on the board, minus one half: a fraction in -0.5..0.5.

    ``game._moves(state, p)`` lists player p's moves even when it is not p's turn (Migration only).
    """
    mine = len(game._moves(state, player))
    theirs = len(game._moves(state, 3 - player))
    return mine / (mine + theirs) - 0.5 if mine + theirs else 0.0


@evaluation(view="first")
def share_for_first(game, state, player):
    """The same, always for player 1 (the 8 x 8 homework's fixed-player evaluation): the search calls it
    with player=1 and negates it where player 2 is to move."""
    assert player == 1
    return share_of_moves(game, state, 1)
