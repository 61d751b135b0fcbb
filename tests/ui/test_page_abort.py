"""The page in headless Chromium, quick with its keys and thrifty with the server's engines: arrow keys pressed
faster than the server answers all count (the last one wins), and the requests made for a position the page
has left are aborted, so the server drops their engine work (tests/ui/test_server_abandon.py).

The server has one engine worker; a client of the test's own holds it (a long analysis) while the page's
requests wait, so they are surely still waiting when the page moves on.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.request

import pytest

from page_browser import browser, open_page, served, warm_up, DESKTOP  # noqa: F401  (fixtures)
from zerosum.ui.server import create_app

#: a game of 22 moves on the 8 x 8 board (the audit's), opened at its start with the analysis on
GAME = "/?game=connect4-8x8&moves=5415122147553166637787&ply=0&opponent=person&analysis=1"
#: a job of many seconds: S seconds of the solver's progressive analysis of an early 8 x 7 position
LONG = "/api/analyze?game=connectx:rows=7,cols=8,k=4&moves=46&budget={seconds}"


@pytest.fixture(scope="module")
def base_url():
    app = create_app(engine_time=30.0, workers=1, margin=60.0, busy_wait=120)  # margin: a first call may compile
    warm_up(app)
    with served(app) as url:
        yield url


@pytest.fixture
def page(browser, base_url):  # noqa: F811
    context, pg = open_page(browser, base_url, DESKTOP)
    yield pg
    context.close()
    assert pg.errors == [], pg.errors


def shown_ply(page) -> int:
    return int(page.get_attribute('#move-list [aria-current="step"]', "data-ply"))


def engine_requests(base: str) -> int:
    with urllib.request.urlopen(base + "/api/health", timeout=10) as reply:
        return int(json.load(reply)["engine_requests"])


def hold_the_worker(base: str, seconds: float) -> socket.socket:
    """A client of the test's own asking for ``seconds`` of engine work: its socket (closed: it hangs up)."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    sock.sendall(f"GET {LONG.format(seconds=seconds)} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    deadline = time.monotonic() + 30
    while engine_requests(base) < 1:
        assert time.monotonic() < deadline, "the holding request did not arrive"
        time.sleep(0.05)
    return sock


def test_arrow_keys_pressed_faster_than_the_server_answers_all_count(page) -> None:
    page.goto(page.base + GAME)
    page.wait_for_selector('#move-list [aria-current="step"][data-ply="0"]', timeout=30000)
    page.locator("body").click()
    for _ in range(22):  # as fast as the browser takes them: each /api/state is still on its way
        page.keyboard.press("ArrowRight")
    page.wait_for_selector('#move-list [aria-current="step"][data-ply="22"]', timeout=30000)
    assert shown_ply(page) == 22 and page.text_content("#moves") == "5415122147553166637787"
    for _ in range(5):  # and back: the last key wins
        page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('#moves').textContent === '54151221475531666'",
                           timeout=30000)
    time.sleep(0.5)  # nothing older arrives after it and shows another position
    assert shown_ply(page) == 17 and page.text_content("#moves") == "54151221475531666"


def test_the_requests_of_a_position_left_are_aborted_and_the_server_drops_them(page, base_url) -> None:
    holder = hold_the_worker(base_url, 25)
    try:
        aborted: list[str] = []
        page.on("requestfailed", lambda r: aborted.append(r.url) if "/api/" in r.url else None)
        with page.expect_request(lambda r: "/api/analyze" in r.url and "moves=&" in r.url + "&", timeout=30000):
            page.goto(page.base + GAME)  # the start position's analysis: it waits for the worker
        page.wait_for_selector('#move-list [aria-current="step"][data-ply="0"]', timeout=30000)
        deadline = time.monotonic() + 15  # sent by the browser is not yet counted by a loaded server (load 7.5)
        while (waiting := engine_requests(base_url)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert waiting >= 2, waiting  # the holder, and the page's analysis (and its review)
        page.locator("body").click()
        page.keyboard.press("ArrowRight")  # another position: the start's analysis is not wanted any more
        page.wait_for_function("() => document.querySelector('#moves').textContent === '5'", timeout=30000)
        deadline = time.monotonic() + 15
        while not any("/api/analyze" in url and "moves=&" in url + "&" for url in aborted):
            assert time.monotonic() < deadline, f"the start position's analysis was not aborted: {aborted}"
            page.wait_for_timeout(100)
        # the tab is closed: its requests (the new position's analysis, the review) are aborted and dropped
        page.close()
        deadline = time.monotonic() + 15
        while engine_requests(base_url) != 1:  # the holder alone (it runs for 25 s)
            assert time.monotonic() < deadline, f"{engine_requests(base_url)} engine requests left, not 1"
            time.sleep(0.1)
    finally:
        holder.close()  # it hangs up: its job is stopped after the grace
    deadline = time.monotonic() + 30
    while engine_requests(base_url) != 0:
        assert time.monotonic() < deadline, "the holder's job was not stopped"
        time.sleep(0.1)


def test_the_analysis_of_the_position_reached_arrives_once_the_worker_is_free(page, base_url) -> None:
    holder = hold_the_worker(base_url, 25)
    try:
        page.goto(page.base + GAME)
        page.wait_for_selector('#move-list [aria-current="step"][data-ply="0"]', timeout=30000)
        page.locator("body").click()
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('#moves').textContent === '541'", timeout=30000)
    finally:
        holder.close()  # stopped after the grace: the page's requests then take the worker in turn
    page.wait_for_function("() => /·/.test(document.querySelector('#analysis-info').textContent)", timeout=60000)
    assert "No analysis" not in page.text_content("#analysis-info")
    assert page.text_content("#moves") == "541"


def test_an_analysis_whose_resume_the_server_refuses_starts_again(page, base_url) -> None:
    """A server restarted mid-analysis refuses the page's old ``resume`` (400: it never sealed it); the page
    starts the analysis again rather than stopping at "No analysis: resume is not one ..." (audit)."""
    asked: list[str] = []

    def forge_once(route) -> None:
        url = route.request.url
        asked.append(url)
        if "resume=" in url and not any("forged" in u for u in asked):
            url = url.split("&resume=")[0] + "&resume=%7B%22forged%22%3A1%7D"  # as another process's would be
            asked.append(url)
        route.continue_(url=url)

    page.route("**/api/analyze?*", forge_once)
    page.goto(base_url + "/?game=connectx:rows=7,cols=8,k=4&moves=4&opponent=person&analysis=1")
    deadline = time.monotonic() + 120
    while not (any("forged" in u for u in asked) and "resume=" not in asked[-1] and len(asked) >= 4):
        assert time.monotonic() < deadline, asked
        page.wait_for_timeout(100)
    page.wait_for_timeout(300)
    assert "resume is not one" not in page.text_content("#analysis-info"), page.text_content("#analysis-info")
    page.goto("about:blank")  # the analysis of an early 8 x 7 position would go on for hours: stop asking
