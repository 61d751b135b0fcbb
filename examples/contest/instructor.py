"""The instructor's player, the contest's reference: the homework's contract, written the homework's way.

``player(board)`` gets the board as a numpy array (top row first, 0 empty, 1 X, 2 O; the player is O and
maximises) and returns a 0-based column.  It searches with ``minMax``, alpha-beta by iterative deepening,
and counts its own calls: it never makes more than ``NODE_LIMIT`` of them in a move, and plays the best move
of the deepest search it finished (the homework's rule).  ``NODES_COUNTED_BY`` tells the arena to count the
calls of ``minMax`` as this player's nodes.

The evaluation, from O's fixed view: every line of four cells holding stones of one side only is worth
``LINE[n]`` (n its stones) to that side.  It is kept up to date move by move, so a node costs little.
``score(game, state, player)`` is the same evaluation as a zerosum evaluation (``eval=instructor.py:score``,
the mover's view), used to pick the contest's openings of evaluation 0.
"""

NODES_COUNTED_BY = "minMax"
NODE_LIMIT = 10_000
WIN = 1_000_000
#: a line of four cells holding n stones of one side and none of the other is worth LINE[n] to that side
LINE = [0, 1, 10, 100, 1000]

calls = 0  # minMax calls in the current move


class OutOfNodes(Exception):
    pass


def lines_through(rows, cols, k=4):
    """For every cell, the numbers of the lines of k cells through it; and how many lines there are."""
    through = [[[] for _ in range(cols)] for _ in range(rows)]
    count = 0
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if 0 <= r + (k - 1) * dr < rows and 0 <= c + (k - 1) * dc < cols:
                    for i in range(k):
                        through[r + i * dr][c + i * dc].append(count)
                    count += 1
    return through, count


def line_value(o, x):
    """What a line holding o stones of O and x of X is worth to O."""
    if o and x:
        return 0
    return LINE[o] - LINE[x]


class Board:
    """The grid (top row first, 0 empty, 1 X, 2 O), the free height of each column, and the evaluation."""

    def __init__(self, board, k=4):
        self.grid = [[int(v) for v in row] for row in board]
        self.rows, self.cols = len(self.grid), len(self.grid[0])
        self.heights = [next((r for r in range(self.rows) if self.grid[r][c]), self.rows) for c in range(self.cols)]
        self.through, count = lines_through(self.rows, self.cols, k)
        self.stones = {1: [0] * count, 2: [0] * count}
        for r in range(self.rows):
            for c in range(self.cols):
                for line in self.through[r][c]:
                    if self.grid[r][c]:
                        self.stones[self.grid[r][c]][line] += 1
        o, x = self.stones[2], self.stones[1]
        self.value = sum(line_value(o[i], x[i]) for i in range(count))

    def play(self, c, who):
        r = self.heights[c] - 1
        self.grid[r][c] = who
        self.heights[c] = r
        o, x = self.stones[2], self.stones[1]
        for line in self.through[r][c]:
            before = line_value(o[line], x[line])
            self.stones[who][line] += 1
            self.value += line_value(o[line], x[line]) - before
        return r

    def undo(self, c, who):
        r = self.heights[c]
        o, x = self.stones[2], self.stones[1]
        for line in self.through[r][c]:
            before = line_value(o[line], x[line])
            self.stones[who][line] -= 1
            self.value += line_value(o[line], x[line]) - before
        self.grid[r][c] = 0
        self.heights[c] = r + 1

    def wins(self, c, who):
        """Whether the stone ``who`` just dropped into column ``c`` made four in a row."""
        r = self.heights[c]
        return any(self.stones[who][line] == 4 for line in self.through[r][c])


def minMax(board, depth, alpha, beta, maximizing, order):
    """Alpha-beta from O's (2's) fixed view: O maximises, X minimises."""
    global calls
    calls += 1
    if depth == 0:
        return board.value
    who = 2 if maximizing else 1
    best = None
    for c in order:
        if board.heights[c] == 0:
            continue
        board.play(c, who)
        try:
            if board.wins(c, who):
                v = (WIN + depth) if maximizing else -(WIN + depth)  # a sooner win is worth more
            else:
                if calls >= NODE_LIMIT:  # the next call would pass the limit: stop, keep what is known
                    raise OutOfNodes
                v = minMax(board, depth - 1, alpha, beta, not maximizing, order)
        finally:
            board.undo(c, who)
        if best is None or (v > best if maximizing else v < best):
            best = v
        if maximizing:
            alpha = max(alpha, v)
        else:
            beta = min(beta, v)
        if alpha >= beta:
            break
    return 0 if best is None else best  # a full board is a draw


def player(board):
    global calls
    calls = 0
    b = Board(board)
    order = sorted(range(b.cols), key=lambda c: abs(2 * c + 1 - b.cols))  # the centre first
    legal = [c for c in order if b.heights[c] > 0]
    best = legal[0]
    try:
        for depth in range(1, b.rows * b.cols + 1):
            scores = {}
            for c in legal:
                b.play(c, 2)
                try:
                    if b.wins(c, 2):
                        return c
                    if calls >= NODE_LIMIT:
                        raise OutOfNodes
                    scores[c] = minMax(b, depth - 1, -WIN * 10, WIN * 10, False, order)
                finally:
                    b.undo(c, 2)
            best = max(legal, key=lambda c: scores[c])  # ties: the one nearer the centre
            legal.sort(key=lambda c: -scores[c])  # the next depth searches the best first
    except OutOfNodes:
        pass
    return best


def score(game, state, player):
    """The evaluation of a zerosum state for ``player`` (a zerosum evaluation: the mover's view)."""
    codes = {".": 0, "X": 1, "O": 2}
    grid = [[codes[ch] for ch in row] for row in game.to_grid(state).split("\n")]
    value = Board(grid, game.k).value  # X's stones are 1, O's 2: O's view
    return value if player == 2 else -value
