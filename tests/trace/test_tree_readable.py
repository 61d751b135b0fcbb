"""A traced tree stays readable in a notebook's rendered output, measured in real headless Chromium.

A notebook with a small, a wide (3,862 px) and a very wide (about 30,000 px) trace runs in a fresh kernel
(nbclient), is exported by nbconvert with the ``lab`` template (which carries JupyterLab's own CSS, the
``max-width: 100%`` on every ``svg`` of an output included) and the ``classic`` template (the classic
Notebook's CSS, which has the same rule), and each page is opened in Chromium at a laptop and a narrow
window size.  There every label of every tree must be at least 9 CSS pixels high as drawn (its font size
times the scale the page applies to the SVG), a tree wider than its cell must scroll sideways inside its own
box, and the page itself must not grow wider than the window.  (The drawing before this test shrank a
3,862-px tree to the cell, about 3-px labels.)  Needs the notebook and browser extras, nbconvert, and
/usr/bin/chromium; skips cleanly without them.  No request leaves the machine: the page may load only files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat", reason="needs the notebook extra: pip install -e '.[notebook]'")
nbclient = pytest.importorskip("nbclient", reason="needs the notebook extra: pip install -e '.[notebook]'")
pytest.importorskip("ipykernel", reason="needs a Python kernel: pip install -e '.[notebook]'")
nbconvert = pytest.importorskip("nbconvert", reason="needs nbconvert for the static HTML: pip install nbconvert")
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the browser extra: pip install -e '.[browser]'")
from chromium import CHROMIUM  # noqa: E402

if not CHROMIUM.exists():
    pytest.skip("no /usr/bin/chromium (apt-get install chromium)", allow_module_level=True)

#: the smallest label height a person can read, in CSS pixels
READABLE = 9.0
#: (agent, game, position): a 7-node tree, a 3,862-px one, a 29,524-px one (at the default depth)
TREES = [("alphabeta:plain=1", "tictactoe", "1 4 2 5 9 7"),
         ("minimax:depth=2", "connect4", ""),
         ("alphabeta:plain=1", "tictactoe", "5")]
WINDOWS = [{"width": 1280, "height": 800}, {"width": 700, "height": 800}]

#: per tree SVG (the ones holding nodes): the smallest label as drawn, the SVG's drawn and own width, and its
#: scrolling box's visible and scrollable width; and the page's width
MEASURE = """() => {
  const trees = [...document.querySelectorAll('svg')].filter(s => s.querySelector('g.node'));
  return {page: document.documentElement.scrollWidth, trees: trees.map(svg => {
    const sizes = [...svg.querySelectorAll('text')].map(
      t => parseFloat(t.getAttribute('font-size')) * t.getScreenCTM().a);
    let box = svg.parentElement;
    while (box && getComputedStyle(box).overflowX !== 'auto') box = box.parentElement;
    return {smallest: Math.min(...sizes), labels: sizes.length, drawn: svg.getBoundingClientRect().width,
            own: parseFloat(svg.getAttribute('width')), visible: box.clientWidth, scrolls: box.scrollWidth};
  })};
}"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The executed notebook as static HTML, one file per nbconvert template."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("import zerosum")] + [
        nbformat.v4.new_code_cell(f"zerosum.trace({agent!r}, {game!r}, {moves!r} or None)")
        for agent, game, moves in TREES]
    folder = tmp_path_factory.mktemp("notebook")
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}}).execute()
    errors = [out for cell in notebook.cells for out in cell.get("outputs", []) if out.output_type == "error"]
    assert not errors, errors
    files = {}
    for template in ("lab", "classic"):
        body, _ = nbconvert.HTMLExporter(template_name=template).from_notebook_node(notebook)
        files[template] = folder / f"{template}.html"
        files[template].write_text(body, encoding="utf-8")
    return files


@pytest.fixture(scope="module")
def browser() -> Any:
    from chromium import close_contexts, shared_browser

    yield shared_browser()
    close_contexts()


def local_only(route: Any) -> None:
    """The exported page names CDN scripts (MathJax, require.js): nothing but files may load."""
    if route.request.url.startswith(("file:", "data:")):
        route.continue_()
    else:
        route.abort()


@pytest.mark.parametrize("window", WINDOWS, ids=lambda w: f"{w['width']}px")
@pytest.mark.parametrize("template", ["lab", "classic"])
def test_every_label_of_every_tree_is_readable_and_wide_trees_scroll(pages: dict[str, Path], browser: Any,
                                                                     template: str, window: dict[str, int]) -> None:
    page = browser.new_page(viewport=window)
    try:
        page.route("**/*", local_only)
        page.goto(pages[template].as_uri(), wait_until="load")
        found = page.evaluate(MEASURE)
    finally:
        page.close()
    trees = found["trees"]
    assert len(trees) == len(TREES), found  # one drawing per traced cell (the HTML output, not a second SVG)
    for (agent, game, moves), tree in zip(TREES, trees):
        what = f"{agent} on {game} {moves!r} in the {template} template at {window['width']} px: {tree}"
        assert tree["labels"] > 0, what
        assert tree["smallest"] >= READABLE, what
        assert abs(tree["drawn"] - tree["own"]) < 1, what  # never scaled to the cell
        if tree["own"] > window["width"]:
            assert tree["visible"] < window["width"] and tree["scrolls"] >= tree["own"], what
    assert trees[1]["own"] > 3000 and trees[2]["own"] > 20000  # the wide trees are wide
    assert found["page"] <= window["width"], found  # the box scrolls, not the page
