"""Teaching: the Python entry for notebooks (see :mod:`.play` and :mod:`.matches`).

``zerosum.play_game(game, first, second, ...)`` plays one game and returns its :class:`~.play.GameRecord`;
``zerosum.match(first, second, ...)`` plays a match and returns the arena's statistics
(:class:`~.matches.MatchResult`).  Agents are :class:`~zerosum.agents.base.Agent` objects, spec strings or plain
functions ``f(game, state) -> action``.  States draw themselves in Jupyter (``_repr_svg_``, see
:meth:`zerosum.game.Game.svg`), and :meth:`zerosum.game.Game.place` builds free boards for exercises.
"""

from __future__ import annotations

from .matches import MatchResult, match
from .play import GameRecord, Move, play_game

__all__ = ["play_game", "match", "GameRecord", "Move", "MatchResult"]
