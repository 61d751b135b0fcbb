"""The instructor's player, the contest's reference: the homework's contract, written the homework's way.

``player(board)`` gets the board as a numpy array (top row first, 0 empty, 1 X, 2 O; the player is O and
maximises) and returns a 0-based column.  It searches with ``minMax``, alpha-beta by iterative deepening,
and counts its own calls: it never makes more than ``NODE_LIMIT`` of them in a move, and plays the best move
of the deepest search it finished (the homework's rule).  ``NODES_COUNTED_BY`` tells the arena to count the
calls of ``minMax`` as this player's nodes.

``score(game, state, player)`` is the same evaluation as a zerosum evaluation (``eval=instructor.py:score``),
used to pick the contest's openings of evaluation 0.
"""

NODES_COUNTED_BY = "minMax"
NODE_LIMIT = 10_000
WIN = 1_000_000

calls = 0  # minMax calls in the current move


class OutOfNodes(Exception):
    pass


def weights(rows, cols, k=4):
    """How many lines of k cells pass through each cell: the centre is worth more."""
    table = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + (k - 1) * dr, c + (k - 1) * dc
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    for i in range(k):
                        table[r + i * dr][c + i * dc] += 1
    return table


def wins_at(grid, r, c, who, k=4):
    """Whether the stone of ``who`` at (r, c) completes k in a row."""
    rows, cols = len(grid), len(grid[0])
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < rows and 0 <= cc < cols and grid[rr][cc] == who:
                run += 1
                rr, cc = rr + sign * dr, cc + sign * dc
        if run >= k:
            return True
    return False


def minMax(grid, heights, table, depth, alpha, beta, maximizing, value, order):
    """Alpha-beta from O's (2's) fixed view: O maximises, X minimises; ``value`` is the weights' balance."""
    global calls
    calls += 1
    if depth == 0:
        return value
    who = 2 if maximizing else 1
    best = -WIN * 10 if maximizing else WIN * 10
    moved = False
    for c in order:
        r = heights[c] - 1
        if r < 0:
            continue
        moved = True
        grid[r][c] = who
        heights[c] = r
        if wins_at(grid, r, c, who):
            v = (WIN + depth) if maximizing else -(WIN + depth)  # a sooner win is worth more
        else:
            if calls >= NODE_LIMIT:  # the next call would pass the limit: stop, keep what is known
                grid[r][c] = 0
                heights[c] = r + 1
                raise OutOfNodes
            step = table[r][c] if maximizing else -table[r][c]
            v = minMax(grid, heights, table, depth - 1, alpha, beta, not maximizing, value + step, order)
        grid[r][c] = 0
        heights[c] = r + 1
        if maximizing:
            best = max(best, v)
            alpha = max(alpha, v)
        else:
            best = min(best, v)
            beta = min(beta, v)
        if alpha >= beta:
            break
    return best if moved else 0  # a full board is a draw


def player(board):
    global calls
    calls = 0
    grid = [[int(x) for x in row] for row in board]
    rows, cols = len(grid), len(grid[0])
    table = weights(rows, cols)
    heights = [next((r for r in range(rows) if grid[r][c]), rows) for c in range(cols)]
    value = sum(table[r][c] * (1 if grid[r][c] == 2 else -1) for r in range(rows) for c in range(cols) if grid[r][c])
    order = sorted(range(cols), key=lambda c: abs(2 * c + 1 - cols))  # the centre first
    legal = [c for c in order if heights[c] > 0]
    best = legal[0]
    try:
        for depth in range(1, rows * cols + 1):
            scores = {}
            for c in legal:
                r = heights[c] - 1
                grid[r][c] = 2
                heights[c] = r
                try:
                    if wins_at(grid, r, c, 2):
                        return c
                    if calls >= NODE_LIMIT:
                        raise OutOfNodes
                    scores[c] = minMax(grid, heights, table, depth - 1, -WIN * 10, WIN * 10, False,
                                       value + table[r][c], order)
                finally:
                    grid[r][c] = 0
                    heights[c] = r + 1
            best = max(legal, key=lambda c: scores[c])  # ties: the one nearer the centre
            legal.sort(key=lambda c: -scores[c])  # the next depth searches the best first
    except OutOfNodes:
        pass
    return best


def score(game, state, player):
    """The weights' balance of a zerosum state for ``player`` (a zerosum evaluation, the mover's view)."""
    cells = game.board_view(state).cells
    table = weights(len(cells), len(cells[0]), game.k)
    total = 0
    for r, row in enumerate(cells):
        for c, who in enumerate(row):
            if who:
                total += table[r][c] if who == player else -table[r][c]
    return total
