"""The page in headless Chromium: a Back (the browser's history) whose position the server cannot give leaves
the page showing the position it was on, consistently.  The history step used to set the tree and the line
before asking the server: with the server unreachable the board and the move list stayed on 4 4 5 while the
address said 4 4 and the page's line was 4 4, so the next move was played after 4 4 (the board jumped).  Now the
step is said once ("...: the game shown goes on."), the address names the position shown again, and play goes
on from it once the server answers."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from page_browser import base_url, browser, page, wait_moves  # noqa: F401  (fixtures)

BLOCK = "**/api/state?*"


def shown(page) -> dict:
    """What the page shows: the board's moves, its stones, the move list's moves and current ply, the address."""
    query = {k: v[0] for k, v in parse_qs(urlparse(page.url).query, keep_blank_values=True).items()}
    return {
        "moves": page.text_content("#moves"),
        "stones": page.locator("#board .disc").count(),
        "list": "".join(b.inner_text() for b in page.locator("#move-list button[data-ply]:not([data-ply='0'])").all()),
        "current": page.get_attribute("#move-list button[aria-current]", "data-ply"),
        "address": (query.get("moves"), query.get("ply")),
    }


def played_then_back_unanswered(page) -> dict:
    """Play 4 4 5, then Back (to 4 4) with the server unreachable: what the page showed before the Back."""
    page.goto(page.base + "/?game=connect4&opponent=person&side=1")
    wait_moves(page, "")
    for played in ("4", "44", "445"):
        page.keyboard.press(played[-1])
        wait_moves(page, played)
    before = shown(page)
    page.route(BLOCK, lambda route: route.abort())
    page.go_back()  # to 4 4: the server cannot be reached
    page.wait_for_function("() => document.querySelector('#error').textContent !== ''", timeout=10000)
    page.wait_for_function("() => new URLSearchParams(location.search).get('moves') === '445'")  # back to its entry
    return before


def test_a_back_the_server_cannot_answer_leaves_the_position_shown(page) -> None:
    before = played_then_back_unanswered(page)
    assert before == {"moves": "445", "stones": 3, "list": "445", "current": "3", "address": ("445", None)}
    assert page.text_content("#error") == "the server cannot be reached: the game shown goes on."
    assert shown(page) == before  # the board, the move list and the address: all still 4 4 5
    page.unroute(BLOCK)
    page.keyboard.press("3")  # play goes on from the position shown
    wait_moves(page, "4453")
    assert shown(page) == {"moves": "4453", "stones": 4, "list": "4453", "current": "4", "address": ("4453", None)}
    assert page.text_content("#error") == ""
    page.go_back()  # the history still steps
    wait_moves(page, "445")
    assert shown(page)["address"] == ("445", None)


def test_the_entry_a_failed_back_stepped_to_is_kept(page) -> None:
    # the failed step used to overwrite the entry it stepped to (4 4) with the position shown (4 4 5): the next
    # Back, the server reachable again, went to 4 rather than 4 4.  Now the history goes back to the entry shown
    before = played_then_back_unanswered(page)
    assert shown(page) == before
    page.unroute(BLOCK)
    page.go_back()  # the entry stepped to, kept
    wait_moves(page, "44")
    assert shown(page)["address"] == ("44", None)
    page.go_forward()
    wait_moves(page, "445")
    page.go_back()
    page.go_back()
    wait_moves(page, "4")
    page.go_forward()
    wait_moves(page, "44")
    page.keyboard.press("3")  # a new branch from 4 4: the history's forward entries give way to it
    wait_moves(page, "443")
    page.go_back()
    wait_moves(page, "44")
