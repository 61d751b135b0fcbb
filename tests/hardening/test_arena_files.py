"""Hardening, the arena's files: outputs that clash (``-o``, ``--pgnout``, ``--ranking`` naming one file) are
refused before the first game; a new run that cannot store its plan leaves nothing behind; a full disk is
said as such (naming the file, never "not a zerosum results file"); text read from a results file is made
safe before it reaches an error line or a table; ``--overwrite`` checks SQLite's companions (``-wal``,
``-shm``) before removing anything.

Full disks are a file-size limit in a subprocess (``RLIMIT_FSIZE``, ``SIGXFSZ`` ignored, so a write fails
with EFBIG), or an ``fsync`` that fails in this process.
"""

from __future__ import annotations

import errno
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from zerosum.cli import main

RUN = ["--game", "tictactoe", "--jobs", "1", "--quiet", "--grace", "5"]
ZEROSUM = [sys.executable, "-c", "import sys; from zerosum.cli import main; sys.exit(main())"]


def limited(args: list[str], cwd: Path, size: int) -> subprocess.CompletedProcess[str]:
    """``zerosum ARGS`` in ``cwd`` with files limited to ``size`` bytes."""
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return subprocess.run([*ZEROSUM, *args], cwd=cwd, preexec_fn=limit, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def finished(tmp_path: Path) -> Path:
    """A finished two-game match in ``tmp_path/c.db``."""
    db = tmp_path / "c.db"
    assert main(["match", "random", "first", "--games", "2", *RUN, "-o", str(db)]) == 0
    return db


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    """The one line of an error on standard error (a long wait's own words before it, as a loaded machine may
    make ``zerosum: writing 'sub.py': ...: 2.0 s``, aside)."""
    lines = [line for line in capsys.readouterr().err.splitlines() if not re.match(r"zerosum: .*: [0-9.]+ s$", line)]
    assert len(lines) == 1, lines
    return lines[0] + "\n"


# ---- 1. -o, --pgnout and --ranking never name one file --------------------------------------------


@pytest.mark.parametrize("spelling", ["same", "dot", "updown", "absolute", "linked"])
@pytest.mark.parametrize("overwrite", [True, False])
def test_ranking_naming_the_results_file_is_refused_before_any_game(tmp_path, monkeypatch, capsys, spelling,
                                                                    overwrite):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "linked").symlink_to(tmp_path, target_is_directory=True)
    ranking = {"same": "r.json", "dot": "./r.json", "updown": "sub/../r.json", "absolute": str(tmp_path / "r.json"),
               "linked": "linked/r.json"}[spelling]
    code = main(["match", "random", "first", "--games", "2", *RUN, "-o", "r.json", "--ranking", ranking,
                 *(["--overwrite"] if overwrite else [])])
    err = one_error(capsys)
    assert code == 2 and "is the results file" in err
    assert not (tmp_path / "r.json").exists()  # no game was played, nothing written


def test_ranking_naming_the_record_file_is_refused_and_changes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["match", "random", "first", "--games", "2", *RUN, "-o", "r.db", "--pgnout", "x.json"]) == 0
    capsys.readouterr()
    before = {name: (tmp_path / name).read_bytes() for name in ("r.db", "x.json")}
    code = main(["match", "random", "first", "--games", "2", *RUN, "-o", "r.db", "--pgnout", "x.json",
                 "--ranking", "./x.json", "--overwrite"])
    assert code == 2 and "is the record file" in one_error(capsys)
    assert {name: (tmp_path / name).read_bytes() for name in before} == before
    # the same on --resume, where the record file is the one the run began with
    code = main(["match", "--resume", *RUN, "-o", "r.db", "--ranking", "x.json", "--overwrite"])
    assert code == 2 and "error: --ranking 'x.json' is the record file" in capsys.readouterr().err
    assert (tmp_path / "x.json").read_bytes() == before["x.json"]


def test_report_ranking_over_its_results_file_is_refused(tmp_path, capsys):
    db = tmp_path / "c.json"
    assert main(["match", "random", "first", "--games", "2", *RUN, "-o", str(db)]) == 0
    before = db.read_bytes()
    code = main(["report", str(db), "--no-plots", "--ranking", str(tmp_path / "." / "c.json"), "--overwrite"])
    assert code == 2 and "is the results file" in capsys.readouterr().err
    assert db.read_bytes() == before


def test_pgnout_naming_the_results_journal_is_refused(tmp_path, capsys):
    code = main(["match", "random", "first", "--games", "2", *RUN, "-o", str(tmp_path / "r.db"),
                 "--pgnout", str(tmp_path / "r.db-wal")])
    assert code == 2 and "SQLite journal" in one_error(capsys)
    assert not (tmp_path / "r.db").exists()


# ---- 2. a new run that cannot store its plan leaves nothing ------------------------------------


def test_failed_new_run_leaves_no_file(tmp_path):
    done = limited(["match", "random", "first", "--games", "4000", *RUN, "-o", "u.db"], tmp_path, 64 * 1024)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "results file 'u.db' cannot be written" in done.stderr and "nothing was kept" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no u.db, -wal, -shm, nor a temporary file
    # with room again, a new run on the same name just works
    ok = subprocess.run([*ZEROSUM, "match", "random", "first", "--games", "2", *RUN, "-o", "u.db"], cwd=tmp_path,
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr


# ---- 3. a full disk is a full disk, not a damaged file -----------------------------------------


def test_full_disk_on_resume_is_not_called_damage(finished):
    before = finished.read_bytes()
    done = limited(["match", "--resume", "-o", finished.name, *RUN], finished.parent, 1024)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "not a zerosum results file" not in done.stderr
    assert "'c.db' cannot be written: the disk is full" in done.stderr and "not damaged" in done.stderr
    assert finished.read_bytes() == before


def test_full_disk_during_a_run_says_what_is_kept(tmp_path):
    done = limited(["match", "random", "first", "--games", "400", *RUN, "-o", "f.db"], tmp_path, 200 * 1024)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    con = sqlite3.connect(tmp_path / "f.db")
    stored = con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    con.close()
    assert 0 < stored < 400
    assert f"it holds {stored} of 400 games" in done.stderr and "--resume -o 'f.db'" in done.stderr


# ---- 4. a results file's text is made safe -----------------------------------------------------


def test_corrupt_moves_are_escaped_in_the_error(finished, capsys):
    con = sqlite3.connect(finished)
    with con:
        con.execute("UPDATE games SET moves = CAST(X'5B1B5B33316D1B5D303B70776E656407FF' AS TEXT) WHERE idx = 0")
    con.close()
    assert main(["report", str(finished), "--no-plots"]) == 2
    out, err = capsys.readouterr()
    assert "\x1b" not in out + err and "\x07" not in out + err and "\\x1b" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("table, column, where, said", [
    ("games", "times", "idx = 1", "game 1: its times are not JSON"),
    ("meta", "value", "key = 'config'", "the stored 'config' is not JSON"),
    ("meta", "value", "key = 'engines'", "the stored 'engines' is not JSON"),
])
def test_json_nested_past_the_parser_s_depth_is_one_line(finished, table, column, where, said):
    # before: a RecursionError traceback from report, match --resume and records.from_store (audit)
    from process_helpers import zerosum_run  # tests/process_helpers.py

    with sqlite3.connect(finished) as con:
        if "engines" in where:
            con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('engines', '{}')")
        con.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", ("[" * 100_000,))
    con.close()
    for args in (["report", str(finished), "--no-plots"], ["match", "--resume", "-o", str(finished)]):
        run = zerosum_run(args)
        assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr[-800:]
        assert said in run.stderr and "Traceback" not in run.stderr, run.stderr
    import zerosum.records as records

    if "engines" in where:
        return  # records are read without the engines' descriptions
    with pytest.raises(Exception) as caught:
        list(records.from_store(str(finished)))
    assert said in str(caught.value) and not isinstance(caught.value, RecursionError)


@pytest.mark.parametrize("label", ["\x1b]0;pwned\x07\x1b[31mRED", "two\nlines", "\u202eevil", "x" * 50 + "\x1b[2J"])
def test_agent_labels_with_control_characters_are_refused(finished, capsys, label):
    con = sqlite3.connect(finished)
    with con:
        con.execute("UPDATE agents SET label = ? WHERE id = 0", (label,))
    con.close()
    assert main(["report", str(finished), "--no-plots"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and re.search(r"with a (control character|bidirectional control) '", err)
    assert not any(c in err for c in "\x1b\x07\u202e")


# ---- 5. writes on a full disk name the file --------------------------------------------------


def test_full_disk_names_the_file_written(tmp_path, monkeypatch, capsys, finished):
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    sub = tmp_path / "sub.py"
    assert main(["kaggle-agent", "random", "-o", str(sub)]) == 2
    err = one_error(capsys)
    assert f"'{sub}' cannot be written: No space left on device" in err
    ranking = tmp_path / "rank.json"
    assert main(["report", str(finished), "--no-plots", "--ranking", str(ranking)]) == 2
    assert f"'{ranking}' cannot be written: No space left on device" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.db"]  # no temporary file left


# ---- 6. --overwrite checks SQLite's companions first ---------------------------------------------


@pytest.mark.parametrize("companion", ["-wal", "-shm"])
def test_overwrite_refuses_a_companion_that_is_no_file(tmp_path, capsys, companion):
    db = tmp_path / "r.db"
    db.write_text("x\n")
    Path(str(db) + companion).mkdir()
    code = main(["match", "random", "first", "--games", "2", *RUN, "-o", str(db), "--overwrite"])
    assert code == 2 and "is a directory" in one_error(capsys)
    assert db.read_text() == "x\n"  # nothing removed
