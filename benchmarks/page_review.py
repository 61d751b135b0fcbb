"""The page's review of recorded games, as ``study.js`` asks for it: the time to the first marks and to the end.

    python benchmarks/page_review.py [FILE] [--games N] [--budget S]

A ``zerosum serve`` app (its default two engine workers, waited for until they are warm, untimed) in this
process; then, for each game of FILE (default ``benchmarks/review_games.pgn``: the solver against alpha-beta
and MCTS on 7 x 6), ``GET /api/review?budget=S`` (the first ``--first`` seconds) again and again with the
last answer's ``resume`` until ``done``: the seconds to the first answer (the first marks on the page's graph and move list), to the last,
and the slices it took.  p50, p90 and the max over the games, with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import sys
import threading
import time
import urllib.parse
import urllib.request


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    from zerosum.records import read
    from zerosum.ui.server import create_app, serve_config

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default="benchmarks/review_games.pgn")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--budget", default="0.5", help="seconds a slice (the page's: 0.5)")
    parser.add_argument("--first", default="0.1", help="seconds of the first slice (the page's: 0.1)")
    args = parser.parse_args(argv)
    games = read(args.file)[: args.games]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(serve_config(create_app(), "127.0.0.1", port))
    threading.Thread(target=server.run, daemon=True).start()
    base = f"http://127.0.0.1:{port}"

    def get(path: str, **params: str) -> dict:
        with urllib.request.urlopen(f"{base}{path}?{urllib.parse.urlencode(params)}", timeout=600) as reply:
            return json.loads(reply.read())

    while not server.started:
        time.sleep(0.05)
    while not get("/api/health").get("ready"):
        time.sleep(0.5)
    first, whole, slices = [], [], []
    for record in games:
        moves = record.tags.get("Opening", "-").replace("-", "") + "".join(record.moves)
        params = {"game": record.tags["Game"], "moves": moves, "budget": args.first}
        began, n = time.perf_counter(), 0
        while True:
            reply = get("/api/review", **params)
            n += 1
            if n == 1:
                first.append(time.perf_counter() - began)
            if reply["done"]:
                break
            params["resume"], params["budget"] = reply["resume"], args.budget
        whole.append(time.perf_counter() - began)
        slices.append(n)
        print(f"{len(moves):3d} plies: first marks {first[-1]:.2f} s, all {whole[-1]:.2f} s, {n} slices "
              f"(load {os.getloadavg()[0]:.2f})", flush=True)

    def spread(xs: list[float]) -> str:
        xs = sorted(xs)
        p90 = xs[min(len(xs) - 1, int(round(0.9 * (len(xs) - 1))))]
        return f"p50 {statistics.median(xs):.2f} s, p90 {p90:.2f} s, max {xs[-1]:.2f} s"

    print(f"{len(games)} games: first marks {spread(first)}; whole review {spread(whole)}; "
          f"slices p50 {statistics.median(slices):g}")
    server.should_exit = True
    return 0


if __name__ == "__main__":
    sys.exit(main())
