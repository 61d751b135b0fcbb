"""The page's waits, in headless Chromium: an engine's move shows the position /api/move answered with (no
second /api/state), a wait over a second says what it waits for (#wait), and while the engines warm up the
page says so and the engine's first move arrives once they are ready."""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import pytest

from page_browser import DESKTOP, base_url, browser, open_page, page, served, wait_moves  # noqa: E402,F401  (fixtures)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from slow_warmup import slow_warm_up  # noqa: E402

WARM_UP = 6.0  # seconds the slow server's engines take to warm up


def test_an_engine_move_shows_the_position_it_answered_with(page) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/" in r.url else None)
    page.goto(page.base + "/?game=connect4&opponent=first")
    wait_moves(page, "")
    asked.clear()
    page.click('[data-column="3"]')
    wait_moves(page, "41")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Your turn')")
    states = [u for u in asked if "/api/state" in u]
    assert len(states) == 1 and "moves=4&" in states[0] + "&"  # the person's move; the engine's came with it
    assert sum("/api/move" in u for u in asked) == 1


def test_a_wait_over_a_second_says_what_it_waits_for(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=mcts:time%3D2.5&side=1")
    wait_moves(page, "")
    assert page.is_hidden("#wait")
    page.click('[data-column="3"]')
    page.wait_for_function("() => /is thinking: \\d+ s/.test(document.querySelector('#wait').textContent)",
                           timeout=10000)
    assert page.text_content("#wait").startswith("MCTS (time=2.5) is thinking: ")  # its label, its budget
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Your turn')",
                           timeout=30000)
    assert page.is_hidden("#wait")


@pytest.fixture(scope="module")
def slow_url():
    """A server whose engine takes ``WARM_UP`` seconds to warm up (a cold compile cache, in short)."""
    from zerosum.ui.server import create_app

    app = create_app(engine_time=1.0, workers=1, busy_wait=0.5)
    app.state.pool.warmup = functools.partial(slow_warm_up, WARM_UP)
    with served(app) as url:
        yield url


def test_while_the_engines_warm_up_the_page_says_so_and_the_engine_moves_once_ready(browser, slow_url) -> None:
    context, pg = open_page(browser, slow_url, DESKTOP)
    try:
        pg.goto(slow_url + "/?game=tictactoe&opponent=first&side=2")  # the engine moves first
        pg.wait_for_function("() => document.querySelector('#wait').textContent.startsWith('preparing the engine "
                             "(a slow engine)')", timeout=15000)
        pg.wait_for_function("() => / first run only: \\d+ s/.test(document.querySelector('#wait').textContent)",
                             timeout=15000)  # past a few seconds a warm-up is a compile: a first run
        wait_moves(pg, "1")  # answered once the engine was ready: no 503
        pg.wait_for_function("() => document.querySelector('#wait').hidden", timeout=5000)
        assert pg.text_content("#error") == "" and pg.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
