"""The study board in headless Chromium (#25, item 2): the evaluation graph, bar, best move and best line, the
review's marks (checked against a textbook minimax of Tic-Tac-Toe written here), a click on the graph,
variations kept as a tree in the move list and in the address (a reload shows the same tree), the browser's
Back and Forward, the engine named by its label, "why?" saying it searched again, and a record clearing the
previous game's lines."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import parse_qs, urlparse

import pytest

from page_browser import base_url, browser, engine_reply, page, phone, wait_moves  # noqa: F401  (fixtures)

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@lru_cache(maxsize=None)
def value(board: tuple[int, ...], mover: int) -> int:
    """Textbook minimax of Tic-Tac-Toe: +1 the mover wins, 0 a draw, -1 the mover loses (cells 0..8)."""
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return 1 if board[a] == mover else -1
    empty = [i for i, x in enumerate(board) if not x]
    if not empty:
        return 0
    return max(-value(board[:i] + (mover,) + board[i + 1:], 3 - mover) for i in empty)


def truth(moves: str) -> tuple[list[str], list[set[str]], list[int]]:
    """Each move's class by the textbook's rule (kept / mistake / blunder), and each position's best cells and
    value for the side to move."""
    board, classes, best, values = (0,) * 9, [], [], []
    for ply, cell in enumerate(moves):
        mover = 1 + ply % 2
        children = {str(i + 1): -value(board[:i] + (mover,) + board[i + 1:], 3 - mover)
                    for i in range(9) if not board[i]}
        top = max(children.values())
        best.append({m for m, v in children.items() if v == top})
        values.append(top)
        after = children[cell]
        classes.append("kept" if after == top else "blunder" if (top, after) == (1, -1) else "mistake")
        i = int(cell) - 1
        board = board[:i] + (mover,) + board[i + 1:]
    return classes, best, values


def address(page) -> dict[str, list[str]]:
    return parse_qs(urlparse(page.url).query, keep_blank_values=True)


def wait_reviewed(page, plies: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#eval-graph [data-graph-ply]').length === n "
                           "&& !document.querySelector('#review-info').textContent.includes('…')",
                           arg=plies + 1, timeout=60000)


def test_the_review_marks_the_graph_the_bar_and_the_best_line_agree_with_minimax(page) -> None:
    moves = "12539"  # O's 2, beside X's corner, loses (X forks)
    page.goto(page.base + f"/?game=tictactoe&moves={moves}&opponent=person&analysis=1")
    wait_moves(page, moves)
    wait_reviewed(page, len(moves))
    classes, best, values = truth(moves)
    assert "mistake" in classes
    for ply, want in enumerate(classes, 1):
        button = page.locator(f'#move-list button[data-ply="{ply}"]')
        got = button.get_attribute("data-mark")
        assert (got in ("best", "good")) if want == "kept" else got == want, (ply, got, want)
        if want == "mistake":
            assert button.text_content() == moves[ply - 1] + "?" and "mistake" in button.get_attribute("aria-label")
    graph = page.get_by_role("group", name="evaluation graph")
    assert graph.locator("[data-graph-ply]").count() == len(moves) + 1
    bar = page.get_by_role("meter", name="evaluation bar")
    assert bar.get_attribute("aria-valuenow") == "100"  # X has won: all the first player's
    page.click('[data-graph-ply="3"]')  # a click on the graph shows that position
    wait_moves(page, moves[:3])
    page.wait_for_function("() => document.querySelector('[data-best]') !== null", timeout=30000)
    assert page.get_attribute("[data-best]", "data-best") in best[3]  # O must take 9
    page.wait_for_function("() => document.querySelector('#best-line').textContent.startsWith('Best line: ')")
    line = page.get_by_label("best line").text_content()
    assert line.split()[2] in best[3] and ["loss", "draw", "win"][values[3] + 1] in line
    first = values[3] * (-1 if len(moves[:3]) % 2 else 1)  # the first player's view
    assert bar.get_attribute("aria-valuenow") == str(100 * first)
    summary = page.text_content("#review-info")
    assert "kept the result with" in summary and f"a mistake at move {classes.index('mistake') // 2 + 1}" in summary
    assert "judged by estimates" not in summary  # every value here is proven
    page.click('[data-cell="8"]')  # O blocks at 9: a variation, whose position the analysis values for the bar
    wait_moves(page, "1259")
    _, _, after = truth("12593")  # after[4]: the value of 1259 for X, to move (the move 3 only ends the replay)
    page.wait_for_function("v => document.querySelector('#eval-bar').getAttribute('aria-valuenow') === v "
                           "&& document.querySelector('#eval-bar').getAttribute('aria-valuetext') !== 'not known yet'",
                           arg=str(100 * after[4]), timeout=30000)


def test_connect_four_draws_bands_and_an_arrow(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=4453&opponent=person&analysis=1")
    wait_moves(page, "4453")
    wait_reviewed(page, 4)
    assert page.locator("#eval-graph .band").count() == 5  # every position's exact result, a band each
    assert "win" in page.get_attribute('#eval-graph .band[data-band-ply="0"]', "class")  # Allis: the first player wins
    page.wait_for_selector(".colbtn.best-move[data-best]", timeout=30000)  # the arrow over the best column
    assert page.get_attribute(".colbtn.best-move", "data-best") == "3"  # the solver's documented best, 4453 -> 3


def test_a_variation_is_a_branch_in_the_tree_and_the_address_and_back_steps_through(page) -> None:
    page.goto(page.base + "/?game=connect4&moves=4453&opponent=person")
    wait_moves(page, "4453")
    assert page.is_hidden("#variations-box")  # one line: no tree to show
    page.click('#move-list button[data-ply="2"]')
    wait_moves(page, "44")
    page.click('[data-column="0"]')  # not the next move: a variation, the main line kept
    wait_moves(page, "441")
    page.click('[data-column="6"]')
    wait_moves(page, "4417")
    tree = page.get_by_role("region", name="variations")
    shown = [b.get_attribute("data-moves") for b in tree.locator("button[data-node]").all()]
    assert shown == ["4", "44", "445", "441", "4417", "4453"]  # as PGN: the variation after the move it replaces
    assert tree.locator('[role="group"]').count() == 1
    kept = address(page)
    assert kept["moves"] == ["4453"] and kept["v"] == ["2.17"] and kept["line"] == ["1"]
    page.goto(page.url)  # the address alone rebuilds the same tree and position
    wait_moves(page, "4417")
    assert [b.get_attribute("data-moves") for b in tree.locator("button[data-node]").all()] == shown
    tree.locator('button[data-moves="445"]').click()  # back on the main line
    wait_moves(page, "445")
    assert "line" not in address(page) and address(page)["ply"] == ["3"]
    page.click("#back")
    wait_moves(page, "44")
    page.go_back()  # the browser's Back: the position before
    wait_moves(page, "445")
    page.go_back()
    wait_moves(page, "4417")
    page.go_forward()
    wait_moves(page, "445")


def test_the_engine_is_named_by_its_label_why_says_it_searched_again_and_a_record_clears_it(page) -> None:
    page.goto(page.base + "/?game=connect4&opponent=alphabeta:depth=3&side=1")
    wait_moves(page, "")
    said = engine_reply(page, 3)
    assert said.startswith("alpha-beta (depth=3) played ") and "alphabeta:" not in said
    page.click("#why")
    page.wait_for_selector("#why-panel tr[data-why-move]", timeout=30000)
    assert "searched again" in page.text_content("#why-panel")
    rows = [[td.text_content() for td in tr.locator("td").all()] for tr in page.locator("#why-panel tr[data-why-move]").all()]
    bounded = [r for r in rows if r[2] == "bound"]
    assert bounded and all(r[1].startswith("at most ") for r in bounded), rows  # alpha-beta's cut-off moves
    assert f"the {len(bounded)} other move" in page.text_content("#why-panel")  # not "(6 refuted", read as column 6
    page.click("#record-box summary")
    page.fill("#record-text", '[Game "connectx:rows=6,cols=7,k=4"]\n[Result "*"]\n\n4 4 *\n')
    page.click("#record-open")
    wait_moves(page, "")
    assert page.text_content("#engine-info") == "" and page.is_hidden("#why-panel")


def get(base: str, path: str, **params: str) -> tuple[int, dict]:
    import json
    import urllib.error
    import urllib.parse
    import urllib.request

    try:
        with urllib.request.urlopen(f"{base}{path}?{urllib.parse.urlencode(params)}", timeout=120) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_the_review_route_in_slices_agrees_with_one_request_and_with_minimax(base_url) -> None:
    moves = "1295374"  # three mistakes and two blunders (X's last lets O win at 8)
    status, whole = get(base_url, "/api/review", game="tictactoe", moves=moves, budget="3")
    assert status == 200 and whole["done"] and whole["resume"] is None
    marks, positions, resume, slices = [], [], None, 0
    for _ in range(len(moves) + 1):  # at least a move a slice: a resume that repeats a move fails, never hangs
        params = {"game": "tictactoe", "moves": moves, "budget": "0.05", **({"resume": resume} if resume else {})}
        status, part = get(base_url, "/api/review", **params)
        assert status == 200, part
        marks += part["marks"]
        positions += part["positions"]
        slices += 1
        if part["done"]:
            break
        resume = part["resume"]
    assert part["done"], "the review did not end within a slice a move"
    assert [m["ply"] for m in marks] == list(range(1, len(moves) + 1)) and slices <= len(moves)
    assert [m["class"] for m in marks] == [m["class"] for m in whole["marks"]]
    assert [p["ply"] for p in positions] == list(range(len(moves) + 1))
    classes, _, values = truth(moves)
    for mark, want in zip(marks, classes):
        assert (mark["class"] in ("best", "good")) if want == "kept" else mark["class"] == want, (mark, want)
    for p, v in zip(positions, values):  # the graph's value: the first player's view
        assert p["bar"] == v * (1 if p["side"] == 1 else -1) and p["kind"] == "exact"


def test_bad_review_and_line_requests_are_one_line_errors(base_url) -> None:
    for path, params, words in [
        ("/api/review", {"game": "tictactoe", "moves": "159", "resume": "9"}, "resume='9' is not a number of moves"),
        ("/api/review", {"game": "tictactoe", "moves": "159", "resume": "x"}, "resume='x'"),
        ("/api/review", {"game": "tictactoe", "moves": "159", "budget": "0"}, "budget='0' is not a number"),
        ("/api/review", {"game": "tictactoe", "moves": "15x"}, ""),
        ("/api/line", {"game": "tictactoe", "moves": "1425367"}, "the game is over"),
        ("/api/line", {"game": "tictactoe", "moves": "15", "first": "5"}, "cell 5 is taken"),
    ]:
        status, reply = get(base_url, path, **params)
        assert status == 400 and words in reply["error"] and "\n" not in reply["error"], (path, params, reply)


def test_save_record_writes_the_tree_with_the_marks_and_it_opens_again(page) -> None:
    from zerosum import records

    moves = "12539"
    page.goto(page.base + f"/?game=tictactoe&moves={moves}&v=2.7&opponent=person&analysis=1")
    wait_moves(page, moves)
    wait_reviewed(page, len(moves))
    with page.expect_download() as saved:
        page.click("#save-record")
    text = open(saved.value.path(), encoding="utf-8").read()
    (record,) = records.parse(text)
    assert record.moves == list(moves) and record.result == "1-0" and record.tags["Game"] == "tictactoe"
    classes, _, _ = truth(moves)
    for note, want in zip(record.notes, classes):  # the textbook's mistakes carry "?" and their verdict
        if want == "mistake":
            assert note.mark == "?" and note.comment.startswith("mistake")
    assert record.variations == {2: [records.Variation(["7"])]}  # v=2.7: 1 2 7 beside 1 2 5 3 9
    assert "and 1 variation" in page.text_content("#save-info")
    page.click("#record-box summary")  # the page reads its own record back
    page.fill("#record-text", text)
    page.click("#record-open")
    page.wait_for_function("() => document.querySelector('#record-info').textContent.startsWith('Game 1')",
                           timeout=30000)
    wait_moves(page, "")  # the record opens at its start
    page.keyboard.press("End")
    wait_moves(page, moves)


def test_bad_export_requests_are_one_line_errors(base_url) -> None:
    import json
    import urllib.error
    import urllib.request

    for body, words in [
        ({"game": "tictactoe", "moves": "159", "marks": [{"ply": 4, "mark": "?"}]}, "a mark's ply is a move"),
        ({"game": "tictactoe", "moves": "159", "marks": [{"ply": 1, "mark": "?!?"}]}, "a move's mark is one of"),
        ({"game": "tictactoe", "moves": "159", "marks": [{"ply": 1, "comment": "a {brace}"}]}, "without braces"),
        ({"game": "tictactoe", "moves": "159", "tags": {}}, 'send {"game"'),
        ({"game": "tictactoe", "moves": "155"}, ""),
    ]:
        request = urllib.request.Request(base_url + "/api/export", data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            urllib.request.urlopen(request, timeout=60)
            raise AssertionError(f"accepted {body}")
        except urllib.error.HTTPError as exc:
            error = json.loads(exc.read())["error"]
            assert exc.code == 400 and words in error and "\n" not in error, (body, error)


@pytest.mark.slow  # CI time: a layout check in Chromium
def test_the_study_board_fits_a_phone(phone) -> None:
    phone.goto(phone.base + "/?game=connectx:rows=8,cols=12,k=4&moves=6,7&v=1.1&opponent=person&analysis=1")
    wait_moves(phone, "6,7")
    wait_reviewed(phone, 2)
    assert phone.is_visible("#eval-bar") and phone.is_visible("#variations")
    # estimates (past the solver's reach): a line over the plies, no win/draw/loss bands
    assert phone.locator("#eval-graph .graph-line").count() == 1 and phone.locator("#eval-graph .band").count() == 0
    wide = phone.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"{wide} px wider than the phone"


def test_where_the_solver_does_not_go_the_review_is_estimates_and_the_line_follows_the_first_move(base_url) -> None:
    game, moves = "connectx:rows=8,cols=12,k=4", "6,7"  # 108 bits: ply 2 is out of the solver's reach
    status, reply = get(base_url, "/api/review", game=game, moves=moves, budget="3")
    assert status == 200 and reply["done"] and "estimates" in reply["summary"]
    assert [m["ply"] for m in reply["marks"]] == [1, 2] and all(not m["exact"] for m in reply["marks"])
    assert all(p["kind"] == "estimate" and p["result"] is None and -1 < p["bar"] < 1 for p in reply["positions"])
    status, line = get(base_url, "/api/line", game=game, moves=moves, first="3")
    assert status == 200 and line["line"][0] == "3" and 1 < len(line["line"]) <= 8 and not line["exact"]


def test_the_page_s_summary_says_how_many_moves_estimates_judged(page) -> None:
    page.goto(page.base + "/?game=connectx:rows=8,cols=12,k=4&moves=6,7,6&opponent=person&analysis=1")
    wait_moves(page, "6,7,6")
    wait_reviewed(page, 3)  # 108 bits: alpha-beta's estimates, where only a proven result can be lost
    summary = page.text_content("#review-info")
    assert "kept the result with 2 of 2 moves (2 judged by estimates)" in summary
    assert "kept the result with 1 of 1 moves (1 judged by estimates)" in summary


def test_a_board_without_an_opening_book_gets_the_solver_for_a_bounded_time_then_estimates() -> None:
    from zerosum import get_game
    from zerosum.ui.study import line_job, review_job

    game = get_game("connectx:rows=7,cols=7,k=4")  # the solver takes it, but the empty board is far from proven
    actions = game.parse_moves("44")
    reply = review_job(game, actions, 0.05, solver_time=0.2)
    assert reply["marks"] and not reply["marks"][0]["exact"] and reply["positions"][0]["kind"] == "estimate"
    line = line_job(game, actions, game.states_of(actions)[-1], 0.3, first=actions[0])
    assert line["line"][0] == "4" and len(line["line"]) > 1 and not line["exact"]  # alpha-beta went on


def test_an_annotated_record_shows_its_own_marks_with_analysis_off(page) -> None:
    # zerosum review -o writes 4?? and {blunder: ...}; the page shows them on the record's line, no review asked
    text = ('[Game "tictactoe"]\n[Annotator "zerosum review"]\n[Result "1-0"]\n\n'
            "1. 1 2? {mistake: draw -> loss in 3 moves} 2. 5 3?? {blunder: loss in 2 moves -> loss in 1 move} "
            "3. 9 1-0\n")
    page.goto(page.base + "/?game=tictactoe&opponent=person")
    wait_moves(page, "")  # the page's own first load is done before the record opens
    page.click("#record-box summary")
    page.fill("#record-text", text)
    page.click("#record-open")
    page.wait_for_function("() => document.querySelector('#record-info').textContent.startsWith('Game 1')",
                           timeout=30000)
    page.click('#move-list button[data-ply="5"]')  # the record's line is in the list from its start
    wait_moves(page, "12539")
    second = page.locator('#move-list button[data-ply="2"]')
    assert second.get_attribute("data-mark") == "mistake" and "draw -> loss in 3 moves" in second.get_attribute("title")
    fourth = page.locator('#move-list button[data-ply="4"]')
    assert fourth.get_attribute("data-mark") == "blunder" and fourth.text_content().endswith("??")
    assert page.locator('#move-list button[data-ply="1"]').get_attribute("data-mark") is None
