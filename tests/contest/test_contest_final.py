"""The final (zerosum.contest.final): frozen entries, a round robin reproducible from its seed, grades by bands
or a custom table, DIR/results.csv and DIR/results.json; a final cut short goes on where it stopped."""

from __future__ import annotations

import csv
import json
import math
import shutil
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contest_players import make_contest, source, submit
from zerosum.contest import ladder
from zerosum.contest.final import plan_final, run_final
from zerosum.contest.sandbox import sandbox_problem
from zerosum.errors import InvalidFileError, UsageError

RUN = {"jobs": 2, "unconfined": sandbox_problem() is not None}
REFS = [{"name": "random", "spec": "random"}, {"name": "instructor", "spec": "alphabeta:depth=2"}]
PLAYERS = {"ann": source("greedy"), "bob": source("first")}
KEEP = ("pairing", "first", "second", "opening", "seed", "result", "reason", "moves")


def test_the_plan_meets_every_pair_in_colour_swapped_pairs_and_follows_the_seed():
    entries = ["ref:a", "ref:b", "sub:1", "sub:2", "sub:3"]
    plan = plan_final(entries, ["-", "45", "36", "27"], seed=11, rounds=3)
    assert len(plan) == 10 * 3 * 2
    met = Counter(frozenset((a, b)) for _, a, b, _, _ in plan)
    assert set(met.values()) == {6} and len(met) == 10
    for one, two in zip(plan[::2], plan[1::2]):
        assert (one[1], one[2]) == (two[2], two[1]) and one[3] == two[3] and one[0] == two[0]
    per_round = [{g[3] for g in plan[r * 20:(r + 1) * 20]} for r in range(3)]
    assert all(len(s) == 1 for s in per_round) and len(set.union(*per_round)) == 3  # three openings, one a round
    assert plan_final(entries, ["-", "45", "36", "27"], seed=11, rounds=3) == plan
    assert plan_final(entries, ["-", "45", "36", "27"], seed=12, rounds=3) != plan


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A contest whose final was played: its folder and what run_final answered."""
    folder = tmp_path_factory.mktemp("final") / "c"
    make_contest(folder, PLAYERS, references=REFS, seed=5, absent=("dee",))
    return folder, run_final(folder, **RUN)


def test_the_final_is_frozen_reproducible_from_its_seed_and_graded_in_bands(finished, tmp_path):
    from zerosum.contest.final import _freeze
    from zerosum.contest.standings import connect
    from zerosum.contest.store import Store

    a, ra = finished
    games_a = [[g[k] for k in KEEP] for g in Store(a).games(stage="final")]
    assert len(games_a) == 6 * 2 and ra["unplayed"] == []
    # a new contest from the same seed, frozen, plans the same games: pairings, openings, colours, seeds (their
    # results from their seeds: test_a_final_cut_short_goes_on_with_the_games_left; that whole final played
    # again, the same: test_a_second_final_from_the_same_seed_plays_the_same_games, slow)
    b = tmp_path / "again"
    make_contest(b, PLAYERS, references=REFS, seed=5, absent=("dee",)).close()
    conn = connect(b)
    try:
        _freeze(conn, None, None)
    finally:
        conn.close()
    assert [[g[k] for k in KEEP[:5]] for g in Store(b).games(stage="final")] == [g[:5] for g in games_a]
    rows = list(ra["results"])
    assert json.loads((a / "results.json").read_text())["results"] == rows
    with open(a / "results.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert [r["name"] for r in table] == [r["name"] for r in rows]
    ranks = [r["rank"] for r in rows[:-1]]  # standard competition ranking: tied entries share a rank
    assert [r["rank"] for r in table] == [str(k) for k in ranks] + [""] and ranks[0] == 1
    assert all(k == place or (k == ranks[place - 2] and k < place) for place, k in enumerate(ranks, 1))
    absent = rows.pop()  # dee is on the roster and submitted nothing: no rank, no games, 0 points
    assert (absent["name"], absent["rank"], absent["games"], absent["points"], absent["entry"]) == ("dee", None, 0, 0, None)
    # the bands worked by hand: 0 at or below random's rating, 10 at or above the instructor's, ten bands between
    by = {r["name"]: r for r in rows}
    lo, hi = by["random"]["rating"], by["instructor"]["rating"]
    grade = dict(ra["grade"])
    overlap = by["random"]["rating_high"] >= by["instructor"]["rating_low"]  # not told apart by 12 games: said so
    assert ("warning" in grade) == overlap and grade.pop("warning", "").startswith("" if not overlap else
                                                                               "the games did not tell")
    assert grade == {"rule": "bands", "low": "random", "high": "instructor", "full": 10, "bands": 10}
    for r in rows:
        if r["kind"] == "reference":
            assert r["points"] is None and next(t for t in table if t["name"] == r["name"])["points"] == ""
        else:
            f = (r["rating"] - lo) / (hi - lo)
            assert r["points"] == min(10, max(0, math.ceil(round(10 * f, 9))))
            assert float(next(t for t in table if t["name"] == r["name"])["points"]) == r["points"]
        assert r["games"] == 6 and r["wins"] + r["draws"] + r["losses"] == 6
    # frozen: a later submission takes no part, the ladder schedules nothing, a second run replays nothing
    c = tmp_path / "c"
    shutil.copytree(a, c)
    store = Store(c)
    assert store.get("frozen") is True
    submit(store, c, "bob", source("greedy"))
    assert ladder.schedule(store) == 0
    again = run_final(c, **RUN)
    assert again["results"] == rows + [absent] and len(store.games(stage="final")) == 12


# a second final, 12 games (10 s): CI keeps its plan, the same (the test above), and games played again, the same
# (test_a_final_cut_short_goes_on_with_the_games_left)
@pytest.mark.slow
def test_a_second_final_from_the_same_seed_plays_the_same_games(finished, tmp_path):
    from zerosum.contest.store import Store

    a, ra = finished
    b = tmp_path / "again"
    make_contest(b, PLAYERS, references=REFS, seed=5, absent=("dee",))
    rb = run_final(b, **RUN)
    games_a = [[g[k] for k in KEEP] for g in Store(a).games(stage="final")]
    games_b = [[g[k] for k in KEEP] for g in Store(b).games(stage="final")]
    assert len(games_a) == 6 * 2 and games_a == games_b  # same pairings, openings, colours, seeds, results
    assert ra["results"] == rb["results"] and ra["unplayed"] == []
    assert rb["results"] == list(ra["results"])


def test_a_custom_table_grades_by_rank_or_by_elo_above_the_first_reference(finished, tmp_path):
    folder = tmp_path / "c"
    shutil.copytree(finished[0], folder)
    (tmp_path / "rank.csv").write_text("rank,points\n1,10\n")
    res = run_final(folder, table=tmp_path / "rank.csv", **RUN)
    students = [r for r in res["results"] if r["kind"] == "student"]
    assert [r["points"] for r in students] == [10, 0, 0]  # the second, and dee who submitted nothing
    with open(folder / "results.csv", newline="") as f:  # a table's points as the bands' are written: 10, not 10.0
        assert [r["points"] for r in csv.DictReader(f) if r["name"] in {s["name"] for s in students}] == ["10", "0", "0"]
    (tmp_path / "elo.csv").write_text("elo,points\n0,1\n100,5\n100000,10\n")
    res = run_final(folder, table=tmp_path / "elo.csv", **RUN)  # grading again plays nothing again
    random_elo = next(r["rating"] for r in res["results"] if r["name"] == "random")
    for r in (r for r in res["results"] if r["kind"] == "student" and r["rank"]):
        above = r["rating"] - random_elo
        assert r["points"] == (5 if above >= 100 else 1 if above >= 0 else 0)
    assert res["grade"]["anchor"] == "random"
    before = (folder / "results.csv").read_text()
    for text, message in (("points,rank\n1,2\n", "header"), ("rank,points\n0,5\n", "line 2"),
                          ("elo,points\nx,5\n", "line 2"), ("rank,points\n", "no rows")):
        (tmp_path / "bad.csv").write_text(text)
        with pytest.raises(UsageError, match=message):
            run_final(folder, table=tmp_path / "bad.csv", **RUN)
    with pytest.raises(UsageError, match="two references"):
        run_final(folder, grade="random,nobody", **RUN)
    with pytest.raises(UsageError, match="began with seed 5"):
        run_final(folder, seed=6, **RUN)
    assert (folder / "results.csv").read_text() == before  # nothing changed


def test_a_final_cut_short_goes_on_with_the_games_left(finished, tmp_path):
    from zerosum.contest.store import Store

    folder = tmp_path / "c"
    shutil.copytree(finished[0], folder)
    store = Store(folder)
    done = {g["id"]: g for g in store.games(stage="final")}
    with store.transaction() as db:  # as a kill -9 leaves them: one game running, one not started
        db.execute("UPDATE games SET status = 'running', result = NULL, moves = NULL WHERE id = ?", (min(done),))
        db.execute("UPDATE games SET status = 'pending', result = NULL, moves = NULL WHERE id = ?", (max(done),))
    again = run_final(folder, **RUN)
    after = {g["id"]: g for g in Store(folder).games(stage="final")}
    assert set(after) == set(done) and all(g["status"] == "done" for g in after.values())
    assert [[after[i][k] for k in KEEP] for i in sorted(done)] == [[done[i][k] for k in KEEP] for i in sorted(done)]
    assert again["results"] == finished[1]["results"]


def test_the_command_grades_again_and_refuses_bad_input_in_one_line(finished, tmp_path, capsys):
    from zerosum.cli import main

    folder = tmp_path / "c"
    shutil.copytree(finished[0], folder)
    extra = ["--unconfined"] if RUN["unconfined"] else []
    assert main(["contest", "final", str(folder), "--grade", "random,instructor", *extra]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 5 and out[0].split()[:2] == ["1", finished[1]["results"][0]["name"]]
    before = (folder / "results.csv").read_text()
    (tmp_path / "bad.csv").write_text("rank,points\n1,ten\n")
    for args in (["--grade-table", str(tmp_path / "bad.csv")], ["--grade", "random"], ["--rounds", "0"],
                 ["--rounds", "3"]):
        assert main(["contest", "final", str(folder), *args, *extra]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "Traceback" not in err[0], err
    assert main(["contest", "final", str(folder), "--grade", "random,random", *extra]) == 2
    assert "LOW and HIGH are the same reference, random" in capsys.readouterr().err  # not "does not rank below"
    assert main(["contest", "final", str(tmp_path / "nothing")]) == 2
    assert "not a contest folder" in capsys.readouterr().err
    assert (folder / "results.csv").read_text() == before


def test_backend_ray_without_ray_is_one_line_before_anything_is_frozen(tmp_path, capsys):
    import importlib.util

    from zerosum.cli import main
    from zerosum.contest.store import Store

    if importlib.util.find_spec("ray") is not None:
        pytest.skip("Ray is installed here: the refusal cannot be seen")
    folder = tmp_path / "c"
    make_contest(folder, PLAYERS, references=REFS)
    assert main(["contest", "final", str(folder), "--backend", "ray", "--unconfined"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Ray" in err[0]
    store = Store(folder)
    assert not store.get("frozen") and store.get("final") is None and not store.games()
    with pytest.raises(Exception, match="Ray"):
        ladder.run_pending(store, 1, backend="ray")


TOKENS = st.sampled_from(["1", "2", "3", "0", "-5", "1.5", "x", "", "nan", "inf", "1e3", "1001", "10", " 7 "])
LINES = st.lists(TOKENS, min_size=0, max_size=3).map(",".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(head=st.sampled_from(["rank,points", "elo,points", "Elo, Points", "points,rank", "rank", ""]),
       lines=st.lists(LINES, max_size=5), noise=st.text(max_size=8))
def test_a_grading_table_is_read_or_refused_in_one_line(tmp_path, head, lines, noise):
    text = "\n".join([head, *lines]) + ("\n" + noise if noise.strip() else "")
    from zerosum.contest.final import read_table

    path = tmp_path / "table.csv"
    path.write_text(text)
    try:
        kind, steps = read_table(path)
    except (UsageError, InvalidFileError) as exc:  # a bad table, or a file that is not text
        assert "\n" not in str(exc) and str(exc).startswith("grading table")
        return
    assert kind in ("rank", "elo") and steps == sorted(steps) and steps
    for key, points in steps:
        assert math.isfinite(key) and 0 <= points <= 1000 and (kind == "elo" or (key >= 1 and key == int(key)))


def test_an_external_engine_is_a_reference_through_contest_new_engine(tmp_path, capsys):
    # DESIGN: --engine NAME=COMMAND on contest too; the definition is kept with the contest, so the final (a
    # new process) starts the program again in the pool's workers
    import sys
    from pathlib import Path

    from zerosum.cli import main
    from zerosum.contest.store import Store

    engine = Path(__file__).resolve().parents[2] / "examples" / "engines" / "random_engine.py"
    (tmp_path / "roster.csv").write_text("name\nann\n")
    (tmp_path / "openings.txt").write_text("-\n45\n")  # given: no opening judged (1.5 s)
    folder = tmp_path / "c"
    assert main(["contest", "new", str(folder), "--game", "connect4-8x8", "--roster", str(tmp_path / "roster.csv"),
                 "--engine", f"rnd={sys.executable} {engine}", "--reference", "rnd", "--reference", "random",
                 "--openings", str(tmp_path / "openings.txt"), "--seed", "3"]) == 0
    store = Store(folder)
    assert [r["spec"] for r in store.config()["references"]] == ["rnd", "random"]
    submit(store, folder, "ann", PLAYERS["ann"])
    extra = ["--unconfined"] if RUN["unconfined"] else []
    import subprocess

    (tmp_path / "table.csv").write_text("rank,points\n1,10\n2,5\n3,0\n")  # two random players may tie: no bands
    done = subprocess.run([sys.executable, "-m", "zerosum", "contest", "final", str(folder), "--grade-table",
                           str(tmp_path / "table.csv"), *extra],
                          capture_output=True, text=True, timeout=300)  # a new process: nothing registered there
    assert done.returncode == 0, done.stderr
    results = json.loads((folder / "results.json").read_text())
    rows = {r["name"]: r for r in results["results"]}
    assert rows["rnd"]["games"] > 0 and rows["ann"]["games"] == rows["rnd"]["games"]
    assert rows["rnd"]["forfeits"] == 0  # the program played every game (unregistered, it forfeited each one)
    # a malformed --engine is one line, and nothing is made
    assert main(["contest", "new", str(tmp_path / "d"), "--game", "connect4", "--roster", str(tmp_path / "roster.csv"),
                 "--engine", "rnd"]) == 2
    assert not (tmp_path / "d").exists()


def test_ctrl_c_in_the_final_says_what_is_stored_and_how_to_carry_on(tmp_path, capsys, monkeypatch):
    """Ctrl-C during ``zerosum contest final``: one line saying how many games are stored and that the same
    command goes on from them (a final run again plays only the games left: the test above)."""
    from zerosum.cli import main
    from zerosum.contest import final

    folder = tmp_path / "c"
    make_contest(folder, {}, references=REFS, seed=5)

    def interrupted(*args, progress, **kw):
        progress(3, 12)
        raise KeyboardInterrupt

    monkeypatch.setattr(final, "run_final", interrupted)
    assert main(["contest", "final", str(folder), "--unconfined"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (f"interrupted: 3 of 12 games of the final stored in {folder}; to carry "
                       f"on: the same command again (zerosum contest final {folder} ...)"), err
