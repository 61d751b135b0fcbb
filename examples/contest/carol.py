"""Carol: her own depth-3 alpha-beta with a fractional evaluation (the share of open lines she owns)."""

import math


def lines_of(game):
    """Every line of k cells of the board, as (row, col) tuples."""
    rows, cols, k = game.rows, game.cols, game.k
    lines = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= x < rows and 0 <= y < cols for x, y in cells):
                    lines.append(cells)
    return lines


def evaluate(game, state, player):
    """Open lines (no opposing stone) weighted by the stones in them, as a share in -1..1."""
    cells = game.board_view(state).cells
    mine = theirs = 0.0
    for line in lines_of(game):
        owners = {cells[r][c] for r, c in line} - {0}
        stones = sum(1 for r, c in line if cells[r][c])
        if owners == {player}:
            mine += stones ** 2
        elif owners == {3 - player}:
            theirs += stones ** 2
    return (mine - theirs) / (mine + theirs) if mine + theirs else 0.0


def value(game, state, depth, alpha, beta):
    """Negamax alpha-beta: the value of ``state`` for the side to move."""
    if game.is_terminal(state):
        return game.utility(state, game.player(state)) * 1000
    if depth == 0:
        return evaluate(game, state, game.player(state))
    best = -math.inf
    for column in game.actions(state):
        best = max(best, -value(game, game.result(state, column), depth - 1, -beta, -alpha))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def play(game, state, depth=3):
    scores = {c: -value(game, game.result(state, c), depth - 1, -math.inf, math.inf) for c in game.actions(state)}
    return max(scores, key=scores.get)
