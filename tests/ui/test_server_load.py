"""A bounded load test of `zerosum serve` on loopback, started as a real process.

20 clients send engine requests at once: every answer is 200 or the documented 503 (busy), never another
5xx; `/api/health` answers throughout (p99 under 200 ms in the slow run, which times it); and no engine
worker remains once the server is stopped (Ctrl-C) or killed with SIGKILL -- checked by process id.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter

import pytest

httpx = pytest.importorskip("httpx")
pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds worker processes in /proc (Linux)")

CLIENTS = 20
COMMAND = [sys.executable, "-m", "zerosum"]
#: quick engine requests: the load is about the server, not about the engines
REQUESTS = [
    ("POST", "/api/move", {"game": "connect4", "moves": "4453", "agent": "random"}),
    ("POST", "/api/move", {"game": "tictactoe", "moves": "5", "agent": "alphabeta:depth=2"}),
    ("POST", "/api/move", {"game": "connect4", "moves": "44", "agent": "mcts:sims=100"}),
    ("GET", "/api/analyze", {"game": "tictactoe", "moves": "15"}),
    ("POST", "/api/move", {"game": "migration:n=6", "moves": "", "agent": "first"}),
]
#: engine requests that search for a while (the slow run): the workers keep both cores busy
SEARCHES = [
    ("POST", "/api/move", {"game": "connect4", "moves": "4453", "agent": "alphabeta:time=0.2"}),
    ("POST", "/api/move", {"game": "connect4", "moves": "44", "agent": "mcts:time=0.2"}),
    ("GET", "/api/analyze", {"game": "connect4", "moves": "444444333"}),
    ("POST", "/api/move", {"game": "migration:n=8", "moves": "", "agent": "alphabeta:time=0.1"}),
    ("POST", "/api/move", {"game": "connect4", "moves": "1", "agent": "random"}),
]


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def gone(pids: list[int], seconds: float = 15.0) -> list[int]:
    """The pids still running after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    left = list(pids)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = [p for p in left if os.path.exists(f"/proc/{p}") and not _zombie(p)]
    return left


def _zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


class Server:
    """`zerosum serve` on a free loopback port, in its own process."""

    def __init__(self, workers: int = 2, engine_time: float = 2.0) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [*COMMAND, "serve", "--port", str(self.port), "--workers", str(workers),
             "--engine-time", f"{engine_time:g}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                reply = httpx.get(self.url + "/api/health", timeout=1)
                if reply.status_code == 200 and reply.json()["engines_ready"] == workers:
                    return  # up, its engines loaded
                time.sleep(0.1)
            except httpx.HTTPError:
                time.sleep(0.1)
            if self.proc.poll() is not None:
                break
        if self.proc.poll() is None:
            self.proc.kill()
        err = self.proc.communicate(timeout=10)[1] or ""
        pytest.fail("zerosum serve did not start: " + (err.strip().splitlines() or ["(nothing on stderr)"])[-1])

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        if self.proc.stderr:
            self.proc.stderr.close()


def clients(url: str, per_client: int, requests: list[tuple[str, str, dict[str, str]]]) -> Counter[int]:
    """CLIENTS threads sending ``per_client`` of ``requests`` each; the answers' status counts."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def client(i: int) -> None:
        with httpx.Client(base_url=url, timeout=60) as c:
            for j in range(per_client):
                method, path, data = requests[(i + j) % len(requests)]
                try:
                    reply = c.post(path, json=data) if method == "POST" else c.get(path, params=data)
                    status = reply.status_code
                except httpx.HTTPError:
                    status = 0  # no answer at all
                with lock:
                    statuses[status] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def load(url: str, per_client: int, heavy: bool = False) -> tuple[Counter[int], list[float], int]:
    """Run :func:`clients` in a process of its own (so that its threads do not slow this one's clock) while
    this process polls /api/health.  Returns the engine answers' status counts, the health latencies
    (seconds) and the failed health calls."""
    latencies: list[float] = []
    failures = 0
    proc = subprocess.Popen([sys.executable, __file__, url, str(per_client), "heavy" if heavy else "light"], stdout=subprocess.PIPE, text=True)
    with httpx.Client(base_url=url, timeout=5) as c:
        while proc.poll() is None:
            start = time.perf_counter()
            try:
                ok = c.get("/api/health").status_code == 200
            except httpx.HTTPError:
                ok = False
            latencies.append(time.perf_counter() - start)
            failures += not ok
            time.sleep(0.01)
    out = proc.communicate()[0]
    return Counter({int(k): v for k, v in json.loads(out).items()}), latencies, failures


def check_answers(statuses: Counter[int], expected: int) -> None:
    assert sum(statuses.values()) == expected
    assert set(statuses) <= {200, 503}, statuses  # busy is the one 5xx the server may give
    assert statuses[200] > 0


def test_serve_under_load_then_stopped_leaves_no_worker() -> None:
    server = Server(workers=2)
    try:
        statuses, latencies, failures = load(server.url, per_client=3)
        check_answers(statuses, CLIENTS * 3)
        assert failures == 0 and latencies  # health answered throughout
        workers = children(server.proc.pid)
        assert workers  # the engines ran in worker processes
        server.proc.send_signal(signal.SIGINT)  # Ctrl-C
        assert server.proc.wait(30) == 130  # stopped by Ctrl-C, as the command line reports it
        assert "Traceback" not in (server.proc.stderr.read() if server.proc.stderr else "")
        assert gone(workers) == []
    finally:
        server.close()


def test_serve_killed_with_sigkill_leaves_no_worker() -> None:
    server = Server(workers=2)
    try:
        with httpx.Client(base_url=server.url, timeout=60) as c:
            for method, path, data in REQUESTS[:2]:
                assert c.post(path, json=data).status_code == 200

        def long_search() -> None:
            try:
                httpx.post(server.url + "/api/move", timeout=60, json={"game": "connect4", "agent": "minimax:depth=6"})
            except httpx.HTTPError:
                pass  # the server is killed under it

        searching = threading.Thread(target=long_search)
        searching.start()
        time.sleep(0.5)  # a long search is running when the server dies
        workers = children(server.proc.pid)
        assert workers
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait(10)
        searching.join(60)
        assert gone(workers) == []
    finally:
        server.close()


@pytest.mark.slow
def test_serve_answers_200_engine_requests_from_20_clients_and_health_stays_quick() -> None:
    server = Server(workers=2)
    try:
        statuses, latencies, failures = load(server.url, per_client=10, heavy=True)
        check_answers(statuses, CLIENTS * 10)
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
        print(f"answers {dict(statuses)}; health: {len(latencies)} calls, median "
              f"{latencies[len(latencies) // 2] * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
        assert failures == 0
        assert p99 < 0.2
        workers = children(server.proc.pid)
        server.proc.send_signal(signal.SIGINT)
        assert server.proc.wait(30) == 130
        assert gone(workers) == []
    finally:
        server.close()


if __name__ == "__main__":  # the clients of load(), in their own process
    print(json.dumps(clients(sys.argv[1], int(sys.argv[2]), SEARCHES if sys.argv[3] == "heavy" else REQUESTS)))
