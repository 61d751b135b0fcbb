"""The screenshots of docs/page.md, taken in headless Chromium at desktop (1280 x 800) and phone (375 x 740)
sizes.  Slow (the solver's analysis, engines playing): run ``ZEROSUM_SCREENSHOTS=docs/screenshots python -m
pytest -m slow tests/ui/test_page_screenshots.py`` to write them there; without it they go to a temporary
folder, and the test still checks each is a PNG of the size asked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from page_browser import DESKTOP, PHONE, base_url, browser, open_page, wait_moves  # noqa: F401  (fixtures)

#: name -> (viewport, address, what to wait for (JS), action)
SHOTS = {
    "desktop-analysis": (DESKTOP, "/?game=connect4&moves=44534&opponent=solver&side=1&analysis=1&ply=4",
                         "document.querySelector('#analysis-info').textContent.startsWith('Exact')", None),
    "desktop-engines": (DESKTOP, "/?game=tictactoe&opponent=minimax:depth=4&opponent2=mcts:time=1&side=0",
                        "/wins|Draw/.test(document.querySelector('#status').textContent)", None),
    "desktop-record": (DESKTOP, "/?game=connect4&opponent=person", "document.querySelector('.disc.win')", "record"),
    "phone-connect4-8x12": (PHONE, "/?game=connectx:rows=8,cols=12,k=4&moves=6,7,6,7,5&opponent=person",
                            "document.querySelectorAll('.disc').length === 5", None),
    "phone-othello-16": (PHONE, "/?game=othello:n=16&moves=h7&opponent=person",
                         "document.querySelectorAll('.cell.p1, .cell.p2').length === 5", None),
}
RECORD = ('[Event "arena"]\n[First "alphabeta:depth=4"]\n[Second "mcts:sims=200"]\n'
          '[Game "connectx:rows=6,cols=7,k=4"]\n[Opening "44"]\n[Result "1-0"]\n[Termination "normal"]\n\n'
          '3 {time=0.05s nodes=2210 value=+0.4} 5 3 5 3 2 3 1-0\n')


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SHOTS))
def test_screenshot(browser, base_url, tmp_path, name) -> None:
    viewport, where, ready, action = SHOTS[name]
    folder = Path(os.environ.get("ZEROSUM_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    context, page = open_page(browser, base_url, viewport)
    try:
        page.goto(base_url + where)
        if action == "record":
            pytest.importorskip("zerosum.records")
            wait_moves(page, "")
            page.click("#record-box summary")
            page.fill("#record-text", RECORD)
            page.click("#record-open")
            page.wait_for_selector(".cx-grid")
            page.click('#move-list button[data-ply="9"]')
        page.wait_for_function(f"() => {ready}", timeout=60000)
        page.wait_for_timeout(800)  # the last disc's drop
        path = folder / f"{name}.png"
        page.screenshot(path=str(path))
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
