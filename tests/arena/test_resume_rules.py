"""--resume and the settings of a run, option by option (real runs of fast agents, in worker processes).

Every option of match and tournament is one of three kinds: a setting of the run (kept with it; given again on
--resume it must be the run's, else one line and nothing changes), refused with --resume (the run's engines are
its own), or a choice of this invocation (workers, outputs, words), which the resumed run uses.  --move-cpu is
a setting: kept with the run whenever decided (its default too), a different one on --resume refused, and a run
an older zerosum began (no rule kept) says in one line what its remaining games get.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from zerosum.cli import main
from zerosum.commands.arena import _add_match, _add_tournament

from process_helpers import rows  # tests/process_helpers.py

ROOT = Path(__file__).resolve().parents[2]

#: the run's own settings: given again on --resume, each must be the run's
SETTINGS = {"agents", "--game", "--games", "--seed", "--openings", "--order", "--opening-plies", "--time", "--nodes",
            "--depth", "--deadline", "--grace", "--tc", "--adjudicate", "--move-cpu", "--sprt", "--gauntlet"}
#: refused with --resume: the engines stored with the run start again
REFUSED = {"--engine", "--engine-dir", "--engine-option"}
#: this invocation's: the resumed run uses them (outputs, workers, words)
INVOCATION = {"--help", "--jobs", "--backend", "--ray-address", "--output", "--pgnout", "--resume", "--overwrite",
              "--quiet", "--ranking", "--grade"}

BASE = ["random", "first", "--game", "tictactoe", "--games", "2", "--seed", "1", "--order", "sequential",
        "--opening-plies", "1", "--nodes", "100", "--time", "5", "--depth", "3", "--deadline", "10", "--grace", "1",
        "--tc", "60+1", "--adjudicate", "draw=20", "--move-cpu", "5", "--sprt", "0,50"]


def options(add) -> set[str]:  # type: ignore[no-untyped-def]
    parser = argparse.ArgumentParser()
    add(parser)
    named = set()
    for action in parser._actions:
        longs = [o for o in action.option_strings if o.startswith("--")]
        named.add(longs[0] if longs else action.dest)
    return named


@pytest.mark.parametrize("add, own", [(_add_match, {"--sprt"}), (_add_tournament, {"--gauntlet", "--grade"})])
def test_every_option_of_match_and_tournament_has_a_resume_rule(add, own):
    """A new option must be put in one of the three kinds (and tested below) before this passes."""
    assert options(add) == (SETTINGS | REFUSED | INVOCATION) - ({"--sprt", "--gauntlet", "--grade"} - own)


def run(*argv: str) -> int:
    return main(["match" if "--gauntlet" not in argv and "tournament" not in argv else "tournament",
                 *[a for a in argv if a != "tournament"], "--jobs", "1", "--quiet"])


@pytest.fixture(scope="module")
def runs(tmp_path_factory):  # type: ignore[no-untyped-def]
    """Finished runs: a match with every setting, one from an openings file, a round-robin tournament."""
    folder = tmp_path_factory.mktemp("runs")
    (folder / "open.txt").write_text("5\n1\n")
    (folder / "other.txt").write_text("9\n")
    made = {"match": (BASE, folder / "m.db"),
            "openings": (["random", "first", "--game", "tictactoe", "--games", "2", "--openings",
                          str(folder / "open.txt")], folder / "o.db"),
            "tournament": (["tournament", "random", "first", "random:seed=3", "--game", "tictactoe", "--games", "2"],
                           folder / "t.db")}
    for argv, db in made.values():
        assert run(*argv, "--out", str(db)) == 0
    return folder, made


def copy(runs, name, tmp_path):  # type: ignore[no-untyped-def]
    folder, made = runs
    argv, db = made[name]
    shutil.copy(db, tmp_path / "r.db")
    return argv, tmp_path / "r.db"


@pytest.mark.parametrize("name", ["match", "openings", "tournament"])
def test_the_command_that_began_a_run_with_resume_added_carries_it_on(runs, name, tmp_path, capsys):
    argv, db = copy(runs, name, tmp_path)
    capsys.readouterr()
    assert run(*argv, "--out", str(db), "--resume") == 0, capsys.readouterr().err
    assert capsys.readouterr().err == ""


CONFLICTS = [("match", "--game", "connect4"), ("match", "--games", "4"), ("match", "--seed", "2"),
             ("match", "--order", "random"), ("match", "--opening-plies", "2"), ("match", "--time", "4"),
             ("match", "--nodes", "99"), ("match", "--depth", "2"), ("match", "--deadline", "9"),
             ("match", "--grace", "2"), ("match", "--tc", "60+2"), ("match", "--adjudicate", "draw=30"),
             ("match", "--move-cpu", "6"), ("match", "--sprt", "0,40"), ("openings", "--openings", "OTHER"),
             ("openings", "--move-cpu", "5"), ("tournament", "--gauntlet", None)]


@pytest.mark.parametrize("name, flag, value", CONFLICTS, ids=[f"{n}{f}" for n, f, _ in CONFLICTS])
def test_a_setting_given_on_resume_with_another_value_is_one_line_and_nothing_changes(runs, name, flag, value,
                                                                                     tmp_path, capsys):
    argv, db = copy(runs, name, tmp_path)
    value = str(runs[0] / "other.txt") if value == "OTHER" else value
    before = db.read_bytes()
    capsys.readouterr()
    given = [flag] if value is None else [flag, value]
    assert run(*(["tournament"] if name == "tournament" else []), *given, "--out", str(db), "--resume") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"not with {flag}" in err and "(the run: " in err, err
    assert "[" not in err.partition("(the run: ")[2], err  # the run's setting as the option takes it, not a list
    if flag == "--sprt":
        assert "(the run: 0,50,0.05,0.05)" in err, err
    assert db.read_bytes() == before


def test_every_setting_is_tried_with_another_value():
    assert {s for s in SETTINGS if s.startswith("--")} == {f for _, f, _ in CONFLICTS}


def test_other_agents_on_resume_are_one_line(runs, tmp_path, capsys):
    _, db = copy(runs, "match", tmp_path)
    capsys.readouterr()
    assert run("random", "random", "--out", str(db), "--resume") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not of these agents" in err, err


@pytest.mark.parametrize("flag", sorted(REFUSED))
def test_engine_flags_on_resume_are_one_line(runs, flag, tmp_path, capsys):
    _, db = copy(runs, "match", tmp_path)
    capsys.readouterr()
    value = {"--engine": "e=./e", "--engine-dir": "e=.", "--engine-option": "e.x=1"}[flag]
    assert run(flag, value, "--out", str(db), "--resume") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "leave out --engine" in err, err


def test_the_invocations_own_options_act_on_a_resumed_run(runs, tmp_path, capsys):
    _, db = copy(runs, "tournament", tmp_path)
    ranking, records = tmp_path / "rank.csv", tmp_path / "games.pgn"
    capsys.readouterr()
    assert main(["tournament", "--out", str(db), "--resume", "--jobs", "2", "--backend", "local", "--quiet",
                 "--ranking", str(ranking), "--grade", "first,random", "--pgnout", str(records)]) == 0
    assert ranking.read_text().startswith("rank,") and records.read_text().count("[Result ") == 6
    assert "6 games in" in capsys.readouterr().out  # --quiet: the one line
    assert main(["tournament", "--out", str(db), "--resume", "--ranking", str(ranking), "--overwrite"]) == 0
    assert "Ranking" in capsys.readouterr().out  # not quiet: the tables; the ranking file replaced


def test_ray_address_without_the_ray_backend_is_one_line(tmp_path, capsys):
    """Once silently unused: a run on local workers that was meant for a cluster."""
    assert main(["match", "random", "first", "--game", "tictactoe", "--games", "2", "--ray-address", "h:1",
                 "--out", str(tmp_path / "r.db")]) == 2
    assert capsys.readouterr().err.strip() == "zerosum match: error: --ray-address needs --backend ray"
    assert list(tmp_path.iterdir()) == []


# ---- --move-cpu: the audit's run (a player function under --nodes whose nodes cannot be counted) --------------

SPIN = """import time
def agent(game, state):
    start = time.process_time()
    while time.process_time() - start < SECONDS:
        pass
    return game.actions(state)[0]
"""


def spinner(tmp_path: Path, seconds: float) -> str:
    path = tmp_path / "burner.py"
    path.write_text(SPIN.replace("SECONDS", repr(seconds)))
    return f"{path}:agent"


def meta(db: Path, key: str):  # type: ignore[no-untyped-def]
    found = rows(db, f"SELECT value FROM meta WHERE key = '{key}'")
    return json.loads(found[0][0]) if found else None


def reasons(db: Path) -> list[str]:
    return [r for (r,) in rows(db, "SELECT reason FROM games ORDER BY idx")]


def older(db: Path, keep: int, drop: str = "move_cpu") -> None:
    """The file as an older zerosum left it, killed after ``keep`` games: no ``drop`` kept."""
    con = sqlite3.connect(db)
    with con:
        con.execute("DELETE FROM games WHERE idx >= ?", (keep,))
        con.execute("DELETE FROM meta WHERE key = ?", (drop,))
    con.close()


def test_the_default_cpu_rule_is_kept_with_the_run_and_another_on_resume_is_refused(tmp_path, capsys):
    """The audit: --resume --move-cpu 100 on a run of the default (1 s) played on under 1 s, exit 0."""
    agent, db = spinner(tmp_path, 0.0), tmp_path / "v.db"
    assert run(agent, "random", "--game", "tictactoe", "--games", "2", "--nodes", "100", "--out", str(db)) == 0
    assert meta(db, "move_cpu") == 1.0  # the default of --nodes 100, kept with the run
    capsys.readouterr()
    before = db.read_bytes()
    assert run(agent, "random", "--game", "tictactoe", "--nodes", "100", "--move-cpu", "100", "--out", str(db),
               "--resume") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not with --move-cpu 100 (the run: 1)" in err, err
    assert db.read_bytes() == before
    assert run("--move-cpu", "1", "--out", str(db), "--resume") == 0  # the run's own rule, given again


def test_a_run_without_nodes_keeps_no_cpu_rule(tmp_path, capsys):
    db = tmp_path / "n.db"
    assert run("random", "first", "--game", "tictactoe", "--games", "2", "--out", str(db)) == 0
    assert meta(db, "move_cpu") is None


def test_an_older_run_given_move_cpu_on_resume_plays_its_remaining_games_under_it(tmp_path, capsys):
    """A run an older zerosum began kept no CPU rule: --move-cpu on resume is its rule from then on (said in
    one line), the remaining games held to it, and a later resume keeps it."""
    agent, db = spinner(tmp_path, 0.4), tmp_path / "old.db"
    assert run(agent, "random", "--game", "tictactoe", "--games", "4", "--nodes", "100", "--move-cpu", "0.1",
               "--out", str(db)) == 0
    older(db, keep=2)
    capsys.readouterr()
    assert run("--move-cpu", "0.2", "--out", str(db), "--resume") == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "an older zerosum began this run and kept no CPU rule" in err, err
    assert "burner.py:agent" in err and "held to 0.2 s of CPU (--move-cpu), kept with the run" in err, err
    assert meta(db, "move_cpu") == 0.2
    assert reasons(db)[2:] == 2 * ["cpu time limit: more than 0.2 s of CPU time in one move (its nodes are not counted)"]
    assert run("--move-cpu", "5", "--out", str(db), "--resume") == 2  # kept: another is refused now
    assert "not with --move-cpu 5 (the run: 0.2)" in capsys.readouterr().err


def test_an_older_run_resumed_without_move_cpu_says_the_rule_its_remaining_games_get(tmp_path, capsys):
    agent, db = spinner(tmp_path, 0.0), tmp_path / "old.db"
    assert run(agent, "random", "--game", "tictactoe", "--games", "4", "--nodes", "2000", "--out", str(db)) == 0
    older(db, keep=2)
    capsys.readouterr()
    assert run("--out", str(db), "--resume") == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "held to 2 s of CPU, the default of --nodes 2000" in err and "--move-cpu SECONDS with --resume" in err, err
    assert meta(db, "move_cpu") is None  # not chosen: a later resume may still choose


def test_an_older_run_of_agents_no_cpu_rule_binds_says_nothing(tmp_path, capsys):
    db = tmp_path / "old.db"
    assert run("random", "first", "--game", "tictactoe", "--games", "4", "--nodes", "100", "--out", str(db)) == 0
    older(db, keep=2)
    capsys.readouterr()
    assert run("--out", str(db), "--resume") == 0
    assert capsys.readouterr().err == ""


# ---- an older run's engine: no digests kept, so nothing to check: said -----------------------------------------


def test_an_older_run_with_no_engine_digests_says_a_changed_engine_cannot_be_detected(tmp_path, capsys):
    example = ROOT / "examples" / "engines" / "random_engine.py"
    if not example.is_file():
        pytest.skip("examples/engines/random_engine.py is not in this checkout")
    engine = tmp_path / "reng.py"
    shutil.copy(example, engine)
    db = tmp_path / "e.db"
    assert run("eng", "random", "--engine", f"eng={sys.executable} {engine}", "--games", "4", "--out", str(db)) == 0
    older(db, keep=2)
    con = sqlite3.connect(db)
    config = json.loads(con.execute("SELECT value FROM meta WHERE key = 'config'").fetchone()[0])
    assert str(engine) in config["digests"]
    del config["digests"][str(engine)]  # as a run an older zerosum began: no engine digests
    with con:
        con.execute("UPDATE meta SET value = ? WHERE key = 'config'", (json.dumps(config),))
    con.close()
    engine.write_text(engine.read_text() + "\n# rebuilt\n")  # nothing to compare it with
    capsys.readouterr()
    assert run("--out", str(db), "--resume") == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"--resume: engine eng: this run recorded no engine digests ('{engine}'" in err, err
    assert "so changes to the engine since the run began cannot be detected" in err, err
