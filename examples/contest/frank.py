"""Frank, the homework's way: ``player(board)`` on the numpy board (top row first, 0 empty, 1 X, 2 O; Frank
is O).  He wins at once if he can, else blocks X's win in one, else plays the free column nearest the centre.
No search, so no ``minMax`` to count."""

import numpy as np


def drop(board, column, who):
    """A copy of ``board`` with a stone of ``who`` dropped into ``column``."""
    row = max(r for r in range(board.shape[0]) if board[r, column] == 0)
    after = board.copy()
    after[row, column] = who
    return after


def four(board, who):
    """Whether ``who`` has four in a row on ``board``."""
    rows, cols = board.shape
    mine = board == who
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                if all(0 <= r + i * dr < rows and 0 <= c + i * dc < cols and mine[r + i * dr, c + i * dc]
                       for i in range(4)):
                    return True
    return False


def player(board):
    cols = board.shape[1]
    free = sorted((c for c in range(cols) if board[0, c] == 0), key=lambda c: abs(2 * c + 1 - cols))
    for who in (2, 1):  # my win first, then X's win to block
        for c in free:
            if four(drop(board, c, who), who):
                return c
    return free[0]
