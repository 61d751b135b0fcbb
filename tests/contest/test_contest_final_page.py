"""The teacher's page after the final, in headless Chromium against a real ``zerosum contest serve``: it shows the
final's standings and points from results.json, and what graded them (audit: after the final the page still
showed only the ladder and "Then run the final").  Before any final it shows none."""

from __future__ import annotations

import csv
import json
from typing import Any, Iterator

import pytest

sync_api = pytest.importorskip("playwright.sync_api")
from chromium import CHROMIUM, close_contexts, shared_browser  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

from contest_players import make_contest, source  # noqa: E402
from contest_serving import serving  # noqa: E402
from zerosum.contest.final import run_final  # noqa: E402
from zerosum.contest.sandbox import sandbox_problem  # noqa: E402

REFS = [{"name": "random", "spec": "random"}, {"name": "instructor", "spec": "alphabeta:depth=2"}]


def _teacher_token(folder) -> str:
    with open(folder / "tokens.csv", newline="", encoding="utf-8") as f:
        return next(row["token"] for row in csv.DictReader(f) if row["name"] == "#teacher")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("final-page") / "c"
    make_contest(folder, {"ann": source("greedy")}, references=REFS, seed=5)  # 3 entries: 6 games
    run_final(folder, jobs=2, unconfined=sandbox_problem() is not None)
    with serving(folder) as url:
        try:
            yield {"folder": folder, "url": url, "browser": shared_browser()}
        finally:
            close_contexts()


def test_the_teacher_s_page_shows_the_final_s_results(finished: dict[str, Any]) -> None:
    page = finished["browser"].new_page()
    page.goto(f"{finished['url']}/s/{_teacher_token(finished['folder'])}")
    results = json.loads((finished["folder"] / "results.json").read_text())
    rows = page.locator("#final-results tbody tr")
    sync_api.expect(rows).to_have_count(len(results["results"]), timeout=60_000)
    sync_api.expect(page.locator("#final-results")).to_contain_text(
        f"The final was played: {results['games']} games; points in bands from random to instructor")
    for i, row in enumerate(results["results"]):  # in results.json's order, each with its points
        cells = rows.nth(i).locator("td").all_inner_texts()
        name = f"{row['name']} (reference)" if row["kind"] == "reference" else row["name"]
        assert cells[1] == name and cells[-1] == ("" if row["points"] is None else f"{row['points']:g}"), cells
    assert page.locator("#error").inner_text() == ""


def test_a_results_file_that_cannot_be_read_is_said_so(finished: dict[str, Any]) -> None:
    from zerosum.contest.store import Store
    from zerosum.ui.contest_views import final_results

    store = Store(finished["folder"])
    try:
        assert final_results(store)["rows"]  # type: ignore[index]
        path = finished["folder"] / "results.json"
        kept = path.read_bytes()
        try:
            path.write_text("[" * 100_000)
            assert final_results(store) == {"error": "results.json cannot be read: RecursionError"}
            path.write_text('{"games": 2}')
            assert final_results(store) == {"error": "results.json cannot be read: KeyError"}
            path.unlink()
            assert final_results(store) is None  # no final yet: nothing shown
        finally:
            path.write_bytes(kept)
    finally:
        store.close()
