"""Cells of 05_class_contest.ipynb: students' player functions, a round-robin, a table, node limits, and the
8 x 8 homework's contest with its ranking file and grades."""

CELLS = [
    ("md", r"""
# 5. Running a class contest

Each student hands in one file with a player function `play(game, state) -> action` for Connect Four.
The folder `contest/` beside this notebook holds five (and, for the homework's contest at the end, the
instructor's player and two students who wrote theirs the homework's way):

| file | the idea |
| --- | --- |
| `alice.py` | the legal column nearest the centre |
| `bob.py` | win at once if possible, else block a win in one, else a random column |
| `carol.py` | her own depth-3 alpha-beta, with a fractional evaluation |
| `dave.py` | a random column |
| `erin.py` | like Alice, but with an off-by-one bug |

A spec string `"contest/alice.py:play"` names a function in a file, wherever an agent is expected. A
function's random choices come from Python's global generator, which zerosum seeds for every game, so the
whole contest is the same at every run.
"""),
    ("code", r"""
import itertools
from pathlib import Path

import zerosum

students = ["alice", "bob", "carol", "dave", "erin"]
players = {name: f"contest/{name}.py:play" for name in students}
for name, spec in players.items():
    print(f"{name:6} {spec:24} {Path(spec.partition(':')[0]).read_text().splitlines()[0]}")
"""),
    ("md", r"""
## One game first

`zerosum.play_game` plays one game and keeps every move; the record draws the final board.
"""),
    ("code", r"""
record = zerosum.play_game("connect4", players["carol"], players["bob"], seed=1)
print(record)
record
"""),
    ("md", r"""
## The round-robin

Every pair of students plays a match of 4 games with `zerosum.match`: two openings from Connect Four's
shipped balanced set, each played twice with the colours swapped (fair to both sides). A win is a point, a
draw half a point. The matches take 5-10 s; the table prints when the last one ends.
"""),
    ("code", r"""
points = {name: 0.0 for name in students}
cross = {name: {} for name in students}
forfeits = []
for a, b in itertools.combinations(students, 2):
    result = zerosum.match(players[a], players[b], game="connect4", games=4, seed=1)
    mine = result.wins + result.draws / 2
    points[a] += mine
    points[b] += len(result.games) - mine
    cross[a][b], cross[b][a] = mine, len(result.games) - mine
    forfeits += [(game.first, game.second, game.second if game.winner == 1 else game.first, game.reason)
                 for game in result.games if game.forfeit]

standings = sorted(students, key=lambda name: -points[name])
print(f"{'':3} {'student':8}" + "".join(f"{name:>7}" for name in standings) + f"{'points':>8}")
for rank, name in enumerate(standings, 1):
    row = "".join(f"{'':>7}" if other == name else f"{cross[name][other]:>7g}" for other in standings)
    print(f"{rank:>2}. {name:8}{row}{points[name]:>8g}")
"""),
    ("md", r"""
Erin's bug costs her games by **forfeit**: a function that returns an illegal move (or raises) loses the
game with the reason, as in the arena. Nothing crashes.
"""),
    ("code", r"""
for first, second, loser, reason in forfeits:
    print(f"{first} vs {second}: {loser} forfeits: {reason}")
"""),
    ("md", r"""
## Node limits

Contest rules often limit the work per move: *a state expanded is a node*. Under `limits={"nodes": N}`
(on the command line `--nodes N`) each student's function is handed a counting game: every
`game.result(...)` (and `place`, and each action of `states_of`) counts one node, and the call that goes
beyond N loses the game by forfeit, reason "node limit". Catching the exception does not help. The count of
each move is stored as its nodes.

Carol's depth-3 search expands about 300 states a move, Bob at most 14 (7 `result`s and 7 `place`s); the
two games take a few seconds:
"""),
    ("code", r"""
counted = zerosum.match(players["carol"], players["bob"], game="connect4", games=2, seed=1,
                        limits={"nodes": 100_000})
for game in counted.games:
    for seat, name in ((1, game.first), (2, game.second)):
        print(f"{name:>14}: nodes per move {[move.nodes for move in game.moves if move.player == seat][:8]} ...")
"""),
    ("code", r"""
limited = zerosum.match(players["carol"], players["bob"], game="connect4", games=2, seed=1, limits={"nodes": 200})
for game in limited.games:
    print(f"{game.first} vs {game.second}: {game.result} ({game.reason})")
"""),
    ("md", r"""
## The same from the terminal

`zerosum tournament` runs the whole round-robin in worker processes, keeps every game in a results file
(SQLite), and can be resumed:

    zerosum tournament contest/alice.py:play contest/bob.py:play contest/carol.py:play \
        contest/dave.py:play contest/erin.py:play --games 4 --nodes 1000 --out contest.db
"""),
    ("md", r"""
## The homework's contest: 8 x 8, `player(board)`, grades

The 8 x 8 homework asks for a function `player(board)`: a numpy board, the top row first, 0 empty, 1 X,
2 O; the player is O and returns a 0-based column. It counts the calls of its own `minMax` as nodes
(`NODES_COUNTED_BY = "minMax"` in the file tells the arena), stops at 10,000 and plays the best move found
so far. `contest/instructor.py` is the instructor's player, the reference; `contest/frank.py` and
`contest/grace.py` are students who wrote theirs that way. Every game starts from one of
`contest/openings.txt`: positions four plies in whose evaluation (the instructor's) is 0.

The grading rule: 0 points at or below the random player's Elo, 10 at or above the instructor's, ten equal
Elo bands between (`zerosum.arena.grading.grade_points`). With random at -300 and the instructor at +200:
"""),
    ("code", r"""
from zerosum.arena.grading import grade_points

elos = {"random": -300, "instructor": 200, "at -50": -50, "at +10": 10, "at -299": -299, "at +260": 260}
grade_points(elos, "random", "instructor")
"""),
    ("md", r"""
The contest is `zerosum tournament` with `--ranking` and `--grade` (here with six players and two games a
pairing, to be quick; `contest/README.md` has the full command). From Python, the command runs through
`zerosum.cli.main`, and `zerosum.arena.grading.ranking` reads the results file back as rows with grades:
"""),
    ("code", r"""
import tempfile

from zerosum.arena.grading import ranking
from zerosum.cli import main

work = Path(tempfile.mkdtemp())
homework = ["random", "contest/instructor.py:player", "contest/frank.py:player", "contest/grace.py:player",
            "contest/alice.py:play", "contest/bob.py:play"]
main(["tournament", *homework, "--game", "connect4-8x8", "--nodes", "10000", "--openings", "contest/openings.txt",
      "--games", "2", "--jobs", "2", "--quiet", "--out", str(work / "contest.db"),
      "--ranking", str(work / "ranking.csv"), "--grade", "random,instructor"])

for row in ranking(work / "contest.db", grade=("random", "instructor")):
    print(f"rank {row['rank']}  {row['agent']:22} Elo {row['elo']:+5.0f} [{row['elo_low']:+5.0f}, {row['elo_high']:+5.0f}]"
          f"  score {row['score']:6.1%}  forfeits {row['forfeits']}  grade {row['grade']:>2}")
"""),
    ("md", r"""
The ranking file, `ranking.csv` (`ranking.json` gives the same rows as JSON):
"""),
    ("code", r"""
print((work / "ranking.csv").read_text())
"""),
]
