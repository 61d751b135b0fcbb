"""The page names a player one way everywhere: as its board names the player's pieces (one rule,
zerosum.ui.position.player_name on the server, sent as the view's names, which board.js's pieceName reads).  Connect Four's players are red and yellow in the status line,
the live region, the graph's points, the evaluation bar and the review's summary, as on the board and in the
move list -- the terminal's X and O are drawn nowhere on the page; Tic-Tac-Toe keeps X and O, Othello black and
white.  Before the fix the server's words said X and O on a Connect Four page ("Move 2: yellow played 3. Player
1 (X) to move.")."""

from __future__ import annotations

import re

import pytest

from page_browser import base_url, browser, page, wait_moves  # noqa: F401  (fixtures)

#: (game, moves, the names of players 1 and 2 on its page)
NAMES = [
    ("connect4", "4453", ("red", "yellow")),
    ("connect4-8x8", "45", ("red", "yellow")),
    ("connectx:rows=4,cols=5,k=3", "1", ("red", "yellow")),
    ("tictactoe", "5", ("X", "O")),
    ("othello:n=4", "b1", ("black", "white")),
]


@pytest.mark.parametrize("game, moves, names", NAMES, ids=[n[0] for n in NAMES])
def test_the_status_and_the_review_s_positions_name_players_as_the_board_does(client, game, moves, names) -> None:
    info = client.get("/api/state", params={"game": game, "moves": moves}).json()
    player = info["to_move"]
    assert info["status"] == f"Player {player} ({names[player - 1]}) to move."
    assert info["view"]["names"] == list(names)  # what board.js's pieceName says: one rule, the server's
    reply = client.get("/api/review", params={"game": game, "moves": moves, "budget": "1"}).json()
    for p in reply["positions"]:
        assert p["words"].startswith(f"{names[p['side'] - 1]} to move: "), p


def test_a_finished_connect_four_game_is_won_by_a_colour(client) -> None:
    won = client.get("/api/state", params={"game": "connect4", "moves": "1212121"}).json()
    assert won["status"].startswith("Player 1 (red) wins: ")
    reply = client.get("/api/review", params={"game": "connect4", "moves": "1212121", "budget": "1"}).json()
    while not reply["done"]:
        reply = client.get("/api/review", params={"game": "connect4", "moves": "1212121", "budget": "1",
                                                  "resume": reply["resume"]}).json()
    last = reply["positions"][-1]
    assert (last["words"], last["short"]) == ("game over: red won", "red won")
    assert client.get("/api/state", params={"game": "tictactoe", "moves": "14253"}).json()["status"].startswith(
        "Player 1 (X) wins: ")


def page_words(page) -> str:
    """Every text the page shows or says about the position and its review (visible or for screen readers)."""
    return page.evaluate("""() => [
        document.querySelector('#status').textContent, document.querySelector('#announce').textContent,
        document.querySelector('#review-info').textContent, document.querySelector('#best-line').textContent,
        document.querySelector('#eval-bar').getAttribute('aria-valuetext'),
        document.querySelector('#eval-bar .bar-text').textContent,
        ...[...document.querySelectorAll('#eval-graph [data-graph-ply]')].map((p) => p.getAttribute('aria-label')),
        ...[...document.querySelectorAll('#move-list button')].map((b) => b.getAttribute('aria-label')),
      ].join(' | ')""")


def test_a_connect_four_page_says_red_and_yellow_and_never_x_or_o(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=4453&opponent=person&analysis=1")
    wait_moves(page, "4453")
    page.wait_for_function("() => document.querySelectorAll('#eval-graph [data-graph-ply]').length === 5 "
                           "&& !document.querySelector('#review-info').textContent.includes('…') "
                           "&& document.querySelector('#best-line').textContent.startsWith('Best line')",
                           timeout=60000)
    assert page.text_content("#announce") == "Move 2: yellow played 3. Player 1 (red) to move."
    words = page_words(page)
    assert "red to move: " in words and "yellow to move: " in words, words
    assert not re.search(r"\b[XO]\b", words), words  # the terminal's names appear nowhere
    for ply in range(5):  # each point names the side to move there, as the board names its pieces
        label = page.get_attribute(f'#eval-graph [data-graph-ply="{ply}"]', "aria-label")
        side = page.evaluate("n => pieceName(ui.info.view, n % 2 ? 2 : 1)", ply)
        assert label.split(": ")[1] == f"{side} to move", label
    page.goto(page.base + "/?game=connect4&moves=1212121&opponent=person&analysis=1")  # red has won
    wait_moves(page, "1212121")
    page.wait_for_function("() => document.querySelector('#eval-bar .bar-text').textContent === 'red won'",
                           timeout=60000)
    assert page.get_attribute("#eval-bar", "aria-valuetext") == "game over: red won"
    assert page.text_content("#status").startswith("Player 1 (red) wins: ")
    assert not re.search(r"\b[XO]\b", page_words(page)), page_words(page)


def test_tic_tac_toe_keeps_x_and_o_on_the_page(page) -> None:
    page.goto(page.base + "/?game=tictactoe&moves=15&opponent=person&analysis=1")
    wait_moves(page, "15")
    page.wait_for_function("() => document.querySelectorAll('#eval-graph [data-graph-ply]').length === 3 "
                           "&& !document.querySelector('#review-info').textContent.includes('…')", timeout=60000)
    assert page.text_content("#announce") == "Move 1: O played 5. Player 1 (X) to move."
    point = page.get_attribute('#eval-graph [data-graph-ply="1"]', "aria-label")
    assert point.startswith("after 1. 1 (ply 1): O to move: "), point


@pytest.mark.parametrize("game, moves, names", NAMES[:1] + NAMES[3:4], ids=["connect4", "tictactoe"])
def test_the_why_panel_names_the_side_as_the_board_does(client, game, moves, names) -> None:
    # before: "scores from O's view" on a Connect Four page
    info = client.get("/api/state", params={"game": game, "moves": moves}).json()
    reply = client.get("/api/explain", params={"game": game, "moves": moves, "agent": "alphabeta:depth=2"})
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["side"] == names[info["to_move"] - 1]
    if game != "tictactoe":
        assert re.search(r"\b[XO]'s view", data["verdict"] or "") is None, data["verdict"]
