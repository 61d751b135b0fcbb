"""A results file in a folder the reader cannot write (a course's shared results, a read-only mount): the
report's tables are printed and the plots left out with one line saying why, where they used to fail the
whole report (exit 2).  A folder named with ``--plots`` that cannot be written is still refused before
anything is shown.  The folder is made read-only for real: a read-only bind mount (bubblewrap), which holds
for root too."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from zerosum.cli import main

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap (bwrap)")


def _read_only(folder, *args: str) -> subprocess.CompletedProcess[str]:
    """``zerosum report ...`` run in ``folder``, mounted read-only."""
    command = ["bwrap", "--bind", "/", "/", "--ro-bind", str(folder), str(folder), "--dev", "/dev", "--proc",
               "/proc", "--chdir", str(folder), sys.executable, "-m", "zerosum", "report", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_a_read_only_results_folder_gets_the_tables_without_plots(tmp_path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    assert main(["tournament", "random", "random", "--game", "tictactoe", "--games", "2", "--jobs", "1",
                 "--out", str(shared / "t.db"), "--quiet"]) == 0
    done = _read_only(shared, "t.db")
    assert done.returncode == 0, done.stderr
    assert "Ranking" in done.stdout and "wrote" not in done.stdout
    assert done.stderr.strip().splitlines() == [
        f"zerosum report: no plots: the results file's folder '{shared}' is not writable (--plots DIR writes "
        "them elsewhere)"]
    asked = _read_only(shared, "t.db", "--plots", str(shared))  # named: refused, before any table
    assert asked.returncode == 2 and asked.stdout == "" and "is not writable" in asked.stderr
    elsewhere = _read_only(shared, "t.db", "--plots", str(tmp_path))
    assert elsewhere.returncode == 0 and "wrote" in elsewhere.stdout and elsewhere.stderr == ""
    assert sorted(p.name for p in shared.iterdir()) == ["t.db"]
