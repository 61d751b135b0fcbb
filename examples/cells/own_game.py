"""Cells of 06_your_own_game.ipynb: write your own game class and play it with zerosum (see ../make_notebooks.py)."""

CELLS = [
    ("md", r"""
# 6. Write your own game

The central exercise of a games course is to write a game class: the initial state, `actions`, `result`,
a terminal test, `utility`, the player to move, and a way to print a state. zerosum plays such a class as it
is, with every agent, `trace`, `play_game`, `match` and the command line: nothing to subclass, nothing to
register. This notebook writes two, the way the course texts write them: AIMA's Tic-Tac-Toe and easyAI's
Nim. (docs/games.md, "Your own game", has every rule the adapter follows.)

Everything here runs in a few seconds; nothing is random unless seeded.
"""),
    ("code", r"""
from collections import namedtuple

import zerosum
from zerosum import make_agent

GameState = namedtuple("GameState", "to_move, utility, board, moves")


class TicTacToe:
    # AIMA's Tic-Tac-Toe: the board is a dict {(row, col): 'X' or 'O'}, the moves the free cells (1-based)

    def __init__(self, h=3, v=3, k=3):
        self.h, self.v, self.k = h, v, k
        moves = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.initial = GameState(to_move="X", utility=0, board={}, moves=moves)

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        board = state.board.copy()
        board[move] = state.to_move
        moves = list(state.moves)
        moves.remove(move)
        return GameState(to_move="O" if state.to_move == "X" else "X",
                         utility=self.compute_utility(board, move, state.to_move), board=board, moves=moves)

    def utility(self, state, player):
        return state.utility if player == "X" else -state.utility

    def terminal_test(self, state):
        return state.utility != 0 or len(state.moves) == 0

    def to_move(self, state):
        return state.to_move

    def display(self, state):
        for x in range(1, self.h + 1):
            print(" ".join(state.board.get((x, y), ".") for y in range(1, self.v + 1)))

    def compute_utility(self, board, move, player):
        for dx, dy in ((0, 1), (1, 0), (1, -1), (1, 1)):
            n = 1
            for sign in (1, -1):
                x, y = move[0] + sign * dx, move[1] + sign * dy
                while board.get((x, y)) == player:
                    n, x, y = n + 1, x + sign * dx, y + sign * dy
            if n >= self.k:
                return +1 if player == "X" else -1
        return 0
"""),
    ("md", r"""
## Search it

Every agent takes the object and its own states: here the textbook's alpha-beta (`plain=1`: no move
ordering, no table, the actions in your own order) searches the whole game. Its value is from the view of
the player to move: 0, Tic-Tac-Toe is a draw. Minimax then walks the whole game tree, 549,946 calls of your
own Python methods with no table: this cell takes 5-15 s.
"""),
    ("code", r"""
game = TicTacToe()
found = make_agent("alphabeta:plain=1").search(game, game.initial)
print(f"alpha-beta plays {found.action}: value {found.value}, {found.nodes:,} nodes, exact: {found.exact}")
full = make_agent("minimax:discount=0").search(game, game.initial)
print(f"minimax visits {full.nodes:,} nodes, the whole game tree")
"""),
    ("md", r"""
## What zerosum sees

`zerosum.get_game(game)` is the zerosum view of your object. Players are 1 (whoever moves first: `'X'`) and
2; the end is read from the sign of `utility(state, 'X')`. Its states wrap yours (`state.value`) and are
hashable for tables even though AIMA's state holds a dict and a list: equal boards reached in any order are
equal states. A state draws itself with the text your `display` prints.
"""),
    ("code", r"""
zgame = zerosum.get_game(game)
one = zgame.states_of([(1, 1), (2, 2), (1, 2)])[-1]
two = zgame.states_of([(1, 2), (2, 2), (1, 1)])[-1]
print("transpositions meet:", one == two, hash(one) == hash(two))
print("player to move:", zgame.player(one), zgame.player_label(zgame.player(one)))
print("your own board:", one.value.board)
one
"""),
    ("md", r"""
## Play it

`play_game` and `match` play it as any game. Moves are your own actions; in a move string they are written
as they print, without spaces, `(2,2)` (a person may also type a move's number among the legal moves).
"""),
    ("code", r"""
record = zerosum.play_game(game, "alphabeta", "mcts:sims=300", seed=1)
print(record.result, record.reason, "-", record.notation)
result = zerosum.match("alphabeta:plain=1,depth=3", "random", game=game, games=10, seed=1)
print(result)
record
"""),
    ("md", r"""
## See inside the search

`zerosum.trace` records the tree the search visited, your positions drawn by your `display`; a move string
(or a list of your actions) names the position.
"""),
    ("code", r"""
tree = zerosum.trace("alphabeta:plain=1", game, "(1,1) (2,2) (1,2)")
print(f"{len(tree)} nodes, the search counted {tree.result.nodes}; best {tree.result.action}")
print(tree.text(depth=1))
"""),
    ("md", r"""
## easyAI's style: the object is the position

easyAI's games keep the position in the object itself and change it with `make_move`; `scoring()` scores
it for the player to move. zerosum copies the object for each position. Here is easyAI's Nim (whoever takes
the last piece loses), checked against Bouton's rule for this misère game: the player to move loses exactly
when every pile is at most 1 and an odd number of 1-piles is left, or some pile is larger and the XOR of the
piles is 0.
"""),
    ("code", r"""
import itertools


class Nim:
    def __init__(self, players=None, piles=(5, 5, 5, 5)):
        self.players = players
        self.piles = list(piles)
        self.current_player = 1  # player 1 starts

    def possible_moves(self):
        return ["%d,%d" % (i + 1, j) for i in range(len(self.piles)) for j in range(1, self.piles[i] + 1)]

    def make_move(self, move):
        pile, count = map(int, move.split(","))
        self.piles[pile - 1] -= count

    def show(self):
        print(" ".join(map(str, self.piles)))

    def win(self):
        return max(self.piles) == 0

    def is_over(self):
        return self.win()

    def scoring(self):
        return 100 if self.win() else 0

    def ttentry(self):
        return tuple(self.piles)


def mover_loses(piles):
    x = 0
    for p in piles:
        x ^= p
    return sum(piles) % 2 == 1 if max(piles) <= 1 else x == 0


positions = [p for p in itertools.product(range(4), range(4), range(3)) if sum(p)]
agree = all((make_agent("alphabeta:plain=1").search(Nim(piles=p), Nim(piles=p)).value < 0) == mover_loses(p)
            for p in positions)
print(f"alpha-beta agrees with Bouton's rule on all {len(positions)} positions: {agree}")
print(zerosum.match("alphabeta", "random", game=Nim(piles=(1, 2, 4)), games=10, seed=1, opening_plies=0))
"""),
    ("md", r"""
## What is missing, in one line

A class that lacks a method is refused naming every method to add and what it must return; a method that
fails on the start position is named with its error.
"""),
    ("code", r"""
class Unfinished:
    def __init__(self):
        self.initial = 0

    def actions(self, state):
        return [1, 2]

    def to_move(self, state):
        return "A" if state % 2 == 0 else "B"


try:
    zerosum.get_game(Unfinished())
except zerosum.errors.GameError as exc:
    print(exc)
"""),
    ("md", r"""
## From the command line

Save the class in a file and name it as `path/to/file.py:ClassName`, with constructor arguments as Python
literals if it takes any. The arena's worker processes load the file too.
"""),
    ("code", r"""
import os
import pathlib
import subprocess
import sys
import tempfile

NIM_FILE = '''
class Nim:
    def __init__(self, piles=(5, 5, 5, 5)):
        self.piles, self.current_player = list(piles), 1

    def possible_moves(self):
        return ["%d,%d" % (i + 1, j) for i in range(len(self.piles)) for j in range(1, self.piles[i] + 1)]

    def make_move(self, move):
        pile, count = map(int, move.split(","))
        self.piles[pile - 1] -= count

    def show(self):
        print(" ".join(map(str, self.piles)))

    def is_over(self):
        return max(self.piles) == 0

    def scoring(self):
        return 100 if self.is_over() else 0
'''

plain = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")} | {"TERM": "dumb"}
with tempfile.TemporaryDirectory() as folder:
    path = pathlib.Path(folder) / "nim.py"
    path.write_text(NIM_FILE)
    done = subprocess.run([sys.executable, "-m", "zerosum", "tournament", "alphabeta", "random",
                           "mcts:plain=1,sims=100", "--game", f"{path}:Nim(piles=(1, 2, 3))", "--games", "4", "--out", f"{folder}/t.db"],
                          capture_output=True, text=True, cwd=folder, env=plain)
    print(done.stdout or done.stderr)
"""),
]
