"""One headless Chromium a test process, shared by every browser test (the page's, the contest's, the traced
trees' in exported notebooks).  Starting Playwright's driver and Chromium took 2-15 s a test module, most of
it under load; each test still gets its own context (cookies, storage, viewport), closed after it.

Playwright's synchronous API allows one instance a thread, so no test module may start its own: they ask
:func:`shared_browser`.  While it runs, its event loop counts as running in the main thread, where
``asyncio.run`` then fails (a server's test): ``tests/conftest.py`` closes
it before the first test of a module that does not use it (:func:`wanted`), and when the session ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

_OPEN: dict[str, Any] = {}


def shared_browser() -> Any:
    """This process's Chromium (started at the first call; started again if it went away)."""
    from playwright import sync_api

    browser = _OPEN.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    if "playwright" not in _OPEN:
        _OPEN["playwright"] = sync_api.sync_playwright().start()
    browser = _OPEN["browser"] = _OPEN["playwright"].chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
    return browser


def wanted(module: Any) -> bool:
    """Whether a test module uses the shared browser: it has the ``browser`` fixture (tests/ui/page_browser.py's
    or its own) or asks :func:`shared_browser` itself."""
    names = vars(module)
    return "browser" in names or "shared_browser" in names


def close_contexts() -> None:
    """Close every context left open on the shared browser (a module's pages, at its end)."""
    browser = _OPEN.get("browser")
    if browser is not None and browser.is_connected():
        for context in list(browser.contexts):
            context.close()


def close_shared() -> None:
    """Close the browser and stop Playwright's driver (the session's end)."""
    browser, driver = _OPEN.pop("browser", None), _OPEN.pop("playwright", None)
    try:
        if browser is not None and browser.is_connected():
            browser.close()
    finally:
        if driver is not None:
            driver.stop()
