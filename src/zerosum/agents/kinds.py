"""Which root scores of a search are bounds (``SearchResult.score_kinds``).

A negamax root searched with a full window (alpha from minus infinity, beta plus infinity) gives each move a
window of (alpha so far, +infinity): a move whose value rises above alpha was searched inside its window, so
its score is the value the search gives it (``"exact"``, to the search's depth); any other move failed low,
so its score is only an upper bound of that value (``"upper"``: "at most").  Minimax (no window) and MCTS
(a mean: the searched value itself) mark every score ``"exact"``.  ``"lower"`` ("at least") is the kind of a
fail-high, which a root with beta at plus infinity never has.
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["root_kinds", "KINDS"]

#: the kinds, and how a face words each (``zerosum explain``, the page)
KINDS = {"exact": "exact", "upper": "at most", "lower": "at least"}


def root_kinds(searched: Iterable[tuple[Any, Any]]) -> dict[Any, str]:
    """The kinds of a full-window root's scores, from ``(action, value)`` pairs in the order searched."""
    kinds: dict[Any, str] = {}
    alpha: Any = None
    for action, value in searched:
        raised = alpha is None or value > alpha
        kinds[action] = "exact" if raised else "upper"
        alpha = value if raised else alpha
    return kinds
