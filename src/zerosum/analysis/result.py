"""What an analysis answers: :class:`Analysis`, every legal move's value -- exact where proven, marked where
estimated -- and the documented tie-break of the best move.

Values are agent values (:mod:`zerosum.values`: ``win_value(plies)`` / ``loss_value(plies)`` / 0 / a
heuristic figure), so a face words every engine's answer the same way; ``scores`` keep the engine's own
convention (the solver's integer scores when :attr:`Analysis.solver_scores`, else the values themselves).
Each move has a kind (:meth:`Analysis.kind`): ``exact`` (a proof, with a distance in plies when it is a win
or a loss: :meth:`Analysis.distance`), ``class`` (proven to win, draw or lose, its distance not yet known:
:attr:`Analysis.classes`) or ``estimate`` (a heuristic figure).  An analysis speaks for itself, so the faces
need not know which engine answered: :meth:`Analysis.words` and :meth:`Analysis.point` (a move's short figure:
the solver's own score, else the value in short, with :attr:`Analysis.legend` saying what those figures mean)
come from :mod:`zerosum.core.words`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.words import CLASS_POINTS, CLASS_WORDS, SHORT_LEGEND, short_words, value_words
from ..game import Game
from ..values import is_proven, plies_to_end

__all__ = ["Analysis", "EXACT", "CLASS", "ESTIMATE", "best_action", "centre_order", "SOLVER_LEGEND", "SOLVER_SHORT"]

#: the kinds of a move's value (:meth:`Analysis.kind`)
EXACT, CLASS, ESTIMATE = "exact", "class", "estimate"
#: what the solver's own figures mean (:attr:`Analysis.points` of an analysis by the solver)
SOLVER_LEGEND = "the solver's score: + wins (the larger, the sooner), - loses, 0 draws"
SOLVER_SHORT = "+ wins (the larger, the sooner), - loses, 0 draws"


@dataclass
class Analysis:
    """Every legal move's value from one engine, the best in :attr:`best` (see the module docstring)."""

    engine: str  # who answered, for people ("the solver", the alpha-beta spec), or "" when nothing could
    exact: bool = False  # every value is a proof (the engine's own word)
    scores: dict[Any, float] = field(default_factory=dict)  # in the engine's own convention
    values: dict[Any, float] = field(default_factory=dict)  # as agent values
    best: Any = None
    nodes: int = 0
    elapsed: float = 0.0  # seconds (a progressive analysis: its searches' seconds, over every slice so far)
    note: str = ""
    points: dict[Any, str] = field(default_factory=dict)  # the engine's own short figure per move, if it has one
    legend: str = SHORT_LEGEND  # what the short figures (:meth:`point`) mean
    #: moves proven to win (+1), draw (0) or lose (-1) whose exact score is not known yet (a progressive
    #: analysis stopped early); their value is ``+/-HEURISTIC_BOUND``, never a guess
    classes: dict[Any, int] = field(default_factory=dict)
    done: bool = True  # every legal move has its exact value (or the engine's own estimate)
    exact_moves: set[Any] = field(default_factory=set)  # moves valued exactly in an analysis not exact as a whole
    solver_scores: bool = False  # ``scores`` are the solver's integers (DESIGN.md's convention), not values
    from_book: bool = False  # every move's value came from the opening book, without a search
    #: where a progressive analysis stopped, as plain data: ``Service.analyse(state, resume=progress)`` goes on
    #: from there in any process (None when it is done, or not progressive)
    progress: dict[str, Any] | None = None
    #: alpha-beta's estimates: the one depth every move was searched to and compared at (the deepest that
    #: every move's search completed within the budget: :mod:`.estimate`); None for the solver's analyses
    depth: int | None = None

    def words(self, action: Any) -> str:
        """``action``'s value in words (:func:`~zerosum.core.words.value_words`), "" for a move without one."""
        return self._said(action, CLASS_WORDS, value_words)

    def point(self, action: Any) -> str:
        """``action``'s short figure for a narrow slot (see :attr:`legend`): the engine's own, else its value
        in short (``W7``, ``L4``, ``0``, ``≈+0.35``: :func:`~zerosum.core.words.short_words`); "" for a move
        without a score."""
        if action in self.points:
            return self.points[action]
        return self._said(action, CLASS_POINTS, short_words)

    def _said(self, action: Any, of_class: dict[int, str], said: Callable[[float, bool], str]) -> str:
        """``action``'s value as ``said`` puts it (``of_class`` for a move proven only in win/draw/loss)."""
        if action in self.classes:
            return of_class[self.classes[action]]
        if action not in self.values:
            return ""
        return said(self.values[action], self.exact or action in self.exact_moves)

    def kind(self, action: Any) -> str:
        """``action``'s kind: ``"exact"``, ``"class"`` (win/draw/loss proven, distance not yet), ``"estimate"``,
        or "" when it has no value (yet)."""
        if action in self.classes:
            return CLASS
        if action not in self.values:
            return ""
        return ESTIMATE if self.estimate(action) else EXACT

    def estimate(self, action: Any) -> bool:
        """Whether ``action``'s value is a heuristic estimate rather than a proof."""
        return action in self.values and action not in self.classes and not (
            self.exact or action in self.exact_moves or is_proven(self.values[action]))

    def distance(self, action: Any) -> int | None:
        """The plies to the end of ``action``'s proven win or loss (its own move counted), else None (a draw,
        an estimate, a class, no value)."""
        if self.kind(action) != EXACT or not is_proven(self.values[action]):
            return None
        return plies_to_end(self.values[action])

    @property
    def value(self) -> float | None:
        """The position's value for the side to move (its best move's), when known."""
        return None if self.best is None or self.best not in self.values else self.values[self.best]


def best_action(values: dict[Any, float], order: list[Any]) -> Any:
    """The best action: the highest value; ties go to the first of ``order`` (:func:`centre_order`)."""
    top = max(values.values())
    return next(a for a in order if values.get(a) == top)


def centre_order(game: Game[Any, Any], state: Any, actions: list[Any]) -> list[Any]:
    """``actions`` centre-most first (left first between equals) where the board has gravity (a move is a
    column), else as the game lists them: the order in which ties are broken."""
    view = game.board_view(state)
    if not view.gravity:
        return list(actions)
    mid = (view.cols - 1) / 2
    column = {game.action_at(state, r, c): c for c in range(view.cols) for r in range(view.rows)}
    return sorted(actions, key=lambda a: (abs(column.get(a, mid) - mid), column.get(a, mid)))
