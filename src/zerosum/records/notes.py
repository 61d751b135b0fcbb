"""A move's note in a record, ``{time=0.12s nodes=3401 value=+W5}`` (``value=0 exact``: a value the search
proved, where the number alone does not say so, as a draw), with its annotation (a PGN suffix such
as ``?`` on the move and a free comment, ``{mistake: draw -> loss in 3 moves}``): :class:`MoveNote` and how
proven values are written (:func:`proven_text`)."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from ..core.checks import clip, safe_repr
from ..errors import InvalidFileError
from ..external.protocol.messages import MAX_NODES
from ..values import HEURISTIC_BOUND, is_proven, loss_value, plies_to_end, win_value
from .lexer import MAX_COMMENT

__all__ = ["MAX_NODES", "MAX_SECONDS", "MARKS", "WIN_PLIES", "MoveNote", "clip", "is_note", "proven_text",
           "split_mark"]

#: PGN's move suffixes, which a record keeps after a move: good, poor, very good, very poor, interesting, dubious
MARKS = ("!", "?", "!!", "??", "!?", "?!")
_MARK = re.compile(r"(.+?)(!!|\?\?|!\?|\?!|!|\?)")
#: the keys of a note comment; a comment starting with one of them is a note, any other is a free comment
_KEYS = ("time=", "nodes=", "value=")

#: the most seconds a move's note holds
MAX_SECONDS = 10**9
#: the most nodes a move's note holds, ``MAX_NODES`` (10**18), is the engine protocol's bound on the nodes an
#: ``info`` line reports (:data:`zerosum.external.protocol.MAX_NODES`): one bound, so whatever an engine reports
#: a record keeps whole, and a larger count is the engine's protocol error, never a record that cannot be written

_NUMBER = re.compile(r"[+-]?[0-9]{1,20}(?:\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,3})?")
#: a proven value: ``+W5`` the mover wins 5 plies from this move's position, ``-L4`` it loses in 4 plies
_PROVEN = re.compile(r"(?:\+W|-L)([0-9]{1,9})")


def _real(x: object, what: str) -> float:
    """A finite real number (not a bool), as a float; InvalidFileError (one line) for anything else."""
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        try:
            number = float(x)
        except OverflowError:
            number = math.inf
        if math.isfinite(number):
            return number
    raise InvalidFileError(f"a move's {what} is a finite number, not {safe_repr(x, 40)}")


@dataclass(frozen=True, slots=True)
class MoveNote:
    """What a move cost: seconds (0..:data:`MAX_SECONDS`), nodes searched (0..:data:`MAX_NODES`) and the
    mover's value, and its annotation: ``mark``, a PGN suffix of :data:`MARKS` written after the move (``4?``),
    and ``comment``, free text written in braces after the note (each may be None).  ``exact``: the value is a
    proof (written ``exact`` after it where the number does not say so, a draw's ``value=0 exact``; a proven
    win or loss, ``+W5`` / ``-L4``, is exact by its form).

    Kept as the text holds them: seconds to the millisecond, values to 12 significant digits, a comment's
    whitespace as single spaces."""

    time: float | None = None
    nodes: int | None = None
    value: float | None = None
    #: the annotation: PGN's suffix after the move (one of :data:`MARKS`), and a free comment after the note
    mark: str | None = None
    comment: str | None = None
    exact: bool = False

    def __post_init__(self) -> None:
        if type(self.exact) is not bool:
            raise InvalidFileError(f"a move's exact is True or False, not {safe_repr(self.exact, 40)}")
        if self.mark is not None and not (isinstance(self.mark, str) and self.mark in MARKS):
            raise InvalidFileError(f"a move's mark is one of {' '.join(MARKS)}, not {safe_repr(self.mark, 40)}")
        if self.comment is not None:
            if not isinstance(self.comment, str):
                raise InvalidFileError(f"a move's comment is text, not {safe_repr(self.comment, 40)}")
            said = " ".join(self.comment.split())
            if "{" in said or "}" in said or len(said) > MAX_COMMENT or is_note(said):
                raise InvalidFileError(f"a move's comment is text of at most {MAX_COMMENT:,} characters without "
                                       "braces, not starting time=, nodes= or value=, not "
                                       f"{safe_repr(self.comment, 40)}")
            object.__setattr__(self, "comment", said or None)
        if self.time is not None:
            seconds = _real(self.time, "time")
            if not 0 <= seconds <= MAX_SECONDS:
                raise InvalidFileError(f"a move's time is 0..{MAX_SECONDS:,} seconds, not {safe_repr(self.time, 40)}")
            object.__setattr__(self, "time", round(seconds, 3))
        if self.value is not None:
            object.__setattr__(self, "value", float(f"{_real(self.value, 'value'):.12g}"))
            if proven_text(self.value) is not None:  # a proven win or loss is exact by its form
                object.__setattr__(self, "exact", True)
        elif self.exact:
            raise InvalidFileError("a move's exact marks its value: a note with exact has a value")
        if self.nodes is not None and (type(self.nodes) is not int or not 0 <= self.nodes <= MAX_NODES):
            raise InvalidFileError(f"a move's nodes are a whole number 0..{MAX_NODES:,}, not "
                                   f"{safe_repr(self.nodes, 40)}")

    def text(self) -> str:
        """The note comment's inside: ``time=0.12s nodes=3401 value=+2`` (the fields that are known; "" when
        none is), ``exact`` after a proven value the number does not show as proven (``value=0 exact``)."""
        seconds = None if self.time is None else f"{self.time:.3f}".rstrip("0").rstrip(".") + "s"
        value = None if self.value is None else proven_text(self.value) or f"{self.value:+.12g}"
        known = (("time", seconds), ("nodes", self.nodes), ("value", value))
        marked = " exact" if self.exact and value is not None and proven_text(self.value or 0.0) is None else ""
        return " ".join(f"{name}={text}" for name, text in known if text is not None) + marked

    @classmethod
    def from_text(cls, body: str) -> MoveNote:
        """The note of a comment's inside; InvalidFileError (one line) for anything else."""
        if not isinstance(body, str) or len(body) > MAX_COMMENT:
            raise InvalidFileError(f"a comment's inside is text of at most {MAX_COMMENT:,} characters, not "
                                   f"{safe_repr(body, 40)}")
        shown = clip(" ".join(body.split()), 60)
        found: dict[str, Any] = {}
        for item in body.split():
            if item == "exact":  # the value before it is a proof
                if "value" not in found or "exact" in found:
                    raise InvalidFileError(f"comment {{{shown}}}: exact follows a value=V once")
                found["exact"] = True
                continue
            key, eq, raw = item.partition("=")
            if not eq or key not in ("time", "nodes", "value"):
                raise InvalidFileError(f"comment {{{shown}}}: {safe_repr(item, 40)} is not time=SECONDSs, "
                                       "nodes=N, value=V or exact")
            if key in found:
                raise InvalidFileError(f"comment {{{shown}}}: {key} is given twice")
            if "exact" in found:
                raise InvalidFileError(f"comment {{{shown}}}: exact comes last, after value=V")
            text = raw[:-1] if key == "time" and raw.endswith("s") else raw
            proven = _PROVEN.fullmatch(text) if key == "value" else None
            if proven is not None and 0 < int(proven[1]) < WIN_PLIES:
                found[key] = float((win_value if text[0] == "+" else loss_value)(int(proven[1])))
                continue
            number = _NUMBER.fullmatch(text)
            if number is None or (key == "nodes" and not text.isdigit()) or not math.isfinite(float(text)):
                want = {"time": "seconds such as 0.12s", "nodes": "a whole number",
                        "value": "a number such as +2, or +W5 / -L4 (a win / loss in 5 / 4 plies)"}
                raise InvalidFileError(f"comment {{{shown}}}: {key}={safe_repr(raw, 40)} is not {want[key]}")
            found[key] = int(text) if key == "nodes" else float(text)
        return cls(**found)


def is_note(body: str) -> bool:
    """Whether a comment's inside is a note (``time=``, ``nodes=`` or ``value=`` first) rather than free text."""
    return body.lstrip().startswith(_KEYS)


def split_mark(token: str) -> tuple[str, str | None]:
    """A movetext word as its move and its PGN suffix (``4??`` -> ``("4", "??")``; ``4`` -> ``("4", None)``)."""
    found = _MARK.fullmatch(token)
    return (token, None) if found is None else (found[1], found[2])


#: the longest distance a proven value can carry (plies)
WIN_PLIES = 10**9 - int(HEURISTIC_BOUND)


def proven_text(value: float) -> str | None:
    """A proven value as the records write it (``+W5``: the mover wins in 5 plies; ``-L4``: loses in 4), or
    None for an estimate."""
    if not is_proven(value) or value != int(value) or not 0 < plies_to_end(value) < WIN_PLIES:
        return None
    return f"{'+W' if value > 0 else '-L'}{plies_to_end(value)}"
