"""The solver agent's exact answers (:mod:`zerosum.solver.agent`): from every legal column's score, and from the
opening book alone.

The move is the centre-most among the columns with the best score (from a lost position the one that loses
slowest); the value is :func:`zerosum.values.score_to_value` of its score; ``SearchResult.scores`` holds every
legal column's solver score, and ``score_kinds`` says each is ``"exact"``.
"""

from __future__ import annotations

from typing import Any

from ..agents.base import SearchResult
from ..kernels.bits import column_order
from ..values import score_to_value

__all__ = ["exact_answer", "book_answer"]


def exact_answer(cx: Any, state: Any, scores: list[int | None], nodes: int, elapsed: float) -> SearchResult:
    """The exact answer from every legal column's score (None: a full column) of ``state`` in ``cx``."""
    best = max((c for c in column_order(cx.cols) if scores[c] is not None), key=lambda c: scores[c])  # type: ignore[arg-type, return-value]
    score = scores[best]
    assert score is not None
    scored: dict[Any, float] = {c: s for c, s in enumerate(scores) if s is not None}
    return SearchResult(action=best, value=score_to_value(score, state.ply, cx.cells), nodes=nodes,
                        depth=cx.cells - state.ply, elapsed=elapsed, pv=(best,), scores=scored,
                        score_kinds=dict.fromkeys(scored, "exact"), exact=True)


def book_answer(game: Any, state: Any, book: Any) -> SearchResult | None:
    """The answer from ``book`` (an opening book of ``game``, or None) alone, when it scores every move (or the
    move ends the game); else None.  The book's scores are the solver's, so the move and value are the solver's
    own."""
    if book is None or state.ply + 1 > book.depth:
        return None
    scores: list[int | None] = [None] * game.cols
    for col in game.actions(state):
        child = game.result(state, col)
        if child.won_by:
            scores[col] = (game.cells + 2 - (state.ply + 1)) // 2
        elif child.mask == game.board_mask:
            scores[col] = 0
        else:
            score = book.get(child.current, child.mask)
            if score is None:
                return None
            scores[col] = -score
    return exact_answer(game, state, scores, 0, 0.0)
