"""Flags that read alike (#23, item 7): -o/--output names a command's main output (the old --out and
--export still work), a second run in a folder takes the next free results file and says so, and the
progress bar of an SPRT that stops early ends at the real count."""

import os
import pty
import re
import sqlite3
import subprocess
import sys
import time

import pytest

from zerosum.cli import main
from zerosum.records import read

QUICK = ["random", "first", "--game", "tictactoe", "--games", "2", "--jobs", "1", "--quiet", "--grace", "5"]


def games_in(db) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        con.close()


def test_a_second_run_in_a_folder_takes_the_next_free_name_and_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["match", *QUICK]) == 0
    assert capsys.readouterr().err == ""
    assert main(["match", *QUICK]) == 0
    out, err = capsys.readouterr()
    assert err == ("results.db holds a run (2 games): this run writes results-2.db (to carry it on later: "
                   "--resume -o results-2.db; -o results.db --overwrite replaces results.db; -o FILE names the file)\n")
    assert "2 games in results-2.db" in out
    assert main(["tournament", *QUICK]) == 0
    assert "this run writes results-3.db" in capsys.readouterr().err
    assert [games_in(tmp_path / n) for n in ("results.db", "results-2.db", "results-3.db")] == [2, 2, 2]
    (tmp_path / "results-4.db").write_text("not a results file")  # taken too: skipped
    assert main(["match", *QUICK]) == 0
    assert "this run writes results-5.db" in capsys.readouterr().err

    # a file the user names is never swapped: refused in one line, nothing written
    for flag in ("-o", "--output", "--out"):
        assert main(["match", *QUICK, flag, "results.db"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "'results.db' already holds 2 games" in err
    assert sorted(p.name for p in tmp_path.glob("results*.db")) == \
           ["results-2.db", "results-3.db", "results-4.db", "results-5.db", "results.db"]
    assert main(["match", "--resume", "--jobs", "1", "--quiet"]) == 0  # --resume without a name: results.db
    assert capsys.readouterr().out.startswith("2 games in results.db")


def test_overwrite_replaces_only_the_files_named_never_the_unnamed_results_file(tmp_path, monkeypatch, capsys):
    """The audit's journey: results.db holds a run, --pgnout names a file that exists and is refused with the
    advice to pass --overwrite; passing it replaced results.db too. Now it replaces the record file only, and
    the run takes the next free name, as without --overwrite."""
    monkeypatch.chdir(tmp_path)
    assert main(["match", *QUICK]) == 0
    before = (tmp_path / "results.db").read_bytes()
    (tmp_path / "x.pgn").write_text("old notes\n")
    capsys.readouterr()
    assert main(["match", *QUICK, "--pgnout", "x.pgn"]) == 2
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and "--overwrite" in err and "x.pgn" in err, err  # no word of results-2.db
    assert not (tmp_path / "results-2.db").exists() and (tmp_path / "x.pgn").read_text() == "old notes\n"
    assert main(["match", *QUICK, "--pgnout", "x.pgn", "--overwrite"]) == 0
    assert "this run writes results-2.db" in capsys.readouterr().err
    assert (tmp_path / "results.db").read_bytes() == before and games_in(tmp_path / "results-2.db") == 2
    assert len(read(tmp_path / "x.pgn")) == 2
    assert main(["match", *QUICK, "-o", "results.db", "--overwrite"]) == 0  # named: replaced
    assert games_in(tmp_path / "results.db") == 2 and (tmp_path / "results.db").read_bytes() != before


def test_an_error_after_the_next_free_name_is_one_line_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["match", *QUICK]) == 0
    capsys.readouterr()
    assert main(["match", "random", "first", "--sprt", "0,50,0.6,0.6", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "alpha" in err and "results-2.db" not in err, err
    assert sorted(p.name for p in tmp_path.glob("results*")) == ["results.db"]


def test_output_and_its_old_spellings_name_the_same_file(tmp_path, capsys):
    db = tmp_path / "r.db"
    assert main(["match", *QUICK, "-o", str(db)]) == 0
    assert games_in(db) == 2
    for flag in ("-o", "--output", "--export"):
        target = tmp_path / f"export{flag.strip('-')}.pgn"
        assert main(["report", str(db), flag, str(target)]) == 0
        assert f"wrote 2 games to {target}" in capsys.readouterr().out
        assert [r.tags["Round"] for r in read(target)] == ["1", "2"]


@pytest.mark.skipif(not hasattr(pty, "openpty"), reason="needs a pseudo-terminal")
def test_the_progress_bar_of_an_sprt_that_stops_early_ends_at_the_real_count(tmp_path):
    main_fd, child = pty.openpty()
    env = {**os.environ, "COLUMNS": "200"}
    db = tmp_path / "s.db"
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "match", "mcts:sims=50", "random", "--sprt", "0,400",
                             "--jobs", "1", "--grace", "5", "-o", str(db)], stdin=child, stdout=child, stderr=child,
                            env=env, cwd=tmp_path)
    os.close(child)
    out = b""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        try:
            chunk = os.read(main_fd, 4096)
        except OSError:  # the child closed its end
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(main_fd)
    text = out.decode("utf-8", "replace")
    assert proc.returncode == 0, text[-2000:]
    played = games_in(db)
    assert 2 <= played < 20000
    # the bar's last frame: the real count, done, and why it stopped (no "105/20000 ... 0:14:04" left)
    last = [frame for frame in re.split(r"[\r\n]", text) if "SPRT stopped" in frame][-1]
    assert f"{played} games (SPRT stopped: H1 accepted)" in " ".join(last.split())
    assert re.findall(r"(\d+)/(\d+)", last)[-1] == (str(played), str(played))
    assert "/20000" not in last


def test_resume_refuses_settings_that_differ_from_the_run_and_takes_the_same_again(tmp_path, capsys):
    """``--resume`` silently ignored ``--games 10`` on a run of 4 (and ``--time``): a setting given again must be
    the run's; the command that began the run, with --resume added, carries it on."""
    db = str(tmp_path / "a.db")
    began = ["match", "first", "random", "--game", "tictactoe", "--games", "4", "--seed", "3", "--tc", "2+0.05",
             "--adjudicate", "draw=30", "--jobs", "1", "--quiet", "-o", db]
    assert main(began) == 0
    assert main([*began, "--resume"]) == 0
    assert main(["match", "--resume", "-o", db, "--quiet"]) == 0
    capsys.readouterr()
    for extra, said in ((["--games", "10"], "--games 10 (the run: 4)"), (["--time", "0.5"], "--time 0.5 (the run: none)"),
                        (["--tc", "3"], "--tc 3+0 (the run: 2+0.05)"), (["--seed", "1"], "--seed 1 (the run: 3)"),
                        (["--game", "connect4"], "--game connect4 (the run: tictactoe)"),
                        (["--adjudicate", "draw=20"], "--adjudicate draw=20 (the run: "),
                        (["--opening-plies", "3"], "--opening-plies 3 (the run: random, 2 plies)")):
        assert main(["match", "--resume", "-o", db, "--quiet", *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err and "start a new run" in err, err
    assert games_in(db) == 4


def test_records_named_like_the_results_file_are_refused_first(tmp_path, capsys):
    """``report r.db -o r.db`` said "pass --overwrite", and with --overwrite that it is the results file."""
    db = tmp_path / "r.db"
    assert main(["match", *QUICK, "-o", str(db)]) == 0
    before = db.read_bytes()
    capsys.readouterr()
    for extra in ([], ["--overwrite"]):
        assert main(["report", str(db), "-o", str(db), *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "is the results file itself" in err, err
    assert db.read_bytes() == before
