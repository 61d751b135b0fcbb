"""Game rules a mutation audit found untested: Tic-Tac-Toe grids where O won but X moved after, and the
Migration mobility evaluation's two sides."""

import pytest

from zerosum.errors import InvalidPositionError
from zerosum.games.migration import MOBILITY_SCALE, Migration, mobility_eval
from zerosum.games.tictactoe import TicTacToe


@pytest.mark.parametrize("grid", [
    "OOO\nXX.\nXX.",  # O's top row is complete, yet X (4 stones to O's 3) moved after it
    "O.X\nOX.\nOXX",  # O's left column, X one stone ahead
])
def test_a_grid_where_x_moved_after_os_win_is_refused(grid):
    with pytest.raises(InvalidPositionError, match="play continued after a win"):
        TicTacToe().from_grid(grid)


@pytest.mark.parametrize("grid, cells", [
    ("OOO\nXX.\nX..", (2, 2, 2, 1, 1, 0, 1, 0, 0)),  # O won on its third move, X to move: as it ends
    ("XXX\nOO.\n...", (1, 1, 1, 2, 2, 0, 0, 0, 0)),  # X won on its third move
])
def test_a_win_with_the_right_stone_counts_is_read(grid, cells):
    assert TicTacToe().from_grid(grid).cells == cells


def _board(n, ones, twos):
    cells = [[0] * n for _ in range(n)]
    for x, y in ones:
        cells[x][y] = 1
    for x, y in twos:
        cells[x][y] = 2
    return cells


# (player 1's stones, player 2's stones, player to move, player 1's legal moves, player 2's), counted by hand:
# player 1 steps right (y + 1), player 2 up (x - 1), onto an empty cell of the 4 x 4 board
POSITIONS = [
    ([(1, 0), (2, 0)], [(3, 1), (3, 2)], 1, 2, 2),  # the start: (1,0)>(1,1), (2,0)>(2,1); (3,1)>(2,1), (3,2)>(2,2)
    ([(1, 0), (2, 1)], [(3, 1), (3, 2)], 2, 2, 1),  # after (2,0)>(2,1): (3,1) is blocked
    ([(1, 0), (2, 1)], [(3, 1), (2, 2)], 1, 1, 1),  # then (3,2)>(2,2): each side has one move
    ([(1, 3), (2, 3)], [(3, 1), (3, 2)], 1, 0, 2),  # player 1's stones at the right edge: no move
]


@pytest.mark.parametrize("ones, twos, to_move, m1, m2", POSITIONS)
def test_mobility_counts_both_sides_and_is_zero_sum(ones, twos, to_move, m1, m2):
    game = Migration(4)
    state = game.from_board(_board(4, ones, twos), to_move)
    assert game.evaluations()["mobility"] is mobility_eval
    assert mobility_eval(game, state, 1) == MOBILITY_SCALE * (m1 - m2)
    assert mobility_eval(game, state, 2) == MOBILITY_SCALE * (m2 - m1)
    assert mobility_eval(game, state, 1) == -mobility_eval(game, state, 2)
    if to_move == 1:
        assert len(game.actions(state)) == m1  # the hand count agrees with the game's own moves
