"""The study board while a variation is shown, and the tree written out (headless Chromium).

The evaluation graph is the main line's: its "now" marker (the line .graph-now and the point of class "now")
marks the position shown only while that position is on the main line; in a variation it marks nothing (before
the fix it marked the main line's point at the same ply, another position).  The variations list writes the
tree as PGN does: the move after a variation resumes the line with its number, "7. 5 (7. 2 3) 7... 3" (before
the fix "7. 5 (7. 2 3) 3")."""

from __future__ import annotations

from page_browser import base_url, browser, page, wait_moves  # noqa: F401  (fixtures)

MAIN = "44444456555353533637"
#: the main line; a variation of red's 7th move (7. 2 instead of 7. 5) and, inside it, one of red's 8th
ADDRESS = f"/?game=connect4&moves={MAIN}&v=12.2333&v=14.6&opponent=person&analysis=1"
VARIATION = MAIN[:12] + "2333"


def now_marks(page) -> tuple[int, list[str]]:
    """How many "now" lines the graph draws, and the plies of the points marked "now"."""
    return (page.locator("#eval-graph .graph-now").count(),
            page.eval_on_selector_all("#eval-graph .graph-point.now", "ns => ns.map((n) => n.dataset.graphPly)"))


def test_the_graph_marks_the_position_shown_only_on_the_main_line(page) -> None:
    page.goto(page.base + ADDRESS)
    wait_moves(page, MAIN)
    page.wait_for_function("n => document.querySelectorAll('#eval-graph [data-graph-ply]').length === n "
                           "&& !document.querySelector('#review-info').textContent.includes('…')",
                           arg=len(MAIN) + 1, timeout=120000)
    assert page.text_content("#error") == ""
    assert now_marks(page) == (1, [str(len(MAIN))])
    page.click(f'#variations button[data-moves="{VARIATION[:13]}"]')  # 7. 2: a position the main line lacks
    wait_moves(page, VARIATION[:13])
    assert now_marks(page) == (0, [])
    page.keyboard.press("ArrowLeft")  # 6... 3: the position before the branch is the main line's
    wait_moves(page, MAIN[:12])
    assert now_marks(page) == (1, ["12"])
    page.click(f'#variations button[data-moves="{VARIATION}"]')  # deeper in the variation
    wait_moves(page, VARIATION)
    assert now_marks(page) == (0, [])
    page.click(f'#variations button[data-moves="{MAIN[:13]}"]')  # 7. 5: the main line's again
    wait_moves(page, MAIN[:13])
    assert now_marks(page) == (1, ["13"])


def test_the_variations_list_resumes_a_line_with_its_move_number_after_a_variation(page) -> None:
    page.goto(page.base + ADDRESS.replace("analysis=1", "analysis=0"))
    wait_moves(page, MAIN)
    texts = page.eval_on_selector_all("#variations button[data-node]", "bs => bs.map((b) => b.textContent)")
    assert texts == ["1. 4", "4", "2. 4", "4", "3. 4", "4", "4. 5", "6", "5. 5", "5", "6. 5", "3", "7. 5",
                     "7. 2", "3", "8. 3", "8. 6", "8... 3",  # the variation, its own inside it, and back to it
                     "7... 3", "8. 5", "3", "9. 3", "6", "10. 3", "7"], texts
    groups = page.eval_on_selector_all("#variations .variation", "gs => gs.map((g) => g.getAttribute('aria-label'))")
    assert groups == ["variation from 7. 2", "variation from 8. 6"], groups
