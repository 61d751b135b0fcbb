"""Benchmark (not a test): the latency of the browser page's API, median of rounds.

    python tests/ui/bench_api.py [--rounds 3] [--requests 50]

Starts `zerosum serve`'s app on a free port (one engine worker) and times GET /api/state and
POST /api/move with the `random` agent (the engine round trip through the worker process).
"""

from __future__ import annotations

import argparse
import socket
import statistics
import threading
import time

import httpx
import uvicorn

from zerosum.ui.server import create_app, serve_config


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(serve_config(create_app(workers=1), "127.0.0.1", port))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}")
    body = {"game": "connect4", "moves": "4453", "agent": "random"}
    while client.get("/api/health").json()["engines_ready"] < 1:  # the worker loads the engines
        time.sleep(0.1)

    def median_ms(call) -> float:
        times = []
        for _ in range(args.requests):
            start = time.perf_counter()
            assert call().status_code == 200
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000

    state, move = [], []
    for _ in range(args.rounds):
        state.append(median_ms(lambda: client.get("/api/state", params={"game": "connect4", "moves": "4453"})))
        move.append(median_ms(lambda: client.post("/api/move", json=body)))
    print(f"GET /api/state: {statistics.median(state):.1f} ms; POST /api/move (random): {statistics.median(move):.1f} ms")
    server.should_exit = True


if __name__ == "__main__":
    main()
