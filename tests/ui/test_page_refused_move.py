"""The page in headless Chromium: a move the server never took leaves no trace.  The audit stopped the server,
pressed a move key ("Failed to fetch"), started the server again and pressed →: the page showed the move that
failed, as a variation, in the move list and the address.  Here a real ``zerosum serve`` is stopped (its
process ends, as a person's Ctrl-C ends it) and started again on the same port; the page says in plain words
that the move was not played, and → goes on along the line."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
import urllib.request
from urllib.parse import parse_qs, urlparse

import pytest

from page_browser import browser, open_page, wait_moves, DESKTOP  # noqa: F401  (fixtures)


class Server:
    """``zerosum serve`` on a fixed port of this machine, a process of its own, stopped and started again."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "zerosum", "serve", "--port", str(self.port), "--workers", "1"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        deadline = time.monotonic() + 120  # imports on a busy machine; the page's positions need no engine
        while True:
            assert self.process.poll() is None, "zerosum serve ended"
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=10):
                    return
            except OSError:
                assert time.monotonic() < deadline, "zerosum serve did not answer within 120 s"
                time.sleep(0.2)

    def stop(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def server():
    s = Server()
    s.start()
    yield s
    if s.process is not None and s.process.poll() is None:
        s.stop()


def address(page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query, keep_blank_values=True)


def test_a_move_the_server_never_took_is_not_played_later(browser, server) -> None:  # noqa: F811
    context, page = open_page(browser, server.url, DESKTOP)
    try:
        page.goto(server.url + "/?game=connect4&moves=4453&ply=2&opponent=person")
        wait_moves(page, "44")
        server.stop()
        page.keyboard.press("1")  # a new move from here would open a variation: the server cannot be reached
        page.wait_for_function("() => document.querySelector('#error').textContent !== ''", timeout=30000)
        assert page.text_content("#error") == "the server cannot be reached: your move was not played."
        assert page.text_content("#moves") == "44"
        server.start()
        page.keyboard.press("ArrowRight")  # the line is still 4 4 5 3: forward is its third move
        wait_moves(page, "445")
        assert page.is_hidden("#variations-box")
        assert page.evaluate("treeLines().map((l) => l.join(''))") == ["4453"]
        query = address(page)
        assert query["moves"] == ["4453"] and "v" not in query and "line" not in query and query["ply"] == ["3"]
        assert page.errors == [], page.errors  # type: ignore[attr-defined]
    finally:
        context.close()
