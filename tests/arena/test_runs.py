"""Real runs in worker processes: forfeits, resuming after SIGKILL, SPRT, reports, bad usage."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zerosum.arena.store import Store
from zerosum.cli import main

from process_helpers import rows  # tests/process_helpers.py

HERE = Path(__file__).resolve().parent
FAULTY = HERE / "faulty_agents.py"


def agent(name: str) -> str:
    return f"{FAULTY}:{name}"


def test_faulty_agents_forfeit_with_reasons_and_the_tournament_completes(tmp_path, capsys):
    db = tmp_path / "faulty.db"
    names = ["raises", "sleeper", "illegal", "string", "crasher"]
    code = main(["tournament", agent("first"), *[agent(n) for n in names], "--gauntlet", "--games", "2",
                 "--jobs", "2", "--deadline", "1", "--grace", "0", "--out", str(db)])
    assert code == 0
    out = capsys.readouterr().out
    assert "10 of 10 games played" in out and "Forfeits" in out
    got = rows(db, "SELECT a.label, g.reason, g.forfeit, g.result, p.first, p.second, g.winner "
                   "FROM games g JOIN plan p USING (idx) JOIN agents a ON a.id = CASE WHEN g.winner = p.first "
                   "THEN p.second ELSE p.first END")
    assert len(got) == 10
    expected = {
        "faulty_agents.py:raises": "error: faulty_agents.py:raises(game, state) raised ValueError: boom at ",
        "faulty_agents.py:sleeper": "timeout: no move within 1 s",
        "faulty_agents.py:illegal": "illegal move: faulty_agents.py:illegal(game, state) returned 99 (int) at ",
        "faulty_agents.py:string": "malformed move: faulty_agents.py:string(game, state) returned 'four' (str) at ",
        "faulty_agents.py:crasher": "crash: the agent's process died (exit code 3)",
    }
    for loser, reason, forfeit, result, first, second, winner in got:
        assert forfeit == 1
        assert reason.startswith(expected[loser]), (loser, reason)
        assert "illegal" not in loser or reason.endswith(": column 100 is outside 1..7 (action 99 is outside 0..6)")
        assert winner == 0  # the well-behaved agent wins every game, with either colour
        assert result == ("1-0" if first == 0 else "0-1")
    assert sorted(loser for loser, *_ in got) == sorted(2 * list(expected))  # each forfeits both its games


@pytest.mark.slow  # kill -9 then --resume is in CI through records/test_resume_record and external/test_external_arena
def test_kill_mid_run_then_resume_plays_exactly_the_plan(tmp_path):
    db = tmp_path / "killed.db"
    games = 16
    cmd = [sys.executable, "-m", "zerosum", "match", agent("slow_first"), "first", "--games", str(games),
           "--jobs", "2", "--seed", "3", "--out", str(db), "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    done = 0
    while time.time() < deadline:
        time.sleep(0.05)
        if db.exists():
            try:
                done = rows(db, "SELECT COUNT(*) FROM games")[0][0]
            except sqlite3.OperationalError:
                continue
            if done >= 3:
                break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(10)
    before = rows(db, "SELECT * FROM games ORDER BY idx")
    assert 3 <= len(before) < games, "the run must be killed in the middle"
    # resuming needs no agents: the plan is in the file
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 0
    after = rows(db, "SELECT * FROM games ORDER BY idx")
    assert len(after) == games
    assert [r[0] for r in after] == list(range(games))  # every planned game once (idx is the primary key)
    kept = {r[0]: r for r in after}
    for r in before:
        assert kept[r[0]] == r  # games finished before the kill are untouched
    # nothing is played twice: a second resume has nothing to do
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 0
    assert rows(db, "SELECT COUNT(*) FROM games")[0][0] == games
    # the resumed games are the same games an uninterrupted run plays (deterministic agents, same seed)
    fresh = tmp_path / "fresh.db"
    assert main(["match", agent("first"), "first", "--games", str(games), "--jobs", "2", "--seed", "3",
                 "--out", str(fresh), "--quiet"]) == 0
    assert rows(fresh, "SELECT idx, result, moves FROM games ORDER BY idx") == [(r[0], r[1], r[5]) for r in after]


def test_same_seed_same_games(tmp_path):
    runs = []
    for name in ("a.db", "b.db"):
        db = tmp_path / name
        assert main(["match", "random", "random:seed=9", "--game", "tictactoe", "--games", "6", "--jobs", "2",
                     "--seed", "11", "--out", str(db), "--quiet"]) == 0
        runs.append(rows(db, "SELECT idx, result, reason, moves FROM games ORDER BY idx"))
    assert runs[0] == runs[1]
    assert len(runs[0]) == 6
    db = tmp_path / "c.db"
    assert main(["match", "random", "random:seed=9", "--game", "tictactoe", "--games", "6", "--jobs", "2",
                 "--seed", "12", "--out", str(db), "--quiet"]) == 0
    assert rows(db, "SELECT idx, result, reason, moves FROM games ORDER BY idx") != runs[0]


def test_sprt_stops_the_match(tmp_path, capsys):
    db = tmp_path / "sprt.db"
    assert main(["match", "random", agent("illegal"), "--sprt", "0,50", "--jobs", "1", "--out", str(db)]) == 0
    out = capsys.readouterr().out
    with Store(db) as store:
        assert store.meta("sprt")["decision"] == "H1"
        # a one-sided match: each won pair adds at most ln(s1/s0) = 0.1336 to the LLR, so H1 takes 23 pairs
        assert store.count() == 46  # and nothing is played after it
        assert len(store.plan()) == 20000
    assert "H1 accepted" in out
    # resuming a decided match plays nothing
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 0
    assert rows(db, "SELECT COUNT(*) FROM games")[0][0] == 46


def test_report_tables_and_plots(tmp_path, capsys):
    db = tmp_path / "t.db"
    assert main(["tournament", "random", "first", agent("first"), "--game", "connectx:rows=4,cols=5,k=3",
                 "--games", "4", "--jobs", "2", "--out", str(db), "--quiet"]) == 0
    capsys.readouterr()
    plots = tmp_path / "plots"
    assert main(["report", str(db), "--plots", str(plots)]) == 0
    out = capsys.readouterr().out
    for path in (plots / "t-pairings.png", plots / "t-ranking.png"):
        assert f"wrote {path}" in out
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "12 of 12 games played" in out
    assert "random vs first" in out and "Ranking" in out
    with Store(db) as store:
        cfg = store.meta("config")
        assert cfg["mode"] == "round-robin" and cfg["games"] == 4
        for rec in store.games():
            assert len(rec.moves) == len(rec.times) == len(rec.nodes) == len(rec.vals)
            assert all(t >= 0 for t in rec.times)


def test_bad_usage_exits_2_and_writes_nothing(tmp_path, capsys):
    db = tmp_path / "x.db"
    cases = [
        ["match", "random"],
        ["match", "random", "nosuchagent"],
        ["match", "random", "first", "--sprt", "10,0"],
        ["match", "random", "first", "--game", "chess"],
        ["match", "random", "first", "--openings", str(tmp_path / "missing.txt")],
        ["match", "--resume"],
        ["tournament", "random"],
        ["match", "random", f"{tmp_path}/nofile.py:f"],
    ]
    for argv in cases:
        assert main([*argv, "--out", str(db)]) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "error" in err, (argv, err)
        assert not db.exists()
    assert main(["report", str(tmp_path / "none.db")]) == 2
    (tmp_path / "junk.db").write_text("not a database")
    assert main(["report", str(tmp_path / "junk.db")]) == 2
    assert main(["match", "--games", "0", "random", "first"]) == 2


def test_missing_ray_is_a_clean_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as when it is not installed
    db = tmp_path / "ray.db"
    assert main(["match", "random", "first", "--backend", "ray", "--out", str(db)]) == 2
    assert "pip install 'zerosum[ray]'" in capsys.readouterr().err
    assert not db.exists()


def test_existing_results_are_not_overwritten_without_asking(tmp_path, capsys):
    db = tmp_path / "r.db"
    argv = ["match", "random", "first", "--game", "tictactoe", "--games", "2", "--jobs", "1", "--out", str(db), "--quiet"]
    assert main(argv) == 0
    assert main(argv) == 2
    assert "--resume" in capsys.readouterr().err
    assert main([*argv, "--overwrite"]) == 0
    assert rows(db, "SELECT COUNT(*) FROM games")[0][0] == 2
    assert main(["tournament", "--resume", "--out", str(db)]) == 2  # a match is not a tournament
    assert main(["match", "random", "random", "--resume", "--out", str(db)]) == 2  # not these agents


def test_openings_command(tmp_path, capsys):
    out = tmp_path / "ttt.txt"
    assert main(["openings", "--game", "tictactoe", "--plies", "2", "--count", "5", "--seed", "1", "-o", str(out)]) == 0
    lines = [l for l in out.read_text().splitlines() if not l.startswith("#")]
    assert len(lines) == 5 and all(len(l) == 2 for l in lines)
    # Connect-X from a given evaluator (a search agent) instead of the solver
    pytest.importorskip("zerosum.agents.alphabeta")
    assert main(["openings", "--game", "connectx:rows=4,cols=5,k=3", "--plies", "1", "--with", "alphabeta:depth=2,fast=0",
                 "--max-score", "1000000"]) == 0  # the agent's values, in its unit: all three within 10**6
    text = capsys.readouterr().out
    assert text.startswith("# zerosum openings")
    assert [l.split()[0] for l in text.splitlines() if not l.startswith("#")] == ["1", "2", "3"]
    bad = tmp_path / "bad.txt"
    assert main(["openings", "--with", "random", "--plies", "1", "-o", str(bad)]) == 2
    assert main(["openings", "--max-score", "-1", "-o", str(bad)]) == 2
    assert not bad.exists()


def test_ray_backend(tmp_path):
    ray = pytest.importorskip("ray")
    db = tmp_path / "ray.db"
    try:
        code = main(["match", "random", agent("sleeper"), "--games", "2", "--deadline", "1", "--grace", "0",
                     "--backend", "ray", "--jobs", "2", "--out", str(db), "--quiet"])
    finally:
        ray.shutdown()
    assert code == 0
    got = rows(db, "SELECT idx, reason, winner FROM games ORDER BY idx")
    assert [(i, w) for i, _, w in got] == [(0, 0), (1, 0)]
    assert all(r.startswith("timeout: no move within 1 s") for _, r, _ in got)


def test_check_action_and_reasons():
    import numpy as np

    from zerosum import ConnectX, Migration
    from zerosum.arena.play import check_action
    from zerosum.arena.reasons import one_line as _short

    game = ConnectX()
    state = game.from_moves("444444")
    assert check_action(game, state, np.int64(2)) == (2, None)  # numpy integers are columns too
    assert check_action(game, state, 3)[1] == "illegal move: column 4 is full"
    assert check_action(game, state, True)[1] == "malformed move: True (bool)"
    assert check_action(game, state, 2.0)[1] == "malformed move: 2.0 (float)"
    assert check_action(game, state, None)[1] == "malformed move: None (NoneType)"
    mig = Migration(5)
    s0 = mig.initial_state
    legal = mig.actions(s0)[0]
    assert check_action(mig, s0, list(legal)) == (legal, None)
    assert check_action(mig, s0, (0, 0, 0, 1))[1].startswith("illegal move: ")
    assert check_action(mig, s0, (0, 0))[1] == "malformed move: (0, 0) (tuple)"
    assert _short("\x1b[1mbold\x1b[0m\nnext line " + "x" * 400).startswith("bold next line x")
    assert len(_short("x" * 400)) == 300


def test_real_search_agents_in_a_tournament(tmp_path):
    pytest.importorskip("zerosum.agents.alphabeta")
    pytest.importorskip("zerosum.agents.mcts")
    db = tmp_path / "search.db"
    specs = ["alphabeta:depth=9,fast=0", "mcts:sims=200,fast=0", "random"]
    assert main(["tournament", *specs, "--game", "tictactoe", "--games", "4", "--opening-plies", "0", "--jobs", "2", "--out", str(db),
                 "--quiet"]) == 0
    with Store(db) as store:
        plan = {g.idx: g for g in store.plan()}
        games = list(store.games())
    assert len(games) == 12
    for rec in games:
        g = plan[rec.idx]
        assert not rec.forfeit
        if 0 in (g.first, g.second):  # perfect play on Tic-Tac-Toe never loses
            assert rec.winner in (0, None)
        # the searching agents' moves carry nodes and values; random's do not
        first_moves_by_first = True  # from the empty board
        for i, n in enumerate(rec.nodes):
            mover = g.first if (i % 2 == 0) == first_moves_by_first else g.second
            assert (n is None) == (mover == 2), (rec.idx, i, mover, n)
            assert (rec.vals[i] is None) == (mover == 2)


@pytest.mark.slow  # compiles the solver's kernels in every worker when the numba cache is cold
def test_solver_never_loses_a_drawn_board(tmp_path):
    pytest.importorskip("zerosum.solver.search")
    db = tmp_path / "solver.db"
    # 4 rows x 5 columns, four in a row: a draw with perfect play (DESIGN.md's list of known boards)
    assert main(["tournament", "solver", "alphabeta:depth=2", "random", "--game", "connectx:rows=4,cols=5,k=4",
                 "--games", "4", "--opening-plies", "0", "--jobs", "2", "--out", str(db), "--quiet"]) == 0
    got = rows(db, "SELECT p.first, p.second, g.winner, g.forfeit FROM games g JOIN plan p USING (idx)")
    assert len(got) == 12
    for first, second, winner, forfeit in got:
        assert not forfeit
        if 0 in (first, second):
            assert winner in (0, None)


@pytest.mark.slow  # CI time (10 s): tests/arena/test_interrupt.py stops a run with Ctrl-C in CI
def test_ctrl_c_stops_cleanly_and_records_no_false_forfeit(tmp_path):
    db = tmp_path / "int.db"
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "match", agent("slow_first"), "first", "--games", "16",
                             "--jobs", "2", "--out", str(db), "--quiet"], stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        time.sleep(0.05)
        try:
            if db.exists() and rows(db, "SELECT COUNT(*) FROM games")[0][0] >= 1:
                break
        except sqlite3.OperationalError:
            pass
    assert proc.poll() is None, "the run ended before a game could be seen in its results file"
    proc.send_signal(signal.SIGINT)  # as Ctrl-C does (the workers ignore it; the supervisor ends them)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and err.startswith("interrupted: ") and err.count("\n") == 1, err
    got = rows(db, "SELECT COUNT(*), SUM(forfeit) FROM games")[0]
    assert err.startswith(f"interrupted: {got[0]} of 16 games stored in ") and "--resume" in err, err
    assert 1 <= got[0] < 16 and got[1] == 0
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 0
    assert rows(db, "SELECT COUNT(*), SUM(forfeit) FROM games")[0] == (16, 0)
