"""Engine work whose client has gone, on a real ``zerosum serve`` (one engine process): a request whose client
hung up is dropped before it takes the worker, so the clients after it are not locked out; a running job
whose client hung up is stopped (its worker killed and replaced) once :data:`~zerosum.ui.engines.KILL_GRACE`
seconds have passed; and ``/api/health`` counts the engine requests running or waiting (``engine_requests``).

Clients are raw sockets that send a request and close without reading the answer, as a browser tab that moved
on or was closed does (``curl -m``).  The waits are on events (the server's count, a process gone), with
generous bounds.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from zerosum.ui import engines

pytest.importorskip("uvicorn")

#: a job of many seconds: a progressive analysis (the solver's) of an early 8 x 7 position, S seconds of it
LONG = "/api/analyze?game=connectx:rows=7,cols=8,k=4&moves={moves}&budget={seconds}"
BUSY_WAIT = 10.0  # the server's: how long a request waits for the worker before a 503


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    """``zerosum serve --workers 1 --engine-time 30``: (base address, process)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    err = tmp_path_factory.mktemp("abandon") / "stderr.txt"
    with open(err, "w") as stderr:
        server = subprocess.Popen([sys.executable, "-m", "zerosum", "serve", "--port", str(port), "--workers", "1",
                                   "--engine-time", "30"], stdout=subprocess.DEVNULL, stderr=stderr,
                                  preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120  # imports, and the worker's warm-up, on a busy machine
        while not health(base, server).get("ready"):
            assert time.monotonic() < deadline, "the engine did not get ready within 120 s"
            time.sleep(0.2)
        yield base, server
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert "Traceback" not in err.read_text(), err.read_text()


def health(base: str, server: subprocess.Popen) -> dict:
    assert server.poll() is None, "zerosum serve ended"
    try:
        with urllib.request.urlopen(base + "/api/health", timeout=10) as reply:
            return json.load(reply)
    except OSError:
        return {}


def wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what}: not within {seconds:g} s"
        time.sleep(0.1)


def send(base: str, path: str, body: dict | None = None) -> socket.socket:
    """A client that sends its request and never reads the answer: its socket (close it to hang up)."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    if body is None:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    else:
        data = json.dumps(body).encode()
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    return sock


def quick_move(base: str) -> tuple[int, dict]:
    """A fresh client's instant move (the first legal one, tic-tac-toe): its status and answer."""
    request = urllib.request.Request(base + "/api/move", method="POST", headers={"Content-Type": "application/json"},
                                     data=json.dumps({"game": "tictactoe", "moves": "5", "agent": "first"}).encode())
    try:
        with urllib.request.urlopen(request, timeout=120) as reply:
            return reply.status, json.load(reply)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def workers(server: subprocess.Popen) -> set[int]:
    """The server's engine processes (multiprocessing's spawned children, not its resource tracker)."""
    out = subprocess.run(["ps", "-ww", "-o", "pid=,args=", "--ppid", str(server.pid)], capture_output=True,
                         text=True).stdout
    return {int(line.split()[0]) for line in out.splitlines() if "spawn_main" in line}


@pytest.mark.slow  # 4 s; CI keeps the running job stopped after the grace
def test_requests_whose_clients_hung_up_are_dropped_before_they_take_the_worker(serve) -> None:
    base, server = serve
    # eight clients each ask for 4 s of engine work and hang up: queued, old code ran them one after another
    # (32 s) and a fresh client waited BUSY_WAIT for the worker, then got 503 "every engine is busy"
    clients = [send(base, LONG.format(moves=f"4{i}", seconds=4)) for i in range(1, 9)]
    wait_for(lambda: health(base, server)["engine_requests"] == 8, 30, "the eight requests arrived")
    for sock in clients:
        sock.close()
    # at once, the seven waiting are dropped; the one running ends (or is stopped) within its budget
    wait_for(lambda: health(base, server)["engine_requests"] <= 1, BUSY_WAIT / 2, "the waiting requests dropped")
    status, answer = quick_move(base)
    assert status == 200 and answer["moves"] == "51", answer  # not 503 after BUSY_WAIT
    wait_for(lambda: health(base, server)["engine_requests"] == 0, 30, "every request ended")


def test_a_running_job_whose_client_hung_up_is_stopped_after_the_grace(serve) -> None:
    base, server = serve
    wait_for(lambda: health(base, server).get("ready") and len(workers(server)) == 1, 60, "one warm worker")
    (busy,) = workers(server)
    client = send(base, LONG.format(moves="46", seconds=25))  # 25 s of work
    wait_for(lambda: health(base, server)["engine_requests"] == 1, 30, "the request arrived")
    time.sleep(0.5)  # its job has started in the worker
    hung_up = time.monotonic()
    client.close()
    # its worker is killed once the grace has passed (old code: it ran its 25 s, and stayed)
    wait_for(lambda: busy not in workers(server), 15, "the worker of the abandoned job killed")
    assert time.monotonic() - hung_up >= engines.KILL_GRACE - 0.5  # not at once: a short job would have ended by then
    status, answer = quick_move(base)  # a new worker answers
    assert status == 200 and answer["moves"] == "51", answer
    assert len(workers(server)) == 1 and busy not in workers(server)


def test_a_client_that_stays_gets_its_answer_while_others_hang_up(serve) -> None:
    base, server = serve
    staying = send(base, LONG.format(moves="37", seconds=1))
    leaving = [send(base, LONG.format(moves=f"2{i}", seconds=1)) for i in range(1, 5)]
    wait_for(lambda: health(base, server)["engine_requests"] == 5, 30, "the five requests arrived")
    for sock in leaving:
        sock.close()
    staying.settimeout(60)
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = staying.recv(65536)
        assert chunk, "the server closed the connection of the client that stayed"
        answer += chunk
    staying.close()
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
