"""The review's time options have one bound, ``zerosum.reviewer.MAX_TIME`` (3,600 s): ``--time`` and
``--solver-time`` on the command line, ``seconds=`` and ``solver_time=`` in Python, as ``zerosum play
--solver-time``; the help, docs/review.md and the README's Limits table state it."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

import zerosum
from zerosum.cli import main
from zerosum.errors import UsageError
from zerosum.reviewer import MAX_TIME

ROOT = pathlib.Path(__file__).resolve().parents[2]
SMALL = "connectx:rows=4,cols=5,k=4"  # no opening book: --solver-time applies; proven at once


def test_one_bound_for_the_command_line_and_python():
    assert MAX_TIME == 3600.0
    from zerosum.commands.play import MAX_SOLVER_TIME

    assert MAX_SOLVER_TIME == MAX_TIME  # zerosum play --solver-time's


@pytest.mark.parametrize("option, keyword", [("--solver-time", "solver_time"), ("--time", "seconds")])
def test_the_bound_is_taken_and_one_past_it_is_refused_alike(option, keyword, capsys):
    assert main(["review", "3344", "--game", SMALL, option, f"{MAX_TIME:g}", "--line", "0"]) == 0
    out = capsys.readouterr().out
    assert "(4 moves judged" in out
    assert zerosum.review("3344", game=SMALL, line=0, **{keyword: MAX_TIME}).done
    assert main(["review", "3344", "--game", SMALL, option, "3601"]) == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err.strip() == \
        f"zerosum review: error: argument {option}: '3601' is out of range: expected a number > 0 and <= 3600"
    with pytest.raises(UsageError, match=f"{keyword} must be a number above 0 to 3600, not 3601"):
        zerosum.review("3344", game=SMALL, **{keyword: 3601})


def test_the_help_the_docs_and_the_readme_state_it():
    shown = subprocess.run([sys.executable, "-m", "zerosum", "review", "--help"], capture_output=True, text=True,
                           env={**os.environ, "COLUMNS": "200"}, timeout=60).stdout
    said = " ".join(shown.split())
    assert "(default 1, at most 3,600)" in said and "(default 10, at most 3,600)" in said, said
    docs = " ".join((ROOT / "docs" / "review.md").read_text().split())
    assert "`--time` seconds a position (default 1, above 0 and at most 3,600)" in docs
    assert "`--solver-time SECONDS` (default 10, above 0 and at most 3,600" in docs
    row = next(line for line in (ROOT / "README.md").read_text().splitlines() if "`review --time`" in line)
    assert "above 0, at most 3,600 s each" in row and "zerosum.reviewer.MAX_TIME" in row


def test_time_with_a_named_agent_is_refused_not_ignored(tmp_path, capsys):
    # --agent alphabeta --time 0.05 judged at alpha-beta's own default (about 7 s a position on 7 x 6), --time
    # silently unused: now one line says where the limit goes, and nothing is written
    out = tmp_path / "r.pgn"
    assert main(["review", "3344", "--game", SMALL, "--agent", "alphabeta", "--time", "0.05", "-o", str(out)]) == 2
    said = capsys.readouterr()
    assert said.out == "" and said.err.strip() == (
        "zerosum review: error: --time is for the default judge's estimates; the agent named keeps its own limit: "
        "give it in its spec (as in --agent alphabeta:time=0.05)")
    assert not out.exists()
    assert main(["review", "3344", "--game", SMALL, "--agent", "alphabeta:time=0.05", "--line", "0"]) == 0
    assert "(4 moves judged" in capsys.readouterr().out
