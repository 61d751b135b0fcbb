"""The page in headless Chromium, through the real server: the Game menu starts the game it names at once, as
the Opponent and "You play" menus apply at once.  Choosing "Connect Four, 8 rows x 8 columns" used to change
only the menu: the board kept 7 columns, the address said `game=connect4`, key 8 was "outside 1..7" and the
engine answered on 7 x 6 until New game was pressed.  Now the board, the address, the keys and the engine all
play the game the menu names; the game left is kept in the browser's history; a size field starts a game of
its size (keeping the keyboard's focus); a size the server refuses is said, and the game shown goes on."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlparse

from page_browser import base_url, browser, page, wait_moves  # noqa: F401  (fixtures)

EIGHT = "Connect Four, 8 rows x 8 columns"


def columns(page) -> int:
    """How many columns the board draws."""
    return page.locator("[data-column]").evaluate_all("els => new Set(els.map(e => e.dataset.column)).size")


def address(page) -> dict[str, str]:
    """The address's settings, one value each."""
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query, keep_blank_values=True).items()}


def wait_columns(page, n: int) -> None:
    """Wait until the board draws ``n`` columns and the page has shown the game (not "Loading…")."""
    page.wait_for_function("n => new Set(Array.from(document.querySelectorAll('[data-column]'),"
                           " e => e.dataset.column)).size === n", arg=n, timeout=15000)
    wait_moves(page, page.text_content("#moves") or "")


def press_moves(page, keys: str) -> None:
    """Play each key's move, one after the other (a key pressed before the move before it is shown plays a
    move from the same position)."""
    played = page.text_content("#moves") or ""
    for key in keys:
        page.keyboard.press(key)
        played += key
        wait_moves(page, played)


def menu_label(page) -> str:
    return page.locator("#game-select option:checked").inner_text()


def test_choosing_8x8_plays_it_at_once_and_back_brings_the_game_left(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=person&side=1")
    wait_moves(page, "")
    press_moves(page, "44")
    page.select_option("#game-select", label=EIGHT)
    wait_columns(page, 8)
    assert page.text_content("#moves") == "" and menu_label(page) == EIGHT
    assert address(page)["game"] == "connect4-8x8" and address(page)["moves"] == ""
    page.keyboard.press("8")  # column 8 is on this board
    wait_moves(page, "8")
    assert page.text_content("#error") == ""
    page.go_back()  # the new game's start, then the game left: an entry of the history, as New game leaves it
    wait_moves(page, "")
    page.go_back()
    wait_columns(page, 7)
    wait_moves(page, "44")
    assert menu_label(page) == "Connect Four, 6 rows x 7 columns" and address(page)["game"] == "connect4"
    page.go_forward()
    wait_columns(page, 8)
    page.go_forward()
    wait_moves(page, "8")
    assert menu_label(page) == EIGHT


def test_the_engine_answers_on_the_game_the_menu_names(page) -> None:
    asked: list[dict] = []
    page.on("request", lambda r: asked.append(json.loads(r.post_data)) if r.url.endswith("/api/move") else None)
    page.goto(page.base + "/?game=connect4&opponent=solver&side=1")
    wait_moves(page, "")
    page.select_option("#game-select", label=EIGHT)
    wait_columns(page, 8)
    page.click('[data-column="7"]')  # column 8
    page.wait_for_function("() => document.querySelector('#engine-info').textContent.includes(' played ')",
                           timeout=60000)
    moves = page.text_content("#moves")
    assert moves.startswith("8") and len(moves) == 2, moves
    assert asked and all(a["game"] == "connectx:rows=8,cols=8,k=4" for a in asked), asked
    assert asked[-1]["moves"] == "8"
    assert columns(page) == 8 and address(page)["game"] == "connect4-8x8" and address(page)["moves"] == moves
    assert page.text_content("#error") == ""


def test_the_menu_by_keyboard_starts_the_next_game(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=person&side=1")
    wait_moves(page, "")
    page.focus("#game-select")
    page.keyboard.press("ArrowDown")  # the next game of the menu: Connect Four 8 x 8
    wait_columns(page, 8)
    assert menu_label(page) == EIGHT and address(page)["game"] == "connect4-8x8"
    assert page.evaluate("document.activeElement.id") == "game-select"  # the focus stays on the menu


def test_a_size_field_starts_a_game_of_its_size_and_keeps_the_focus(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=person&side=1")
    wait_moves(page, "")
    page.keyboard.press("3")
    wait_moves(page, "3")
    page.select_option("#game-select", "connectx")  # any size: a game at its default size, the fields shown
    wait_moves(page, "")
    assert [page.input_value(f"#opt-{k}") for k in ("rows", "cols", "k")] == ["6", "7", "4"]
    page.focus("#opt-cols")
    page.keyboard.press("ArrowUp")
    wait_columns(page, 8)
    assert address(page)["game"] == "connectx:rows=6,cols=8,k=4"
    assert page.evaluate("document.activeElement.id") == "opt-cols"
    page.fill("#opt-rows", "8")
    page.keyboard.press("Enter")  # 8 x 8, the preset's board: the menu stays "any size", its fields kept
    page.wait_for_function("() => new URLSearchParams(location.search).get('game') === 'connect4-8x8'")
    assert page.input_value("#game-select") == "connectx" and page.input_value("#opt-rows") == "8"
    assert page.evaluate("document.activeElement.id") == "opt-rows"
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("8")  # the focus out of the fields: a key plays its column
    wait_moves(page, "8")


def test_a_size_refused_is_said_and_the_game_shown_goes_on(page) -> None:
    page.goto(page.base + "/?game=othello&moves=f5&opponent=person&side=1")
    wait_moves(page, "f5")
    page.fill("#opt-n", "9")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#error').textContent.includes('the game shown goes on')")
    assert "even" in page.text_content("#error") and page.input_value("#opt-n") == "9"  # kept, to be mended
    assert address(page)["game"] == "othello:n=8" and address(page)["moves"] == "f5"
    page.click('[data-move="f4"]')  # the game shown is still played
    wait_moves(page, "f5f4")
    assert page.text_content("#error") == ""
    page.fill("#opt-n", "10")
    page.keyboard.press("Enter")
    page.wait_for_function("() => new URLSearchParams(location.search).get('game') === 'othello:n=10'")
    wait_moves(page, "")


def test_a_menu_choice_the_server_cannot_open_puts_the_menu_back(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=4&opponent=person&side=1")
    wait_moves(page, "4")
    page.route("**/api/state?*", lambda route: route.abort())
    page.select_option("#game-select", "tictactoe")
    page.wait_for_function("() => document.querySelector('#error').textContent.includes('the game shown goes on')")
    assert page.input_value("#game-select") == "connect4" and columns(page) == 7
    page.unroute("**/api/state?*")
    page.keyboard.press("5")  # the game shown is still played
    wait_moves(page, "45")


def test_new_game_refused_leaves_the_game_shown_playable(page) -> None:
    # New game on a size the server refuses used to keep the refused game's name and an empty tree behind the
    # board shown: every move after it was "not played"
    page.goto(page.base + "/?game=othello&moves=f5&opponent=person&side=1")
    wait_moves(page, "f5")
    page.evaluate("document.querySelector('#opt-n').value = '9'")  # typed, no change event: New game reads it
    page.click("#new-game")
    page.wait_for_function("() => document.querySelector('#error').textContent.includes('not 9')")
    page.click('[data-move="f4"]')
    wait_moves(page, "f5f4")
    assert page.text_content("#error") == "" and address(page)["moves"] == "f5f4"
    page.keyboard.press("ArrowLeft")  # the tree is the game shown's
    wait_moves(page, "f5")


def test_new_game_starts_the_game_the_menu_names_again(page) -> None:
    page.goto(page.base + "/?game=connect4-8x8&moves=8&opponent=person&side=1")
    wait_moves(page, "8")
    page.click("#new-game")
    wait_moves(page, "")
    assert columns(page) == 8 and menu_label(page) == EIGHT and address(page)["game"] == "connect4-8x8"
