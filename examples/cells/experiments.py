"""Cells of 07_course_experiments.ipynb: the courses' experiments with their own agents, beside zerosum's."""

CELLS = [
    ("md", r"""
# 7. The courses' experiments, with the courses' own agents

The course texts run their experiments with the **textbook** algorithms: minimax and alpha-beta exactly as
the textbook writes them (no move ordering, no transposition table, no iterative deepening, no depth
discount; the actions in the game's order, and a tie for the best value goes to the first such action),
with their own heuristics. zerosum offers those agents by name:

- `minimax:discount=0` and `alphabeta:plain=1`, with `depth=`;
- any evaluation, given as a function (or `eval=path/to/file.py:function` in a spec).

This notebook reruns small versions of the experiments with the courses' agents and with zerosum's
stronger `alphabeta` side by side. [docs/experiments.md](../docs/experiments.md) has the full tables
(`python benchmarks/course_tables.py`), and says what is reconstructed rather than copied from the courses.
"""),
    ("md", r"""
## Migration: the course's heuristic and the textbook alpha-beta

The game-API course plays Migration with a heuristic a student writes in a few lines: the number of moves
the player has, minus the number the opponent has (player 1's stones step right, player 2's step up, onto
an empty cell). The searches call it for the side to move.
"""),
    ("code", r"""
import zerosum
from zerosum import Limits, get_game, make_agent
from zerosum.agents.alphabeta import AlphaBetaAgent
from zerosum.agents.minimax import MinimaxAgent


def count_moves(board, player):
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
    return count_moves(state.board, player) - count_moves(state.board, 3 - player)


def course(depth):
    # the course's agent: the textbook alpha-beta with the course's heuristic
    return AlphaBetaAgent(plain=True, eval=own_minus_opponent, limits=Limits(depth=depth))


def ours(depth):
    # zerosum's alpha-beta (ordering, table, deepening, discount) with the very same heuristic
    return AlphaBetaAgent(eval=own_minus_opponent, limits=Limits(depth=depth))


five = get_game("migration:n=5")
five.initial_state
"""),
    ("md", r"""
On 5 x 5 the course finds that depth 2 loses in both seats against a full search. It does, with the
course's agent; zerosum's depth 2, with the same heuristic, wins as the first player (5 x 5 is a
first-player win: a full search as first always wins). `depth=1000` searches every game to its end: the
four games take 5-10 s.
"""),
    ("code", r"""
for name, make in (("course", course), ("zerosum", ours)):
    as_first = zerosum.play_game(five, make(2), make(1000), seed=1)
    as_second = zerosum.play_game(five, make(1000), make(2), seed=1)
    said = {True: "wins", False: "loses"}
    print(f"{name:>8}: depth 2 as first {said[as_first.winner == 1]} ({len(as_first.moves)} moves), "
          f"as second {said[as_second.winner == 2]} ({len(as_second.moves)} moves)")
"""),
    ("md", r"""
The heuristic is the same on both lines, so the algorithm makes the difference. Mostly, it is the tie for
the best move: in most Migration positions several moves share the best value at a small depth, and the
textbook takes the first in the game's order every time, while zerosum's deepening search prefers the
move that was best one iteration shallower. Count the ties along the course agent's own 8 x 8 game, with
the exact values of depth-2 minimax (`SearchResult.scores` holds a value per move):
"""),
    ("code", r"""
eight = get_game("migration:n=8")
agent = course(2)
exact = MinimaxAgent(discount=False, eval=own_minus_opponent, limits=Limits(depth=2))  # every value exact
state, ties, positions = eight.initial_state, 0, 0
while not eight.is_terminal(state):
    scores = exact.search(eight, state).scores
    best = max(scores.values())
    ties += sum(1 for v in scores.values() if v == best) > 1
    positions += 1
    state = eight.result(state, agent(eight, state))
print(f"{ties} of {positions} positions have two or more best moves; the winner: player {eight.winner(state)}")
"""),
    ("md", r"""
## Connect Four: depth 3 against the naive player, and counting evaluations

The Connect Four comparison text evaluates with a **run-length** heuristic: every maximal run of 2 or 3
stones in a row, column or diagonal counts 10 or 100, the player's total minus the opponent's. zerosum has
it as `eval=runs`. Depth-3 minimax and alpha-beta play the same moves (alpha-beta only skips what cannot
matter), so they win the same games; alpha-beta visits far fewer nodes. (The docs play 500 games; 100
here: each line comes when its 100 games end, a few seconds each.)
"""),
    ("code", r"""
for spec in ("minimax:discount=0,depth=3,eval=runs", "alphabeta:plain=1,depth=3,eval=runs",
             "alphabeta:depth=3,eval=runs"):
    result = zerosum.match(spec, "random", game="connect4", games=100, seed=0, opening_plies=0)
    mine = next(s for s in result.report.standings if s.label == spec)
    print(f"{spec:>38}: +{mine.wins} ={mine.draws} -{mine.losses}, {mine.nodes:,.0f} nodes a move")
"""),
    ("md", r"""
Evaluation calls (`SearchResult.evals`) at each depth from the empty board: minimax evaluates every leaf,
7 to the power of the depth, and the textbook alpha-beta a fraction of them, for the same value.
zerosum's counts include every iteration of its deepening (depth 1, then 2, ...), so on a position this
quiet it evaluates more than the textbook; summed over harder positions it evaluates fewer (a quarter at
depth 5: the table in docs/experiments.md).
"""),
    ("code", r"""
connect4 = get_game("connect4")
print("depth   minimax  alpha-beta  zerosum   (evaluations; value)")
for depth in range(1, 5):
    found = [make_agent(spec.format(d=depth)).search(connect4, connect4.initial_state)
             for spec in ("minimax:discount=0,depth={d},eval=runs", "alphabeta:plain=1,depth={d},eval=runs",
                          "alphabeta:depth={d},eval=runs")]
    print(f"{depth:>5} {found[0].evals:>9,} {found[1].evals:>11,} {found[2].evals:>8,}   "
          f"{', '.join(str(r.value) for r in found)}")
"""),
    ("md", r"""
## The 8 x 8 homework's node limit

The homework counts the calls of the student's search function (the root included) and allows 10,000 a
move. From the empty 8 x 8 board, how deep can each search go within that?
"""),
    ("code", r"""
board8 = get_game("connect4-8x8")
for name, spec in (("textbook minimax", "minimax:discount=0,depth={d},eval=window"),
                   ("textbook alpha-beta", "alphabeta:plain=1,depth={d},eval=window"),
                   ("zerosum alpha-beta", "alphabeta:depth={d},eval=window")):
    counts = []
    for depth in range(1, 7):
        nodes = make_agent(spec.format(d=depth)).search(board8, board8.initial_state).nodes
        counts.append(nodes)
        if nodes > 10_000:
            break
    deepest = max(d for d, n in enumerate(counts, 1) if n <= 10_000)
    print(f"{name:>20}: nodes by depth {counts} -> depth {deepest} fits")
"""),
]
