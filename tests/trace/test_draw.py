"""A traced tree draws itself: text with boards, SVG that parses as XML with one element per drawn node, dot."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

import zerosum
from zerosum import ConnectX, TicTacToe

from trace_helpers import position

SVG = "{http://www.w3.org/2000/svg}"


def classes(svg: str, kind: str) -> list[Any]:
    root = ET.fromstring(svg)  # parses as XML, or the test fails here
    return [g for g in root.iter(f"{SVG}g") if g.get("class", "").split()[:1] == [kind]]


TREES = [
    ("alphabeta:plain=1", TicTacToe(), 3, 1),
    ("alphabeta:plain=1,depth=3,eval=window", ConnectX(), 6, 2),
    ("alphabeta:depth=3,eval=window", ConnectX(), 6, 3),
    ("minimax:depth=2", TicTacToe(), 1, 4),
    ("mcts:sims=60,seed=5", ConnectX(rows=4, cols=5, k=4), 2, 5),
]


@pytest.mark.parametrize("spec, game, plies, seed", TREES)
@pytest.mark.parametrize("depth", [0, 1, 2, None])
def test_svg_draws_one_element_per_recorded_node_to_the_drawn_depth(spec: str, game: Any, plies: int, seed: int,
                                                                     depth: int | None) -> None:
    tree = zerosum.trace(spec, game, position(game, plies, seed))
    svg = tree.svg(depth)
    drawn = list(tree.root.walk(depth))
    assert len(classes(svg, "node")) == len(drawn)
    stubs = sum(len(node.skipped(game)) for node in drawn if depth is None or node.depth < depth)
    assert len(classes(svg, "skipped")) == stubs
    assert len(classes(svg, "more")) == sum(1 for n in drawn if depth is not None and n.depth == depth and n.children)
    if depth is None:  # the default depth keeps the drawing readable
        assert len(drawn) >= 1 and (len(drawn) <= 300 or max(n.depth for n in drawn) == 1)
    cut = [g for g in classes(svg, "node") if "beta" in g.get("class", "").split()]
    assert len(cut) == sum(1 for node in drawn if node.cutoff == "beta")
    html = tree._repr_html_()
    assert "<svg" in html and tree._repr_svg_() == tree.svg()


def test_svg_names_each_node_by_its_path_and_value() -> None:
    tree = zerosum.trace("alphabeta:plain=1", "tictactoe", "1 4 2 5 9 7")
    titles = [g.find(f"{SVG}title").text for g in classes(tree.svg(None), "node")]
    assert titles[0].startswith("root: MAX win")
    assert any(t.startswith("6: MIN") and "cut-off by 3" in t for t in titles)  # moves in the game's notation


def test_the_default_drawing_collapses_a_big_tree() -> None:
    game = ConnectX()
    tree = zerosum.trace("alphabeta:plain=1,depth=4,eval=window", game, position(game, 4, 8))
    assert tree.root.size() > 300
    svg = tree.svg()
    assert 1 <= len(classes(svg, "node")) <= 300 and classes(svg, "more")


@pytest.mark.parametrize("boards", [True, False])
def test_text_prints_a_line_per_node_and_the_board_at_each_level(boards: bool) -> None:
    game = TicTacToe()
    state = game.parse_position("1 4 2 5 9 7")[1]
    tree = zerosum.trace("minimax", game, state)
    text = tree.text(depth=1, boards=boards)
    shown = list(tree.root.walk(1))
    assert sum(1 for line in text.splitlines() if ": MAX" in line or ": MIN" in line) == len(shown)
    for node in shown:
        board = "\n".join(("  " * node.depth + "    " + row) for row in game.render(node.state).splitlines())
        assert (board in text) == boards
    below = [n for n in shown if n.depth == 1 and n.children]
    assert sum("nodes below" in line or "node below" in line for line in text.splitlines()) == len(below)


def test_text_marks_cutoffs_and_the_child_that_caused_them() -> None:
    tree = zerosum.trace("alphabeta:plain=1", "tictactoe", "1 4 2 5 9 7")
    text = tree.text(depth=None, boards=False)
    # X's 6 and 8 lose to O's 3: each is cut off by it, the other O reply skipped
    assert "6: MIN <=loss window [win, +inf] cut-off by 3, skipped 8" in text
    assert "8: MIN <=loss window [win, +inf] cut-off by 3, skipped 6" in text


def test_dot_has_a_node_per_recorded_node_and_dashed_stubs() -> None:
    game = ConnectX()
    tree = zerosum.trace("alphabeta:plain=1,depth=3,eval=window", game, position(game, 6, 2))
    dot = tree.dot()
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    declared = [line for line in dot.splitlines() if line.strip().startswith("n") and "[label=" in line
                and "->" not in line and "style=dashed" not in line]
    assert len(declared) == len(tree)
    assert sum("style=dashed, color" in line and "->" not in line for line in dot.splitlines()) == sum(
        len(node.skipped(game)) for node in tree)
