"""Hardening of the arena: hostile agent answers, --resume, results files, output files and bounds.

Every bad input is one line on standard error, exit status 2, and nothing written or changed.
"""

import hashlib
import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from zerosum.arena.store import Store
from zerosum.cli import main

from process_helpers import rows  # tests/process_helpers.py

HERE = Path(__file__).resolve().parent
FAULTY = HERE / "faulty_agents.py"


def execute(db: Path, sql: str, *params) -> None:
    con = sqlite3.connect(db)
    try:
        with con:
            con.execute(sql, params)
    finally:
        con.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: " in err and "Traceback" not in err, err
    return err


def small_run(db: Path, *agents: str, games: int = 2) -> None:
    argv = ["match", *(agents or ("random", "first")), "--game", "tictactoe", "--games", str(games), "--jobs", "1",
            "--out", str(db), "--quiet"]
    assert main(argv) == 0


# ---- item 6: everything done with an agent's answer is inside the forfeit guard ------------------------


def test_hostile_answers_forfeit_the_game_and_resume_is_a_no_op(tmp_path, capsys):
    db = tmp_path / "hostile.db"
    names = ["bad_repr", "bad_str", "bad_eq", "exit_repr"]
    argv = ["tournament", f"{FAULTY}:first", *[f"{FAULTY}:{n}" for n in names], "--gauntlet", "--games", "2",
            "--jobs", "2", "--out", str(db), "--quiet"]
    assert main(argv) == 0
    got = rows(db, "SELECT a.spec, g.reason, g.forfeit, g.winner FROM games g JOIN plan p USING (idx) "
                   "JOIN agents a ON a.id = CASE WHEN g.winner = p.first THEN p.second ELSE p.first END")
    assert len(got) == 8
    expected = {  # the function named, and what it answered or raised, never its own words run
        "exit_repr": ("malformed move: faulty_agents.py:exit_repr(game, state) returned a ",),  # its repr exits
        "bad_repr": ("malformed move: faulty_agents.py:bad_repr(game, state) returned a _BadRepr (_BadRepr) at ",),
        "bad_str": ("error: faulty_agents.py:bad_str(game, state) raised _BadStr: (its message could not be "
                    "printed) at ",),
        "bad_eq": ("malformed move: faulty_agents.py:bad_eq(game, state) returned 0 (_BadEq) at ",),
    }
    for loser, reason, forfeit, winner in got:
        assert forfeit == 1 and winner == 0
        start, *inside = expected[loser.rpartition(":")[2]]
        assert reason.startswith(start) and all(words in reason for words in inside), (loser, reason)
    before = rows(db, "SELECT * FROM games ORDER BY idx")
    capsys.readouterr()
    assert main(["tournament", "--resume", "--out", str(db), "--quiet"]) == 0
    assert rows(db, "SELECT * FROM games ORDER BY idx") == before


def test_check_action_never_runs_the_agents_code():
    from zerosum import ConnectX, Migration
    from zerosum.arena.play import check_action

    class Boom:
        def __repr__(self):
            raise RuntimeError("repr")

        def __iter__(self):
            raise RuntimeError("iter")

    class LoudInt(int):
        def __eq__(self, other):
            raise RuntimeError("eq")

        __hash__ = int.__hash__

    class LoudList(list):
        def __iter__(self):
            raise RuntimeError("iter")

    game = ConnectX()
    s = game.initial_state
    assert check_action(game, s, Boom())[1] == "malformed move: a Boom (Boom)"
    assert check_action(game, s, LoudInt(3))[1] == "malformed move: 3 (LoudInt)"
    assert check_action(game, s, 3) == (3, None)
    mig = Migration(5)
    legal = mig.actions(mig.initial_state)[0]
    assert check_action(mig, mig.initial_state, Boom())[1].startswith("malformed move: a Boom")
    assert check_action(mig, mig.initial_state, LoudList(legal))[1].startswith("malformed move: ")
    assert check_action(mig, mig.initial_state, (LoudInt(legal[0]), *legal[1:]))[1].startswith("malformed move: ")
    got, why = check_action(mig, mig.initial_state, list(legal))
    assert why is None and got == legal and type(got) is tuple and all(type(v) is int for v in got)


# ---- item 3: --resume checks every agent first; a game that never started is not a result -------------


def test_resume_from_another_folder_finds_the_agent_file(tmp_path, monkeypatch, capsys):
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    shutil.copy(FAULTY, home / "bots.py")
    db = tmp_path / "r.db"
    monkeypatch.chdir(home)
    small_run(db, "bots.py:first", "random", games=6)
    spec = str(home / "bots.py") + ":first"
    assert rows(db, "SELECT spec FROM agents ORDER BY id") == [(spec,), ("random",)]  # stored by absolute path
    config = json.loads(rows(db, "SELECT value FROM meta WHERE key = 'config'")[0][0])
    assert config["digests"] == {str(home / "bots.py"): digest(home / "bots.py")}
    execute(db, "DELETE FROM games WHERE idx >= 2")  # as if killed after two games
    monkeypatch.chdir(elsewhere)
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 0
    got = rows(db, "SELECT idx, reason FROM games ORDER BY idx")
    assert [i for i, _ in got] == list(range(6))
    assert not any("start" in reason for _, reason in got)


def test_resume_refuses_a_missing_changed_or_unknown_agent_and_changes_nothing(tmp_path, monkeypatch, capsys):
    bots = tmp_path / "bots.py"
    shutil.copy(FAULTY, bots)
    db = tmp_path / "r.db"
    small_run(db, f"{bots}:first", "random", games=4)
    execute(db, "DELETE FROM games WHERE idx >= 1")
    capsys.readouterr()
    before = rows(db, "SELECT * FROM games")

    def refused(match: str) -> None:
        assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 2
        assert match in one_line_error(capsys)
        assert rows(db, "SELECT * FROM games") == before

    bots.rename(tmp_path / "moved.py")
    refused("not found")
    (tmp_path / "moved.py").rename(bots)
    bots.write_text(bots.read_text() + "\n# edited\n")
    refused("has changed since the run began")
    shutil.copy(FAULTY, bots)
    config = json.loads(rows(db, "SELECT value FROM meta WHERE key = 'config'")[0][0])
    config["agents"][1] = "nosuchagent"
    execute(db, "UPDATE meta SET value = ? WHERE key = 'config'", json.dumps(config))
    execute(db, "UPDATE agents SET spec = 'nosuchagent' WHERE id = 1")
    refused("unknown agent 'nosuchagent'")
    config["agents"][1] = "human"
    execute(db, "UPDATE meta SET value = ? WHERE key = 'config'", json.dumps(config))
    execute(db, "UPDATE agents SET spec = 'human' WHERE id = 1")
    refused("a human cannot play in the arena")


def test_an_agent_that_cannot_start_leaves_its_games_unplayed(tmp_path, capsys):
    db = tmp_path / "u.db"
    spec = f"{HERE / 'unstartable_agent.py'}:agent"
    assert main(["match", spec, "random", "--game", "tictactoe", "--games", "4", "--jobs", "1", "--out", str(db),
                 "--quiet"]) == 2
    err = one_line_error(capsys)
    assert "game 1 could not start" in err and "--resume" in err  # counted from 1, as the records' Round
    assert "RuntimeError: this agent cannot start in a worker" in err  # the agent's own exception, by type
    assert rows(db, "SELECT COUNT(*) FROM games") == [(0,)]  # no forfeit stored for a game never started
    assert rows(db, "SELECT COUNT(*) FROM plan") == [(4,)]  # the plan waits for --resume


def test_an_engine_that_cannot_start_in_a_game_is_named_in_words(tmp_path, capsys):
    """An engine that passes the run's first handshake, then fails to start for its game: the error counts the
    game from 1 and says why in the engine's words, with no Python type name."""
    import sys

    script = tmp_path / "flaky.sh"
    script.write_text(f'#!/bin/sh\nn=$(cat "{tmp_path}/count" 2>/dev/null || echo 0); n=$((n+1)); '
                      f'echo $n > "{tmp_path}/count"\n'
                      f'if [ $n -ge 2 ]; then echo "cannot open device" >&2; exit 5; fi\n'
                      f'exec {sys.executable} -m zerosum engine random\n')
    script.chmod(0o755)
    db = tmp_path / "e.db"
    assert main(["match", "x", "random", "--engine", f"x={script}", "--games", "2", "--jobs", "1",
                 "--out", str(db), "--quiet"]) == 2
    err = one_line_error(capsys)
    assert "game 1 could not start: agent 'x': engine x" in err and "cannot open device" in err, err
    assert "AgentError" not in err, err


SUBTRACTION = ("class Take:\n    initial = (5, 1)\n"  # take 1 or 2; whoever takes the last wins
               "    def actions(self, state):\n        return [k for k in (1, 2) if k <= state[0]]\n"
               "    def result(self, state, move):\n        return (state[0] - move, 3 - state[1])\n"
               "    def terminal_test(self, state):\n        return state[0] == 0\n"
               "    def utility(self, state, player):\n        return -1 if player == state[1] else 1\n"
               "    def to_move(self, state):\n        return state[1]\n")


def test_a_game_file_is_stored_by_absolute_path_and_an_edited_one_is_refused(tmp_path, monkeypatch, capsys):
    """A run on a student's game file named relative to the folder it ran in could not be reported or resumed
    from another folder, and an edited game file went unnoticed: it is stored like an agent file."""
    (tmp_path / "games").mkdir()
    take = tmp_path / "games" / "take.py"
    take.write_text(SUBTRACTION)
    monkeypatch.chdir(tmp_path / "games")
    assert main(["match", "first", "random", "--game", "take.py", "--games", "2", "--jobs", "1", "--quiet",
                 "-o", "../t.db"]) == 0
    monkeypatch.chdir(tmp_path)
    config = json.loads(rows(tmp_path / "t.db", "SELECT value FROM meta WHERE key = 'config'")[0][0])
    assert config["game"] == f"{take}:Take" and str(take) in config["digests"]
    assert main(["report", "t.db", "--no-plots"]) == 0
    assert main(["match", "--resume", "-o", "t.db", "--game", "games/take.py", "--quiet"]) == 0  # the same file
    capsys.readouterr()
    take.write_text(SUBTRACTION.replace("(5, 1)", "(7, 1)"))
    before = (tmp_path / "t.db").read_bytes()
    for argv in (["report", "t.db", "--no-plots"], ["match", "--resume", "-o", "t.db", "--quiet"]):
        assert main(argv) == 2
        err = one_line_error(capsys)
        assert "its game file" in err and "has changed since the run began" in err, err
    assert (tmp_path / "t.db").read_bytes() == before


# ---- item 12: corrupted results files, two runs on one file ------------------------------------------


def _spoil(db: Path, how: str) -> None:
    if how == "not sqlite":
        db.write_bytes(b"not a database at all" * 50)
    elif how == "malformed page":
        data = bytearray(db.read_bytes())
        page = 4096
        assert len(data) >= 3 * page
        data[2 * page: 3 * page] = os.urandom(page)
        db.write_bytes(bytes(data))
    elif how == "garbage config":
        execute(db, "UPDATE meta SET value = '{not json' WHERE key = 'config'")
    elif how == "config missing keys":
        execute(db, "UPDATE meta SET value = '{\"game\": \"tictactoe\"}' WHERE key = 'config'")
    elif how == "config wrong types":
        config = json.loads(rows(db, "SELECT value FROM meta WHERE key = 'config'")[0][0])
        config["games"] = "many"
        execute(db, "UPDATE meta SET value = ? WHERE key = 'config'", json.dumps(config))
    elif how == "dropped plan":
        execute(db, "DROP TABLE plan")
    elif how == "garbage moves":
        execute(db, "UPDATE games SET moves = '[1, 2' WHERE idx = 0")
    elif how == "stray game":
        execute(db, "UPDATE games SET idx = 99 WHERE idx = 0")
    else:  # pragma: no cover
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["not sqlite", "malformed page", "garbage config", "config missing keys",
                                 "config wrong types", "dropped plan", "garbage moves", "stray game"])
def test_corrupted_results_files_are_one_line_errors(tmp_path, capsys, how):
    db = tmp_path / "c.db"
    small_run(db, games=40)
    _spoil(db, how)
    before = digest(db)
    capsys.readouterr()
    for argv in (["report", str(db), "--no-plots"], ["match", "--resume", "--out", str(db), "--quiet"],
                 ["match", "random", "first", "--out", str(db), "--quiet"]):
        assert main(argv) == 2, argv
        one_line_error(capsys)
        assert digest(db) == before, argv
    assert not list(tmp_path.glob("*.png"))


def test_two_runs_on_one_file_the_second_is_refused(tmp_path, capsys):
    db = tmp_path / "l.db"
    small_run(db, games=4)
    execute(db, "DELETE FROM games WHERE idx >= 2")
    with Store(db, lock=True):  # a run in progress holds the file
        assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 2
        assert "in use by another run" in one_line_error(capsys)
        assert main(["match", "random", "first", "--game", "tictactoe", "--out", str(db), "--overwrite"]) == 2
        assert "in use by another run" in one_line_error(capsys)
        assert rows(db, "SELECT COUNT(*) FROM games") == [(2,)]
    assert main(["match", "--resume", "--out", str(db), "--quiet"]) == 0  # once it ends, the file is free
    assert rows(db, "SELECT COUNT(*) FROM games") == [(4,)]


def test_a_results_file_without_games_is_reused_without_asking(tmp_path):
    db = tmp_path / "e.db"
    small_run(db, games=2)
    execute(db, "DELETE FROM games")
    small_run(db, games=4)  # nothing to lose: no --overwrite needed, and the run's own lock is no obstacle
    assert rows(db, "SELECT COUNT(*) FROM games") == [(4,)]


# ---- item 4: output files are checked first and written whole -----------------------------------------


def test_openings_output_is_checked_first_and_written_whole(tmp_path, capsys):
    out = tmp_path / "o.txt"
    out.write_text("keep me\n")
    assert main(["openings", "--game", "tictactoe", "--plies", "12", "-o", str(out), "--overwrite"]) == 2
    one_line_error(capsys)
    assert main(["openings", "--game", "tictactoe", "--plies", "2", "-o", str(out)]) == 2  # no --overwrite
    assert "--overwrite" in one_line_error(capsys)
    assert out.read_text() == "keep me\n"
    assert main(["openings", "--game", "tictactoe", "--plies", "2", "--count", "3", "-o", str(out), "--overwrite"]) == 0
    assert len([l for l in out.read_text().splitlines() if not l.startswith("#")]) == 3
    capsys.readouterr()
    assert main(["openings", "--game", "tictactoe", "-o", str(tmp_path)]) == 2  # a folder
    one_line_error(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.txt"]  # no temporary file left behind


def test_report_plots_folder_is_checked_first(tmp_path, capsys):
    db = tmp_path / "t.db"
    small_run(db)
    capsys.readouterr()
    a_file = tmp_path / "plots.txt"
    a_file.write_text("x")
    assert main(["report", str(db), "--plots", str(a_file)]) == 2
    one_line_error(capsys)
    assert main(["report", str(db), "--plots", str(tmp_path / "no" / "such")]) == 2
    one_line_error(capsys)
    assert a_file.read_text() == "x" and not (tmp_path / "no").exists()
    assert main(["report", str(db), "--plots", str(tmp_path / "new")]) == 0
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["t-pairings.png"]
    first = (tmp_path / "new" / "t-pairings.png").stat().st_mtime_ns
    assert main(["report", str(db), "--plots", str(tmp_path / "new")]) == 0  # an earlier report's plot: replaced
    assert (tmp_path / "new" / "t-pairings.png").stat().st_mtime_ns != first


def test_report_keeps_a_file_in_a_plot_s_place_that_is_not_a_plot(tmp_path, capsys):
    """``zerosum report`` replaced any file named like its plot (a student's notes too), though nothing is
    overwritten without --overwrite: only a PNG image, an earlier report's plot, is replaced."""
    db = tmp_path / "t.db"
    small_run(db)
    notes = tmp_path / "t-pairings.png"
    notes.write_text("my notes\n")
    capsys.readouterr()
    assert main(["report", str(db)]) == 2
    assert "--overwrite" in one_line_error(capsys)
    assert notes.read_text() == "my notes\n"
    assert main(["report", str(db), "--overwrite"]) == 0
    assert notes.read_bytes().startswith(b"\x89PNG")


# ---- items 12 and 13: what the arena refuses, before anything is built or written ---------------------


def test_arena_refuses_what_it_cannot_do_in_one_line(tmp_path, capsys):
    db = tmp_path / "x.db"
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\x00\x01\xff\xfe")
    cases = [
        ["match", "human", "random"],
        ["match", "random", "human:"],
        ["match", "random", "first", "--games", "100000000"],
        ["match", "random", "first", "--games", str(2**63 + 1)],
        ["match", "random", "first", "--seed", str(2**64)],
        ["match", "random", "first", "--time", str(2**63)],
        ["match", "random", "first", "--jobs", "40"],
        ["match", "random", "first", "--jobs", "0"],
        ["match", "random", "first", "--deadline", "nan"],
        ["match", "random", "first", "--openings", str(binary)],
        ["match", "random", "first", "--openings", str(tmp_path)],
        ["match", "random", "first", "--game", "tictactoe", "--opening-plies", "9"],
        ["tournament", *(["random"] * 30), "--games", "1000"],  # 435 pairings x 1000 games
        ["match", "random", "first", "--out", str(tmp_path)],
        ["match", "random", "first", "--out", str(tmp_path / "no" / "r.db")],
    ]
    for argv in cases:
        out = [] if "--out" in argv else ["--out", str(db)]
        assert main([*argv, *out]) == 2, argv
        one_line_error(capsys)
        assert not db.exists(), argv
    openings = tmp_path / "o.txt"
    for argv in (["--game", "connectx:rows=4,cols=4,k=3", "--plies", "17"], ["--plies", str(2**63)],
                 ["--game", "tictactoe", "--count", "0"]):
        assert main(["openings", *argv, "-o", str(openings)]) == 2, argv
        one_line_error(capsys)
        assert not openings.exists()
    # too many positions to judge, counted before the solver judges any: 6 plies into 4 x 12 (a board the solver
    # takes) pass the bound after 540,000 moves made (connect4's 9 plies: 940,000, 2.5 times the seconds)
    assert main(["openings", "--game", "connectx:rows=4,cols=12,k=4", "--plies", "6", "-o", str(openings)]) == 2
    assert "more than 200,000 positions 6 plies into" in one_line_error(capsys)
    assert not openings.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin.txt"]


def test_openings_positions_match_every_move_sequence():
    import itertools

    from zerosum import ConnectX
    from zerosum.arena.openings import _positions
    from zerosum.errors import IllegalMoveError

    game = ConnectX(4, 5, 3)
    for plies in range(5):  # the old brute force: every sequence, the first of each position and mirror image
        seen, expected = set(), []
        for seq in itertools.product(range(game.cols), repeat=plies):
            try:
                state = game.from_moves(list(seq))
            except IllegalMoveError:
                continue
            if game.is_terminal(state):
                continue
            mirror = game.from_moves([game.cols - 1 - c for c in seq])
            key = min((state.current, state.mask), (mirror.current, mirror.mask))
            if key not in seen:
                seen.add(key)
                expected.append(seq)
        assert _positions(game, plies) == expected, plies


def test_a_second_store_on_one_file_leaves_the_first_ones_locks(tmp_path):
    """Opening a results file read its header with a plain open() and close(), which drops every POSIX lock this
    process holds on the file, SQLite's included: another process closing its connection then deleted the -wal
    and -shm under the first store (the contest's server lost its database so)."""
    import os
    import subprocess
    import sys

    from zerosum.arena.store import Store
    from zerosum.cli import main

    db = tmp_path / "r.db"
    assert main(["match", "random", "first", "--game", "tictactoe", "--games", "2", "--out", str(db), "--quiet"]) == 0
    first = Store(db)
    first.db.execute("SELECT COUNT(*) FROM games").fetchone()  # a read: the connection holds its lock
    wal = [p for p in (tmp_path / "r.db-wal", tmp_path / "r.db-shm")]
    assert all(p.exists() for p in wal)
    second = Store(db)
    subprocess.run([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                    "c.execute('SELECT COUNT(*) FROM games').fetchone(); c.close()", str(db)], check=True, timeout=60)
    assert all(p.exists() for p in wal), sorted(os.listdir(tmp_path))  # not deleted under the first store
    assert first.db.execute("SELECT COUNT(*) FROM games").fetchone() == (2,)
    second.close()
    first.close()
