"""Hardening: an output never replaces an input, and ``--overwrite`` never loses the old results file.

1. An output of a command (``-o``, ``--pgnout``, ``--ranking``, a report's plots, ``zerosum openings -o``,
   ``zerosum kaggle-agent -o``) that is one of its inputs (an agent file, an ``eval=`` file, a game file,
   ``--openings``, an engine's program, a stored run's files), however spelled, is one line naming both, exit
   2, before any work, with or without ``--overwrite``: the input is unchanged and nothing is created.
2. ``--overwrite`` builds the new results file beside the old one and renames it over it: a run that cannot
   store its plan (a full disk: a small tmpfs when this user may mount one, else a file-size limit) leaves
   the old file as it was, and no temporary file.
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from course_sources import nim  # tests/course_sources.py
from process_helpers import small_disk  # tests/process_helpers.py
from zerosum.cli import main

RUN = ["--game", "tictactoe", "--games", "2", "--jobs", "1", "--quiet"]
ENGINE = Path(__file__).resolve().parents[2] / "examples" / "engines" / "random_engine.py"
INPUTS = {
    "bot.py": "def agent(game, state):\n    return game.actions(state)[0]\n",
    "ev.py": "def fn(game, state, player):\n    return 0\n",
    "op.txt": "5\n1\n",
    "op.csv": "5\n1\n",
    "g.py": nim(),
    "eng.sh": f"#!/bin/sh\nexec {sys.executable} {ENGINE}\n",
}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path``, the current folder, holding a student's files."""
    monkeypatch.chdir(tmp_path)
    for name, text in INPUTS.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "eng.sh").chmod(0o755)
    os.link(tmp_path / "bot.py", tmp_path / "hard.py")  # a hard link is the same file
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def refused(argv: list[str], folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``zerosum ARGV`` is refused with; every file as it was, and nothing made."""
    before = snapshot(folder)
    capsys.readouterr()
    assert main(argv) == 2, argv
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert snapshot(folder) == before, argv
    return err


CASES = [  # (argv, the line's words)
    (["match", "bot.py:agent", "random", *RUN, "-o", "bot.py", "--overwrite"],
     "-o 'bot.py' is the agent file of 'bot.py:agent': name another file for the results"),
    (["match", "bot.py", "random", *RUN, "-o", "./bot.py", "--overwrite"],
     "-o './bot.py' is the agent file of 'bot.py': name another file for the results"),
    (["match", "bot.py:agent", "random", *RUN, "-o", "m.db", "--pgnout", "bot.py", "--overwrite"],
     "--pgnout 'bot.py' is the agent file of 'bot.py:agent': name another file for the records"),
    (["match", "bot.py:agent", "random", *RUN, "-o", "m.db", "--pgnout", "bot.py"],  # no --overwrite: the same
     "--pgnout 'bot.py' is the agent file of 'bot.py:agent'"),
    (["match", "bot.py:agent", "random", *RUN, "-o", "m.db", "--pgnout", "hard.py", "--overwrite"],
     "--pgnout 'hard.py' is the agent file of 'bot.py:agent'"),
    (["tournament", "bot.py:agent", "random", "first", *RUN, "-o", "t.db", "--pgnout", "bot.py", "--overwrite"],
     "--pgnout 'bot.py' is the agent file of 'bot.py:agent'"),
    (["match", "alphabeta:depth=1,eval=ev.py:fn", "random", *RUN, "-o", "ev.py", "--overwrite"],
     "-o 'ev.py' is the eval= file of 'alphabeta:depth=1,eval=ev.py:fn': name another file for the results"),
    (["match", "e", "random", "--engine", "e=./eng.sh", *RUN, "--game", "connect4", "-o", "eng.sh", "--overwrite"],
     "-o 'eng.sh' is a file of engine e's command './eng.sh'"),
    (["match", "random", "random", *RUN, "--game", "g.py:Nim", "-o", "g.py", "--overwrite"],
     "-o 'g.py' is the game file of --game 'g.py:Nim'"),
    (["match", "random", "random", *RUN, "--openings", "op.txt", "-o", "m.db", "--pgnout", "op.txt", "--overwrite"],
     "--pgnout 'op.txt' is the openings file (--openings): name another file for the records"),
    (["match", "random", "random", *RUN, "--openings", "op.txt", "-o", "op.txt", "--overwrite"],
     "-o 'op.txt' is the openings file (--openings)"),
    (["match", "random", "random", *RUN, "--openings", "op.txt", "-o", "op.txt"],
     "-o 'op.txt' is the openings file (--openings)"),
    (["match", "random", "random", *RUN, "--openings", "op.txt-wal", "-o", "op.txt", "--overwrite"],
     "-o 'op.txt' writes 'op.txt-wal' beside it, which is the openings file"),
    (["tournament", "random", "first", "random", *RUN, "--openings", "op.csv", "-o", "t.db", "--ranking", "op.csv",
      "--overwrite"], "--ranking 'op.csv' is the openings file (--openings): name another file for the ranking"),
    (["openings", "--game", "tictactoe", "--plies", "1", "--with", "alphabeta:plain=1,depth=0,eval=ev.py:fn",
      "--max-score", "0", "-o", "ev.py", "--overwrite"],
     "-o 'ev.py' is the eval= file of 'alphabeta:plain=1,depth=0,eval=ev.py:fn': name another file for the openings"),
    (["kaggle-agent", "bot.py:agent", "-o", "bot.py", "--overwrite"],
     "-o 'bot.py' is the agent file of 'bot.py:agent': name another file for the submission"),
]


@pytest.mark.parametrize(("argv", "said"), CASES, ids=range(len(CASES)))
def test_an_output_that_is_an_input_is_refused_first(folder, capsys, argv, said):
    if "op.txt-wal" in argv:
        (folder / "op.txt-wal").write_text("5\n")
    assert said in refused(argv, folder, capsys)


def test_a_stored_runs_inputs_are_never_written(folder, capsys):
    """``--resume`` and ``report``: the run's agent files, openings and game file, as the results file keeps
    them, are inputs too; a report's plots never replace one either."""
    assert main(["tournament", "bot.py:agent", "random", *RUN, "--openings", "op.csv", "-o", "t.db"]) == 0
    for name in ("bot.py", "hard.py"):  # a program's source: never written over, an input of the run or not
        assert f"record file '{name}' is a program's source (.py), which zerosum never writes over" in refused(
            ["tournament", "--resume", "-o", "t.db", "--pgnout", name, "--quiet"], folder, capsys)
    assert "--ranking 'op.csv' is the openings file of the run" in refused(
        ["report", "t.db", "--no-plots", "--ranking", "op.csv", "--overwrite"], folder, capsys)
    assert "-o 'bot.py' is the agent file of" in refused(  # report's records (--export) too
        ["report", "t.db", "-o", "bot.py", "--overwrite"], folder, capsys)
    (folder / "t-ranking.png").write_text("5\n")  # a strange name for openings, the name of t.db's plot
    assert main(["tournament", "random", "first", *RUN, "--openings", "t-ranking.png", "-o", "t.db",
                 "--overwrite"]) == 0
    assert "the plot" in refused(["report", "t.db"], folder, capsys)


@pytest.mark.parametrize("argv", [
    ["match", "random", "first", *RUN, "-o", "t.db", "--pgnout", "mine.py", "--overwrite"],
    ["match", "random", "first", *RUN, "-o", "mine.py", "--overwrite"],
    ["review", "5 1 2", "--game", "tictactoe", "-o", "mine.ipynb", "--overwrite"],
    ["openings", "--game", "tictactoe", "--plies", "1", "-o", "mine.c", "--overwrite"],
])
def test_overwrite_never_writes_over_a_program_s_source(folder, capsys, argv):
    # audit: one --overwrite covers every output of a command: meant for the results file, it emptied the
    # student's own mine.py named by mistake as --pgnout
    for name in ("mine.py", "mine.ipynb", "mine.c"):
        (folder / name).write_text("print('my homework')\n")
    target = next(a for a in argv if a.startswith("mine."))
    said = refused(argv, folder, capsys)
    assert f"'{target}' is a program's source ({target[4:]}), which zerosum never writes over: name another file" \
        in said, said


@pytest.mark.parametrize("argv", [["match", "random", "first", *RUN, "-o", "-"],
                                  ["match", "random", "first", *RUN, "-o", "t.db", "--pgnout", "-"],
                                  ["review", "5 1 2", "--game", "tictactoe", "-o", "-"]])
def test_a_dash_is_no_file_name(folder, capsys, argv):
    # audit: -o - wrote a file named '-'
    assert "'-': standard output is not written to here: name a file (./- for one named '-')" in refused(
        argv, folder, capsys)


def test_kaggle_agent_replaces_its_own_agent_file(folder, capsys):
    assert main(["kaggle-agent", "random", "-o", "agent.py"]) == 0
    assert main(["kaggle-agent", "random", "-o", "agent.py", "--overwrite"]) == 0  # its output is a program
    assert "def " in (folder / "agent.py").read_text()


# ---- 2. --overwrite keeps the old file when the new run cannot start ----------------------------------


def games_in(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return int(con.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    finally:
        con.close()


def test_overwrite_replaces_the_file_whole(folder):
    """A replaced file holds the new run only (the old file's journal, left by a killed run, is not read into
    it), with no temporary file left, the old file's mode, in WAL mode again."""
    assert main(["match", "random", "first", *RUN, "-o", "r.db"]) == 0
    (folder / "r.db").chmod(0o640)
    con = sqlite3.connect(folder / "r.db")
    con.execute("PRAGMA wal_autocheckpoint=0")
    with con:
        con.execute("INSERT INTO meta VALUES ('stale', '1')")
    shutil.copy(folder / "r.db-wal", folder / "kept-wal")  # as a killed run leaves it
    con.close()
    os.replace(folder / "kept-wal", folder / "r.db-wal")
    assert main(["match", "random", "random", *RUN, "-o", "r.db", "--overwrite"]) == 0
    assert games_in(folder / "r.db") == 2
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".") or p.name.startswith("r.db-")]
    con = sqlite3.connect(folder / "r.db")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert con.execute("SELECT COUNT(*) FROM meta WHERE key = 'stale'").fetchone()[0] == 0
    assert "random" in con.execute("SELECT spec FROM agents WHERE id = 1").fetchone()[0]
    con.close()
    assert (folder / "r.db").stat().st_mode & 0o777 == 0o640  # the replaced file's mode (mkstemp makes 0600)


def test_overwrite_on_a_full_disk_keeps_the_old_file(folder, capsys):
    # a 400 KiB tmpfs (skipped where this user may not mount one: the file-size limit test covers a full disk)
    assert main(["match", "random", "random", *RUN[:2], "--games", "200", "--jobs", "1", "--quiet",
                 "-o", "old.db"]) == 0
    with small_disk(folder / "small", "400k") as small:
        shutil.copy(folder / "old.db", small / "r.db")
        before = (small / "r.db").read_bytes()
        capsys.readouterr()
        code = main(["match", "random", "random", *RUN[:2], "--games", "20000", "--jobs", "1", "--quiet",
                     "-o", "small/r.db", "--overwrite"])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1, err
        assert "results file 'small/r.db' cannot be written: the disk is full" in err
        assert "the old file is left as it was" in err
        assert sorted(p.name for p in small.iterdir()) == ["r.db"]  # no temporary file, no journal
        assert (small / "r.db").read_bytes() == before and games_in(small / "r.db") == 200


def test_overwrite_under_a_file_size_limit_keeps_the_old_file(folder):
    assert main(["match", "random", "first", *RUN, "-o", "r.db"]) == 0
    before = (folder / "r.db").read_bytes()

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        size = 64 * 1024
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    code = "import sys; from zerosum.cli import main; sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", code, "match", "random", "random", *RUN[:2], "--games", "4000",
                           "--jobs", "1", "--quiet", "-o", "r.db", "--overwrite"], cwd=folder, preexec_fn=limit,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "results file 'r.db' cannot be written: the disk is full" in done.stderr
    assert "the old file is left as it was" in done.stderr
    assert (folder / "r.db").read_bytes() == before and games_in(folder / "r.db") == 2
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".") or p.name.startswith("r.db-")]


def test_a_second_run_writing_the_file_keeps_it(folder, capsys):
    """The old file's run lock is taken before anything is built: a run still writing it keeps it."""
    from zerosum.arena.store import Store

    assert main(["match", "random", "first", *RUN, "-o", "r.db"]) == 0
    before = (folder / "r.db").read_bytes()
    with Store(folder / "r.db", lock=True):
        assert "in use by another run" in refused(["match", "random", "random", *RUN, "-o", "r.db", "--overwrite"],
                                                  folder, capsys)
    assert (folder / "r.db").read_bytes() == before
