"""A review as text: :func:`table` (a line a move, then the summary)."""

from __future__ import annotations

from typing import Any

from ..core.words import DISTANCE_LEGEND

__all__ = ["table", "summary_lines", "SUFFIX"]

#: the suffix PGN puts after a move of each class ("!" marks an only move that was found)
SUFFIX = {"best": "", "good": "", "mistake": "?", "blunder": "??"}


def table(found: Any) -> str:
    """The review as text: ``ply  move  class  before -> after  best  refutation`` a move, the summary after."""
    lines = [f"Review of {found.game.spec} by {found.engine}"
             f"{'' if found.exact else ' (estimates)'}, {found.seconds:.1f} s  ({DISTANCE_LEGEND})"]
    rows = [("ply", "move", "class", "before", "after", "best", "refutation")]
    for m in found.marks:
        kind = m.kind + (" (only)" if m.only else "")
        if m.kind == "good" and m.slower:
            kind += f" ({m.slower} slower)" if m.after > 0 else f" ({m.slower} sooner)"
        rows.append((str(m.ply), m.move + SUFFIX[m.kind] + ("!" if m.only else ""), kind, m.words(m.before),
                     m.words(m.after), "" if m.kind == "best" else " ".join(m.best),
                     " ".join(m.line)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])
    return "\n".join(line.rstrip() for line in lines + [""] + summary_lines(found)) + "\n"


def summary_lines(found: Any) -> list[str]:
    """One line a player: who, the share of moves that kept the result, each class, the first decisive
    error."""
    out = []
    for player, s in found.summary().items():
        if not s["moves"]:
            continue
        who = found.game.player_label(player)
        error = s["first_error"]
        first = "no decisive error" if error is None else \
            f"first decisive error: {error['class']} at ply {error['ply']} ({error['move']})"
        out.append(f"{who}: kept the result with {s['kept']} of {s['moves']} moves ({s['share']:.0%}); "
                   f"{s['best']} best, {s['good']} good, {s['mistake']} mistakes, {s['blunder']} blunders; "
                   f"{first}")
    return out
