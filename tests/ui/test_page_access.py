"""The page in headless Chromium (#15): accessible names for every cell, a board played by keyboard alone, a
live region that announces moves, large boards within a phone's width, and a record opened and stepped."""

from __future__ import annotations

import pytest

from page_browser import PHONE, base_url, browser, open_page, page, wait_moves  # noqa: F401  (fixtures)

#: large boards the page offers (up to 16 x 16), and the ones people play
BOARDS = ["connectx:rows=12,cols=8,k=4", "connectx:rows=8,cols=12,k=4", "connectx:rows=16,cols=16,k=4",
          "othello:n=16", "migration:n=16", "connect4", "tictactoe"]


def test_every_cell_has_an_accessible_name(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=44&opponent=person")
    wait_moves(page, "44")
    assert page.get_by_role("img", name="column 4, row 1: red").count() == 1
    assert page.get_by_role("img", name="column 4, row 2: yellow").count() == 1
    assert page.get_by_role("img", name="column 1, row 6: empty").count() == 1
    assert page.locator('.hole[role="img"][aria-label]').count() == 42
    page.goto(page.base + "/?game=tictactoe&moves=5&opponent=person")
    wait_moves(page, "5")
    assert page.get_by_role("button", name="cell 5: X").count() == 1
    assert page.get_by_role("button", name="cell 1: empty, plays 1").count() == 1
    page.goto(page.base + "/?game=othello:n=6&opponent=person")
    page.wait_for_selector(".cells")
    names = page.eval_on_selector_all(".cell", "ns => ns.map((n) => n.getAttribute('aria-label'))")
    assert len(names) == 36 and all(n and n.startswith("column ") for n in names)
    assert sum(": black" in n for n in names) == 2 and sum(": white" in n for n in names) == 2


def test_the_board_plays_by_keyboard_and_the_live_region_says_each_move(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=first&side=1")
    wait_moves(page, "")
    assert page.get_attribute("#announce", "aria-live") == "polite"
    page.focus('[data-play="3"]')  # a real button per column: Tab reaches it, Enter plays it
    page.keyboard.press("Enter")
    wait_moves(page, "41")
    page.wait_for_function("() => document.querySelector('#announce').textContent.startsWith('Move 1: yellow played 1')")
    page.keyboard.press("5")  # a key names a move
    wait_moves(page, "4151")
    page.goto(page.base + "/?game=tictactoe&opponent=person")
    wait_moves(page, "")
    page.focus('[data-cell="4"]')
    page.keyboard.press("Enter")
    wait_moves(page, "5")
    assert page.text_content("#announce").startswith("Move 1: X played 5")


@pytest.fixture(scope="module")
def one_phone(browser, base_url):  # noqa: F811
    """One phone-sized page for the boards (a new one a board took 0.3 s): each case opens a board of its own,
    and the page keeps nothing between them (no storage, no cookies, no routes).  Its script errors fail the
    case they come in, or the next one, or the module's end."""
    context, pg = open_page(browser, base_url, PHONE)
    yield pg
    context.close()
    assert pg.errors == [], pg.errors


@pytest.mark.parametrize("spec", BOARDS)
def test_large_boards_fit_a_phone_without_horizontal_overflow(one_phone, spec) -> None:
    phone = one_phone
    assert phone.errors == [], phone.errors  # none from the board before
    phone.goto(phone.base + f"/?game={spec}&opponent=person")
    phone.wait_for_selector(".cx-grid, .cells")
    phone.wait_for_function("() => !document.querySelector('#status').textContent.startsWith('Loading')")
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 375, f"{spec}: the page is {width} px wide on a 375 px phone"
    right = phone.evaluate("() => Math.max(...Array.from(document.querySelectorAll('.hole, .cell'), "
                           "(n) => n.getBoundingClientRect().right))")
    assert right <= 375
    first = phone.locator(".hole, .cell").first.bounding_box()
    assert first["width"] >= 14  # still a target a finger can see
    assert phone.errors == [], phone.errors


def test_a_record_opens_in_the_move_list_and_steps(page) -> None:
    pytest.importorskip("zerosum.records")
    record = ('[Event "test"]\n[First "alphabeta"]\n[Second "mcts"]\n[Game "connectx:rows=6,cols=7,k=4"]\n'
              '[Opening "44"]\n[Result "1-0"]\n[Termination "normal"]\n\n1 2 1 2 1 2 1 1-0\n\n'
              '[Event "test"]\n[Game "tictactoe"]\n[Opening "-"]\n[Result "*"]\n\n5 1 *\n')
    page.goto(page.base + "/?game=tictactoe&opponent=first")
    wait_moves(page, "")
    page.click("#record-box summary")
    page.fill("#record-text", record)
    page.click("#record-open")
    wait_moves(page, "")  # the first game, at its start
    page.wait_for_selector(".cx-grid")
    assert page.locator("#move-list button[data-ply]").count() == 10  # the start, the opening's 2 and 7 moves
    assert "2 games" in page.text_content("#record-info") or "Game 1" in page.text_content("#record-info")
    page.keyboard.press("End")
    wait_moves(page, "441212121")
    assert "wins" in page.text_content("#status") and page.locator(".disc.win").count() == 4
    page.click('#move-list button[data-ply="3"]')
    wait_moves(page, "441")
    assert page.input_value("#opponent") == "person"  # a record is watched: no engine moves at its end
    page.select_option("#record-games", "1")
    page.wait_for_selector(".cells")
    wait_moves(page, "")
    page.keyboard.press("End")
    wait_moves(page, "51")
    page.fill("#record-text", "[Game \"tictactoe\"]\n\n5 5 *")
    page.click("#record-open")
    page.wait_for_function("() => document.querySelector('#record-info').textContent.startsWith('Not a record: ')")
