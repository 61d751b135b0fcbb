"""The contest's pages in headless Chromium against a real ``zerosum contest serve``: a student uploads through the
page and reads the validation's answer; a hostile file name and a hostile error message show as text; the
teacher's page shows the submission and its code; another student's page shows nothing of it."""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

import zerosum

sync_api = pytest.importorskip("playwright.sync_api")
from chromium import CHROMIUM, close_contexts, shared_browser  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

from contest_serving import GOOD, make_contest, serving  # noqa: E402

#: a file name and an error message that would run script if a page took them as HTML
HOSTILE_NAME = "<img src=x onerror=window.pwned=1>.py"
HOSTILE_FILE = 'raise ValueError("<img src=y onerror=window.pwned=2><b>bold</b>")\n\n\ndef player(board):\n    return 0\n'
WAIT_MS = 90_000


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("page") / "class"
    tokens = make_contest(folder, ["Ann", "Bob", "Cy"])
    with serving(folder) as url:
        try:
            yield {"url": url, "tokens": tokens, "browser": shared_browser()}
        finally:
            close_contexts()


def _page(site: dict[str, Any], who: str) -> Any:
    page = site["browser"].new_page()
    page.goto(f"{site['url']}/s/{site['tokens'][who]}")
    return page


def _upload(page: Any, name: str, text: str) -> str:
    page.set_input_files("#file", {"name": name, "mimeType": "text/x-python", "buffer": text.encode()})
    page.click("#send")
    sync_api.expect(page.locator("#answer")).to_have_class(re.compile(r"^(ok|failed)$"), timeout=WAIT_MS)
    return str(page.locator("#answer").inner_text())


def test_a_student_uploads_through_the_page_and_sees_the_answer(site: dict[str, Any]) -> None:
    page = _page(site, "Ann")
    try:
        sync_api.expect(page.locator("#about")).to_contain_text("Ann")
        answer = _upload(page, "mine.py", GOOD)
        assert answer.startswith("mine.py: ok: loads and plays legal moves"), answer
        rows = page.locator("#submissions tbody tr")
        sync_api.expect(rows).to_have_count(1)
        sync_api.expect(rows.first).to_contain_text("mine.py")
        page.locator("#submissions button").first.click()
        sync_api.expect(page.locator("#code")).to_contain_text("random.choice")
        sync_api.expect(page.locator("#leaderboard table")).to_contain_text("Ann", timeout=WAIT_MS)
    finally:
        page.close()


def test_hostile_names_and_messages_show_as_text(site: dict[str, Any]) -> None:
    page = _page(site, "Ann")
    try:
        answer = _upload(page, HOSTILE_NAME, HOSTILE_FILE)
        assert answer.startswith(HOSTILE_NAME) and "failed" in answer and "<b>bold</b>" in answer, answer
        sync_api.expect(page.locator("#submissions tbody tr")).to_have_count(2)
        sync_api.expect(page.locator("#submissions")).to_contain_text(HOSTILE_NAME)
        assert page.locator("img").count() == 0 and page.locator("b").count() == 0
        assert page.evaluate("window.pwned") is None
    finally:
        page.close()


def test_the_teacher_sees_everything_and_another_student_nothing(site: dict[str, Any]) -> None:
    teacher = _page(site, "teacher")
    try:
        sync_api.expect(teacher.locator("h1")).to_contain_text("the teacher's page")
        rows = teacher.locator("#submissions tbody tr")
        sync_api.expect(rows).to_have_count(2)
        sync_api.expect(teacher.locator("#submissions")).to_contain_text(HOSTILE_NAME)
        mine = teacher.locator("td", has_text=re.compile(r"^mine\.py$"))  # (a later answer names it too)
        teacher.locator("#submissions tbody tr", has=mine).locator("button").click()
        sync_api.expect(teacher.locator("#code")).to_contain_text("Ann: mine.py")
        sync_api.expect(teacher.locator("#code")).to_contain_text("random.choice")
        sync_api.expect(teacher.locator("#final-command")).to_contain_text("zerosum contest final")
        assert teacher.locator("img").count() == 0 and teacher.evaluate("window.pwned") is None
        ids = [int(t) for t in rows.locator("td:first-child").all_inner_texts()]
    finally:
        teacher.close()
    bob = _page(site, "Bob")
    try:
        sync_api.expect(bob.locator("#about")).to_contain_text("Bob")
        sync_api.expect(bob.locator("#submissions")).to_contain_text("nothing submitted yet")
        text = bob.locator("body").inner_text()
        assert "mine.py" not in text and HOSTILE_NAME not in text and "random.choice" not in text
        for sub in ids:  # Bob's own token, from his page, asking for Ann's code and the teacher's data
            assert bob.evaluate(f"api('/api/code/{sub}').then(() => 'read', (e) => e.message)").startswith("no submission")
        assert "teacher's" in bob.evaluate("api('/api/teacher').then(() => 'read', (e) => e.message)")
    finally:
        bob.close()


def test_a_game_replays_in_the_board_viewer(site: dict[str, Any]) -> None:
    page = _page(site, "Ann")
    try:
        row = page.locator("#games tbody tr").filter(has=page.locator("a", has_text="replay")).first
        sync_api.expect(row).to_be_visible(timeout=WAIT_MS)  # the ladder plays Ann's submission against random
        opening = row.locator("td").nth(3).inner_text()
        link = row.locator("a", has_text="replay")
        with page.context.expect_page() as opened:
            link.click()
        viewer = opened.value
        try:
            sync_api.expect(viewer.locator("#moves")).not_to_be_empty(timeout=WAIT_MS)
            moves = viewer.locator("#moves").inner_text()
            game = zerosum.get_game("connect4")  # a whole game: its last move ends it (a win can take 7 moves)
            assert moves.startswith(opening) and game.is_terminal(game.from_moves(moves)), (opening, moves)
        finally:
            viewer.close()
    finally:
        page.close()


def test_a_failed_upload_says_the_earlier_one_still_plays(site: dict[str, Any]) -> None:
    page = _page(site, "Cy")
    try:
        assert _upload(page, "works.py", GOOD).startswith("works.py: ok: "), "the first upload is ok"
        answer = _upload(page, "oops.py", "def player(board):\n    return 99\n")
        assert answer.startswith("oops.py: failed: "), answer
        assert "This upload was not taken: your submission" in answer and "(works.py) still plays" in answer, answer
        rows = page.locator("#submissions tbody tr")
        sync_api.expect(rows).to_have_count(2)
        for name, active in (("works.py", "yes"), ("oops.py", "")):  # columns: #, sent, file, kind, answer, active
            row = rows.filter(has=page.locator("td", has_text=re.compile(rf"^{re.escape(name)}$")))
            sync_api.expect(row.locator("td").nth(5)).to_have_text(active)
    finally:
        page.close()
