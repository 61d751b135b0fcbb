"""benchmarks/solver_moves.py, which measures where the faces hand the solver's moves to alpha-beta (issue #26:
never past 8 x 8's ply 24), run on a few positions: it counts alpha-beta's moves one ply before the reach and
none from it on, as the agent's own ``last_fallback`` says."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "solver_moves.py"

pytest.importorskip("numba")
pytest.importorskip("zerosum.agents.alphabeta")


def test_the_benchmark_counts_alpha_betas_moves_only_before_the_reach() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--game", "connect4-8x8", "--plies", "23-24", "--per-ply", "2",
                          "--seed", "3", "--time", "0.2", "--face"], capture_output=True, text=True, timeout=300,
                         check=True).stdout
    rows = {int(cells[1]): cells[2:] for cells in (line.split("|") for line in out.splitlines())
            if len(cells) == 9 and cells[1].strip().isdigit()}
    # | ply | positions | p50 | p90 | max | alpha-beta moved | over T + margin |
    assert sorted(rows) == [23, 24], out
    assert [rows[23][0].strip(), rows[23][4].strip()] == ["2", "2"], out  # 41 empty cells: out of reach
    assert [rows[24][0].strip(), rows[24][4].strip()] == ["2", "0"], out  # 40: the solver's own moves
    assert "as the faces ask (search_within)" in out
