"""Cells of 01_game_api.ipynb: the Game API with Tic-Tac-Toe and Migration (see ../make_notebooks.py)."""

CELLS = [
    ("md", r"""
# 1. The Game API: Tic-Tac-Toe and Migration

A game in zerosum is an object holding the rules, with the functions of the textbook's game formulation:
the initial state, `player(s)`, `actions(s)`, `result(s, a)`, the terminal test `is_terminal(s)` and
`utility(s, p)`. States are immutable values: `result` returns a new state and never changes the old one.
Players are the numbers 1 (moves first) and 2.

Everything in this notebook runs in a second; nothing is random unless seeded.
"""),
    ("code", r"""
import zerosum
from zerosum import get_game

game = get_game("tictactoe")
state = game.initial_state
print(game.title, "-", game.spec)
print("to move:", game.player(state))
print("actions:", game.actions(state))
"""),
    ("md", r"""
A Tic-Tac-Toe action is a cell index 0..8, row by row from the top left: Python counts from 0. People
count the cells 1..9, and so do the game's notation and its messages (`game.format_action(4)` is `"5"`, the
centre); what a cell prints says which it is. `result` makes the new state; `render` prints it as text. A state as the last line of a cell draws itself as a board (SVG), like a
python-chess board.
"""),
    ("code", r"""
after = game.result(state, 4)  # X takes the centre
print(game.render(after))
print("the start is unchanged:", state == game.initial_state)
after
"""),
    ("md", r"""
Games are written down in the game's notation: for Tic-Tac-Toe the cells counted from 1, one digit a move
(`"15293"`: X in 1, O in 5, X in 2, O in 9, X in 3). `parse_moves` reads such a string, `states_of` plays
the actions from the start.
"""),
    ("code", r"""
moves = game.parse_moves("15293")
final = game.states_of(moves)[-1]
print("actions:", moves)
print("terminal:", game.is_terminal(final), " winner:", game.winner(final), " outcome:", game.outcome(final))
print("utility for X:", game.utility(final, 1), " for O:", game.utility(final, 2))
final
"""),
    ("md", r"""
## Boards for exercises: `place`

Exercises start from boards drawn by hand, which no legal game has to reach. `game.place(state, where,
player)` puts a piece on an empty cell, ignoring whose turn it is: it is **not a move** (it is never
counted as one, and it is apart from legal play). `where` is a cell index 0..8, as an action is; a refusal
names the cell as people do (1..9). In Tic-Tac-Toe the side to move follows from the pieces.
"""),
    ("code", r"""
board = game.initial_state
for index, player in [(0, 1), (1, 1), (4, 2), (8, 2)]:  # cell indexes 0..8, as actions
    board = game.place(board, index, player)
print(game.render(board))
print("to move:", game.player(board))
board
"""),
    ("code", r"""
from zerosum.errors import IllegalMoveError

try:
    game.place(board, 4, 1)  # index 4, the centre (cell 5), is taken
except IllegalMoveError as error:
    print("refused:", error)
"""),
    ("md", r"""
## Your own search on this API

The textbook's minimax decision fits in a few lines. It only uses the functions above, so it works for
every game of zerosum. On the exercise board X wins at once in cell 3 (index 2: `format_action` names an
action as people do).
"""),
    ("code", r"""
def minimax_decision(game, state):
    me = game.player(state)

    def value(s):
        if game.is_terminal(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.player(s) == me else min(values)

    return max(game.actions(state), key=lambda a: value(game.result(state, a)))


print("minimax plays cell", game.format_action(minimax_decision(game, board)))
"""),
    ("md", r"""
## Migration

Two armies cross an n x n board at right angles: player 1 (▶) moves a stone one step right, player 2 (▲)
one step up, onto an empty cell inside the board. A player who cannot move loses, so there are no draws.
An action is `(x, y, nx, ny)`: the stone at row `x`, column `y` (both from 0, row 0 at the top) moves to
`(nx, ny)`.
"""),
    ("code", r"""
migration = get_game("migration:n=5")
start = migration.initial_state
print(migration.render(start))
print("to move:", migration.player(start))
print(len(migration.actions(start)), "actions, e.g.", migration.actions(start)[:3])
start
"""),
    ("md", r"""
A random game, seeded so it is the same every time. The same loop plays any game.
"""),
    ("code", r"""
import random

rng = random.Random(7)
state = start
plies = 0
while not migration.is_terminal(state):
    state = migration.result(state, rng.choice(migration.actions(state)))
    plies += 1
print(plies, "plies;", migration.outcome(state))
state
"""),
    ("md", r"""
`zerosum.play_game` plays a whole game between two agents: spec strings such as `"alphabeta:depth=3"`,
agent objects, or plain functions `f(game, state) -> action`. It returns a record with every move, its
time and the search's nodes and value. The record draws its final board.
"""),
    ("code", r"""
def first_action(game, state):  # a player function: always the first legal action
    return game.actions(state)[0]


record = zerosum.play_game("migration:n=5", first_action, "alphabeta:depth=3", seed=7)
print(record)
for move in record.moves[:4]:
    print(move.ply, migration.player_label(move.player), move.notation, "nodes:", move.nodes, "value:", move.value)
record
"""),
    ("md", r"""
Free boards work in Migration too: start from an empty board (`from_board`) and place stones, here a
race of two stones each. A cell is `(row, col)` or its number `row * n + col`.
"""),
    ("code", r"""
empty = migration.from_board([[0] * 5 for _ in range(5)], 1)
race = empty
for cell, player in [((1, 0), 1), ((3, 0), 1), ((4, 1), 2), ((4, 3), 2)]:
    race = migration.place(race, cell, player)
print(migration.render(race))
print("to move:", migration.player(race), " actions:", migration.actions(race))
print("minimax plays", minimax_decision(migration, race))
race
"""),
    ("md", r"""
`game.svg(state, cell=...)` gives the drawing as text (to save it, or to draw it bigger or smaller).
"""),
    ("code", r"""
from IPython.display import SVG

SVG(migration.svg(race, cell=24))
"""),
]
