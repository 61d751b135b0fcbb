"""A real ``zerosum contest serve``, over HTTP and in Chromium: the student's page names the functions a Python
file may play by on the contest's game (``player(board)`` on Connect-X only; ``f(game, state)`` everywhere), a
token replaced by ``zerosum contest token --new`` is answered as unknown (not as missing), and the teacher's
``/api/code/ID`` of no submission says ``no submission ID`` (the teacher has no submissions of their own)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from chromium import CHROMIUM, close_contexts, shared_browser
from contest_serving import curl, make_contest, serving

from zerosum.cli import main

WAIT_MS = 60_000


@pytest.fixture(scope="module")
def connect4(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("c4") / "class"
    tokens = make_contest(folder, ["Ann", "Bob"])
    with serving(folder) as url:
        yield {"folder": folder, "tokens": tokens, "url": url}


@pytest.fixture(scope="module")
def tictactoe(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("ttt") / "class"
    (folder.parent / "roster.csv").write_text("name\nAnn\n")
    (folder.parent / "openings.txt").write_text("5\n1\n")
    assert main(["contest", "new", str(folder), "--game", "tictactoe", "--roster", str(folder.parent / "roster.csv"),
                 "--openings", str(folder.parent / "openings.txt")]) == 0
    with serving(folder) as url:
        yield {"folder": folder, "tokens": _tokens(folder), "url": url}


def _tokens(folder: Path) -> dict[str, str]:
    return {row.split(",")[0]: row.split(",")[1] for row in (folder / "tokens.csv").read_text().splitlines()}


def test_a_replaced_token_is_answered_as_unknown_not_as_missing(connect4: dict[str, Any]) -> None:
    old = connect4["tokens"]["Bob"]
    assert main(["contest", "token", str(connect4["folder"]), "Bob", "--new"]) == 0  # the server running
    new = _tokens(connect4["folder"])["Bob"]
    assert new != old
    status, body, _ = curl(f"{connect4['url']}/api/me", token=old)
    assert status == 401 and body["error"].startswith("the contest knows no such token"), body
    assert "replaced by a new one" in body["error"] and "ask your teacher" in body["error"], body
    status, body, _ = curl(f"{connect4['url']}/api/me")  # none sent: asked for
    assert status == 401 and body["error"].startswith("send your token: Authorization: Bearer TOKEN"), body
    status, body, _ = curl(f"{connect4['url']}/api/me", token=new)
    assert status == 200 and body["name"] == "Bob", body


def test_the_teachers_code_of_no_submission_is_not_said_to_be_theirs(connect4: dict[str, Any]) -> None:
    status, body, _ = curl(f"{connect4['url']}/api/code/99999", token=connect4["tokens"]["teacher"])
    assert (status, body) == (404, {"error": "no submission 99999"})
    status, body, _ = curl(f"{connect4['url']}/api/code/99999", token=connect4["tokens"]["Ann"])
    assert (status, body) == (404, {"error": "no submission 99999 of yours"})


def test_me_names_the_functions_the_game_takes(connect4: dict[str, Any], tictactoe: dict[str, Any]) -> None:
    _, body, _ = curl(f"{connect4['url']}/api/me", token=connect4["tokens"]["Ann"])
    assert body["contracts"] == ["player(board)", "f(game, state)"], body
    _, body, _ = curl(f"{tictactoe['url']}/api/me", token=tictactoe["tokens"]["Ann"])
    assert body["contracts"] == ["f(game, state)"], body


@pytest.mark.parametrize("site, words, absent", [
    ("connect4", "A Python file with player(board) or f(game, state), a notebook", None),
    ("tictactoe", "A Python file with f(game, state) (not player(board), the homework's: it plays Connect-X boards "
                  "only), a notebook", "player(board) or"),
])
def test_the_students_page_says_what_to_send_on_its_game(request: pytest.FixtureRequest, site: str, words: str,
                                                         absent: str | None) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    served = request.getfixturevalue(site)
    page = shared_browser().new_page()
    try:
        page.goto(f"{served['url']}/s/{served['tokens']['Ann']}")
        sync_api.expect(page.locator("#accepts")).to_contain_text(words, timeout=WAIT_MS)
        text = page.locator("#accepts").inner_text()
        assert "engine protocol" in text and (absent is None or absent not in text), text
    finally:
        page.close()
        close_contexts()
