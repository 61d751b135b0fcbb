"""Ctrl-C on a real `zerosum serve` with requests in flight: it stops at once, quietly, and answers them in JSON.

The requests are slow on purpose (a move that searches for 5 s, the most the server allows, with one engine
process: the second one waits for the first), so they are still in flight when SIGINT comes, whether the engine
is warm yet or not.  (An analysis was slow enough only while the engine compiled: warm, 8 x 8's opening is
alpha-beta's estimate within a second, before SIGINT came.)
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("uvicorn")

#: five seconds of engine time (the server's default limit), more than the test waits
SLOW = json.dumps({"game": "connect4-8x8", "moves": "451", "agent": "alphabeta:time=5"}).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str | urllib.request.Request, answers: list) -> None:
    try:
        with urllib.request.urlopen(url, timeout=60) as reply:
            answers.append((reply.status, reply.read()))
    except urllib.error.HTTPError as exc:
        answers.append((exc.code, exc.read()))
    except OSError as exc:  # closed without an answer
        answers.append((None, repr(exc).encode()))


def post(url: str, body: bytes) -> urllib.request.Request:
    return urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})


def wait_until_serving(base: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60  # imports on a busy machine
    while time.monotonic() < deadline:
        assert server.poll() is None, "zerosum serve ended before it served"
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    pytest.fail("zerosum serve did not answer /api/health within 60 s")


def test_ctrl_c_answers_requests_in_flight_503_in_json_and_stops_without_tracebacks(tmp_path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    err = tmp_path / "stderr.txt"
    with open(err, "w") as stderr:
        server = subprocess.Popen([sys.executable, "-m", "zerosum", "serve", "--port", str(port), "--workers", "1"],
                                  stdout=subprocess.DEVNULL, stderr=stderr,
                                  preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        wait_until_serving(base, server)
        answers: list = []
        clients = [threading.Thread(target=get, args=(post(base + "/api/move", SLOW), answers)) for _ in range(2)]
        for client in clients:
            client.start()
        uploading = socket.create_connection(("127.0.0.1", port), timeout=30)  # its body never ends
        uploading.sendall(b"POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"agent\": ")
        time.sleep(1.5)  # the requests have arrived
        start = time.monotonic()
        server.send_signal(signal.SIGINT)
        server.wait(30)
        took = time.monotonic() - start
        for client in clients:
            client.join(30)
        uploaded = b""
        try:
            while chunk := uploading.recv(65536):
                uploaded += chunk
        except OSError:
            pass
        uploading.close()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    text = err.read_text()
    assert "Traceback" not in text and "Cancel" not in text, text
    assert len(text.splitlines()) <= 2, text
    assert took < 10, f"took {took:.1f} s to stop"  # at once, not after uvicorn's graceful wait and a cancel
    stopping = {"error": "the server is stopping"}
    assert len(answers) == 2, answers
    assert all(status == 503 and json.loads(body) == stopping for status, body in answers), answers
    head, _, body = uploaded.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503") and json.loads(body) == stopping, uploaded
