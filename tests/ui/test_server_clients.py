"""`zerosum serve` against slow and greedy clients: header, body and keep-alive timeouts, a connection cap.

The server runs in a thread with short timeouts (1 s) so the tests are quick; `zerosum serve` uses the
documented defaults of :mod:`zerosum.ui.connections`.
"""

from __future__ import annotations

import socket
import threading
import time

import pytest

httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

from zerosum.ui.server import create_app, serve_config  # noqa: E402

TIMEOUT = 1.0  # the header, body and keep-alive timeouts of the server under test
CAP = 20  # its connection cap
SLACK = 4.0  # how much later than its timeout a connection may be closed on a busy machine


def serving(app, on_stop=lambda: None, **limits):
    """``serve_config(app, ...)`` with ``limits`` run in a thread on a free port: yields its address;
    ``on_stop()`` before it stops."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(serve_config(app, "127.0.0.1", port, **limits))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield ("127.0.0.1", port)
    finally:
        on_stop()
        srv.should_exit = True
        thread.join(10)


@pytest.fixture(scope="module")
def server():
    yield from serving(create_app(mode="inline"), header_timeout=TIMEOUT, body_timeout=TIMEOUT, keep_alive=1,
                       max_connections=CAP)


PATIENT = 60.0  # the timeouts of the patient server: a connection it closes sooner was closed for the cap
PATIENT_CAP = 5  # its connection cap
RELEASE = threading.Event()  # set: the patient server answers its requests to /slow


def patient_app():
    """The page's app, and ``/slow``, a request the app works on until :data:`RELEASE` is set."""
    import asyncio

    inner = create_app(mode="inline")

    async def app(scope, receive, send):
        if scope["type"] == "http" and scope["path"] == "/slow":
            while not RELEASE.is_set():
                await asyncio.sleep(0.05)
            await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
            await send({"type": "http.response.body", "body": b"ok"})
            return
        await inner(scope, receive, send)

    return app


@pytest.fixture(scope="module")
def patient_server():
    """A server with a small cap and timeouts far longer than any test."""
    yield from serving(patient_app(), RELEASE.set, header_timeout=PATIENT, body_timeout=PATIENT,
                       keep_alive=int(PATIENT), max_connections=PATIENT_CAP)


def connect(address, data: bytes = b"") -> socket.socket:
    sock = socket.create_connection(address, timeout=TIMEOUT + SLACK)
    if data:
        sock.sendall(data)
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closes ``sock`` before the socket's own timeout (whatever it sent first)."""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return True
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    finally:
        sock.close()


def health(address) -> int:
    return httpx.get(f"http://{address[0]}:{address[1]}/api/health", timeout=5).status_code


def test_incomplete_headers_are_timed_out_and_health_answers_meanwhile(server) -> None:
    held = [connect(server, b"GET /api/health HTTP/1.1\r\nHost: x\r\n") for _ in range(CAP // 2)]
    assert health(server) == 200
    assert all(closed_by_server(s) for s in held)


def test_a_trickling_client_is_timed_out(server) -> None:
    sock = connect(server)
    start = time.monotonic()
    try:
        for byte in b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100:
            sock.sendall(bytes([byte]))
            time.sleep(0.2)  # every byte resets uvicorn's own keep-alive timer, not this deadline
            if time.monotonic() - start > TIMEOUT + SLACK:
                break
    except OSError:
        pass  # closed under our feet: what we want
    assert closed_by_server(sock)


def test_an_incomplete_body_is_timed_out(server) -> None:
    sock = connect(server, b"POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 100\r\n\r\n{\"agent\": ")
    assert closed_by_server(sock)
    assert health(server) == 200


def test_an_idle_kept_alive_connection_is_closed(server) -> None:
    sock = connect(server, b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    assert closed_by_server(sock)  # after the answer, the keep-alive timeout


def test_slow_clients_past_the_cap_give_way_to_new_ones(server) -> None:
    held = [connect(server, b"GET /api/health HTTP/1.1\r\n") for _ in range(CAP + 3)]
    try:
        time.sleep(0.2)
        assert health(server) == 200  # the oldest slow ones were closed to make room
        for sock in held[:3]:
            sock.settimeout(TIMEOUT / 2)  # closed at once, not after the header timeout
        assert all(closed_by_server(sock) for sock in held[:3])
    finally:
        for sock in held:
            sock.close()


def test_bodies_arriving_slowly_give_way_to_new_connections(patient_server) -> None:
    post = b"POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"
    held = [connect(patient_server, post) for _ in range(PATIENT_CAP)]  # each one's body is in progress
    try:
        time.sleep(1.0)  # the server has read what they sent
        held += [connect(patient_server, post) for _ in range(2)]
        assert health(patient_server) == 200  # the oldest bodies still arriving made way, one a new connection
        for sock in held[:3]:
            status, body = read_response(sock)  # at once: the server's deadlines are a minute away
            assert status == 408 and body.startswith(b'{"error": "the request was not complete')
        assert health(patient_server) == 200
    finally:
        for sock in held:
            sock.close()


def test_past_the_cap_a_new_connection_is_closed_when_every_one_is_being_answered(patient_server) -> None:
    RELEASE.clear()
    held = [connect(patient_server, b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n") for _ in range(PATIENT_CAP)]
    try:
        time.sleep(0.2)
        extra = connect(patient_server)
        extra.settimeout(SLACK)  # closed at once, not after the server's header timeout of a minute
        assert closed_by_server(extra)
        RELEASE.set()
        assert all(read_response(sock)[0] == 200 for sock in held)  # none of them was closed for the new one
    finally:
        RELEASE.set()
        for sock in held:
            sock.close()
    deadline = time.monotonic() + SLACK
    while time.monotonic() < deadline:
        try:
            if health(patient_server) == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.1)
    assert health(patient_server) == 200  # room again once they are gone


def read_response(sock: socket.socket) -> tuple[int, bytes]:
    """One HTTP response from ``sock``: its status and body (by its Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, "the server closed the connection"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    return int(head.split()[1]), body


def test_non_ascii_digits_get_400_and_keep_the_connection(server) -> None:
    sock = connect(server)
    try:
        for moves in ("4%C2%B2", "4%D9%A3", "%EF%BC%94"):  # 4 squared, an Arabic-Indic 3, a fullwidth 4
            sock.sendall(b"GET /api/state?moves=" + moves.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            status, body = read_response(sock)
            assert status == 400 and b"not a column number" in body
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert read_response(sock)[0] == 200  # the same connection
    finally:
        sock.close()


def test_a_late_body_is_answered_408_in_json(server) -> None:
    sock = connect(server, b"POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                           b"Content-Length: 100\r\n\r\n{\"agent\": ")
    status, body = read_response(sock)
    sock.close()
    assert status == 408 and b"did not arrive within 1 s" in body and body.startswith(b'{"error": ')
    assert health(server) == 200


@pytest.mark.parametrize("request_bytes", [
    b"GARBAGE\r\n\r\n",
    b"POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20000,  # still unfinished past the cap
], ids=["garbage", "negative length", "headers past the cap"])
def test_a_malformed_request_is_answered_400_in_json(server, request_bytes) -> None:
    sock = connect(server, request_bytes)
    status, body = read_response(sock)
    assert status == 400 and body == b'{"error": "malformed HTTP request"}'
    assert closed_by_server(sock)
    assert health(server) == 200
