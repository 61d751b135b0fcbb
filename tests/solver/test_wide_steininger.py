"""The solver's scores beside Christophe Steininger's C solver, built from its public source (slow).

``benchmarks/steininger.py --check`` builds Steininger's solver for the board from the folder named by
``$ZEROSUM_C4_SOURCE`` (a checkout of github.com/ChristopheSteininger/c4; nothing of it is in this project),
solves the same positions with both, and exits 1 when any two answers differ.  These tests skip when that
variable is not set, when no C++ compiler is found, or (8 x 8) while zerosum's solver does not take the board.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solver_truth import bench_file

pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "steininger.py"


def _run(*args: str) -> str:
    source = os.environ.get("ZEROSUM_C4_SOURCE")
    if not source:
        pytest.skip("ZEROSUM_C4_SOURCE is not set (a checkout of github.com/ChristopheSteininger/c4)")
    if shutil.which(os.environ.get("CXX", "g++")) is None:
        pytest.skip("no C++ compiler to build Steininger's solver")
    done = subprocess.run([sys.executable, str(SCRIPT), "--source", source, "--check", *args],
                          capture_output=True, text=True, timeout=3600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    return done.stdout


def test_scores_agree_with_published_ones_on_7x6() -> None:
    """Both solvers give Pons' published scores (sign and scale) on 50 positions of Test_L2_R2."""
    out = _run("--game", "connect4", "--positions", bench_file("Test_L2_R2"), "--limit", "50")
    assert "disagreements: 0" in out and "left out" not in out, out


def test_scores_agree_on_sampled_8x8_positions() -> None:
    """52 quiet 8 x 8 positions, 4 at each ply from 28 to 40: the same score from both solvers."""
    out = _run("--game", "connect4-8x8", "--plies", "28-40", "--per-ply", "4", "--seed", "7", "--timeout", "600")
    assert "disagreements: 0" in out and "left out" not in out and "| timeout |" not in out, out
    rows = [line for line in out.splitlines() if line.startswith("| ") and line.split("|")[1].strip().isdigit()]
    assert sum(line.endswith("| yes |") for line in rows) == 52, out
