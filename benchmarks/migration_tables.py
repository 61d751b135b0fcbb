"""The Migration tables of docs/experiments.md, generated: runs the two tournaments the page shows and prints
their results as markdown.

    python benchmarks/migration_tables.py [--board 5 8] [--jobs 2]

For each board it runs the exact command shown (``zerosum tournament ... --games 2 --opening-plies 0``, into
a results file in a temporary folder) and prints the command, a cross table of every game (row: the agent
that moved first, column: the one that moved second; cell: the result from the first player's view and the
number of moves), and each agent's record as first and as second player with its time and nodes per move.
The games do not depend on the clock (depth-limited alpha-beta, seed 0), so the tables are the same on
every machine; the times are this machine's.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shlex
import tempfile
import time
from typing import Any

from zerosum.arena.match import open_run
from zerosum.arena.report import summarize
from zerosum.cli import main

#: the runs of docs/experiments.md: board -> the tournament's arguments (after ``zerosum tournament``)
RUNS: dict[int, list[str]] = {
    5: ["alphabeta:depth=1000", "alphabeta:depth=2", "alphabeta:depth=5", "alphabeta:depth=100", "--gauntlet",
        "--game", "migration:n=5", "--games", "2", "--opening-plies", "0"],
    8: ["alphabeta:depth=1", "alphabeta:depth=2", "alphabeta:depth=3", "alphabeta:depth=5", "alphabeta:depth=7",
        "--game", "migration:n=8", "--games", "2", "--opening-plies", "0", "--deadline", "300"],
}


def _short(label: str) -> str:
    """``alphabeta:depth=5`` -> ``depth 5`` (``depth 1000``: a full search on 5 x 5)."""
    return label.replace("alphabeta:depth=", "depth ")


def tables(path: str) -> str:
    """The markdown tables of the run stored in ``path``."""
    store, config = open_run(path)
    with store:
        labels = [label for label, _ in store.agents()]
        plan = {g.idx: g for g in store.plan()}
        games = list(store.games())
        report = summarize(store)
    cells: dict[tuple[int, int], str] = {}
    record = {i: {"first": [0, 0, 0], "second": [0, 0, 0]} for i in range(len(labels))}
    for rec in games:
        g = plan[rec.idx]
        cells[(g.first, g.second)] = f"{rec.result} ({len(rec.moves)})" + (" forfeit" if rec.forfeit else "")
        k = {"1-0": 0, "1/2-1/2": 1, "0-1": 2}[rec.result]
        record[g.first]["first"][k] += 1
        record[g.second]["second"][2 - k] += 1
    firsts = sorted({g.first for g in plan.values()})
    seconds = sorted({g.second for g in plan.values()})
    out = ["| first \\ second | " + " | ".join(_short(labels[j]) for j in seconds) + " |",
           "| --- |" + " --- |" * len(seconds)]
    for i in firsts:
        out.append(f"| {_short(labels[i])} | " + " | ".join(cells.get((i, j), "") for j in seconds) + " |")
    out += ["", "| agent | as first +W =D -L | as second +W =D -L | score | ms/move | nodes/move |",
            "| --- | --- | --- | --- | --- | --- |"]
    by_label = {s.label: s for s in report.standings}
    for i, label in enumerate(labels):
        st = by_label[label]
        f, s = record[i]["first"], record[i]["second"]
        out.append(f"| {_short(label)} | +{f[0]} ={f[1]} -{f[2]} | +{s[0]} ={s[1]} -{s[2]} | "
                   f"{st.points:g}/{st.games} | {st.move_ms:,.1f} | {st.nodes:,.0f} |")
    return "\n".join(out)


def run_board(n: int, jobs: int, folder: str) -> tuple[str, float]:
    path = os.path.join(folder, f"migration{n}.db")
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):  # its one line of output ("6 games in ...")
        code = main(["tournament", *RUNS[n], "--jobs", str(jobs), "--out", path, "--quiet"])
    if code != 0:
        raise SystemExit(f"the {n} x {n} tournament failed (exit {code})")
    return tables(path), time.perf_counter() - start


def run(argv: Any = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", type=int, nargs="+", choices=sorted(RUNS), default=sorted(RUNS))
    parser.add_argument("--jobs", type=int, default=2, help="games played at once (default 2)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="zerosum-migration-") as folder:
        for n in args.board:
            text, seconds = run_board(n, args.jobs, folder)
            print(f"Migration {n} x {n}: `zerosum tournament {shlex.join(RUNS[n])}` "
                  f"({seconds:.1f} s with --jobs {args.jobs}, load {os.getloadavg()[0]:.1f})\n")
            print(text + "\n")


if __name__ == "__main__":
    run()
