"""When a timed search stops (:func:`deadline_of`): a little before its time, leaving the time to answer; a
move with no choice (one legal action) after a share of it, so that it is made at once but still scored
(alpha-beta and MCTS; a course game of mostly forced moves took its full time on each)."""

from __future__ import annotations

__all__ = ["deadline_of", "FORCED_SHARE", "FORCED_LEAST"]

#: the share of a time limit a search spends on a move with no choice (one legal action), and the least time
#: it gets (all of a shorter limit): it still gives the move's score, but the move is made at once rather than
#: after the whole time
FORCED_SHARE, FORCED_LEAST = 0.1, 0.1


def deadline_of(start: float, seconds: float | None, forced: bool = False) -> float | None:
    """When a search given ``seconds`` a move from ``start`` stops: a little before them, leaving the time to
    answer (None: no time limit); a forced move (``forced``: one legal action) after :data:`FORCED_SHARE` of
    them, but not under :data:`FORCED_LEAST` (MCTS's root check needs a few milliseconds to score it)."""
    if seconds is None:
        return None
    if forced:
        seconds = max(seconds * FORCED_SHARE, min(seconds, FORCED_LEAST))
    return start + max(0.0, seconds * 0.97 - 0.005)
