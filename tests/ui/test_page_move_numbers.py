"""One numbering of moves on the page, in headless Chromium: the move list numbers by full move ("9. 7",
"2. 4 3"), as a saved record does, and so do the review's summary, the move list's accessible names, the
graph's points, the status line and the live region; where a count of plies is meant, it says "ply" (as
`zerosum review`'s table and summary count them).  Connect Four, and Othello with a pass."""

from __future__ import annotations

import re

from page_browser import base_url, browser, page, wait_moves  # noqa: F401  (fixtures)

#: Connect Four: red's mistake is ply 1 ("1. 3?"), yellow's ply 4 (listed "2. 4 3?"), red's blunder ply 17 ("9. 7??")
CONNECT4 = "344344357343431777116171126222"
#: 4 x 4 Othello: black passes at ply 9 (its 5th move), white's mistake is ply 10 ("5... d3")
OTHELLO = "b1a1c4c1a2b4a4a3passd3d1d2d4"


def wait_reviewed(page, plies: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#eval-graph [data-graph-ply]').length === n "
                           "&& !document.querySelector('#review-info').textContent.includes('…')",
                           arg=plies + 1, timeout=120000)


def list_entries(page) -> list[tuple[str, str, str]]:
    """Each move of the move list: (its row's number, the button's text, its accessible name)."""
    return page.eval_on_selector_all(
        "#move-list li:not(.start)",
        "lis => lis.flatMap((li) => [...li.querySelectorAll('button')].map((b) => "
        "[li.querySelector('.number').textContent, b.textContent, b.getAttribute('aria-label')]))")


def check_list_names(page, sides: tuple[str, str]) -> None:
    """Each move's accessible name gives the number its row shows and the side that played it."""
    entries = list_entries(page)
    assert entries
    for ply, (number, _, label) in enumerate(entries, 1):
        assert number == f"{(ply + 1) // 2}.", (ply, number)
        assert label.startswith(f"move {(ply + 1) // 2}, {sides[(ply - 1) % 2]}: "), (ply, label)


def test_connect_four_names_each_move_by_the_number_the_move_list_shows(page) -> None:
    page.goto(page.base + f"/?game=connect4&moves={CONNECT4}&analysis=1&opponent=person")
    wait_moves(page, CONNECT4)
    wait_reviewed(page, len(CONNECT4))
    entries = list_entries(page)
    assert entries[3][1] == "3?" and entries[16][1] == "7??"  # "2. 4 3?", "9. 7??"
    summary = page.text_content("#review-info")
    assert "Red kept the result with" in summary and "Yellow kept the result with" in summary, summary
    assert "first decisive error: a mistake at move 1 (1. 3, ply 1)" in summary, summary  # red's first
    assert "first decisive error: a mistake at move 2 (2... 3, ply 4)" in summary, summary
    assert not re.search(r"at move (4|17)\b", summary), summary
    check_list_names(page, ("red", "yellow"))
    blunder = page.get_attribute('#move-list button[data-ply="17"]', "aria-label")
    assert blunder.startswith("move 9, red: 7, blunder"), blunder
    assert page.get_attribute('#move-list button[data-ply="4"]', "aria-label").startswith("move 2, yellow: 3, mistake")
    point = page.get_attribute('#eval-graph [data-graph-ply="17"]', "aria-label")
    assert point.startswith("after 9. 7 (ply 17): "), point
    page.click('#move-list button[data-ply="17"]')
    wait_moves(page, CONNECT4[:17])
    assert "After 9. 7 (ply 17 of 30): → steps forward." in page.text_content("#status")
    page.wait_for_function("() => document.querySelector('#announce').textContent.startsWith('Move 9: red played 7')")
    page.click('#move-list button[data-ply="4"]')
    wait_moves(page, CONNECT4[:4])
    assert "After 2... 3 (ply 4 of 30)" in page.text_content("#status")
    page.wait_for_function("() => document.querySelector('#announce').textContent.startsWith('Move 2: yellow played 3')")
    page.click("#first")
    wait_moves(page, "")
    assert "The start (ply 0 of 30)" in page.text_content("#status")


def test_othello_with_a_pass_numbers_moves_as_its_move_list_does(page) -> None:
    page.goto(page.base + f"/?game=othello:n=4&moves={OTHELLO}&analysis=1&opponent=person")
    wait_moves(page, OTHELLO)
    plies = 13  # the pass is a move of the line: 12 cells and a pass
    wait_reviewed(page, plies)
    entries = list_entries(page)
    assert len(entries) == plies and entries[8][1] == "pass" and entries[9][1].startswith("d3")
    check_list_names(page, ("black", "white"))
    summary = page.text_content("#review-info")
    assert "first decisive error: a mistake at move 5 (5... d3, ply 10)" in summary, summary
    assert page.get_attribute('#move-list button[data-ply="10"]', "aria-label").startswith("move 5, white: d3, mistake")
    point = page.get_attribute('#eval-graph [data-graph-ply="10"]', "aria-label")
    assert point.startswith("after 5... d3 (ply 10): "), point
    page.click('#move-list button[data-ply="9"]')
    wait_moves(page, OTHELLO[:len("b1a1c4c1a2b4a4a3pass")])
    assert "After 5. pass (ply 9 of 13)" in page.text_content("#status")
    page.wait_for_function("() => document.querySelector('#announce').textContent.startsWith('Move 5: black played')")


def test_the_variations_name_moves_by_full_move(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=4453&v=2.17&line=1&ply=3&opponent=person")
    wait_moves(page, "441")
    names = page.eval_on_selector_all("#variations [data-node]", "bs => bs.map((b) => b.getAttribute('aria-label'))")
    assert names == ["move 1, red: 4", "move 1, yellow: 4", "move 2, red: 5", "move 2, red: 1", "move 2, yellow: 7",
                     "move 2, yellow: 3"], names
    group = page.get_attribute("#variations .variation", "aria-label")
    assert group == "variation from 2. 1", group
    assert "After 2. 1 (ply 3 of 4)" in page.text_content("#status")
