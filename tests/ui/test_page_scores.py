"""The page in headless Chromium: the analysis' scores under the columns.  Each is whole and on one line on a
phone (390 px) and a wide window (1920 px), on boards up to 12 columns, never cut into another number (the
audit saw "≈-144" shown as "≈-14"); every score's colour reads at 4.5:1 at least on what is behind it; each
column's button says its score in words for a screen reader, the figures under the columns are hidden from
it; and a 12-column board stays clear of the side panel on a wide window."""

from __future__ import annotations

import re

import pytest

from page_browser import base_url, browser, page, wait_moves  # noqa: F401  (fixtures)

#: boards of 8, 9 and 12 columns at positions whose scores are alpha-beta's estimates ("≈-144", "W2" ...)
BOARDS = [("connect4-8x8", "443234334226478437"), ("connectx:rows=7,cols=9,k=4", "5565"),
          ("connectx:rows=8,cols=12,k=4", "6,7,6,7")]
#: every figure the page shows of a point: the point, or the same number without an estimate's ≈ or a +
SHOWN = re.compile(r"^(≈?)(\+?)(.*)$")


@pytest.fixture(scope="module")
def sized(browser, base_url, request):  # noqa: F811
    """A page ``request.param`` pixels wide, one for every board at that width (a new one a board took 0.3 s):
    each board opens an address of its own, and the page keeps nothing between them (no storage, no cookies,
    no routes).  Its script errors (``sized.errors``) fail the board they come in, the next one, or the
    module's end."""
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    pg = context.new_page()
    pg.errors = []  # type: ignore[attr-defined]
    pg.on("pageerror", lambda exc: pg.errors.append(str(exc)))  # type: ignore[attr-defined]
    pg.base = base_url  # type: ignore[attr-defined]
    yield pg
    context.close()
    assert pg.errors == [], pg.errors  # type: ignore[attr-defined]


def analysed(page, spec: str, moves: str) -> None:
    """Open ``moves`` on ``spec`` with the analysis on and wait until every playable column has its figure."""
    page.goto(page.base + f"/?game={spec}&moves={moves}&opponent=person&analysis=1")
    page.wait_for_function("""() => {
        const info = document.querySelector('#analysis-info').textContent;
        const nodes = Array.from(document.querySelectorAll('[data-score-move]'));
        return info && !info.startsWith('Analysing') && nodes.length
          && nodes.every((n) => n.textContent && n.textContent !== '?'); }""", timeout=90000)


@pytest.mark.parametrize("sized", [390, 1920], indirect=True, ids=["phone", "wide"])
@pytest.mark.parametrize("spec, moves", BOARDS, ids=["8x8", "9x7", "8x12"])
def test_every_score_is_whole_on_one_line_under_its_column(sized, spec, moves) -> None:
    assert sized.errors == [], sized.errors  # none from the board before
    analysed(sized, spec, moves)
    figures = sized.eval_on_selector_all("[data-score-column]", """ns => ns.filter((n) => n.textContent).map((n) => {
        const f = n.querySelector('.figure') || n, box = n.getBoundingClientRect(), text = f.getBoundingClientRect();
        const tops = new Set(Array.from(f.getClientRects(), (r) => Math.round(r.top)));  // one a line it takes
        return { point: n.textContent, shown: f.innerText, lines: tops.size, clipped: n.scrollWidth > n.clientWidth,
                 inside: text.left >= box.left - 0.5 && text.right <= box.right + 0.5,
                 size: parseFloat(getComputedStyle(f).fontSize) }; })""")
    assert figures
    for f in figures:
        approx, plus, number = SHOWN.match(f["point"]).groups()
        assert f["shown"] in (f["point"], number), f  # the number whole; only its ≈ or + may be left out
        assert not f["clipped"] and f["inside"] and f["lines"] == 1, f
        assert f["size"] >= 10, f
    assert sized.errors == [], sized.errors


def test_a_twelve_column_board_stays_clear_of_the_side_panel(browser, base_url) -> None:  # noqa: F811
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        pg = context.new_page()
        pg.goto(base_url + "/?game=connectx:rows=8,cols=12,k=4&moves=6,7&opponent=person&analysis=1")
        wait_moves(pg, "6,7")
        board = pg.eval_on_selector("#board .cx", "n => n.getBoundingClientRect().right")
        panel = pg.eval_on_selector("#side-panel", "n => n.getBoundingClientRect().left")
        assert board <= panel, (board, panel)
    finally:
        context.close()


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _rgb(css: str) -> tuple[float, ...]:
    return tuple(float(x) for x in re.findall(r"[\d.]+", css)[:3])


def contrast(colour: str, opacity: float, behind: str) -> float:
    """WCAG's contrast of text ``colour`` at ``opacity`` over ``behind`` (CSS rgb() strings)."""
    fg, bg = _rgb(colour), _rgb(behind)
    seen = tuple(opacity * f + (1 - opacity) * b for f, b in zip(fg, bg))
    hi, lo = sorted([_luminance(seen), _luminance(bg)], reverse=True)  # type: ignore[arg-type]
    return (hi + 0.05) / (lo + 0.05)


#: a score's colour, its opacity (its own and its ancestors') and the first opaque background behind it
STYLE = """n => { let opacity = 1, behind = null;
    for (let a = n; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      opacity *= parseFloat(s.opacity);
      if (!behind && s.backgroundColor !== 'rgba(0, 0, 0, 0)') behind = s.backgroundColor;
    }
    return [getComputedStyle(n).color, opacity, behind || getComputedStyle(document.body).backgroundColor]; }"""


@pytest.mark.parametrize("where, selector", [("connect4", "[data-score-column]"),
                                             ("tictactoe", "[data-score-cell]")])
def test_every_score_reads_at_4_5_to_1(page, where, selector) -> None:
    """Every kind of score (a win, a draw, a loss; exact or an estimate; the best) in every place it is drawn:
    under each column (every other one on a shade of its own) and on a cell."""
    page.goto(page.base + f"/?game={where}&opponent=person")
    wait_moves(page, "")
    classes = [f"score {sign}{extra}" for sign in ("pos", "neg", "zero")
               for extra in ("", " estimate", " estimate best", " proven")]
    count = page.locator(selector).count()
    # each node given each class in turn and its STYLE read, in one call (two calls a node and class: 3-4 s)
    styles = page.eval_on_selector_all(selector, "(ns, classes) => { const style = " + STYLE + "; "
                                       "return classes.map((cls) => ns.map((n) => { n.className = cls; "
                                       "n.textContent = '-144'; return style(n); })); }", classes)
    assert count and len(styles) == len(classes) and all(len(row) == count for row in styles)
    for cls, row in zip(classes, styles):
        for i, (colour, opacity, behind) in enumerate(row):
            ratio = contrast(colour, opacity, behind)
            assert ratio >= 4.5, f"{where} {selector} #{i} {cls}: {ratio:.2f}"


def test_each_column_button_says_its_score_and_the_figures_are_not_read(page) -> None:
    pytest.importorskip("zerosum.solver.solver")
    page.goto(page.base + "/?game=connect4&moves=4453&opponent=person&analysis=1")
    page.wait_for_function("() => document.querySelector('#analysis-info').textContent.startsWith('Exact, from the solver')",
                           timeout=60000)
    for c in range(7):
        words = page.get_attribute(f'[data-score-column="{c}"]', "title")
        assert re.fullmatch(r"(win|loss) in \d+ moves?|draw", words), words
        assert page.get_by_role("button", name=f"play column {c + 1}: {words}", exact=True).count() == 1
    snapshot = page.locator("#board").aria_snapshot()
    assert "text:" not in snapshot, snapshot  # no run of figures that belong to no column
    page.uncheck("#analysis")
    assert page.get_by_role("button", name="play column 4", exact=True).count() == 1


def test_each_cell_says_its_score(page) -> None:
    pytest.importorskip("zerosum.agents.alphabeta")
    page.goto(page.base + "/?game=tictactoe&moves=1425&opponent=person&analysis=1")
    page.wait_for_function("() => (document.querySelector('[data-score-cell=\"2\"]')?.textContent || '') !== ''",
                           timeout=20000)
    assert page.get_by_role("button", name="cell 3: empty, plays 3: win in 1 move", exact=True).count() == 1
