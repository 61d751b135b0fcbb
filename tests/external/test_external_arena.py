"""External engines in the arena (match, tournament): --engine NAME=COMMAND with real programs, bad engines
forfeiting with their reasons under a clock with records written, kill -9 of the arena then --resume, bad
flags, and a cross-language match with the example C engine."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zerosum.cli import main
from zerosum.records import read as read_records

from process_helpers import rows, wait_gone, zerosum_run  # noqa: E402
from test_external_agent import ENGINE, middle_first  # noqa: E402

linux = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc (Linux)")
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def engine(tmp_path: Path) -> Path:
    path = tmp_path / "middle.py"
    path.write_text(ENGINE)
    return path


def flag(name: str, path: Path, mode: str = "good") -> list[str]:
    return ["--engine", f"{name}={sys.executable} {path} {mode}"]


def played(records: list) -> list[tuple]:
    """(opening, moves, result) of every record, sorted: the games a record file holds, to compare."""
    return sorted((r.tags["Opening"], tuple(r.moves), r.result) for r in records)


def processes_running(path: Path) -> list[int]:
    """The processes whose command line names ``path`` (the engines of a test, and their reapers)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    if str(path).encode() in f.read():
                        found.append(int(name))
            except OSError:
                pass
    return found


@linux
def test_a_tournament_of_agents_and_engines_under_a_clock_survives_bad_engines(engine, tmp_path, monkeypatch):
    db, pgn, children = tmp_path / "t.db", tmp_path / "t.pgn", tmp_path / "children.txt"
    monkeypatch.setenv("CHILD_PID", str(children))
    # fork hangs after starting a child: it is also the engine that hangs (its two games wait for the 2 s clock),
    # as hang alone is in test_a_move_out_of_time_states_the_limit_the_header_states
    bad = {"crash": "crash: the engine exited (exit code 3): Traceback: ZeroDivisionError",
           "garbage": "garbage output: a line that is not UTF-8 text",
           "illegal": "illegal move: bestmove '9': column 9 is outside 1..7", "fork": "time forfeit: no bestmove within"}
    flags = flag("mid", engine) + [f for mode in bad for f in flag(mode, engine, mode)]
    # in a process of its own: in three full runs in a row, the in-process tests of this module after this one
    # lost their output to pytest's own capture (see process_helpers.zerosum_run; the cause is not known)
    done = zerosum_run(["tournament", "mid", *bad, "first", "alphabeta:depth=2", "--gauntlet", "--games", "2",
                        "--tc", "2+0.1", "--jobs", "2", "--seed", "4", *flags, "--out", str(db), "--pgnout", str(pgn)])
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "engine mid = " in out and "(middle good by the tests): latency" in out
    games = rows(db, "SELECT g.idx, p.first, p.second, p.opening, g.moves, g.result, g.reason, g.forfeit "
                     "FROM games g JOIN plan p USING (idx) ORDER BY g.idx")
    labels = [label for (label,) in rows(db, "SELECT label FROM agents ORDER BY id")]
    assert len(games) == 12 and labels[0] == "mid"
    for idx, first, second, opening, moves, result, reason, forfeit in games:
        other = labels[second if first == 0 else first]
        if other in bad:  # the bad engine forfeits, with its reason, and mid wins
            assert forfeit == 1 and reason.startswith(bad[other]), (other, reason)
            assert result == ("1-0" if first == 0 else "0-1")
            continue
        assert forfeit == 0, reason
        history = "" if opening == "-" else opening  # connect4 openings are move strings of one-digit columns
        for i, move in enumerate(json.loads(moves)):  # every move of mid follows its rule
            mover = first if (len(history)) % 2 == 0 else second
            if labels[mover] == "mid":
                assert int(move) - 1 == middle_first(history), (idx, history, move)
            history += move
    assert played(read_records(pgn)) == sorted((g[3], tuple(json.loads(g[4])), g[5]) for g in games)
    pids = [int(p) for p in children.read_text().split()]
    assert len(pids) == 2 and wait_gone(pids, 10) == []  # what the forking engine started died with it
    assert wait_gone(processes_running(engine), 10) == []  # every engine ended with the run


@linux
def test_kill_9_of_the_arena_then_resume_plays_every_game_once(engine, tmp_path):
    db, pgn, games = tmp_path / "k.db", tmp_path / "k.pgn", 8  # killed once 3 are stored: the rest to --resume
    cmd = [sys.executable, "-m", "zerosum", "match", "mid", "alphabeta:depth=1", *flag("mid", engine, "slow"),
           "--games", str(games), "--jobs", "2", "--seed", "5", "--out", str(db), "--pgnout", str(pgn), "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline, done = time.time() + 120, 0
    while time.time() < deadline and done < 3:
        time.sleep(0.05)
        try:
            done = rows(db, "SELECT COUNT(*) FROM games")[0][0] if db.exists() else 0
        except sqlite3.OperationalError:
            continue
    running = processes_running(engine)
    assert running, "the engines run during the match"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    assert wait_gone(running, 15) == []  # the engines (and their reapers) died with the arena
    before = rows(db, "SELECT * FROM games ORDER BY idx")
    assert 3 <= len(before) < games, "the run must be killed in the middle"
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 0  # the engine is stored with the run
    after = rows(db, "SELECT * FROM games ORDER BY idx")
    assert [r[0] for r in after] == list(range(games))  # every planned game once
    kept = {r[0]: r for r in after}
    assert all(kept[r[0]] == r for r in before)  # games finished before the kill are untouched
    assert all(r[4] == 0 for r in after)  # no forfeits: the resumed run played properly
    # the record file named at the start holds every game once
    assert played(read_records(pgn)) == sorted((r[0], tuple(json.loads(r[1])), r[2]) for r in rows(
        db, "SELECT p.opening, g.moves, g.result FROM games g JOIN plan p USING (idx)"))


@pytest.mark.parametrize("args, message", [
    (["--engine", "mid"], "--engine 'mid': expected NAME=COMMAND"),
    (["--engine", "mid=a", "--engine", "MID=b"], "--engine MID is given twice"),
    (["--engine", "random=./x"], "--engine random: 'random' is a zerosum agent already"),
    (["--engine", "mid=./no-such-engine"], "engine mid: the command './no-such-engine' cannot start"),
    (["--engine", f"mid={sys.executable} -c pass"], "engine mid failed its handshake: crash: the engine exited (exit code 0)"),
    (["--engine-dir", "mid=/nowhere"], "--engine-dir mid: no --engine mid=COMMAND names that engine"),
])
def test_a_bad_engine_flag_is_one_line_and_writes_nothing(tmp_path, args, message):
    db = tmp_path / "bad.db"
    done = zerosum_run(["match", "mid", "first", *args, "--out", str(db), "--quiet"])  # see its docstring
    assert done.returncode == 2, done.stderr
    err = done.stderr.strip()
    assert message in err and "\n" not in err
    assert not db.exists()


def test_an_engine_that_does_not_play_the_game_is_refused_before_any_game(engine, tmp_path, capsys):
    db = tmp_path / "othello.db"
    assert main(["match", "mid", "first", "--game", "othello", *flag("mid", engine), "--out", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert "engine mid does not play othello:n=8 (its games: connectx:rows=6,cols=7,k=4, tictactoe)" in err
    assert not db.exists()


def test_an_engine_that_reports_no_search_figures_is_not_counted_in_records_or_ranking(engine, tmp_path, capsys):
    """A program without info lines (the audit's C engine): its moves' notes hold their time only, never
    nodes=0 value=+0, and the ranking's nodes/move says '-', as for a Python agent that counts nothing."""
    db, pgn = tmp_path / "q.db", tmp_path / "q.pgn"
    assert main(["match", "quiet", "first", *flag("quiet", engine, "noinfo"), "--games", "2", "--jobs", "1",
                 "--out", str(db), "--pgnout", str(pgn)]) == 0
    out = capsys.readouterr().out
    ranking = out[out.index("Ranking"):]
    row = next(line for line in ranking.splitlines() if " quiet " in line)
    assert row.split("│")[-2].strip() == "-", row
    assert "nodes=" not in pgn.read_text() and "value=" not in pgn.read_text()
    assert all(json.loads(nodes) and set(json.loads(nodes)) == {None} and set(json.loads(vals)) == {None}
               for nodes, vals in rows(db, "SELECT nodes, vals FROM games"))


@pytest.mark.parametrize("limit, reason", [
    (["--time", "0.2"], "timeout: no bestmove within 0.45 s (stop sent after 0.28 s)"),
    (["--tc", "1+0"], "time forfeit: no bestmove within the 1.00 s left on its clock"),
])
def test_a_move_out_of_time_states_the_limit_the_header_states(engine, tmp_path, limit, reason):
    """The engine hangs at its first move (a new worker's: the arena's own deadline has its grace then, so the
    engine's reason is the one recorded): the reason states the run's deadline, or what its clock had left."""
    db = tmp_path / "late.db"
    done = zerosum_run(["match", "late", "first", *flag("late", engine, "hang"), *limit, "--games", "1", "--out", str(db)])
    assert done.returncode == 0, done.stderr
    if limit[0] == "--time":
        assert "deadline per move: 0.45 s" in done.stdout
    assert rows(db, "SELECT reason FROM games") == [(reason,)]


def test_a_second_bestmove_for_one_go_is_the_forfeit_reason(engine, tmp_path):
    db = tmp_path / "double.db"
    assert main(["match", "two", "first", *flag("two", engine, "double"), "--games", "2", "--jobs", "1",
                 "--out", str(db), "--quiet"]) == 0
    reasons = [r for (r,) in rows(db, "SELECT reason FROM games")]
    assert len(reasons) == 2 and all(
        r.startswith("protocol error: a second bestmove for one go ('bestmove ") for r in reasons), reasons


def test_resume_takes_no_engine_flags_and_refuses_a_damaged_engine_list(engine, tmp_path, capsys):
    db = tmp_path / "r.db"
    assert main(["match", "mid", "first", *flag("mid", engine), "--games", "2", "--jobs", "1", "--out", str(db),
                 "--quiet"]) == 0
    assert main(["match", "--resume", *flag("mid", engine), "--out", str(db), "--quiet"]) == 2
    assert "--resume starts the engines stored with the run" in capsys.readouterr().err
    con = sqlite3.connect(db)
    with con:
        con.execute("UPDATE meta SET value = ? WHERE key = 'engines'", (json.dumps({"mid": {"definition": [1]}}),))
    con.close()
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "a stored engine definition is malformed" in err and "\n" not in err


def test_resume_refuses_an_engine_rebuilt_since_the_run_began(engine, tmp_path, capsys):
    """The engine's own files (its script here, its binary when named by a path) are kept by SHA-256, as agent
    files are: a rebuilt engine of another strength is never mixed into the run's results (audit)."""
    db = tmp_path / "r.db"
    assert main(["match", "mid", "first", *flag("mid", engine), "--games", "4", "--jobs", "1", "--out", str(db),
                 "--quiet"]) == 0
    con = sqlite3.connect(db)
    with con:
        con.execute("DELETE FROM games WHERE idx >= 2")  # two games left to play
    con.close()
    engine.write_text(engine.read_text() + "\n# rebuilt\n")
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert f"engine mid: '{engine}' has changed since the run began" in err and "\n" not in err, err
    assert rows(db, "SELECT COUNT(*) FROM games") == [(2,)]


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc) to build examples/engines/alphabeta.c")
def test_a_cross_language_tournament_c_python_and_zerosum(engine, tmp_path):
    """The example C engine, the example Python engine, this file's engine and a zerosum agent, under a clock
    with records: no forfeit, and the C engine's search wins every game against the two fixed rules."""
    source, example = ROOT / "examples" / "engines" / "alphabeta.c", ROOT / "examples" / "engines" / "random_engine.py"
    if not source.exists() or not example.exists():
        pytest.skip("examples/engines/alphabeta.c or random_engine.py is not in this checkout")
    program = tmp_path / "alphabeta"
    subprocess.run(["cc", "-O2", "-o", str(program), str(source)], check=True, timeout=120)
    db, pgn = tmp_path / "c.db", tmp_path / "c.pgn"
    assert main(["tournament", "c:time=0.05", "rnd", "mid", "first", "--engine", f"c={program}",
                 "--engine", f"rnd={sys.executable} {example}", *flag("mid", engine), "--tc", "10+0.1",
                 "--games", "2", "--jobs", "2", "--out", str(db), "--pgnout", str(pgn), "--quiet"]) == 0
    got = rows(db, "SELECT a.label, b.label, g.result, g.forfeit, p.opening, g.moves FROM games g JOIN plan p USING (idx) "
                   "JOIN agents a ON a.id = p.first JOIN agents b ON b.id = p.second ORDER BY idx")
    assert len(got) == 12 and [f for *_, f, _, _ in got] == [0] * 12
    for first, second, result, *_ in got:
        if {first, second} in ({"c:time=0.05", "mid"}, {"c:time=0.05", "first"}):
            assert result == ("1-0" if first == "c:time=0.05" else "0-1"), (first, second, result)
    assert played(read_records(pgn)) == sorted((o, tuple(json.loads(m)), r) for _, _, r, _, o, m in got)


# the terminal's games: ``zerosum play`` run here (process_helpers.zerosum_run, the typed moves its standard
# input) in the test's folder; the engines are processes (a Python process of its own was 2-3 s of imports)


def test_a_person_plays_an_engine_in_the_terminal(engine, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cmd = ["play", *flag("mid", engine), "--second", "mid:time=0.5", "--log", "--no-color"]
    done = zerosum_run(cmd, stdin="1\n1\nq\n")
    assert done.returncode == 0, done.stderr
    # the engine answers column 4 both times (its rule: the free column nearest the middle)
    assert done.stdout.count("O (mid:time=0.5) plays 4") == 2
    assert "Moves: 1414" in done.stdout
    bad = zerosum_run(["play", "--engine", "mid=./nowhere", "--second", "mid"], stdin="q\n")
    assert bad.returncode == 2 and "engine mid: the command './nowhere' cannot start" in bad.stderr


def test_an_engine_that_fails_in_the_terminal_leaves_the_moves_and_how_to_go_on(engine, tmp_path, monkeypatch):
    """The engine's fault is the one error line (exit status 2, as a student's function that raises), after the
    moves so far and the command that continues the game (audit: the game was lost with the error)."""
    monkeypatch.chdir(tmp_path)
    cmd = ["play", *flag("bad", engine, "illegal"), "--second", "bad", "--log", "--no-color"]
    done = zerosum_run(cmd, stdin="1\n1\n")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "illegal move: bestmove '9'" in done.stderr
    assert "Game stopped: an engine failed. Moves: 1" in done.stdout, done.stdout
    assert "Continue later with: zerosum play --game " in done.stdout and "--moves 1" in done.stdout


def test_a_person_is_not_told_of_nodes_or_a_value_an_engine_did_not_report(engine, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cmd = ["play", *flag("quiet", engine, "noinfo"), "--second", "quiet", "--log", "--no-color"]
    done = zerosum_run(cmd, stdin="1\nq\n")
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "O (quiet) plays 4" in line)
    assert "nodes" not in line and "est." not in line, line  # was: 0 est. (...), 0 nodes, 0.00 s
