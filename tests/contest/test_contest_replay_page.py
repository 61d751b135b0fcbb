"""A game's replay link in headless Chromium, against a real ``zerosum contest serve``: a game forfeited with the
second player to move opens in the board viewer as it was played, and the viewer plays nothing (before, its
default opponent, the solver, added a 16th move nobody played and spent the viewer's engine quota).  The link
itself is checked in test_contest_audit6.py."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from chromium import CHROMIUM, close_contexts, shared_browser  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

from contest_serving import curl, serving  # noqa: E402
from test_contest_audit6 import forfeited_game  # noqa: E402

WAIT_MS = 60_000
#: how long the page is watched after it shows the game: an engine to move asks for its move at once
WATCH_MS = 3_000


def test_a_forfeits_replay_shows_the_game_and_plays_no_move(tmp_path):
    folder = tmp_path / "c"
    token, line = forfeited_game(folder)
    with serving(folder) as url:
        status, me, _ = curl(f"{url}/api/me", token=token)
        assert status == 200, me
        (game,) = me["games"]
        page = shared_browser().new_page()
        asked: list[str] = []
        page.on("request", lambda request: asked.append(urlsplit(request.url).path))
        try:
            page.goto(url + game["replay"])
            page.wait_for_function("t => document.querySelector('#moves').textContent === t "
                                   "&& !document.querySelector('#status').textContent.startsWith('Loading')",
                                   arg=line, timeout=WAIT_MS)
            seen: Any = page.evaluate("() => [ui.opponent, ui.info.to_move, engineFor(ui.info.to_move)]")
            assert seen == ["person", 2, None], seen  # the second player to move, and no engine plays it
            page.wait_for_timeout(WATCH_MS)
            assert "/api/move" not in asked, asked
            assert page.locator("#moves").inner_text() == line
            assert "thinking" not in page.locator("#status").inner_text()
        finally:
            page.close()
            close_contexts()
