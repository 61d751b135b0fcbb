"""What running agents as external programs costs the arena: the same match as Python agents and as engines.

    python benchmarks/external_overhead.py [--games N] [--time S] [--rounds R] [--jobs J] [--agents A B]

Plays ``zerosum match A B --time S --games N`` twice a round, in turn: once with A and B as zerosum's own
agents in the arena's worker processes, once with each as an external program speaking the engine protocol,
``python -m zerosum engine A`` (``--engine a=... --engine b=...``, the arena's ``go movetime`` doing what
``--time`` does for the Python agents).  Same seed, openings and time per move.  A first round (0) is not
counted: it fills the compile caches.  For every run it prints the wall time of the whole command (start-up
included), the moves played, the wall time per move and the mean time per move as the workers stored it (a
Python agent's search; an engine's move from writing ``position`` to reading ``bestmove``); then the ratios
of the medians, external over Python (the target of issue #23: at most 1.10), and the engines' latency as
the run measured it (the median ``isready`` round trip).  Game lengths differ between runs (a timed search
is not deterministic), so the per-move ratios are the fair ones.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(cmd: list[str], db: Path) -> tuple[float, int, float, str]:
    """Wall seconds of ``cmd``, the moves its run stored, their mean stored seconds (each move as its worker
    timed it: the agent's search, or for an engine everything from writing ``position`` to reading
    ``bestmove``), and its engines' latency line."""
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"failed ({done.returncode}): {shlex.join(cmd)}\n{done.stderr}")
    con = sqlite3.connect(db)
    try:
        times = [t for (m,) in con.execute("SELECT times FROM games") for t in json.loads(m)]
        moves = len(times)
        forfeits = con.execute("SELECT COUNT(*) FROM games WHERE forfeit = 1").fetchone()[0]
    finally:
        con.close()
    if forfeits:
        print(f"  note: {forfeits} forfeit(s) in {db.name}", flush=True)
    report = subprocess.run([sys.executable, "-m", "zerosum", "report", str(db), "--no-plots"], capture_output=True,
                            text=True).stdout
    latency = "; ".join(line.strip() for line in report.splitlines() if line.startswith("engine "))
    return wall, moves, statistics.fmean(times) if times else float("nan"), latency


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--time", type=float, default=0.1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--agents", nargs=2, default=["alphabeta", "mcts"], metavar=("A", "B"))
    args = parser.parse_args()
    a, b = args.agents
    common = ["--time", str(args.time), "--games", str(args.games), "--jobs", str(args.jobs), "--seed", "1",
              "--quiet", "--overwrite"]
    python = [sys.executable, "-m", "zerosum"]
    engine = shlex.join([sys.executable, "-m", "zerosum", "engine"])
    rows: dict[str, list[tuple[float, int, float]]] = {"python": [], "external": []}
    print(f"match {a} vs {b}, --time {args.time:g}, {args.games} games, --jobs {args.jobs}, {args.rounds} rounds; "
          f"load {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory(prefix="zerosum-overhead-") as folder:
        for r in range(-1, args.rounds):  # round 0 is not counted: it fills the compile caches
            for kind in ("python", "external"):
                db = Path(folder) / f"{kind}-{r + 1}.db"
                if kind == "python":
                    cmd = [*python, "match", a, b, *common, "--out", str(db)]
                else:
                    cmd = [*python, "match", "ea", "eb", "--engine", f"ea={engine} {a}", "--engine", f"eb={engine} {b}",
                           *common, "--out", str(db)]
                wall, moves, stored, latency = run(cmd, db)
                if r >= 0:
                    rows[kind].append((wall, moves, stored))
                print(f"round {r + 1} {kind:8s}: {wall:6.2f} s, {moves} moves, {1000 * wall / moves:6.1f} ms a move "
                      f"(stored {1000 * stored:5.1f} ms)"
                      + (f"  [{latency}]" if latency else "") + f"  (load {os.getloadavg()[0]:.2f})", flush=True)
    med = {k: statistics.median(w for w, _, _ in v) for k, v in rows.items()}
    per = {k: statistics.median(w / m for w, m, _ in v) for k, v in rows.items()}
    kept = {k: statistics.median(t for _, _, t in v) for k, v in rows.items()}
    print(f"median wall: python {med['python']:.2f} s, external {med['external']:.2f} s: ratio "
          f"{med['external'] / med['python']:.3f}")
    print(f"median per move: python {1000 * per['python']:.1f} ms, external {1000 * per['external']:.1f} ms: ratio "
          f"{per['external'] / per['python']:.3f}")
    print(f"median stored time per move: python {1000 * kept['python']:.1f} ms, external {1000 * kept['external']:.1f} "
          f"ms: ratio {kept['external'] / kept['python']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
