"""examples/contest runs the 8 x 8 homework's contest end to end (#22, item 4): the command of its README,
on fewer agents and games, writes a ranking file whose grades follow the homework's rule, worked by hand
here; its openings all have evaluation 0 by the instructor's evaluation, recomputed here, and come back the
same from the README's seeded command.
"""

from __future__ import annotations

import csv
import json
import shlex
import sqlite3
from pathlib import Path

from zerosum import get_game
from zerosum.cli import main

CONTEST = Path(__file__).resolve().parents[2] / "examples" / "contest"


def _readme_commands() -> list[list[str]]:
    """The shell commands of the README's code blocks, each as its argument list (without ``zerosum``)."""
    text = (CONTEST / "README.md").read_text()
    blocks = text.split("```sh\n")[1:]
    return [shlex.split(block.split("```")[0].replace("\\\n", " "))[1:] for block in blocks]


def _option(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


def _by_hand(elo: float, low: float, high: float) -> int:
    if elo <= low:
        return 0
    if elo >= high:
        return 10
    return next(k for k in range(1, 11) if elo <= low + k * (high - low) / 10 + 1e-9)


def test_readme_command_is_the_homeworks_contest():
    tournament = next(c for c in _readme_commands() if c[0] == "tournament")
    assert _option(tournament, "--game") == "connect4-8x8" and _option(tournament, "--nodes") == "10000"
    assert _option(tournament, "--grade") == "random,instructor" and _option(tournament, "--ranking").endswith(".csv")
    assert _option(tournament, "--openings") == "openings.txt"
    agents = [a for a in tournament[1:tournament.index("--game")]]
    assert "random" in agents and "instructor.py:player" in agents
    for agent in agents:  # every student of the folder takes part
        if agent != "random":
            assert (CONTEST / agent.partition(":")[0]).is_file(), agent
    assert {p.name for p in CONTEST.glob("*.py")} == {a.partition(":")[0] for a in agents if a != "random"}


def test_openings_have_evaluation_zero_and_are_reproducible(tmp_path, monkeypatch):
    game = get_game("connect4-8x8")
    lines = [l.split() for l in (CONTEST / "openings.txt").read_text().splitlines() if not l.startswith("#")]
    assert len(lines) == 20 and len({m for m, _ in lines}) == 20
    for moves, value in lines:
        state = game.from_moves(moves)
        assert len(moves) == 4 and value == "0" and not game.is_terminal(state)
        # the instructor's evaluation recomputed from the grid: lines of four with one side's stones only
        grid = [[".XO".index(ch) for ch in row] for row in game.to_grid(state).split("\n")]
        total = 0
        for r in range(8):
            for c in range(8):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    if 0 <= r + 3 * dr < 8 and 0 <= c + 3 * dc < 8:
                        line = [grid[r + i * dr][c + i * dc] for i in range(4)]
                        o, x = line.count(2), line.count(1)
                        total += 0 if o and x else [0, 1, 10, 100][o] - [0, 1, 10, 100][x]
        assert total == 0, moves
    command = next(c for c in _readme_commands() if c[0] == "openings")
    monkeypatch.chdir(CONTEST)
    out = tmp_path / "again.txt"
    command[command.index("-o") + 1] = str(out)
    assert main(command) == 0
    ours = [l for l in out.read_text().splitlines() if not l.startswith("#")]
    assert ours == [l for l in (CONTEST / "openings.txt").read_text().splitlines() if not l.startswith("#")]


def test_the_contest_runs_and_grades(tmp_path, monkeypatch):
    tournament = next(c for c in _readme_commands() if c[0] == "tournament")
    start = tournament.index("--game")
    # fewer students and games than the README: both contracts, the reference, and a student who forfeits
    agents = ["random", "instructor.py:player", "frank.py:player", "grace.py:player", "alice.py:play", "erin.py:play"]
    argv = ["tournament", *agents, *tournament[start:]]
    argv[argv.index("--games") + 1] = "2"
    db, ranking = tmp_path / "contest.db", tmp_path / "ranking.csv"
    argv[argv.index("--out") + 1] = str(db)
    argv[argv.index("--ranking") + 1] = str(ranking)
    monkeypatch.chdir(CONTEST)
    assert main([*argv, "--quiet", "--jobs", "2"]) == 0
    rows = list(csv.DictReader(ranking.open()))
    assert len(rows) == len(agents) and all(int(r["games"]) == 2 * (len(agents) - 1) for r in rows)
    elo = {r["agent"]: float(r["elo"]) for r in rows}
    low, high = elo["random"], elo["instructor.py:player"]
    assert low < high  # the reference beats random
    for r in rows:
        assert int(r["grade"]) == _by_hand(float(r["elo"]), low, high), r
    assert {r["agent"]: r["grade"] for r in rows}["instructor.py:player"] == "10"
    # the instructor keeps the homework's limit: at most 10,000 minMax calls a move, as counted by the arena
    con = sqlite3.connect(db)
    try:
        who = {i: label for i, label in con.execute("SELECT id, label FROM agents")}
        played = con.execute("SELECT p.first, p.second, p.opening, g.nodes, g.forfeit, g.result FROM games g "
                             "JOIN plan p ON p.idx = g.idx").fetchall()
    finally:
        con.close()
    counted = []
    for first, second, opening, nodes, forfeit, result in played:
        for i, n in enumerate(json.loads(nodes)):
            mover = (first, second)[(i + len(opening)) % 2]
            if who[mover] == "instructor.py:player":
                counted.append(n)
        if forfeit:  # only Erin's bug forfeits
            assert who[second if result == "1-0" else first] == "erin.py:play"
    assert counted and all(n is not None and 0 <= n <= 10_000 for n in counted)  # 0: a win at once
    assert max(counted) > 5_000  # it searches up to its limit
    # report grades the stored run again, as JSON, with the same grades
    again = tmp_path / "ranking.json"
    assert main(["report", str(db), "--no-plots", "--ranking", str(again), "--grade", "random,instructor"]) == 0
    data = json.loads(again.read_text())
    assert [(r["agent"], r["grade"]) for r in data["ranking"]] == [(r["agent"], int(r["grade"])) for r in rows]
    assert data["grade"]["high"] == "instructor.py:player"
