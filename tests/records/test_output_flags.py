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
                   "--resume -o results-2.db; --overwrite replaces results.db; -o FILE names the file)\n")
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
