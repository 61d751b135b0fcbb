"""The ranking file and the homework's grading rule (#22, item 4): ``--ranking FILE.csv|.json`` and
``--grade LOW,HIGH`` on tournament, match and report, and ``zerosum.arena.grading`` from Python.

The truth: the rule worked by hand in this file (docs/arena.md's example), and the rows checked against
the games stored in the results file, counted here with sqlite3.
"""

from __future__ import annotations

import csv
import json
import math
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zerosum.arena.grading import grade_points, parse_grade, ranking, resolve_grade, write_ranking
from zerosum.cli import main
from zerosum.errors import UsageError


def _by_hand(elo: float, low: float, high: float) -> int:
    """The rule as docs/arena.md words it: 0 at or below LOW, 10 at or above HIGH, band k of ten gives k."""
    if elo <= low:
        return 0
    if elo >= high:
        return 10
    width = (high - low) / 10
    k = 1
    while elo > low + k * width + 1e-9:
        k += 1
    return k


def test_the_worked_example():
    elos = {"random": -300.0, "instructor": 200.0, "a": -50.0, "b": 10.0, "c": -299.0, "d": -320.0, "e": 260.0,
            "f": -250.0, "g": -249.0}
    points = grade_points(elos, "random", "instructor")
    assert points == {"random": 0, "instructor": 10, "a": 5, "b": 7, "c": 1, "d": 0, "e": 10, "f": 1, "g": 2}
    for label, e in elos.items():
        assert points[label] == _by_hand(e, -300.0, 200.0), label


def test_bands_against_the_hand_rule_everywhere():
    for i in range(-50, 560):
        e = -300 + i * 0.997
        assert grade_points({"lo": -300.0, "hi": 200.0, "x": e}, "lo", "hi")["x"] == _by_hand(e, -300.0, 200.0), e


def test_grade_refusals():
    with pytest.raises(UsageError, match="does not rank below"):
        grade_points({"a": 10.0, "b": 5.0}, "a", "b")
    with pytest.raises(UsageError, match="does not rank below"):
        grade_points({"a": 5.0, "b": 5.0}, "a", "b")
    for bad in ("random", ",x", "x,", " , "):
        with pytest.raises(UsageError):
            parse_grade(bad)
    # a spec's options hold commas: the split is the one that leaves an agent of the run on each side
    labels = ["random", "alphabeta:depth=2,eval=window", "first", "instructor.py:player"]
    specs = [*labels[:3], "/home/t/instructor.py:player"]
    assert resolve_grade("random,alphabeta:depth=2,eval=window", labels, specs) == ("random", labels[1])
    assert resolve_grade("alphabeta:depth=2,eval=window,instructor", labels, specs) == (labels[1], labels[3])
    assert resolve_grade(("first", "instructor.py"), labels, specs) == ("first", labels[3])
    for bad in ("random,random", "random,solver", "alphabeta:depth=2,random", "random,first,instructor"):
        with pytest.raises(UsageError):
            resolve_grade(bad, labels, specs)


@given(st.text(max_size=60))
def test_parse_grade_gives_two_names_or_one_line(text):
    try:
        low, high = parse_grade(text)
    except UsageError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("--grade")
    else:
        assert low and high and low == low.strip() and high == high.strip()
        assert f"{low},{high}" in ",".join(part.strip() for part in text.split(",", 1))


def _stored_counts(db):
    """label -> [games, points, wins, draws, losses, forfeits], counted from the stored games."""
    con = sqlite3.connect(db)
    try:
        agents = [row[0] for row in con.execute("SELECT label FROM agents ORDER BY id")]
        counts = {a: [0, 0.0, 0, 0, 0, 0] for a in agents}
        rows = con.execute("SELECT p.first, p.second, g.result, g.forfeit FROM games g JOIN plan p ON p.idx = g.idx")
        for first, second, result, forfeit in rows:
            s = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            for who, mine in ((first, s), (second, 1 - s)):
                c = counts[agents[who]]
                c[0] += 1
                c[1] += mine
                c[2 + (mine == 0.5) + 2 * (mine == 0.0)] += 1
            if forfeit:
                counts[agents[second if result == "1-0" else first]][5] += 1
    finally:
        con.close()
    return counts


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("grading")
    bad = folder / "bad.py"
    bad.write_text("def play(game, state):\n    return 99\n")  # always illegal: forfeits every game
    db = folder / "t.db"
    assert main(["tournament", "random", "first", "alphabeta:depth=3", f"{bad}:play", "--game", "tictactoe",
                 "--games", "6", "--jobs", "1", "--out", str(db), "--quiet",
                 "--ranking", str(folder / "r.csv"), "--grade", "random,alphabeta:depth=3"]) == 0
    return folder, db


def test_tournament_writes_a_ranking_that_matches_the_games(run):
    folder, db = run
    rows = list(csv.DictReader((folder / "r.csv").open()))
    assert list(rows[0]) == ["rank", "agent", "spec", "points", "games", "score", "wins", "draws", "losses", "elo",
                             "elo_low", "elo_high", "forfeits", "grade"]
    counts = _stored_counts(db)
    assert [r["rank"] for r in rows] == ["1", "2", "3", "4"]
    assert [float(r["elo"]) for r in rows] == sorted((float(r["elo"]) for r in rows), reverse=True)
    for r in rows:
        games, points, wins, draws, losses, forfeits = counts[r["agent"]]
        assert (int(r["games"]), float(r["points"]), int(r["wins"]), int(r["draws"]), int(r["losses"]),
                int(r["forfeits"])) == (games, points, wins, draws, losses, forfeits)
        assert math.isclose(float(r["score"]), points / games, abs_tol=1e-4)
        assert float(r["elo_low"]) <= float(r["elo"]) <= float(r["elo_high"])
    elo = {r["agent"]: float(r["elo"]) for r in rows}
    for r in rows:
        assert int(r["grade"]) == _by_hand(elo[r["agent"]], elo["random"], elo["alphabeta:depth=3"])
    assert {r["agent"]: r["grade"] for r in rows}["bad.py:play"] == "0"  # forfeits everything: below random
    assert counts["bad.py:play"][5] == 18


def test_python_callers_are_told_of_grade_not_of_the_flag(run, capsys, tmp_path):
    # from Python the rule is the argument grade=; the command line's words name --grade
    folder, db = run
    for bad in (("random", "solver"), "random,random", ("alphabeta:depth=3", "random"), "random"):
        for call in (lambda: ranking(db, bad), lambda: write_ranking(tmp_path / "r.csv", db, bad)):
            with pytest.raises(UsageError) as exc:
                call()
            assert str(exc.value).startswith("grade") and "--grade" not in str(exc.value), str(exc.value)
    assert not (tmp_path / "r.csv").exists()
    assert main(["report", str(db), "--no-plots", "--grade", "random,solver"]) == 2
    assert "--grade: 'solver' is not an agent" in capsys.readouterr().err


def test_report_writes_json_and_python_gives_the_same_rows(run, capsys):
    folder, db = run
    out = folder / "r.json"
    # the grade's agents by a file's name: bad is 'bad', 'bad.py' or 'bad.py:play'
    assert main(["report", str(db), "--no-plots", "--ranking", str(out), "--grade", "bad,random"]) == 0
    shown = capsys.readouterr().out
    assert "Grades" in shown and "grade" in shown
    data = json.loads(out.read_text())
    assert data["grade"] == {"low": "bad.py:play", "high": "random", "full": 10, "bands": 10}
    assert data["game"] == "tictactoe" and data["games"] == 36
    assert data["ranking"] == ranking(db, ("bad.py", "random"))
    csv_rows = list(csv.DictReader((folder / "r.csv").open()))
    assert [r["agent"] for r in data["ranking"]] == [r["agent"] for r in csv_rows]
    assert [r["grade"] for r in data["ranking"]][:2] == [10, 10]  # alphabeta and first... at or above random


def test_ranking_and_grade_refusals_change_nothing(run, tmp_path, capsys):
    folder, db = run
    before = (folder / "r.csv").read_bytes()
    fifo = tmp_path / "fifo.csv"
    import os

    os.mkfifo(fifo)
    cases = [
        ["report", str(db), "--no-plots", "--ranking", str(folder / "r.csv")],  # exists, no --overwrite
        ["report", str(db), "--no-plots", "--ranking", str(tmp_path / "r.txt")],  # unknown extension
        ["report", str(db), "--no-plots", "--ranking", str(fifo), "--overwrite"],  # never a special file
        ["report", str(db), "--no-plots", "--grade", "random,solver"],  # not in the tournament
        ["report", str(db), "--no-plots", "--grade", "alphabeta:depth=3,random"],  # LOW ranks above HIGH
        ["report", str(db), "--no-plots", "--grade", "random,random"],
        ["report", str(db), "--export", str(tmp_path / "x.pgn"), "--ranking", str(tmp_path / "y.csv")],
    ]
    for argv in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "error" in err and "Traceback" not in err, (argv, err)
    assert (folder / "r.csv").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.csv"]
    # a tournament refuses before any game: nothing is written
    new = tmp_path / "n.db"
    for extra in (["--grade", "random,solver"], ["--ranking", str(tmp_path / "n.xlsx")]):
        assert main(["tournament", "random", "first", "--game", "tictactoe", "--games", "2", "--out", str(new),
                     "--quiet", *extra]) == 2
        capsys.readouterr()
        assert not new.exists()
    # a match takes --ranking, and has no --grade (two agents are the two references)
    assert main(["match", "random", "first", "--game", "tictactoe", "--games", "2", "--jobs", "1", "--out", str(new),
                 "--quiet", "--ranking", str(tmp_path / "m.json")]) == 0
    assert [r["agent"] for r in json.loads((tmp_path / "m.json").read_text())["ranking"]] in (["random", "first"],
                                                                                            ["first", "random"])
    assert main(["match", "random", "first", "--grade", "random,first"]) == 2
