"""A board as SVG, drawn from a game's :class:`~zerosum.game.BoardView` alone (no code for any one game).

(:meth:`zerosum.game.Game.svg` calls it; this module reads the view's fields and imports nothing of zerosum's
but the errors, so the game protocol and it stay one floor without a cycle.)

It mirrors the page (``ui/static/app.js`` and ``style.css``): boards whose moves are columns
(``view.gravity``, Connect-X) are a blue frame with round holes and discs; other boards are a grid of
rounded cells holding the players' pieces.  A piece whose glyph is a disc (``●``, ``○``) is drawn as a
circle in its player's colour (``view.colors``), any other glyph (``X``, ``O``, ``▶``, ``▲``) as that
letter in the colour.  The last move's cells have a white outline, a winning line a green one.

Every piece is one element with ``class="stone p1"`` (or ``p2``), so a test (or a person) can count them;
labels come from ``view.col_labels`` and ``view.row_labels``.  The text is plain XML (``xml.etree`` reads it).

>>> from zerosum.game import BoardView
>>> svg = board_svg(BoardView(2, 2, ((0, 1), (2, 1))))
>>> svg.startswith("<svg") and svg.count('class="stone p1') == 2 and svg.count('class="stone p2') == 1
True
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

__all__ = ["board_svg", "SHADES", "DISC_GLYPHS"]

#: the page's shades of the colour names games use (``view.colors``); any other CSS colour passes through
SHADES = {"red": "#ef4444", "yellow": "#facc15", "black": "#0f0f10", "white": "#f8fafc"}
#: glyphs drawn as a filled circle
DISC_GLYPHS = ("●", "○", "⬤")

_BOARD, _HOLE, _PANEL, _GRID, _MUTED, _WIN, _LAST = "#1d4ed8", "#0b1226", "#1e293b", "#334155", "#94a3b8", "#22c55e", "#ffffff"
_MAX_CELL = 200


def board_svg(view: Any, *, cell: int = 40, title: str | None = None) -> str:
    """The board of ``view`` as an SVG document (one string); ``cell`` is a cell's side in pixels (8..200).

    ``title`` becomes the SVG's ``<title>`` (a tooltip, and what screen readers say).
    """
    if isinstance(cell, bool) or not isinstance(cell, int) or not 8 <= cell <= _MAX_CELL:
        from ..errors import InvalidSpecError

        from .checks import safe_repr

        raise InvalidSpecError(f"cell size {safe_repr(cell)} is not a whole number of pixels in 8..{_MAX_CELL}")
    colors = [SHADES.get(c, c) for c in view.colors]
    win, last = set(map(tuple, view.highlight)), set(map(tuple, view.last))
    label = cell * 0.35  # font size of labels
    top = cell * 0.6 if view.col_labels else 0.0
    left = cell * 0.6 if view.row_labels else 0.0
    pad = cell * 0.1
    width = left + view.cols * cell + 2 * pad
    height = top + view.rows * cell + 2 * pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
           f'viewBox="0 0 {width:g} {height:g}" class="zerosum-board" font-family="sans-serif">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    for c, text in enumerate(view.col_labels[: view.cols]):
        x = left + pad + (c + 0.5) * cell
        out.append(_text(x, top * 0.7, text, _MUTED, label, "label"))
    for r, text in enumerate(view.row_labels[: view.rows]):
        y = top + pad + (r + 0.5) * cell
        out.append(_text(left * 0.5, y + label * 0.35, text, _MUTED, label, "label"))
    x0, y0 = left + pad, top + pad
    if view.gravity:
        out.append(f'<rect x="{x0 - pad:g}" y="{y0 - pad:g}" width="{view.cols * cell + 2 * pad:g}" '
                   f'height="{view.rows * cell + 2 * pad:g}" rx="{cell * 0.2:g}" fill="{_BOARD}"/>')
    else:
        out.append(f'<rect x="{x0 - pad:g}" y="{y0 - pad:g}" width="{view.cols * cell + 2 * pad:g}" '
                   f'height="{view.rows * cell + 2 * pad:g}" rx="{cell * 0.15:g}" fill="{_GRID}"/>')
    for r in range(view.rows):
        for c in range(view.cols):
            who = view.cells[r][c]
            cx, cy = x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell
            ring = _WIN if (r, c) in win else _LAST if (r, c) in last else None
            if view.gravity:
                out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{cell * 0.4:g}" fill="{_HOLE}"/>')
            else:
                inset = cell * 0.05
                fill = "#14532d" if (r, c) in win else _PANEL
                stroke = f' stroke="{_LAST}" stroke-width="{cell * 0.06:g}"' if (r, c) in last else ""
                out.append(f'<rect x="{cx - cell / 2 + inset:g}" y="{cy - cell / 2 + inset:g}" '
                           f'width="{cell - 2 * inset:g}" height="{cell - 2 * inset:g}" rx="{cell * 0.15:g}" '
                           f'fill="{fill}"{stroke}/>')
                ring = None  # the cell itself shows it
            if who in (1, 2):
                out.append(_stone(view, who, cx, cy, cell, colors[who - 1], ring))
    out.append("</svg>")
    return "\n".join(out)


def _stone(view: Any, who: int, cx: float, cy: float, cell: int, color: str, ring: str | None) -> str:
    glyph = view.glyphs[who - 1] if len(view.glyphs) >= who else ""
    cls = f"stone p{who}"
    if view.gravity or glyph in DISC_GLYPHS or not glyph:
        stroke = (f' stroke="{ring}" stroke-width="{cell * 0.08:g}"' if ring
                  else f' stroke="{_MUTED}" stroke-width="{cell * 0.02:g}"')
        return f'<circle class="{cls}" cx="{cx:g}" cy="{cy:g}" r="{cell * 0.37:g}" fill={quoteattr(color)}{stroke}/>'
    return _text(cx, cy + cell * 0.18, glyph, color, cell * 0.5, cls, bold=True)


def _text(x: float, y: float, text: str, color: str, size: float, cls: str, bold: bool = False) -> str:
    # a piece's letter gets a thin grey edge, so a dark piece stays visible on the dark board (as on the page)
    extra = f' font-weight="700" stroke="{_MUTED}" stroke-width="0.5"' if bold else ""
    return (f'<text class={quoteattr(cls)} x="{x:g}" y="{y:g}" fill={quoteattr(color)} font-size="{size:g}" '
            f'text-anchor="middle"{extra}>{escape(str(text))}</text>')
