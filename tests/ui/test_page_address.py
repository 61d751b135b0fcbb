"""The page's address in headless Chromium (#20, item 13): an opponent the server refuses (an option out of its
range) gives way to a sane one -- the nearest the server plays, else the default opponent -- with a one-line
note, the address rewritten, and the game going on (the engine moves first when the person plays second)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from page_browser import base_url, browser, page, wait_moves  # noqa: F401  (fixtures)


def address(page) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlparse(page.url).query, keep_blank_values=True).items()}


def wait_error(page, words: str) -> None:
    page.wait_for_function("w => document.querySelector('#error').textContent.includes(w)", arg=words,
                           timeout=15000)


def engine_moved_first(page) -> None:
    """The engine (playing first, as side=2 asks) has made its move: one move on the board, the person to move."""
    page.wait_for_function("() => document.querySelector('#moves').textContent.length === 1 "
                           "&& document.querySelector('#status').textContent.includes('Your turn')", timeout=30000)


@pytest.mark.parametrize("query,said,instead", [
    ("?opponent=alphabeta:depth=100&side=2", "expected 1..8", "alphabeta:depth=8"),  # the report's address
    ("?game=tictactoe&opponent=mcts:sims=0,seed=3&side=2", "expected 1..100000", "mcts:sims=1,seed=3"),
    ("?game=tictactoe&opponent=alphabeta:plain=1&side=2", "plain=1", "alphabeta:time=1"),  # no nearest: the default
])
def test_refused_opponent_in_address_gets_a_sane_value(page, query, said, instead) -> None:
    page.goto(page.base + "/" + query)
    name = query.split("opponent=")[1].split("&")[0]
    wait_error(page, f"opponent={name}: ")
    note = page.text_content("#error")
    assert said in note and f"{instead} plays instead" in note and "\n" not in note
    engine_moved_first(page)  # the game goes on: the engine plays first, as side=2 asks
    assert address(page)["opponent"] == instead and address(page)["side"] == "2"
    assert page.input_value("#opponent") == instead
    assert "could not move" not in note


def test_a_refused_second_engine_gives_way_to_the_first(page) -> None:
    page.goto(page.base + "/?game=tictactoe&opponent=first&opponent2=minimax:depth=99&side=0&paused=1")
    wait_error(page, "opponent2=minimax:depth=99: ")
    assert "minimax:depth=6 plays instead" in page.text_content("#error")
    wait_moves(page, "")
    assert address(page).get("opponent2") == "minimax:depth=6" and address(page)["opponent"] == "first"


def test_an_accepted_opponent_is_kept_as_written(page) -> None:
    page.goto(page.base + "/?game=tictactoe&opponent=alphabeta:depth=3&side=2")
    engine_moved_first(page)
    assert address(page)["opponent"] == "alphabeta:depth=3" and page.text_content("#error") == ""
