"""A review in progress on the page (headless Chromium) outlives a restart of a real `zerosum serve` on the same
port: cut short because the server went away, it says it is paused and asks again, from the marks it has, until
the server answers; then it finishes.  Before the fix it said "No review: the server is stopping" for good (only
Analysis off and on started it again).  A review the server refuses for a real reason says why, once, and is
not asked again."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
import urllib.request
from typing import Iterator

import pytest

from page_browser import browser, open_page, DESKTOP  # noqa: F401  (fixtures)
from test_server_stop import free_port

#: an 8 x 8 game of 6 plies: its review takes several slices (alpha-beta's estimates, about a second a move)
GAME, MOVES = "connect4-8x8", "468731"


def ready(base: str, server: subprocess.Popen) -> None:
    """Wait until the server's engines are ready (a first run may compile the solver first)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert server.poll() is None, "zerosum serve ended before it served"
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=5) as reply:
                if json.load(reply).get("ready"):
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError("zerosum serve was not ready within 300 s")


@contextlib.contextmanager
def serving(port: int, *options: str) -> Iterator[subprocess.Popen]:
    """`zerosum serve` on ``port``, in a process of its own, until the block ends (or it is stopped there)."""
    server = subprocess.Popen([sys.executable, "-m", "zerosum", "serve", "--port", str(port), "--workers", "1",
                               *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ready(f"http://127.0.0.1:{port}", server)
        yield server
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(60)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


#: the review is done (every position a point, its summary no longer "…"), or has given up ("No review: ...")
DONE_OR_GIVEN_UP = ("n => { const said = document.querySelector('#review-info').textContent; "
                    "return said.startsWith('No review') || (!said.includes('…') "
                    "&& document.querySelectorAll('#eval-graph [data-graph-ply]').length === n); }")


@pytest.mark.slow  # 18 s; CI keeps the refused review's test and test_page_abort's resumes
def test_a_review_cut_short_by_a_restart_goes_on_once_the_server_is_back(browser) -> None:  # noqa: F811
    port = free_port()
    context, page = open_page(browser, f"http://127.0.0.1:{port}", DESKTOP)
    try:
        with serving(port) as server:
            page.goto(page.base + f"/?game={GAME}&moves={MOVES}&opponent=person&analysis=1")
            page.wait_for_function("() => document.querySelectorAll('#eval-graph [data-graph-ply]').length >= 2",
                                   timeout=120000)
            assert "…" in page.text_content("#review-info")  # under way: 6 plies take several slices
            server.terminate()  # its requests in flight are answered 503 "the server is stopping"
            server.wait(60)
            page.wait_for_function("() => /^(No review|Review paused)/.test(document.querySelector("
                                   "'#review-info').textContent)", timeout=60000)
        with serving(port):
            page.wait_for_function(DONE_OR_GIVEN_UP, arg=len(MOVES) + 1, timeout=600000)
            summary = page.text_content("#review-info")
            assert summary.startswith("Review by ") and f"{len(MOVES)} of {len(MOVES)} moves judged" in summary, \
                summary
            assert page.evaluate("ui.review.marks.map((m) => m.ply)") == list(range(1, len(MOVES) + 1))
    finally:
        context.close()
    assert page.errors == [], page.errors


def test_a_review_refused_for_a_reason_says_why_and_is_not_asked_again(browser) -> None:  # noqa: F811
    port = free_port()
    context, page = open_page(browser, f"http://127.0.0.1:{port}", DESKTOP)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if "/api/review" in request.url else None)
    try:
        # its engines get 0.2 s a request: the page's first slice (0.1 s) is answered, its next (0.5 s) refused
        with serving(port, "--engine-time", "0.2"):
            page.goto(page.base + f"/?game={GAME}&moves={MOVES}&opponent=person&analysis=1")
            page.wait_for_function("() => document.querySelector('#review-info').textContent.startsWith("
                                   "'No review: budget=')", timeout=120000)
            count = len(asked)
            page.keyboard.press("ArrowLeft")  # another position shown: the refused review is not asked again
            page.wait_for_function(f"() => ui.ply === {len(MOVES) - 1}")
            page.keyboard.press("ArrowRight")
            page.wait_for_function(f"() => ui.ply === {len(MOVES)}")
            time.sleep(5)  # a review asked again would have asked by now (it waits 2 s between tries)
            assert len(asked) == count, asked
            assert page.text_content("#review-info").startswith("No review: budget=")
    finally:
        context.close()
    assert page.errors == [], page.errors
