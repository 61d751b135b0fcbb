"""A real ``zerosum serve`` and requests another site's page could make: a JSON POST must say it is JSON
(``Content-Type: application/json``, else a one-line 415), so no page can start an engine with a "simple"
request; and a request a page of another origin makes (the browser says so in ``Sec-Fetch-Site``) is refused,
403, unless it opens a page (a link followed).  And the address it prints for an IPv6 host is one a browser
opens: ``http://[::1]:PORT/``.
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

pytest.importorskip("uvicorn")

MOVE = json.dumps({"game": "tictactoe", "moves": "5", "agent": "first"}).encode()


def free_port(family: int = socket.AF_INET, host: str = "127.0.0.1") -> int:
    with socket.socket(family) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def start(host: str, port: int, out) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "zerosum", "serve", "--host", host, "--port", str(port),
                             "--workers", "1"], stdout=out, stderr=subprocess.DEVNULL,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def stop(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGINT)
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def ask(base: str, path: str, data: bytes | None = None, **headers: str) -> tuple[int, dict]:
    request = urllib.request.Request(base + path, data=data, headers=headers, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            body = reply.read()
            return reply.status, json.loads(body) if body.startswith(b"{") else {}
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def wait_until_serving(base: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while True:
        assert server.poll() is None, "zerosum serve ended"
        try:
            if ask(base, "/api/health")[0] == 200:
                return
        except OSError:
            pass
        assert time.monotonic() < deadline, "zerosum serve did not answer within 120 s"
        time.sleep(0.2)


@pytest.fixture(scope="module")
def base():
    port = free_port()
    server = start("127.0.0.1", port, subprocess.DEVNULL)
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", server)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(server)


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                  None])
@pytest.mark.parametrize("path", ["/api/move", "/api/record", "/api/export"])
def test_a_json_post_of_another_type_is_refused_415_in_one_line(base, path, kind) -> None:
    headers = {} if kind is None else {"Content-Type": kind}
    if kind is None:  # urllib sends form-urlencoded for a body without a type: send none at all
        host, port = base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=30) as sock:
            sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(MOVE)}\r\n"
                         "Connection: close\r\n\r\n".encode() + MOVE)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        status, reply = int(head.split()[1]), json.loads(body)
    else:
        status, reply = ask(base, path, MOVE, **headers)
    assert status == 415, (status, reply)
    assert reply["error"].startswith("send the body as JSON with Content-Type: application/json")
    assert "\n" not in reply["error"]


def test_a_json_post_declared_json_is_answered(base) -> None:
    for kind in ("application/json", "application/json; charset=utf-8", "Application/JSON"):
        status, reply = ask(base, "/api/move", MOVE, **{"Content-Type": kind})
        assert status == 200 and reply["moves"] == "51", (kind, status, reply)


@pytest.mark.parametrize("site", ["cross-site", "same-site"])
def test_a_request_made_by_another_sites_page_is_refused_403(base, site) -> None:
    other = {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "no-cors"}
    status, reply = ask(base, "/api/move", MOVE, **{"Content-Type": "application/json"}, **other)
    assert status == 403 and reply["error"].startswith("refused: a page of another site made this request"), reply
    status, reply = ask(base, "/api/analyze?game=tictactoe&moves=5", **other)  # an <img> or a script: no work
    assert status == 403, reply
    # a link followed from another site opens the page; the page's own requests are same-origin
    assert ask(base, "/", **{"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate"})[0] == 200
    # ...but an iframe or a form of another site aimed at the API is a navigation too: no engine work (audit)
    framed = {"Sec-Fetch-Site": site, "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"}
    assert ask(base, "/api/explain?game=tictactoe&moves=5&agent=random", **framed)[0] == 403
    assert ask(base, "/api/analyze?game=tictactoe&moves=5", **framed)[0] == 403
    own = {"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors", "Content-Type": "application/json"}
    assert ask(base, "/api/move", MOVE, **own)[0] == 200


def test_an_ipv6_host_is_printed_in_brackets(tmp_path) -> None:
    try:
        port = free_port(socket.AF_INET6, "::1")
    except OSError:
        pytest.skip("no IPv6 loopback here")
    out = tmp_path / "stdout.txt"
    with open(out, "w") as stdout:
        server = start("::1", port, stdout)
    try:
        wait_until_serving(f"http://[::1]:{port}", server)  # the printed address is the one that answers
    finally:
        stop(server)
    assert f"open http://[::1]:{port}/ in a browser" in out.read_text(), out.read_text()
