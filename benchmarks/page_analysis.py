"""The page's exact analysis of a position against ``zerosum analyze`` of it, side by side, same load.

    python benchmarks/page_analysis.py [MOVES] [--rounds N] [--budget S] [--python PYTHON] [--src DIR]

Each round, in turn:

* ``zerosum analyze MOVES`` in a new process: its wall time, and the analysis time it prints itself;
* a new ``zerosum serve`` (its default two engine workers, waited for until they are warm, untimed), then the
  page's analysis as ``panels.js`` asks for it: ``GET /api/analyze?budget=S`` again and again, each with the
  last answer's ``resume`` when it has one, until ``done``; the wall time from the first request to the last
  answer, how many slices that took, and the nodes each searched.

Both start from an empty table (a new process, a new server), so neither is warmed by the other.  The load
average is printed with every figure (other work on the machine changes them).  ``--python`` and ``--src``
run another checkout's code (``PYTHONPATH=DIR``), for a before/after comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} {five:.2f}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str, timeout: float = 60.0) -> dict:  # type: ignore[type-arg]
    with urllib.request.urlopen(url, timeout=timeout) as reply:
        return json.loads(reply.read())  # type: ignore[no-any-return]


def env_for(src: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    return env


def cli(python: str, src: str | None, moves: str) -> tuple[float, float, int]:
    """``zerosum analyze MOVES``: (wall seconds of the process, the analysis seconds and nodes it prints)."""
    start = time.perf_counter()
    out = subprocess.run([python, "-m", "zerosum", "analyze", moves], capture_output=True, text=True, check=True,
                         env=env_for(src)).stdout
    wall = time.perf_counter() - start
    found = re.search(r"nodes: (\d+), ([\d.]+) ms", out)
    return (wall, float(found.group(2)) / 1000, int(found.group(1))) if found else (wall, float("nan"), 0)


def page(python: str, src: str | None, moves: str, budget: float) -> tuple[float, int, bool, int]:
    """A new server, warm; then the page's slices until done: (wall seconds, slices, exact, nodes)."""
    port = free_port()
    server = subprocess.Popen([python, "-m", "zerosum", "serve", "--port", str(port)], env=env_for(src),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 300
        while True:  # every worker warm (its compiled code loaded) before anything is timed
            try:
                health = get(base + "/api/health", 5)
                if health.get("engines_ready", 0) >= health.get("engines", 2) and health.get("ready", True):
                    break
            except OSError:
                pass
            if time.time() > deadline:
                raise SystemExit("the server did not get ready in 300 s")
            time.sleep(0.5)
        time.sleep(1.0)
        params = {"game": "connect4", "moves": moves, "budget": f"{budget:g}"}
        slices, start = 0, time.perf_counter()
        while True:
            reply = get(base + "/api/analyze?" + urllib.parse.urlencode(params))
            slices += 1
            if reply.get("done") is not False:
                return time.perf_counter() - start, slices, bool(reply.get("exact")), int(reply.get("nodes") or 0)
            if reply.get("resume"):
                params["resume"] = reply["resume"]
    finally:
        server.terminate()
        server.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("moves", nargs="?", default="32771557")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--budget", type=float, default=0.5, help="the page's slice (seconds; panels.js: 0.5)")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--src", default=None, help="another checkout's src directory (PYTHONPATH)")
    args = parser.parse_args()
    print(f"position {args.moves}, {args.rounds} rounds, page slices of {args.budget:g} s, "
          f"{os.cpu_count()} CPUs, code from {args.src or 'the installed zerosum'}", flush=True)
    cli(args.python, args.src, "44")  # compiled code loaded once (numba's cache), untimed
    walls, inner, pages = [], [], []
    for n in range(1, args.rounds + 1):
        wall, analysis, nodes = cli(args.python, args.src, args.moves)
        walls.append(wall)
        inner.append(analysis)
        print(f"round {n}: zerosum analyze  {wall:6.2f} s wall, {analysis:6.2f} s analysing, {nodes:,} nodes "
              f"({load()})", flush=True)
        seconds, slices, exact, searched = page(args.python, args.src, args.moves, args.budget)
        pages.append(seconds)
        print(f"round {n}: the page         {seconds:6.2f} s to {'exact' if exact else 'NOT exact'}, {slices} slices, "
              f"{searched:,} nodes ({load()})", flush=True)
    med_page, med_wall, med_inner = (statistics.median(v) for v in (pages, walls, inner))
    by_wall = statistics.median(p / w for p, w in zip(pages, walls))  # each round's pair: the same load
    by_inner = statistics.median(p / i for p, i in zip(pages, inner))
    print(f"median: the page {med_page:.2f} s; zerosum analyze {med_wall:.2f} s wall ({med_inner:.2f} s analysing)")
    print(f"median of the rounds' ratios: page / analyze's wall time {by_wall:.2f}, page / its analysing time "
          f"{by_inner:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
