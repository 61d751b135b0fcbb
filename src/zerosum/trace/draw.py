"""Drawing a traced :class:`~zerosum.trace.tree.Tree`: indented text, SVG (and HTML around it), Graphviz dot.

Every drawing shows the tree's ``root`` (the last deepening iteration) from MAX's view (the root's side to
move), to a chosen depth; below it a node says how many nodes are not drawn.  A beta cut-off names the
child that caused it, and the moves it skipped are drawn as grey stubs.  In the SVG each drawn node is one
element ``<g class="node ...">``, each skipped move one ``<g class="skipped">``, each "not drawn" count one
``<g class="more">``, so tests (and people) can count them.

The SVG keeps its own size wherever it is shown (an inline ``max-width: none``): notebook front ends
shrink every ``svg`` of an output to the cell (``max-width: 100%``), which made a 3,000-px tree's labels
3 px high.  :func:`html`, what notebooks show, puts it in a box that scrolls sideways instead, so labels stay
9 to 12 px in JupyterLab, the classic Notebook, VS Code and nbconvert's HTML whatever the tree's size
(tests/trace/test_tree_readable.py measures them in Chromium).
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ..values import INF, is_proven
from .nodes import PROOF_LEGEND, Node, short_value

__all__ = ["text", "svg", "html", "dot", "label", "SVG_NODES"]

#: the default drawing stops at the deepest level that keeps it at most this many nodes (at least depth 1)
SVG_NODES = 300


def _move(tree: Any, node: Node) -> str:
    return "root" if node.parent is None else tree.game.format_action(node.action)


def _moves(tree: Any, actions: list[Any]) -> str:
    return " ".join(tree.game.format_action(a) for a in actions)


def _window(node: Node, discounted: bool = True) -> str:
    window = node.window
    if window is None:
        return ""

    def end(v: float) -> str:
        return "-inf" if v <= -INF else "+inf" if v >= INF else short_value(v, discounted)

    return f"[{end(window[0])}, {end(window[1])}]"


def label(tree: Any, node: Node) -> str:
    """What a node says in one line: its score (MAX's view), window, and how it ended."""
    parts = [("MAX" if node.is_max else "MIN"), tree.describe(node)]
    if node.visits is not None:
        parts = [("MAX" if node.is_max else "MIN"), f"N={node.visits}",
                 f"Q={short_value(node.score)}"]
    if node.window is not None:
        parts.append(f"window {_window(node, tree.discounted)}")
    if node.cutoff == "beta":
        cut = node.cut_by
        skipped = node.skipped(tree.game)
        what = f"cut-off by {_move(tree, cut)}" if cut is not None else "cut-off"
        parts.append(what + (f", skipped {_moves(tree, skipped)}" if skipped else ""))
    elif node.cutoff == "table":
        parts.append("from the table")
    elif node.cutoff == "depth":
        parts.append("evaluated")
    elif node.cutoff == "terminal":
        parts.append("game over")
    if node.value is None:
        parts.append("(not finished)")
    return " ".join(p for p in parts if p)


# ---- text ---------------------------------------------------------------------------------------


def text(tree: Any, depth: int | None = 2, boards: bool = True) -> str:
    """Indented text: a line per node to ``depth`` plies (None: all), the board below it when ``boards``."""
    lines = _header(tree)
    for node in tree.root.walk(depth):
        pad = "  " * node.depth
        lines.append(f"{pad}{_move(tree, node)}: {label(tree, node)}")
        if boards:
            lines.extend(f"{pad}    {row}" for row in tree.game.render(node.state).splitlines())
        if depth is not None and node.depth == depth and node.children:
            below = node.size() - 1
            lines.append(f"{pad}  ... {below} node{'s' if below != 1 else ''} below")
    return "\n".join(lines)


def _header(tree: Any) -> list[str]:
    counts = tree.counts_per_depth()
    searched = (f"{tree.untraced()}" if tree.kind == "exact"
                else f"{len(tree.nodes)} nodes, per depth {' '.join(str(c) for c in counts)}")
    mover = tree.game.player_label(tree.game.player(tree.state))
    if mover.strip().upper() in ("MAX", "MIN"):  # a game whose players are called so (AIMA's): not "MAX = MIN"
        mover = f"the side to move, your {mover}"
    head = [f"{getattr(tree.agent, 'spec', tree.agent)}: {searched}; "
            f"MAX = {mover} (values from MAX's view; <= / >=: a bound)"]
    if len(tree.iterations) > 1:
        head.append(f"iterative deepening: {len(tree.iterations)} iterations; drawn: the last finished one "
                    f"({tree.root.size()} nodes)")
    if tree.note:
        head.append(tree.note)
    if tree.discounted and any(n.score is not None and is_proven(n.score) for n in tree.nodes):
        head.append(f"({PROOF_LEGEND})")
    return head


# ---- SVG ----------------------------------------------------------------------------------------

_W, _H, _GAP_X, _ROW = 70, 36, 8, 78
_FILL = {"depth": "#fef9c3", "terminal": "#dcfce7", "table": "#dbeafe", "beta": "#fee2e2"}
_GREY, _INK, _CUT = "#9ca3af", "#111827", "#b91c1c"


def default_depth(tree: Any, limit: int = SVG_NODES) -> int:
    """The deepest level whose drawing keeps to ``limit`` nodes (at least 1)."""
    counts = tree.counts_per_depth(root_only=True)
    total, best = 0, 0
    for d, count in enumerate(counts):
        total += count
        if total > limit:
            break
        best = d
    return max(best, 1)


def _layout(tree: Any, depth: int) -> tuple[dict[int, float], list[tuple[Node, Any, float]], float]:
    """x of every drawn node (by index), the stubs (parent, skipped move, x), and the width."""
    xs: dict[int, float] = {}
    stubs: list[tuple[Node, Any, float]] = []
    slot = [0]

    def place(node: Node) -> float:
        kids = [c for c in node.children] if node.depth < depth else []
        skipped = node.skipped(tree.game) if node.depth < depth else []
        if not kids and not skipped:
            x = slot[0] * (_W + _GAP_X) + _W / 2
            slot[0] += 1
        else:
            positions = [place(c) for c in kids]
            for a in skipped:
                sx = slot[0] * (_W + _GAP_X) + _W / 2
                slot[0] += 1
                stubs.append((node, a, sx))
                positions.append(sx)
            x = (positions[0] + positions[-1]) / 2
        xs[node.index] = x
        return x

    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, depth + 200))
    try:
        place(tree.root)
    finally:
        sys.setrecursionlimit(old)
    return xs, stubs, max(slot[0], 1) * (_W + _GAP_X)


def _text(x: float, y: float, words: str, size: float = 11, color: str = _INK, cls: str = "") -> str:
    extra = f" class={quoteattr(cls)}" if cls else ""
    return (f'<text{extra} x="{x:g}" y="{y:g}" font-size="{size:g}" fill="{color}" '
            f'text-anchor="middle">{escape(words)}</text>')


def svg(tree: Any, depth: int | None = None) -> str:
    """An SVG document of :attr:`Tree.root`'s tree to ``depth`` plies (default: :func:`default_depth`)."""
    return _drawing(tree, depth)[0]


def _drawing(tree: Any, depth: int | None) -> tuple[str, float]:
    """The SVG document and its width in pixels."""
    if depth is None:
        depth = default_depth(tree)
    xs, stubs, width = _layout(tree, depth)
    drawn = list(tree.root.walk(depth))
    levels = max(n.depth for n in drawn) + (2 if stubs or any(n.children for n in drawn if n.depth == depth) else 1)
    left = 40
    height = levels * _ROW + 30

    def y_of(d: int) -> float:
        return 30 + d * _ROW

    # its own size, never shrunk to the cell: JupyterLab's and the classic Notebook's `svg {max-width: 100%}`
    # would scale a 3,000-px tree's 10-px labels to 3 px; html() scrolls it sideways instead
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + left:g}" height="{height:g}" '
           f'viewBox="0 0 {width + left:g} {height:g}" class="zerosum-tree" '
           f'style="width:{width + left:g}px;max-width:none;height:auto" font-family="sans-serif">',
           f"<title>{escape(str(getattr(tree.agent, 'spec', 'search')))}: {len(tree.nodes)} nodes</title>",
           f'<rect width="100%" height="100%" fill="#ffffff"/>']
    for d in range(levels):
        out.append(_text(18, y_of(d) + _H / 2 + 4, "MAX" if d % 2 == 0 else "MIN", 10, _GREY))
    for node in drawn:  # edges first, nodes over them
        if node.parent is not None:
            cut = node.parent.cut_by is node
            x1, y1 = left + xs[node.parent.index], y_of(node.parent.depth) + _H
            x2, y2 = left + xs[node.index], y_of(node.depth)
            out.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
                       f'stroke="{_CUT if cut else _GREY}" stroke-width="{2.5 if cut else 1.2}"/>')
            out.append(_text((x1 + 2 * x2) / 3 + 8, (y1 + 2 * y2) / 3, _move(tree, node), 10, "#374151"))
    for parent, action, sx in stubs:
        x1, y1 = left + xs[parent.index], y_of(parent.depth) + _H
        y2 = y_of(parent.depth + 1)
        out.append(f'<g class="skipped"><line x1="{x1:g}" y1="{y1:g}" x2="{left + sx:g}" y2="{y2:g}" '
                   f'stroke="#d1d5db" stroke-dasharray="4 3"/>'
                   f'<rect x="{left + sx - 14:g}" y="{y2:g}" width="28" height="18" rx="4" fill="#f3f4f6" '
                   f'stroke="#d1d5db"/>{_text(left + sx, y2 + 13, tree.game.format_action(action), 10, _GREY)}</g>')
    for node in drawn:
        x, y = left + xs[node.index] - _W / 2, y_of(node.depth)
        kind = node.cutoff or "inner"
        fill = _FILL.get(node.cutoff or "", "#ffffff")
        if node.visits is not None:
            top = f"N={node.visits}"
            bottom = f"Q={short_value(node.score)}"
        else:
            top, bottom = tree.describe(node), _window(node, tree.discounted)
        out.append(f'<g class="node {kind}"><title>{escape(_moves(tree, list(node.path())) or "root")}: '
                   f'{escape(label(tree, node))}</title>'
                   f'<rect x="{x:g}" y="{y:g}" width="{_W}" height="{_H}" rx="{3 if node.is_max else 12}" '
                   f'fill="{fill}" stroke="{_CUT if node.cutoff == "beta" else _INK}" stroke-width="1.2"/>'
                   + _text(x + _W / 2, y + 15, top, 12)
                   + (_text(x + _W / 2, y + 29, bottom, 9, "#4b5563") if bottom else "") + "</g>")
        if node.depth == depth and node.children:
            out.append(f'<g class="more">{_text(x + _W / 2, y + _H + 14, f"+{node.size() - 1} below", 10, _GREY)}</g>')
    out.append("</svg>")
    return "\n".join(out), width + left


#: a drawing wider than this (pixels) gets a line saying it scrolls, and how to draw less
WIDE = 960


def html(tree: Any) -> str:
    """The SVG at its own size in a box that scrolls sideways, under a line of counts (for notebooks).

    The SVG is never scaled to the cell (its labels stay 9 to 12 px in JupyterLab, the classic Notebook,
    VS Code and nbconvert's HTML); a drawing wider than :data:`WIDE` pixels says how to draw a narrower one.
    """
    drawing, width = _drawing(tree, None)
    head = escape(_header(tree)[0])
    note = ""
    if width > WIDE:
        note = (f'<div style="font-family:monospace;font-size:12px;color:#6b7280">{width:,.0f} px wide: scroll '
                f"sideways (the root is at the middle), or draw fewer levels: IPython.display.SVG(tree.svg(depth=1))</div>")
    return (f'<div><div style="font-family:monospace;font-size:12px">{head}</div>{note}'
            f'<div style="overflow-x:auto;max-width:100%">{drawing}</div></div>')


# ---- Graphviz -----------------------------------------------------------------------------------


def dot(tree: Any, depth: int | None = None) -> str:
    """Graphviz dot text of :attr:`Tree.root`'s tree to ``depth`` plies (None: all)."""

    def quote(words: str) -> str:
        return '"' + words.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'

    out = ["digraph search {", '  node [shape=box, fontname="sans-serif", fontsize=10];']
    for node in tree.root.walk(depth):
        name = f"n{node.index}"
        fill = _FILL.get(node.cutoff or "", "#ffffff")
        top = f"N={node.visits}" if node.visits is not None else tree.describe(node)
        words = top + (f"\n{_window(node, tree.discounted)}" if node.window is not None else "")
        shape = "box" if node.is_max else "ellipse"
        out.append(f"  {name} [label={quote(words)}, shape={shape}, style=filled, "
                   f"fillcolor={quote(fill)}{', color=' + quote(_CUT) if node.cutoff == 'beta' else ''}];")
        if node.parent is not None:
            cut = node.parent.cut_by is node
            out.append(f"  n{node.parent.index} -> {name} [label={quote(_move(tree, node))}"
                       f"{', color=' + quote(_CUT) + ', penwidth=2' if cut else ''}];")
        if depth is None or node.depth < depth:
            for k, action in enumerate(node.skipped(tree.game)):
                stub = f"{name}s{k}"
                out.append(f"  {stub} [label={quote(tree.game.format_action(action))}, style=dashed, "
                           f"color={quote(_GREY)}, fontcolor={quote(_GREY)}];")
                out.append(f"  {name} -> {stub} [style=dashed, color={quote(_GREY)}];")
        elif node.children:
            out.append(f"  {name}m [label={quote(f'+{node.size() - 1} below')}, shape=plaintext];")
            out.append(f"  {name} -> {name}m [style=dotted];")
    out.append("}")
    return "\n".join(out)
