"""In Chromium (#25): a variation made on the board is saved with the tree (``POST /api/export``), opened again
from the record on another game's page, and shown as the same tree."""

from __future__ import annotations

from page_browser import base_url, browser, page, wait_moves  # noqa: F401  (fixtures)

from zerosum import records


def test_a_variation_made_on_the_board_is_saved_and_opens_as_the_same_tree(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=4453&opponent=person")
    wait_moves(page, "4453")
    page.click('#move-list button[data-ply="2"]')
    wait_moves(page, "44")
    page.click('[data-column="0"]')  # a variation: 4 4 1 beside 4 4 5 3
    wait_moves(page, "441")
    page.click('[data-column="6"]')
    wait_moves(page, "4417")
    page.click('#variations button[data-moves="4"]')
    wait_moves(page, "4")
    page.click('[data-column="2"]')  # another, from the first move: 4 3
    wait_moves(page, "43")
    tree = page.get_by_role("region", name="variations")
    shown = [b.get_attribute("data-moves") for b in tree.locator("button[data-node]").all()]
    assert shown == ["4", "44", "43", "445", "441", "4417", "4453"]  # as PGN: each variation after its move
    with page.expect_download() as saved:
        page.click("#save-record")
    text = open(saved.value.path(), encoding="utf-8").read()
    (record,) = records.parse(text)
    assert record.lines() == [list("4453"), list("4417"), list("43")]
    assert "and 2 variations" in page.text_content("#save-info")
    page.goto(page.base + "/?game=tictactoe&opponent=person")  # another game, then the record opened
    wait_moves(page, "")
    page.click("#record-box summary")
    page.fill("#record-text", text)
    page.click("#record-open")
    page.wait_for_function("() => document.querySelector('#record-info').textContent.startsWith('Game 1')",
                           timeout=30000)
    # the info line is written before the record's game is loaded: wait for its board, then its tree
    page.wait_for_function("() => new URL(location.href).searchParams.get('game') === 'connect4'", timeout=30000)
    wait_moves(page, "")
    tree.locator('button[data-moves="4453"]').wait_for(timeout=30000)
    assert [b.get_attribute("data-moves") for b in tree.locator("button[data-node]").all()] == shown
    tree.locator('button[data-moves="4417"]').click()  # the variation's position, from the record
    wait_moves(page, "4417")

