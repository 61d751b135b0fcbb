"""The page in headless Chromium, shared by the browser tests (tests/ui/test_browser.py, test_page_*.py): a
server on a free port (its engine worker warm), the browser, a page at desktop size (``phone`` for 375 x 740).

A test module imports its fixtures from here (``from page_browser import base_url, browser, page, ...``);
each module gets its own server.  Importing this module skips the test module cleanly without playwright or
/usr/bin/chromium."""

from __future__ import annotations

import contextlib
import socket
import threading
import time

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from chromium import CHROMIUM, close_contexts, shared_browser  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

import uvicorn  # noqa: E402

from zerosum.core.files import benchmark_data  # noqa: E402
from zerosum.ui.server import create_app, serve_config  # noqa: E402

#: benchmark data: $ZEROSUM_BENCHMARKS, else ../shared/benchmarks beside the checkout
PONS = benchmark_data("pons")


def warm_up(app) -> None:
    """Let the engine worker compile the solver once (numba) before any test waits on it."""
    import importlib.util

    if importlib.util.find_spec("zerosum.solver.solver") is not None:
        from zerosum import get_game
        from zerosum.ui.service import analyze_job

        game = get_game("connect4")
        actions = [3, 3, 3, 3, 2, 2, 2, 2, 4, 4, 4, 4]
        app.state.pool.run(analyze_job, (game, actions, game.states_of(actions)[-1], 5.0), 300)


@contextlib.contextmanager
def served(app):
    """``app`` served on a free port of this machine by uvicorn, in a thread: its address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(serve_config(app, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not server.started and time.time() < deadline:
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def base_url():
    app = create_app(engine_time=3.0, workers=1, margin=60.0, busy_wait=120)  # margin: a first solver call may compile
    warm_up(app)
    with served(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """The process's Chromium (tests/chromium.py), its contexts closed after the module."""
    yield shared_browser()
    close_contexts()


DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 375, "height": 740}


def open_page(browser, base_url, viewport):
    """A fresh page (its own context) whose script errors are collected in ``page.errors``."""
    context = browser.new_context(viewport=viewport)
    pg = context.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))  # type: ignore[attr-defined]
    pg.base = base_url  # type: ignore[attr-defined]
    return context, pg


def _opened(browser, base_url, size):
    """A page at ``size`` for one test; it fails the test if the page raised a script error."""
    context, pg = open_page(browser, base_url, size)
    yield pg
    context.close()
    assert pg.errors == [], pg.errors


@pytest.fixture
def page(browser, base_url):
    yield from _opened(browser, base_url, DESKTOP)


@pytest.fixture
def phone(browser, base_url):
    yield from _opened(browser, base_url, PHONE)


def wait_moves(page, text: str) -> None:
    """Wait until the page shows the moves ``text`` of a loaded game (the status no longer says "Loading…":
    an empty line of moves is also what a page shows before its first answer)."""
    page.wait_for_function("t => document.querySelector('#moves').textContent === t "
                           "&& !document.querySelector('#status').textContent.startsWith('Loading')",
                           arg=text, timeout=15000)


def engine_reply(page, column: int) -> str:
    """Click ``column`` (0-based) and wait for the engine's answer: the page's line about it (``#engine-info``)."""
    page.click(f'[data-column="{column}"]')
    page.wait_for_function("() => document.querySelector('#engine-info').textContent.includes(' played ')",
                           timeout=30000)
    return page.text_content("#engine-info")
