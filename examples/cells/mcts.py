"""Cells of 04_mcts_vs_alphabeta.ipynb: plain UCT against full MCTS, simulations against strength, a match."""

CELLS = [
    ("md", r"""
# 4. MCTS against alpha-beta

Monte Carlo tree search needs no evaluation: from the root it walks down the tree choosing children by
UCT (the upper confidence bound: mean reward plus an exploration bonus), adds a node, plays the game out
at random to the end, and backs the result up. After `sims` simulations it plays the most visited move.

- `mcts:plain=1` is exactly that: **plain UCT** with random playouts, nothing else.
- `mcts` (the default) adds MCTS-Solver (finished games are proven wins or losses, and proofs are carried
  up the tree), checks the root for a win in one or a move that wins next turn, and never plays a move that
  lets the opponent win at once when another exists.

A node of MCTS is a simulation: `SearchResult.nodes` counts them, `sims` of them at most (fewer when a proof
ends the search early; 0 when the root check finds the move, as after `4455`: 3 or 6 wins next turn).
Everything is seeded (`seed=`), so the numbers below are the same at every run.
"""),
    ("code", r"""
import zerosum
from zerosum import get_game, make_agent
from zerosum.core.words import describe_value

game = get_game("connect4")
position = game.states_of(game.parse_moves("415"))[-1]
print(game.render(position))
position
"""),
    ("md", r"""
Red (X) has two stones side by side on the bottom row with both ends open. Yellow (O) to move must take
column 3 or 6 now: otherwise Red makes an open three (`.XXX.`) and wins, whatever Yellow does. Alpha-beta
sees it at depth 6 (columns are numbered from 1; actions from 0):
"""),
    ("code", r"""
reference = make_agent("alphabeta:depth=6").search(game, position)
for action, score in sorted(reference.scores.items()):
    print(f"column {action + 1}: {describe_value(score)}")
defences = {action for action, score in reference.scores.items() if score > -1000}
print("the defences:", sorted(a + 1 for a in defences))
"""),
    ("md", r"""
(The scores of moves other than the best are bounds: alpha-beta only proves each is worse.)

How often does each MCTS find a defence? Ten searches with ten seeds, for each budget:
"""),
    ("code", r"""
def found(spec, seeds=range(10)):
    moves = [make_agent(f"{spec},seed={seed}").search(game, position).action for seed in seeds]
    return sum(move in defences for move in moves), [m + 1 for m in moves]


for spec in ("mcts:plain=1,sims=50", "mcts:plain=1,sims=200", "mcts:plain=1,sims=1000",
             "mcts:sims=50", "mcts:sims=200"):
    hits, columns = found(spec)
    print(f"{spec:24} defends {hits:>2} of 10   columns played: {columns}")
"""),
    ("md", r"""
Plain UCT needs about a thousand random playouts to see the threat; the full MCTS sees it with fifty,
because it prunes the moves after which Red wins at once and proves the lost lines.

`SearchResult.scores` holds each root move's mean reward (from the mover's view, -1..1):
"""),
    ("code", r"""
plain = make_agent("mcts:plain=1,sims=1000,seed=1").search(game, position)
print("nodes (simulations):", plain.nodes, "  move: column", plain.action + 1)
for action, score in sorted(plain.scores.items()):
    print(f"column {action + 1}: mean reward {score:+.2f}")
"""),
    ("md", r"""
## Simulations against strength

A match of 8 games (4 openings, colours swapped) against alpha-beta at depth 2, for budgets from 10 to
1000 simulations a move. The score is MCTS's share of the points. Each row prints when its 16 games end;
the last, at 1000 simulations a move, takes 5-10 s.
"""),
    ("code", r"""
print(f"{'sims':>5} {'plain UCT':>10} {'full MCTS':>10}")
for sims in (10, 100, 1000):
    scores = [zerosum.match(f"mcts:{extra}sims={sims}", "alphabeta:depth=2", games=8, seed=1).score
              for extra in ("plain=1,", "")]
    print(f"{sims:>5} {scores[0]:>10.0%} {scores[1]:>10.0%}")
"""),
    ("md", r"""
## A small match

MCTS with 2000 simulations a move against alpha-beta at depth 4 (with its `threats` evaluation), 8 games.
`zerosum match` reports the same from the terminal:

    zerosum match mcts:sims=2000 alphabeta:depth=4 --games 8
"""),
    ("code", r"""
result = zerosum.match("mcts:sims=2000", "alphabeta:depth=4", games=8, seed=2)
print(result)
result.print()
"""),
    ("code", r"""
result.games[0]
"""),
]
