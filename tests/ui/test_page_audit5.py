"""The page in headless Chromium, as a Connect Four player met it (audit): a refused move says the game's own
reason, as the terminal does ("column 4 is full", "column 9 is outside 1..7"), each refused key anew, and so
does a click on a cell that plays nothing ("cell 5 is taken"); a record
that cannot be read leaves no list of the last record's games under its message; a file that is no UTF-8 text
is refused in ``zerosum replay``'s words; and "why?" after the solver's move gives one account of what it
asked again.  One page for the module, on the module's server (page_browser)."""

from __future__ import annotations

import pytest

from page_browser import DESKTOP, base_url, browser, engine_reply, open_page, wait_moves  # noqa: F401  (fixtures)

GOOD = '[Game "connect4"]\n[First "me"]\n[Second "solver"]\n[Result "1-0"]\n\n4 4 3 3 2 2 1 1-0\n'
BAD = '[Game "connect4"]\n[First "you"]\n\n4 4 4 4 4 9 *\n'  # ply 6: no column 9 on 7 x 6


@pytest.fixture(scope="module")
def page(browser, base_url):  # noqa: F811
    context, pg = open_page(browser, base_url, DESKTOP)
    yield pg
    context.close()
    assert pg.errors == [], pg.errors  # type: ignore[attr-defined]


def said(page, selector: str, text: str, start: bool = False) -> None:
    """Wait until ``selector``'s text is ``text`` (``start``: begins with it), and say what it was if it never is."""
    try:
        page.wait_for_function("([s, t, start]) => start ? document.querySelector(s).textContent.startsWith(t) "
                               ": document.querySelector(s).textContent === t", arg=[selector, text, start],
                               timeout=30000)
    except Exception:
        raise AssertionError(f"{selector}: {page.text_content(selector)!r}, not {text!r}") from None


def test_a_refused_move_says_the_game_s_reason_each_time(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=444444&opponent=person")
    wait_moves(page, "444444")
    # every text #error shows, in turn: a key pressed again is said again, not left standing
    page.evaluate("""() => { window.shown = []; new MutationObserver(() => window.shown.push(
        document.querySelector('#error').textContent)).observe(document.querySelector('#error'),
        {childList: true, characterData: true, subtree: true}); }""")
    page.click('[data-play="3"]')  # the full column's button
    said(page, "#error", "4 is not a legal move here: column 4 is full.")
    page.keyboard.press("9")
    said(page, "#error", "9 is not a legal move here: column 9 is outside 1..7.")
    page.keyboard.press("9")
    page.wait_for_function("() => window.shown.filter((t) => t.includes('column 9')).length === 2", timeout=30000)
    page.keyboard.press("4")
    said(page, "#error", "4 is not a legal move here: column 4 is full.")
    assert page.text_content("#moves") == "444444" and "moves=444444" in page.url  # nothing was played
    page.keyboard.press("3")  # a legal key plays, and the message goes
    wait_moves(page, "4444443")
    assert page.text_content("#error") == ""


@pytest.mark.parametrize("game, moves, cell, words", [
    ("tictactoe", "5", 4, "5 is not a legal move here: cell 5 is taken; free cells: 1 2 3 4 6 7 8 9."),
    ("othello", "", 0, "a1 is not legal: it flips no disc; legal moves: d3 c4 f5 e6."),
    ("othello", "", 27, "d4 is not legal: that cell is taken; legal moves: d3 c4 f5 e6."),
    ("migration", "", 0, "0,0>0,1 is not legal: player 1 has no stone at (0, 0)."),
])
def test_a_click_on_a_cell_that_plays_nothing_says_the_game_s_reason(page, game: str, moves: str, cell: int,
                                                                     words: str) -> None:
    # before: "That is not a legal move here." for every such cell, whatever the reason
    page.goto(page.base + f"/?game={game}&moves={moves}&opponent=person")
    wait_moves(page, moves)
    page.click(f'[data-cell="{cell}"]')
    said(page, "#error", words)
    assert page.text_content("#moves") == moves  # nothing was played


def test_a_record_that_cannot_be_read_leaves_no_list_and_the_board_as_it_was(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=person")
    wait_moves(page, "")
    page.click("#record-box summary")
    page.fill("#record-text", GOOD)
    page.click("#record-open")
    said(page, "#record-info", "Game 1: me – solver 1-0", start=True)
    assert page.is_visible("#record-games")
    page.keyboard.press("End")
    wait_moves(page, "4433221")
    shown = page.text_content("#moves")
    for text in (BAD, '[Game "nosuchgame"]\n\n1 2 *\n' + BAD):  # the second: a game listed, then an error
        page.fill("#record-text", text)
        page.click("#record-open")
        page.wait_for_function("() => document.querySelector('#record-info').textContent.startsWith('Not a record: ')",
                               timeout=30000)
        assert "column 9 is outside 1..7" in page.text_content("#record-info")
        assert page.is_hidden("#record-games") and page.locator("#record-games option").count() == 0
        assert page.text_content("#moves") == shown  # the board as it was
    page.fill("#record-text", '[Game "nosuchgame"]\n\n1 2 *\n')  # a game that cannot be shown is listed
    page.click("#record-open")
    page.wait_for_function("() => document.querySelector('#record-info').textContent.startsWith('Game 1 cannot')",
                           timeout=30000)
    page.fill("#record-text", BAD)
    page.click("#record-open")
    page.wait_for_function("() => document.querySelector('#record-info').textContent.startsWith('Not a record: ')",
                           timeout=30000)
    assert page.is_hidden("#record-games") and page.locator("#record-games option").count() == 0


def test_a_file_that_is_no_utf8_text_is_refused_in_replay_s_words(page, tmp_path, monkeypatch) -> None:
    from zerosum import records
    from zerosum.errors import InvalidFileError

    monkeypatch.chdir(tmp_path)  # replay's words name the file as it was given: here, its name alone
    files = {"latin.pgn": '[Game "connect4"]\n[First "Jérôme"]\n[Second "solver"]\n\n4 4 *\n'.encode("latin-1"),
             "random.pgn": bytes([0x9c, 0xf3, 0x50, 0xee, 0x00, 0x10, 0x2b, 0xff] * 40),
             "nul.pgn": b'[Game "connect4"]\n[First "a\x00b"]\n\n4 4 *\n'}
    page.goto(page.base + "/?game=connect4&opponent=person")
    wait_moves(page, "")
    page.click("#record-box summary")
    page.fill("#record-text", GOOD)
    page.click("#record-open")  # a record's list is on the page: each file below takes it away
    said(page, "#record-info", "Game 1: me – solver 1-0", start=True)
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        with pytest.raises(InvalidFileError) as replay:
            records.read(name)
        page.set_input_files("#record-file", files=[{"name": name, "mimeType": "text/plain", "buffer": data}])
        said(page, "#record-info", f"Not a record: {replay.value}")
        assert page.is_hidden("#record-games")
    good = GOOD.replace('"me"', '"Jérôme"').encode("utf-8")  # UTF-8 text opens, its name read as written
    page.set_input_files("#record-file", files=[{"name": "good.pgn", "mimeType": "text/plain", "buffer": good}])
    said(page, "#record-info", "Game 1: Jérôme – solver 1-0", start=True)
    bad = BAD.encode("utf-8")  # a file's malformed record is named as replay names it
    page.set_input_files("#record-file", files=[{"name": "bad.pgn", "mimeType": "text/plain", "buffer": bad}])
    (tmp_path / "bad.pgn").write_bytes(bad)
    with pytest.raises(InvalidFileError) as replay:
        records.read("bad.pgn")
    said(page, "#record-info", f"Not a record: {replay.value}")


def test_why_after_the_solver_s_unproven_distance_gives_one_account(page) -> None:
    # 8 x 8 from ply 24: the solver moves itself; in 0.05 s it proves the move's result, not its distance
    page.goto(page.base + "/?game=connect4-8x8&moves=444456233673737743346216&opponent=solver:time=0.05&side=1")
    wait_moves(page, "444456233673737743346216")
    played = engine_reply(page, 3)
    assert "not yet proven" in played, played  # the move's own search was not exact
    page.click("#why")
    page.wait_for_selector("#why-panel tr[data-why-move]", timeout=120000)
    lines = [p.text_content() for p in page.locator("#why-panel p").all()]
    assert "why? asked again for the exact scores below" in lines[0], lines
    assert "traced" not in lines[0] and "not yet proven" in lines[0], lines
    assert any("the solver's own search is not traced" in line for line in lines), lines
    kinds = [tr.locator("td").nth(2).text_content() for tr in page.locator("#why-panel tr[data-why-move]").all()]
    assert kinds and set(kinds) == {"exact"}, kinds


def test_the_api_behind_them_refuses_in_one_line(base_url) -> None:  # noqa: F811
    import json
    import urllib.error
    import urllib.parse
    import urllib.request

    def ask(path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base_url + path, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as reply:
                return reply.status, json.loads(reply.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    state = "/api/state?" + urllib.parse.urlencode({"game": "tictactoe", "moves": "5", "move": "5"})
    assert ask(state) == (400, {"error": "cell 5 is taken; free cells: 1 2 3 4 6 7 8 9"})
    status, after = ask(state.replace("move=5", "move=1"))  # a legal move: the position after it
    assert status == 200 and after["moves"] == "51"
    for body in ({"text": None}, {"text": "x", "nul": True}, {"file": 3, "text": "x"}, {"file": "x.pgn"},
                 {"file": "x.pgn", "text": "x", "nul": "yes"}, {"file": "x.pgn", "text": "x", "name": "y"}):
        status, reply = ask("/api/record", body)
        assert status == 400 and reply["error"].startswith('send {"text": RECORD}'), (body, reply)
    assert ask("/api/record", {"file": "x.pgn", "text": None, "nul": True}) == \
        (400, {"error": "record file 'x.pgn' is not a text file"})  # a NUL byte is said first, as replay says it
