"""The game-API course's Migration heuristic as a student writes it (reconstructed, not copied: the course
text is not at hand): the number of moves the player has minus the number the opponent has, counted on the
board with two loops.  Used as a file evaluation::

    zerosum match alphabeta:plain=1,depth=2,eval=benchmarks/course_migration_eval.py:own_minus_opponent ...

(zerosum's own ``mobility`` is the same count times 10, through the game's move generator.)
"""


def count_moves(board, player):
    """How many of ``player``'s stones can step: player 1 to the right, player 2 up, onto an empty cell."""
    n = len(board)
    dx, dy = (0, 1) if player == 1 else (-1, 0)
    count = 0
    for x in range(n):
        for y in range(n):
            if board[x][y] == player:
                nx, ny = x + dx, y + dy
                if 0 <= nx < n and 0 <= ny < n and board[nx][ny] == 0:
                    count += 1
    return count


def own_minus_opponent(game, state, player):
    """``player``'s moves minus the opponent's (the searches call it for the side to move)."""
    return count_moves(state.board, player) - count_moves(state.board, 3 - player)
