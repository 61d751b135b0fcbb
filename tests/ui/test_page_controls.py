"""The page in headless Chromium: its controls as the audit found them wanting.  The keyboard's focus stays on
the column or cell just played (the board is drawn anew after every move); undo as the second player stops at
their own turn; the move list scrolls to the move shown, the page does not (on a phone it took the board out of
sight at every move); an address's `v=` that names no variation is said and left out, so what is shown is what
a reload shows; the list of a record's games is hidden until a record is opened; a saved record's file is
named for the game shown."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from page_browser import base_url, browser, page, phone, wait_moves  # noqa: F401  (fixtures)


def focused(page) -> str | None:
    """The board's control that has the keyboard's focus: its data-play or data-cell, else None."""
    return page.evaluate("() => { const n = document.activeElement;"
                         " return n && (n.getAttribute('data-play') || n.getAttribute('data-cell')); }")


def test_the_focus_stays_on_the_column_played(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=person")
    wait_moves(page, "")
    page.focus('[data-play="3"]')
    page.keyboard.press("Enter")
    wait_moves(page, "4")
    assert focused(page) == "3"
    page.keyboard.press("Enter")  # the same column again
    wait_moves(page, "44")
    assert focused(page) == "3"
    page.keyboard.press("Tab")  # on to the next column's button, not back to the top of the page
    assert focused(page) == "4"


def test_the_focus_stays_on_the_cell_played_after_the_engine_answers(page) -> None:
    page.goto(page.base + "/?game=tictactoe&opponent=first&side=1")
    wait_moves(page, "")
    page.focus('[data-cell="4"]')
    page.keyboard.press("Enter")
    wait_moves(page, "51")  # the centre, then the engine's first legal move
    assert focused(page) == "4"
    page.keyboard.press("Tab")
    assert focused(page) == "5"
    page.keyboard.press("Enter")
    wait_moves(page, "5162")
    assert focused(page) == "5"


def test_undo_as_the_second_player_stops_at_their_turn(page) -> None:
    page.goto(page.base + "/?game=tictactoe&opponent=first&side=2")
    wait_moves(page, "1")  # the engine moved first: the person has nothing to undo yet
    assert page.is_disabled("#undo")
    page.keyboard.press("u")
    page.wait_for_function("() => document.querySelector('#error').textContent === 'Nothing to undo.'")
    assert page.text_content("#moves") == "1" and "Your turn" in page.text_content("#status")
    page.click('[data-cell="4"]')
    wait_moves(page, "152")
    page.keyboard.press("u")  # back to the person's turn: before their 5, after the engine's 1
    wait_moves(page, "1")
    assert not page.is_disabled("#redo") and page.is_disabled("#undo")


#: 100 moves on 16 x 16 with k = 8, the columns in turn: each column holds one player's stones, 7 at most
LONG = ",".join(str(1 + i % 16) for i in range(100))


def test_the_move_list_scrolls_to_the_move_shown_and_the_page_stays(phone) -> None:  # noqa: F811
    phone.goto(phone.base + "/?game=connect4&moves=4453&opponent=person")
    wait_moves(phone, "4453")
    phone.click('[data-column="2"]')
    wait_moves(phone, "44533")
    assert phone.evaluate("scrollY") == 0  # the board stays in sight
    phone.goto(phone.base + f"/?game=connectx:rows=16,cols=16,k=8&moves={LONG}&opponent=person")
    wait_moves(phone, LONG)
    inside = """() => { const list = document.querySelector('#move-list').getBoundingClientRect();
        const at = document.querySelector('#move-list [aria-current="step"]').getBoundingClientRect();
        return at.top >= list.top - 1 && at.bottom <= list.bottom + 1; }"""
    assert phone.evaluate("scrollY") == 0 and phone.evaluate(inside)  # the 100th move, at the list's end
    phone.keyboard.press("Home")  # the start (a click would scroll the page to the button itself)
    phone.wait_for_selector('#move-list [aria-current="step"][data-ply="0"]')
    assert phone.evaluate("scrollY") == 0 and phone.evaluate(inside)


def query(page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query, keep_blank_values=True)


def test_an_address_variation_that_names_no_branch_is_said_and_left_out(page) -> None:
    # 4 moves shared with 4 4 5 3, then 1: it would lengthen the main line, not branch from it
    page.goto(page.base + "/?game=connect4&moves=4453&v=4.1&opponent=person")
    wait_moves(page, "4453")
    assert "v=4.1: no variation found" in page.text_content("#error")
    assert page.evaluate("treeLines().map((l) => l.join(''))") == ["4453"] and page.is_hidden("#variations-box")
    assert "v" not in query(page)
    # 2 moves shared and none of its own: 4 4 is in the main line already; line=1 named it
    page.goto(page.base + "/?game=connect4&moves=4453&v=2.&line=1&opponent=person")
    wait_moves(page, "4453")
    assert "v=2.: no variation found" in page.text_content("#error")
    assert "the main line is shown" in page.text_content("#error")
    shown = page.url
    page.reload()
    wait_moves(page, "4453")  # what the rewritten address opens is what was shown
    assert page.url == shown
    # a real variation is still kept: 4 4 1 7 beside 4 4 5 3
    page.goto(page.base + "/?game=connect4&moves=4453&v=2.17&line=1&ply=3&opponent=person")
    wait_moves(page, "441")
    assert page.evaluate("treeLines().map((l) => l.join(''))") == ["4453", "4417"]
    assert page.text_content("#error") == ""


def test_the_list_of_a_records_games_is_hidden_until_a_record_is_opened(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=person")
    wait_moves(page, "")
    page.click("#record-box summary")
    page.wait_for_selector("#record-text", state="visible")
    assert page.is_hidden("#record-games")
    page.fill("#record-text", '[Game "connect4"]\n\n1. 4 4 2. 5 3 *\n')
    page.click("#record-open")
    page.wait_for_selector("#record-games", state="visible", timeout=20000)


def test_a_record_is_named_for_the_game_shown(page) -> None:
    """The name Save record gives its file (docs/page.md: zerosum-connect4.pgn): the game's spec as the page
    spells it, its options run together."""
    for spec, name in [("connect4", "connect4"), ("connect4-8x8", "connect4-8x8"),
                       ("connectx:rows=5,cols=9,k=4", "connectx-rows5-cols9-k4")]:
        page.goto(page.base + f"/?game={spec}&opponent=person")
        wait_moves(page, "")
        assert page.evaluate("gameFileName()") == name
