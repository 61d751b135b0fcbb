"""Grace, the homework's way: ``player(board)`` on the numpy board (top row first, 0 empty, 1 X, 2 O; Grace
is O and maximises).  Textbook minimax to depth 3 with her own evaluation, written from O's fixed view; the
homework counts the calls of ``minMax`` (``NODES_COUNTED_BY``), and she stops at 10,000 with the best move
found so far (depth 3 needs at most 8 + 64 + 512 calls on 8 x 8)."""

import numpy as np

NODES_COUNTED_BY = "minMax"
LIMIT = 10_000
DEPTH = 3
nodes = 0


def windows(rows, cols, k=4):
    """Every line of k cells, as the flat indexes of its cells (one row of the array per line)."""
    out = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= r + (k - 1) * dr < rows and 0 <= c + (k - 1) * dc < cols:
                    out.append([(r + i * dr) * cols + c + i * dc for i in range(k)])
    return np.array(out)


WEIGHT = np.array([0, 1, 10, 100, 100_000])  # stones of one side alone in a line: 0..4


def evaluate(board, lines):
    """O's view: lines holding only O count +1, +10, +100 or a win; only X, the same negated."""
    cells = board.ravel()[lines]
    o = np.count_nonzero(cells == 2, axis=1)
    x = np.count_nonzero(cells == 1, axis=1)
    return int(WEIGHT[o[x == 0]].sum() - WEIGHT[x[o == 0]].sum())


def minMax(board, depth, maximizing, lines):
    global nodes
    nodes += 1
    if nodes > LIMIT:  # the homework's rule: past the limit, return at once
        return 0
    value = evaluate(board, lines)
    free = [c for c in range(board.shape[1]) if board[0, c] == 0]
    if depth == 0 or abs(value) >= 50_000 or not free:
        return value
    best = -np.inf if maximizing else np.inf
    for c in free:
        row = max(r for r in range(board.shape[0]) if board[r, c] == 0)
        board[row, c] = 2 if maximizing else 1
        v = minMax(board, depth - 1, not maximizing, lines)
        board[row, c] = 0
        best = max(best, v) if maximizing else min(best, v)
    return best


def player(board):
    global nodes
    nodes = 0
    board = board.copy()
    lines = windows(*board.shape)
    best, best_value = None, -np.inf
    for c in range(board.shape[1]):
        if board[0, c] != 0:
            continue
        row = max(r for r in range(board.shape[0]) if board[r, c] == 0)
        board[row, c] = 2
        v = minMax(board, DEPTH - 1, False, lines)
        board[row, c] = 0
        if best is None or v > best_value:
            best, best_value = c, v
    return best
