"""Cells of 03_writing_an_evaluation.ipynb: a student's evaluation, its point of view, and watching it win."""

CELLS = [
    ("md", r"""
# 3. Writing an evaluation, and watching it win

A search that stops at a depth limit needs an **evaluation**: a function `f(game, state, player)` saying
how good `state` looks for `player` (positive: `player` is ahead). This notebook writes one for Migration
on the 8 x 8 board (the homework's board), puts it into alpha-beta, and plays it against other players.

In Migration a player who cannot move loses, so a natural idea is to count moves. Ours returns the
player's *share* of the moves left on the board, minus one half: a fraction between -0.5 and 0.5.
Evaluations may return any real number; zerosum keeps the fractions.
"""),
    ("code", r"""
import zerosum
from zerosum import Limits, get_game, make_agent
from zerosum.agents.alphabeta import AlphaBetaAgent

game = get_game("migration:n=8")


def moves_of(game, state, player):
    # player's legal moves even when it is not their turn: the same board with that player to move
    return len(game.actions(game.from_board(state.board, player)))


def share_of_moves(game, state, player):
    mine, theirs = moves_of(game, state, player), moves_of(game, state, 3 - player)
    return mine / (mine + theirs) - 0.5 if mine + theirs else 0.0


state = game.states_of(game.parse_moves("4,2;7,6;3,2;6,5;3,1;5,5"))[-1]
print("for player 1:", share_of_moves(game, state, 1), " for player 2:", share_of_moves(game, state, 2))
state
"""),
    ("md", r"""
## Into the search

Any evaluating search takes the function as its `eval`. The value it reports is the evaluation of the
position at the end of the best line, a fraction; `evals` counts the calls of our function.
"""),
    ("code", r"""
student = AlphaBetaAgent(eval=share_of_moves, limits=Limits(depth=3))
found = student.search(game, state)
print(f"move {game.format_action(found.action)}, value {found.value:+.4f}, nodes {found.nodes}, evaluations {found.evals}")
print("scores per move:", {game.format_action(a): round(v, 4) for a, v in found.scores.items()})
"""),
    ("md", r"""
## Whose point of view?

The searches call an evaluation with the side to move (`view="mover"`, the default). Some courses write
it for a fixed player instead: the 8 x 8 homework's evaluation always scores for O, the second player (O
is the player that maximises there). Declare that with `@evaluation(view="second")` and the search adapts
it: it calls the function with player 2 and negates the value where player 1 is to move. (`view="first"`
is the same for player 1.) Same moves, values and node counts:
"""),
    ("code", r"""
import math

from zerosum.agents.heuristics import evaluation


@evaluation(view="second")
def share_for_second(game, state, player):
    assert player == 2  # always called for player 2, O in the homework
    return share_of_moves(game, state, 2)


fixed = AlphaBetaAgent(eval=share_for_second, limits=Limits(depth=3)).search(game, state)
print("mover view: ", found.action, found.value, found.nodes)
print("second view:", fixed.action, fixed.value, fixed.nodes)
# the values agree up to rounding: -(a/(a+b) - 0.5) and b/(a+b) - 0.5 differ in the last bits
print("the same search:", (found.action, found.nodes) == (fixed.action, fixed.nodes)
      and math.isclose(found.value, fixed.value))
"""),
    ("md", r"""
## From a file, by name

The same functions are in `student_eval.py` beside this notebook. Any minimax or alpha-beta spec names
them with `eval=path/to/file.py:function`, in Python and on the command line alike:

    zerosum match "alphabeta:depth=3,eval=student_eval.py:share_of_moves" alphabeta:depth=3 --game migration --games 10
"""),
    ("code", r"""
from pathlib import Path

print(Path("student_eval.py").read_text())
spec = "alphabeta:depth=3,eval=student_eval.py:share_of_moves"
print(spec, "->", make_agent(spec).search(game, state).action)
"""),
    ("md", r"""
## Watch it win

`zerosum.play_game(..., show=True)` draws the board after every move (in Jupyter, one board updated in
place). Our alpha-beta plays first against a random player.
"""),
    ("code", r"""
record = zerosum.play_game("migration:n=8", spec, "random", seed=3, show=True)
print(record.result, "-", record.reason, "-", len(record.moves), "moves")
"""),
    ("md", r"""
One game proves little. `zerosum.match` plays pairs of games from random openings with the colours
swapped, and reports the arena's statistics (score, Elo with its 95% interval, LOS). First against the
random player, then against zerosum's own `mobility` evaluation (the *difference* of the move counts)
at the same depth.
"""),
    ("code", r"""
against_random = zerosum.match(spec, "random", game="migration:n=8", games=10, seed=1)
against_random
"""),
    ("code", r"""
against_mobility = zerosum.match(spec, "alphabeta:depth=3", game="migration:n=8", games=10, seed=1)
print(against_mobility)
against_mobility.print()
"""),
    ("md", r"""
Every move of every game is kept, with what the search cost and the value it found (each from its own
evaluation's scale: fractions for ours, tens for `mobility`):
"""),
    ("code", r"""
first_game = against_mobility.games[0]
print(first_game)
names = {1: "share of moves", 2: "mobility"}  # in game 1 our function moves first
for move in first_game.moves[:6]:
    print(f"{move.ply:>2}. {names[move.player]:>14} {move.notation:>4}  nodes {move.nodes:>4}  value {move.value:+.3f}")
"""),
]
