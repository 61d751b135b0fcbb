"""Cells of 02_minimax_vs_alphabeta.ipynb: node counts per depth, textbook variants, traced trees."""

CELLS = [
    ("md", r"""
# 2. Minimax against alpha-beta

How many positions does each search visit, depth by depth? Do alpha-beta and minimax really agree? This
notebook counts, using the textbook versions of both algorithms:

- `minimax:discount=0`: plain minimax (a win is a win, however far away);
- `alphabeta:plain=1`: the textbook alpha-beta recursion: no move ordering, no transposition table, no
  iterative deepening, actions in the game's order;
- and, for comparison, the full `alphabeta` and the default (discounted) `minimax`.

A *node* is one state visited: one call of the recursion, the root included. Every search can report to
a **tracer**: an object whose `enter(...)` the search calls at each node it enters and whose `leave(...)` it
calls when it is done with that node. Ours just counts nodes per depth.
"""),
    ("code", r"""
from collections import Counter

import zerosum
from zerosum import get_game, make_agent
from zerosum.core.words import describe_value
from zerosum.values import WIN

game = get_game("tictactoe")


class PerDepth:
    # A tracer: counts the nodes the search enters at each depth (the root is depth 0).
    def __init__(self):
        self.counts = Counter()

    def enter(self, state, action, depth, alpha, beta):
        self.counts[depth] += 1

    def leave(self, value, cutoff=None, evals=0):
        pass

    def per_depth(self):
        return [self.counts[d] for d in range(max(self.counts) + 1)]


def traced(spec, state, game=game):
    # search state with the agent spec, counting nodes per depth: (SearchResult, [nodes at depth 0, 1, ...])
    tracer = PerDepth()
    result = make_agent(spec).search(game, state, tracer=tracer)
    assert sum(tracer.counts.values()) == result.nodes  # the tracer sees every node the search counts
    return result, tracer.per_depth()
"""),
    ("md", r"""
## Minimax on the empty board

Plain minimax searches the whole game tree of Tic-Tac-Toe: the textbook's 549,946 nodes. (The value is
from the view of the side to move, in units of `WIN`: 0 is a draw.) Traced node by node, it takes a few
seconds.
"""),
    ("code", r"""
minimax, minimax_depths = traced("minimax:discount=0", game.initial_state)
print(f"value {minimax.value / WIN:+g}, move: cell {game.format_action(minimax.action)}, nodes {minimax.nodes:,}")
for depth, count in enumerate(minimax_depths):
    print(f"depth {depth}: {count:>9,}")
"""),
    ("md", r"""
## The textbook check

Write minimax the textbook way and count one node per call: the counts must be the same. In plain Python
it takes a few seconds.
"""),
    ("code", r"""
nodes = 0


def minimax_value(state, player):
    global nodes
    nodes += 1
    if game.is_terminal(state):
        return game.utility(state, player)
    values = [minimax_value(game.result(state, a), player) for a in game.actions(state)]
    return max(values) if game.player(state) == player else min(values)


value = minimax_value(game.initial_state, 1)
print(f"textbook minimax: value {value:+d}, {nodes:,} nodes")
print(f"minimax:discount=0: value {minimax.value / WIN:+g}, {minimax.nodes:,} nodes")
print("textbook check, minimax: equal:", nodes == minimax.nodes and value == minimax.value / WIN)
"""),
    ("md", r"""
The same for alpha-beta: the recursion of the textbook (a node fails high as soon as a child's value
reaches beta), against `alphabeta:plain=1`.
"""),
    ("code", r"""
import math

nodes = 0


def max_value(state, alpha, beta, player):
    global nodes
    nodes += 1
    if game.is_terminal(state):
        return game.utility(state, player)
    v = -math.inf
    for a in game.actions(state):
        v = max(v, min_value(game.result(state, a), alpha, beta, player))
        if v >= beta:
            return v
        alpha = max(alpha, v)
    return v


def min_value(state, alpha, beta, player):
    global nodes
    nodes += 1
    if game.is_terminal(state):
        return game.utility(state, player)
    v = math.inf
    for a in game.actions(state):
        v = min(v, max_value(game.result(state, a), alpha, beta, player))
        if v <= alpha:
            return v
        beta = min(beta, v)
    return v


value = max_value(game.initial_state, -math.inf, math.inf, 1)
plain, plain_depths = traced("alphabeta:plain=1", game.initial_state)
print(f"textbook alpha-beta: value {value:+d}, {nodes:,} nodes")
print(f"alphabeta:plain=1: value {plain.value / WIN:+g}, {plain.nodes:,} nodes")
print("textbook check, alpha-beta: equal:", nodes == plain.nodes and value == plain.value / WIN)
"""),
    ("md", r"""
## Depth by depth

Alpha-beta finds the same value as minimax with 30 times fewer nodes. The full `alphabeta` needs fewer
still: it orders moves (the best one first makes the most cut-offs) and remembers positions in a
transposition table. Its counts are not comparable move for move: iterative deepening searches depth 1,
then 2, ..., so the root and upper levels are entered once per iteration, and positions the table answers
count too.
"""),
    ("code", r"""
full, full_depths = traced("alphabeta", game.initial_state)
rows = max(len(minimax_depths), len(plain_depths), len(full_depths))
pad = lambda counts: counts + [0] * (rows - len(counts))
print(f"{'depth':>5} {'minimax':>9} {'alpha-beta':>11} {'full':>7}")
for depth, (m, p, f) in enumerate(zip(pad(minimax_depths), pad(plain_depths), pad(full_depths))):
    print(f"{depth:>5} {m:>9,} {p:>11,} {f:>7,}")
print(f"{'all':>5} {minimax.nodes:>9,} {plain.nodes:>11,} {full.nodes:>7,}")
print("values:", minimax.value, plain.value, full.value,
      " moves: cells", *(game.format_action(r.action) for r in (minimax, plain, full)))
"""),
    ("md", r"""
All three find a draw (value 0). Their moves can differ: every first move draws, and the full alpha-beta
tries the centre first.

## Discounting: the fastest win

zerosum's default `minimax` discounts by depth: a win in 1 ply scores more than a win in 5, so it takes
the fastest win (and, when every move loses, the slowest loss). The textbook minimax (`discount=0`) sees
every win as alike and plays the first winning move in the game's order. Here X (to move) wins at once in
cell 7, and also wins later after cell 5 (cells as people count them, 1..9; `format_action` turns a
0-based action into one):
"""),
    ("code", r"""
position = game.states_of(game.parse_moves("1243"))[-1]
plain_minimax = make_agent("minimax:discount=0").search(game, position)
discounted = make_agent("minimax").search(game, position)
cell = game.format_action
print("discount=0 plays cell", cell(plain_minimax.action), " scores by cell:",
      {cell(a): f"{v / WIN:+g}" for a, v in plain_minimax.scores.items()})
print("discounted plays cell", cell(discounted.action), " scores by cell:",
      {cell(a): describe_value(v) for a, v in discounted.scores.items()})
position
"""),
    ("md", r"""
`SearchResult.scores` holds one score per root move (from the mover's view). Without the discount every
winning move scores +1 (in units of `WIN`); with it the scores say *how soon* each move wins: "win in 1
move" for cell 7, "win in 2 moves" for cell 5 (the mover's own moves, as everywhere in zerosum).

## Connect Four at a fixed depth

With a depth limit, the positions at the limit are scored by an evaluation (`eval=window`: the classic
course evaluation). The three searches still find the same value; the node counts tell the cost.
"""),
    ("code", r"""
connect4 = get_game("connect4")
middle = connect4.states_of(connect4.parse_moves("4453"))[-1]
for spec in ("minimax:depth=4,eval=window,discount=0", "alphabeta:plain=1,depth=4,eval=window",
             "alphabeta:depth=4,eval=window"):
    result, depths = traced(spec, middle, game=connect4)
    print(f"{spec:40} column {connect4.format_action(result.action)}  value {result.value:+}  nodes {result.nodes:>5,}"
          f"  evaluations {result.evals:>5,}  per depth {depths}")
middle
"""),
    ("md", r"""
## A traced tree

A tracer sees more than counts: the alpha-beta window `[alpha, beta]` on entry to each node, its value
when left, and why it was left: `terminal` (the game ended), `beta` (a cut-off: a child reached beta, so
the other children are never visited), `depth` (evaluated at the depth limit). The searches are written
as *negamax*: each value is from the view of the side to move at that node, so a child's value is negated
one level up. This tracer keeps every node and prints the tree.
"""),
    ("code", r"""
class Tree:
    # A tracer that keeps every node: [depth, action, alpha, beta, value, cutoff]
    def __init__(self):
        self.nodes, self.open = [], []

    def enter(self, state, action, depth, alpha, beta):
        self.open.append(len(self.nodes))
        self.nodes.append([depth, action, alpha, beta, None, None])

    def leave(self, value, cutoff=None, evals=0):
        self.nodes[self.open.pop()][4:] = [value, cutoff]

    def show(self, max_depth=9):
        def short(v):  # in units of WIN; beyond WIN is infinity
            return "-inf" if v < -WIN else "+inf" if v > WIN else f"{v / WIN:+g}"

        for depth, action, alpha, beta, value, cutoff in self.nodes:
            if depth <= max_depth:
                move = "root" if action is None else f"cell {game.format_action(action)}"
                print(f"{'    ' * depth}{move}: window [{short(alpha)}, {short(beta)}] value {short(value)}"
                      f"{'  (' + cutoff + ')' if cutoff else ''}")


exercise = game.states_of(game.parse_moves("1425"))[-1]
tree = Tree()
result = make_agent("alphabeta:plain=1").search(game, exercise, tracer=tree)
print(f"X to move; alpha-beta plays cell {game.format_action(result.action)}, value {result.value / WIN:+g}, "
      f"{result.nodes} nodes")
tree.show(max_depth=2)
exercise
"""),
    ("md", r"""
## `zerosum.trace`: the tree, drawn

`zerosum.trace(agent, game, state)` runs the search with a tracer like ours and returns the whole tree:
each node with its state, action, depth, window, value, and the cut-off (what cut it). It counts nodes per
depth, prints itself as indented text with the board at each level (`tree.text(depth=...)`), exports
Graphviz (`tree.dot()`), and in a notebook draws itself, with the cut branches greyed out. From the
terminal: `zerosum explain 1425 --game tictactoe --agent alphabeta:plain=1`. Its drawings name the
moves in the game's notation (cells from 1) and give values from MAX's view (X here), as the textbook
draws them.
"""),
    ("code", r"""
traced_tree = zerosum.trace("alphabeta:plain=1", game, exercise)
print(traced_tree)
ours = Counter(node[0] for node in tree.nodes)
print("nodes per depth:", traced_tree.counts_per_depth(), " our tracer:", [ours[d] for d in range(max(ours) + 1)])
print("the same nodes as the search counted:", len(traced_tree) == result.nodes)
print(traced_tree.text(depth=1))
"""),
    ("code", r"""
traced_tree
"""),
]
