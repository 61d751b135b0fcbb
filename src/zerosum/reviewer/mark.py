"""One move judged: :class:`Mark` (its values, its class and how it reads), and the rules of the classes
(:func:`classify`, :func:`result_of`) that :mod:`.judge` describes and applies; :mod:`.judge` re-exports them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.words import moves_to_end, value_words
from ..values import is_proven

__all__ = ["Mark", "classify", "result_of", "CLASSES", "SUFFIX"]

#: the classes, best first
CLASSES = ("best", "good", "mistake", "blunder")
#: the suffix PGN puts after a move of each class (:attr:`Mark.suffix`: ``?!`` for a mistake not proven, and
#: ``!`` after an only move found)
SUFFIX = {"best": "", "good": "", "mistake": "?", "blunder": "??"}


def result_of(value: float) -> int:
    """A value's result for the mover: +1 a (proven) win, -1 a loss, 0 a draw or an unproven estimate."""
    if is_proven(value):
        return 1 if value > 0 else -1
    return 0


def classify(before: float, after: float) -> str:
    """The class of a move that turns the mover's value ``before`` into ``after`` (the rules: :mod:`.judge`)."""
    rb, ra = result_of(before), result_of(after)
    if after >= before:
        return "best"
    if ra == rb:
        return "good"
    if rb == 1 and ra == -1:
        return "blunder"
    return "mistake"


@dataclass
class Mark:
    """One move judged.  ``ply`` counts from 1 at the start position (an opening's moves included);
    ``before``/``after`` are agent values (:mod:`zerosum.values`) from the mover's view; ``best``: the best
    moves (the played one among them when it is best); ``alternatives``: the other moves' values, best first, as
    ``(move, value)``; ``line``: the best play after the move played (for a move that is not the best: the line
    that refutes it), in the game's notation."""

    ply: int
    player: int
    move: str
    action: Any
    before: float
    after: float
    kind: str  # one of CLASSES (JSON: "class")
    only: bool = False
    exact: bool = True
    best: list[str] = field(default_factory=list)
    alternatives: list[tuple[str, float]] = field(default_factory=list)
    line: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def slower(self) -> int:
        """For a ``good`` move: how many moves later it wins, or sooner it loses (else 0)."""
        if self.kind != "good" or not (is_proven(self.before) and is_proven(self.after)):
            return 0
        return abs(moves_to_end(self.after) - moves_to_end(self.before))

    @property
    def proven(self) -> bool:
        """Whether the class is proven (:mod:`.judge`): every class of an exact mark, and every class but a
        mistake by estimates."""
        return self.exact or self.kind != "mistake"

    @property
    def suffix(self) -> str:
        """PGN's suffix of the mark: ``??`` a blunder, ``?`` a mistake, ``?!`` a mistake not proven, then ``!``
        for an only move found."""
        return ("?!" if not self.proven else SUFFIX[self.kind]) + ("!" if self.only else "")

    @property
    def kept(self) -> bool:
        """Whether the move kept the theoretical result (``best`` or ``good``)."""
        return self.kind in ("best", "good")

    def words(self, value: float) -> str:
        """A value of this mark in words (the one vocabulary: ``win in 7 moves``, ``draw``, ``+0.35 est.``)."""
        return value_words(value, self.exact)

    def verdict(self) -> str:
        """The mark in one line: ``blunder: win in 5 moves -> loss in 3 moves; best 4 (win in 5 moves)``."""
        said = self.kind + (" (only move)" if self.only else "") + ("" if self.proven else " (not proven)")
        text = f"{said}: {self.words(self.before)}"
        if self.kind != "best":
            text += f" -> {self.words(self.after)}"
        if self.kind == "good" and self.slower:
            text += f" ({self.slower} move{'s' if self.slower != 1 else ''} " \
                    f"{'slower' if self.after > 0 else 'sooner'})"
        if self.kind != "best" and self.best:
            text += f"; best {' '.join(self.best)}"
        if self.kind != "best" and self.line:
            text += f"; refutation {' '.join(self.line)}"
        return text

    def to_json(self) -> dict[str, Any]:
        """DESIGN's ``{ply, move, before, after, class, best}`` and more: ``before``/``after`` in words,
        ``before_value``/``after_value`` as agent values (:mod:`zerosum.values`, the mover's view),
        ``before_result``/``after_result`` as +1 / 0 / -1 (win / draw or open estimate / loss, the mover's view),
        ``player`` (1 or 2), ``only``, ``exact``, ``slower`` (a good move's moves lost), ``alternatives`` (the
        three best other moves, ``{move, value}``), ``line`` (the refutation, moves in the game's notation) and
        ``seconds`` (the time this mark took)."""
        return {"ply": self.ply, "player": self.player, "move": self.move,
                "before": self.words(self.before), "after": self.words(self.after),
                "class": self.kind, "best": list(self.best), "only": self.only, "exact": self.exact,
                "slower": self.slower, "before_value": self.before, "after_value": self.after,
                "before_result": result_of(self.before), "after_result": result_of(self.after),
                "alternatives": [{"move": m, "value": self.words(v)} for m, v in self.alternatives],
                "line": list(self.line), "seconds": round(self.seconds, 4)}
