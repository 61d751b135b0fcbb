"""One vocabulary for values: every face words a value here (the terminal, the page and its API,
``SearchResult.describe()``, ``zerosum analyze``, ``zerosum explain``, the replay of a record).

Values are from the side to move's view (:mod:`zerosum.values`).  **Distances count moves of the side
concerned, never plies**: a proven result's distance is the number of moves the winner makes up to and
including the winning one, ``ceil(plies / 2)`` (:func:`moves_to_end`).  A win in 3 moves is the side to
move's third move from now (plies 1, 3, 5); a loss in 3 moves is the opponent's third move from now (plies
2, 4, 6: the side to move makes 3 moves before it).  The first player wins the empty 7 x 6 board in 21 moves.

- **exact** values: ``win in 7 moves``, ``loss in 1 move``, ``draw`` (:func:`exact_words`); a move proven
  only in win/draw/loss: ``win (distance not yet proven)`` (:data:`CLASS_WORDS`);
- **estimates**: a signed number marked ``est.``, ``+0.35 est.``, ``0 est.`` (:func:`estimate_words`) --
  never a word an exact value uses; what the number is (a heuristic, a mean result) is the agent's
  :class:`~zerosum.agents.traits.ValueUnit`;
- **short figures** for a narrow slot: ``W7``, ``L1`` (moves), ``0``, ``≈+0.35`` (:func:`short_words`), with
  :data:`SHORT_LEGEND` said beside them.

Record files keep their own compact notation (``+W5`` / ``-L4`` in plies, :mod:`zerosum.records`): that is
the file format; what a face shows of a record is worded here.
"""

from __future__ import annotations

from typing import Any

from ..values import WIN, is_proven, plies_to_end, score_to_value

__all__ = ["moves_to_end", "exact_words", "estimate_words", "value_words", "describe_value", "short_words",
           "class_words", "score_words", "CLASS_WORDS", "UNCOUNTED_WORDS", "CLASS_NAMES", "CLASS_POINTS", "DISTANCE_LEGEND",
           "EITHER_LEGEND", "distance_legend",
           "SHORT_LEGEND", "CLASS_LEGEND", "ESTIMATE_MARK"]

#: what a distance counts, said once wherever one is shown (:func:`distance_legend`: of a game whose winner
#: moves last, as Connect-X's)
DISTANCE_LEGEND = "win in N moves: the mover's Nth move wins; loss in N: the opponent's Nth"
#: the same where a game may end on the loser's move (Othello, a course game), which the words then say
EITHER_LEGEND = ("win in N moves: the mover's Nth move wins, or the opponent's Nth ends the game where said; "
                 "loss in N: the opponent's Nth, or the mover's own Nth where said")
#: what the short figures mean (:func:`short_words`)
SHORT_LEGEND = "W n: a win in n moves, L n: a loss in n moves, 0: a draw, ≈: an estimate (k: thousands)"
#: a move proven only in win/draw/loss (an analysis stopped early): its words, and its one-word name
CLASS_WORDS = {1: "win (distance not yet proven)", 0: "draw", -1: "loss (distance not yet proven)"}
CLASS_NAMES = {1: "win", 0: "draw", -1: "loss"}
#: a proof from a search without a depth discount: every win is worth ``WIN`` wherever it ends
UNCOUNTED_WORDS = {1: "win (distance not counted: no depth discount)",
                   -1: "loss (distance not counted: no depth discount)"}
#: the short figures of such a move, and what they mean
CLASS_POINTS = {1: "W", 0: "0", -1: "L"}
CLASS_LEGEND = "W / L: proven, distance not yet known"
#: the mark of an estimate's short figure
ESTIMATE_MARK = "≈"


def distance_legend(game: Any) -> str:
    """The legend of distances for ``game`` (None: any game): :data:`DISTANCE_LEGEND` where its winner always
    moves last (its traits say so), else :data:`EITHER_LEGEND`."""
    traits = getattr(game, "traits", None)
    return DISTANCE_LEGEND if getattr(traits, "winner_moves_last", False) else EITHER_LEGEND


def moves_to_end(value: float) -> int:
    """A proven value's distance in moves of the side concerned: ``ceil(plies / 2)`` (a win ends on the side
    to move's own ply 1, 3, 5 ...: its move 1, 2, 3 ...; a loss on the opponent's ply 2, 4, 6 ...)."""
    return (plies_to_end(value) + 1) // 2


def _number(value: float) -> str:
    return f"{value:+.2f}" if isinstance(value, float) else f"{int(value):+d}"


def exact_words(value: float, *, marked: bool = True) -> str:
    """An exact value in words: ``win in 7 moves``, ``loss in 1 move``, ``draw`` (``won``/``lost``: the game
    is over).  Where the game ends on the loser's own move (Othello, whose board can fill up on it), the words
    say so: ``win in 2 moves (the game ends on the opponent's move)``, ``loss in 2 moves (the game ends on its
    own move)``, so two distances never read alike.  A textbook search's exact utility of a course game (``+3``)
    is ``+3 (exact)``, or ``+3`` where not ``marked`` (the words beside say it is exact)."""
    if is_proven(value):
        n = moves_to_end(value)
        if n == 0:
            return "won" if value > 0 else "lost"
        said = f"{'win' if value > 0 else 'loss'} in {n} move{'' if n == 1 else 's'}"
        if (value > 0) == (plies_to_end(value) % 2 == 0):  # the loser's move ends it (Othello: the board fills up)
            said += " (the game ends on the opponent's move)" if value > 0 else " (the game ends on its own move)"
        return said
    if value == 0:
        return "draw"
    return f"{value:+g} (exact)" if marked else f"{value:+g}"  # neither a proof nor a draw: a utility as it is


def estimate_words(value: float) -> str:
    """A heuristic estimate: ``+0.35 est.``, ``-12 est.``, ``0 est.`` -- never a word an exact value uses."""
    return "0 est." if value == 0 else f"{_number(value)} est."


def class_words(sign: int) -> str:
    """A move proven only in win (+1), draw (0) or loss (-1), its distance not yet known."""
    return CLASS_WORDS[sign]


def value_words(value: float, exact: bool = False, *, marked: bool = True) -> str:
    """Any value in words: exact words when it is a proof (``exact``, or a proven win or loss; ``marked``: as
    :func:`exact_words`'s), else an estimate's."""
    return exact_words(value, marked=marked) if exact or is_proven(value) else estimate_words(value)


def describe_value(value: float, exact: bool = False, *, marked: bool = True) -> str:
    """A search's value in words (``SearchResult.describe()``): :func:`value_words`, except at the full
    ``WIN``: a search never starts from a finished game, so a root value of exactly ``±WIN`` is a proof found
    without a depth discount (``minimax:discount=0``, ``alphabeta:plain=1``), whose distance was not counted
    (:data:`UNCOUNTED_WORDS`; not ``won``, nor ``win in 0 moves``).  ``marked``: as :func:`exact_words`'s."""
    if value == WIN or value == -WIN:
        return UNCOUNTED_WORDS[1 if value > 0 else -1]
    return value_words(value, exact, marked=marked)


def short_words(value: float, exact: bool = False) -> str:
    """A value in a few characters for a narrow slot (:data:`SHORT_LEGEND`): ``W7`` / ``L1`` (a win / loss in
    7 / 1 moves), ``0`` (a draw), ``≈+0.35`` (an estimate); an estimate of 10,000 or more in thousands,
    ``≈-100k`` (the ``threats`` evaluation's decided game: it took two lines under a column on a phone)."""
    if is_proven(value):
        return f"{'W' if value > 0 else 'L'}{moves_to_end(value)}"
    if exact:
        return "0" if value == 0 else _number(value)
    if abs(value) >= 10_000:
        return f"{ESTIMATE_MARK}{value / 1000:+.0f}k"
    return ESTIMATE_MARK + ("0" if value == 0 else _number(value))


def score_words(score: int, ply: int, cells: int) -> str:
    """A solver score (DESIGN's convention, the side to move's view at ``ply`` on a board of ``cells``) in
    words: ``win in 3 moves``, ``draw``, ``loss in 18 moves``."""
    return exact_words(score_to_value(score, ply, cells))
