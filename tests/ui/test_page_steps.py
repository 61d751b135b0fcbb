"""The page in headless Chromium (#15): back, forward, redo, the move list and the keys; engines on both
sides with pause and step; the address keeps every setting and takes Pons' ?pos=; bad addresses."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

import zerosum.ui
from page_browser import DESKTOP, base_url, browser, open_page, page, wait_moves  # noqa: F401  (fixtures)


def shown_ply(page) -> int:
    return int(page.get_attribute('#move-list [aria-current="step"]', "data-ply"))


def address(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query, keep_blank_values=True).items()}


def discs(page) -> int:
    return page.locator(".cx-grid .disc").count()


def test_back_forward_and_the_move_list_step_through_a_line_and_keep_the_redo(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=4453&opponent=person")
    wait_moves(page, "4453")
    assert page.locator("#move-list button[data-ply]").count() == 5  # the start and four moves
    page.click("#back")
    wait_moves(page, "445")
    assert discs(page) == 3 and shown_ply(page) == 3
    assert page.locator("#move-list button.future").count() == 1  # 3 is the redo
    page.click("#back")
    wait_moves(page, "44")
    page.click("#forward")  # redo
    wait_moves(page, "445")
    page.click('#move-list button[data-ply="1"]')
    wait_moves(page, "4")
    assert discs(page) == 1 and "After 1. 4 (ply 1 of 4)" in page.text_content("#status")
    page.click("#last")
    wait_moves(page, "4453")
    page.click("#first")
    wait_moves(page, "")
    assert discs(page) == 0 and page.is_disabled("#back") and not page.is_disabled("#forward")
    assert address(page)["moves"] == "4453" and address(page)["ply"] == "0"


def test_the_arrow_keys_home_and_end_step_through_the_game(page) -> None:
    page.goto(page.base + "/?game=tictactoe&moves=159&opponent=person")
    wait_moves(page, "159")
    page.keyboard.press("ArrowLeft")
    wait_moves(page, "15")
    page.keyboard.press("Home")
    wait_moves(page, "")
    page.keyboard.press("ArrowRight")
    wait_moves(page, "1")
    page.keyboard.press("End")
    wait_moves(page, "159")
    page.keyboard.press("ArrowRight")  # nothing past the end
    assert shown_ply(page) == 3


def test_a_new_move_from_an_earlier_position_opens_a_variation(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=4453&opponent=person")
    wait_moves(page, "4453")
    page.click('#move-list button[data-ply="2"]')
    wait_moves(page, "44")
    page.click('[data-column="4"]')  # 5: the next move of the line, so the future stays
    wait_moves(page, "445")
    assert page.locator("#move-list button[data-ply]").count() == 5
    page.click("#back")
    wait_moves(page, "44")
    page.click('[data-column="0"]')  # a new move: the line shown is now 441, and 4453 stays the main line
    wait_moves(page, "441")
    assert page.locator("#move-list button[data-ply]").count() == 4
    assert page.locator("#move-list button.future").count() == 0 and page.is_disabled("#forward")
    assert address(page)["moves"] == "4453" and address(page)["v"] == "2.1" and "ply" not in address(page)


def test_undo_against_an_engine_takes_back_a_full_move_and_redo_brings_it_back(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=first&side=1")
    wait_moves(page, "")
    page.click('[data-play="3"]')  # the column's own button
    wait_moves(page, "41")
    page.click("#undo")
    wait_moves(page, "")
    assert "The start (ply 0 of 2)" in page.text_content("#status")  # the engine waits: this is not the end of the line
    page.click("#redo")
    wait_moves(page, "41")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('Your turn')")


def test_engines_on_both_sides_play_pause_and_step(page) -> None:
    # from 1 4 2, O to move: the game plays out in 2-6 engine moves (from the start: 5-9, 600 ms apart)
    page.goto(page.base + "/?game=tictactoe&moves=142&opponent=first&opponent2=random&side=0")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('wins') "
                           "|| document.querySelector('#status').textContent.includes('Draw')", timeout=30000)
    moves = list(page.text_content("#moves"))
    assert moves[:3] == ["1", "4", "2"] and len(moves) >= 5  # O (random) and X moved; the game played out alone
    for ply in range(4, len(moves), 2):  # first (X) took the first free cell each time
        assert moves[ply] == min(set("123456789") - set(moves[:ply])), moves
    assert address(page)["side"] == "0" and address(page)["opponent2"] == "random"
    # paused: nothing moves until Step
    page.goto(page.base + "/?game=connect4&opponent=first&side=0&paused=1")
    wait_moves(page, "")
    assert page.get_attribute("#pause", "aria-pressed") == "true" and "Paused" in page.text_content("#status")
    page.wait_for_timeout(1500)
    assert page.text_content("#moves") == ""
    page.click("#step")
    wait_moves(page, "1")
    page.click("#step")
    wait_moves(page, "11")
    page.click("#pause")  # play on
    page.wait_for_function("() => document.querySelector('#moves').textContent.length >= 4", timeout=20000)
    page.click("#pause")
    assert page.get_attribute("#pause", "aria-pressed") == "true"
    page.click("#back")  # stepping back stops the engines: they move only at the end of the line
    page.wait_for_function("() => document.querySelector('#status').textContent.includes(' of ')")


def test_pons_pos_opens_connect_four_and_the_address_round_trips(page) -> None:
    page.goto(page.base + "/?pos=4453")
    wait_moves(page, "4453")
    assert discs(page) == 4 and page.text_content("#error") == ""
    assert page.locator('#move-list button[data-ply]').count() == 5
    page.goto(page.base + "/?game=tictactoe&moves=15&opponent=first&side=2&analysis=1&ply=1")
    wait_moves(page, "1")
    kept = address(page)
    assert kept == {"game": "tictactoe", "moves": "15", "ply": "1", "opponent": "first", "side": "2", "analysis": "1"}
    page.goto(page.url)  # the address opens the same game, position and settings
    wait_moves(page, "1")
    assert address(page) == kept and page.is_checked("#analysis") and page.input_value("#side") == "2"
    assert page.input_value("#opponent") == "first"
    page.uncheck("#analysis")
    assert address(page)["analysis"] == "0"
    page.goto(page.base + "/?game=connect4&moves=4453&opponent=solver&side=1&analysis=1")  # the README's link
    wait_moves(page, "4453")
    assert address(page)["analysis"] == "1" and address(page)["opponent"] == "solver"


@pytest.fixture(scope="module")
def address_page(browser, base_url):  # noqa: F811
    """One page for the bad addresses (a new one a case took 0.3 s): each case opens an address of its own, and
    the page keeps nothing between them (no storage, no cookies, no routes).  Its script errors fail the case
    they come in, or the next one, or the module's end."""
    context, pg = open_page(browser, base_url, DESKTOP)
    yield pg
    context.close()
    assert pg.errors == [], pg.errors


@pytest.mark.parametrize("query,words,moves", [
    ("?game=chess&moves=1", "unknown game", ""),
    ("?game=connect4&moves=448", "column 8 is outside", ""),
    ("?pos=4458", "column 8 is outside", ""),
    ("?game=tictactoe&pos=4453", "pos= is Pons' form for 7 x 6 Connect Four", "4453"),
    ("?game=connect4&moves=44&side=3", "side=3 is not 1", "44"),
    ("?game=connect4&moves=44&opponent=wizard", "opponent=wizard is not one of", "44"),
    ("?game=connect4&moves=44&analysis=yes", "analysis=yes is not 0 or 1", "44"),
    ("?game=connect4&moves=44&ply=9", "ply=9 is not a number of moves 0..2", "44"),
])
def test_a_bad_address_is_explained_and_the_page_starts_sanely(address_page, query, words, moves) -> None:
    page = address_page
    assert page.errors == [], page.errors  # none from the case before
    page.goto(page.base + "/" + query.replace("opponent=wizard", "opponent=wizard&side=1"))
    page.wait_for_function("w => document.querySelector('#error').textContent.includes(w)", arg=words)
    page.wait_for_selector(".cx-grid, .cells")  # a board, never a blank page
    wait_moves(page, moves)
    assert "Loading" not in page.text_content("#status")
    assert page.errors == [], page.errors


def test_a_wide_board_whose_moves_take_commas_steps_too(page) -> None:
    page.goto(page.base + "/?game=connectx:rows=8,cols=12,k=4&moves=6,7,6,7,11&opponent=person")
    wait_moves(page, "6,7,6,7,11")
    page.keyboard.press("ArrowLeft")
    wait_moves(page, "6,7,6,7")
    page.click('[data-column="9"]')
    wait_moves(page, "6,7,6,7,10")
    assert address(page)["moves"] == "6,7,6,7,11" and address(page)["v"] == "4.10"  # a variation
    page.goto(page.url)  # its moves are split by the game's separator when the address is read back
    wait_moves(page, "6,7,6,7,10")
    assert page.locator("#variations button[data-node]").count() == 6



def test_the_page_starts_only_once_every_script_is_in(page) -> None:
    # a slow study.js (the last script) once arrived after start()'s first answers: "The page could not start:
    # markOf is not defined" (a loaded machine; seen in the full suite); here it comes a second late, from a
    # server of its own (a route handler that waited would hold up the page's other requests too)
    body = (Path(zerosum.ui.__file__).parent / "static" / "study.js").read_bytes()

    class Slow(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            time.sleep(1.0)
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page.route("**/static/study.js", lambda route: route.continue_(
            url=f"http://127.0.0.1:{server.server_address[1]}/static/study.js"))
        page.goto(page.base + "/?game=connect4&moves=4453&opponent=person")
        wait_moves(page, "4453")
        assert page.text_content("#error") == ""
        page.click('#move-list button[data-ply="2"]')  # the move list is there, and steps
        page.wait_for_function("() => document.querySelector('#move-list [aria-current=\"step\"]').dataset.ply === '2'")
    finally:
        server.shutdown()
