"""The protocol's lines as typed values (:mod:`zerosum.external.protocol`): every value can be written as a
valid line, and a value that could not be is refused when it is built (:class:`ProtocolError`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import ClassVar, Optional, Union

from ...errors import GameError
from ...spec import quoted

__all__ = [
    "PROTOCOL_VERSION", "MAX_LINE", "MAX_NUMBER", "MAX_NODES", "NO_MOVE", "ProtocolError",
    "Hello", "IsReady", "SetOption", "NewGame", "Position", "Go", "Stop", "Quit",
    "Id", "OptionSpec", "GameSpec", "HelloDone", "ReadyOk", "Info", "BestMove", "Unknown",
    "Command", "Reply", "Message", "GO_FIELDS", "INFO_BOUNDS", "TOKEN", "INTEGER", "WHOLE", "FIELD_NAME", "NUMBER",
    "CONTROL", "shown",
]

#: the version this module speaks (``zsp 1``)
PROTOCOL_VERSION = 1
#: the longest line, in bytes of UTF-8 without its end (a 64 x 64 Migration game's move string fits)
MAX_LINE = 1 << 20
#: the largest number any field takes (2**63 - 1)
MAX_NUMBER = 2**63 - 1
#: the most nodes an ``info`` line may report: what a record's move note keeps (:data:`zerosum.records.MAX_NODES`
#: is this bound), so every count the protocol takes is written whole in a game's record; a larger one is a
#: malformed line
MAX_NODES = 10**18
#: what ``bestmove`` says when the position has no move (the game is over)
NO_MOVE = "(none)"

#: a word of a line, and the numbers fields take (whole, and an estimate's decimal); the control characters
#: no line may hold (Unicode's Cc but the tab)
TOKEN = re.compile(r"[^ \t]+")
INTEGER = re.compile(r"[+-]?[0-9]{1,19}")
#: a whole number of any size (its range is checked apart: a clear reason for a number too large)
WHOLE = re.compile(r"[+-]?[0-9]+")
#: what a field's name looks like (an unknown ``go`` field of a later version is skipped, a number is not)
FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
NUMBER = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})(?:[eE][+-]?[0-9]{1,3})?")
_OPTION_TYPES = ("spin", "check", "string")
CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")


class ProtocolError(GameError, ValueError):
    """A line that breaks the protocol: a known word with a wrong rest, a line too long or not UTF-8."""


def shown(line: str) -> str:
    return quoted(line, 60)


def _check_text(owner: str, name: str, value: object, *, empty: bool = False, spaces: bool = True) -> None:
    """``value`` fits in a line as a field: text without control characters or surrounding blanks (and, when
    not ``spaces``, a single word); ValueError otherwise (values are built from code; parsing checks first)."""
    if not isinstance(value, str):
        raise ProtocolError(f"{owner}: {name} is text, not {type(value).__name__}")
    if not value and not empty:
        raise ProtocolError(f"{owner}: {name} is empty")
    if value != value.strip(" \t") or CONTROL.search(value) is not None:
        raise ProtocolError(f"{owner}: {name} {shown(value)} has control characters or surrounding blanks")
    if not spaces and TOKEN.fullmatch(value) is None:
        raise ProtocolError(f"{owner}: {name} {shown(value)} is one word (no spaces)")


def _check_number(owner: str, name: str, value: object, lo: int, *, optional: bool = True,
                  hi: int = MAX_NUMBER) -> None:
    if value is None and optional:
        return
    _check_range(owner, name, value, lo, hi)


def _check_range(owner: str, name: str, value: object, lo: int, hi: int = MAX_NUMBER) -> None:
    """``value`` is a whole number in ``lo..hi``: which of the two it is not, otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"{owner}: {name} is a whole number in {lo}..{hi}, not {quoted(value)}")
    if not lo <= value <= hi:
        raise ProtocolError(f"{owner}: {name} {value} is out of range: a whole number in {lo}..{hi}")


def _number_text(value: float) -> str:
    """An estimate as the shortest text that reads back as the same float."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


@dataclass(frozen=True)
class _Line:
    """What every line's value shares: its first word, its text fields (checked where a value is built, so a
    value that could not be written as a line cannot be built) and, for a bare word, its line."""

    WORD: ClassVar[str] = ""
    #: (field, may be empty, may hold spaces) of each text field
    TEXT: ClassVar[tuple[tuple[str, bool, bool], ...]] = ()
    #: the line, its fields by name ("" the word alone; a blank end is dropped: an empty last text field)
    FORMAT: ClassVar[str] = ""

    def __post_init__(self) -> None:
        for name, empty, spaces in self.TEXT:
            _check_text(self.WORD, f"the {name}", getattr(self, name), empty=empty, spaces=spaces)
        self.check()

    def check(self) -> None:
        """What a value of this kind checks beyond its text fields."""

    def line(self) -> str:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return self.FORMAT.format(**values).rstrip(" ") if self.FORMAT else self.WORD


# ---- GUI -> engine ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hello(_Line):
    """``zsp VERSION``: the GUI opens the conversation; the engine answers with its handshake."""

    WORD, FORMAT = "zsp", "zsp {version}"
    version: int = PROTOCOL_VERSION

    def check(self) -> None:
        _check_number("zsp", "the version", self.version, 1, optional=False)


@dataclass(frozen=True)
class IsReady(_Line):
    """``isready``: answered by ``readyok`` once the engine has done what it was told before."""
    WORD = "isready"


@dataclass(frozen=True)
class SetOption(_Line):
    """``setoption name N value V`` (V may be empty and may hold spaces)."""

    WORD, TEXT = "setoption", (("name", False, False), ("value", True, True))
    FORMAT = "setoption name {name} value {value}"
    name: str
    value: str = ""


@dataclass(frozen=True)
class Position(_Line):
    """``position SPEC [moves MOVES]``: the game's spec and its move string from the start ("" the start)."""

    WORD, TEXT = "position", (("game", False, False), ("moves", True, True))
    game: str
    moves: str = ""

    def line(self) -> str:
        return f"position {self.game}" + (f" moves {self.moves}" if self.moves else "")


#: the fields of ``go`` and the least value of each
GO_FIELDS = {"movetime": 1, "nodes": 1, "depth": 1, "ftime": 0, "stime": 0, "finc": 0, "sinc": 0}


@dataclass(frozen=True)
class Stop(_Line):
    """``stop``: end the search now and answer ``bestmove`` (within 100 ms)."""
    WORD = "stop"


@dataclass(frozen=True)
class Go(_Line):
    """``go [movetime MS] [nodes N] [depth D] [ftime MS stime MS [finc MS] [sinc MS]]``: search the position.

    ``ftime``/``stime``: the first and the second player's clocks (milliseconds left), ``finc``/``sinc``
    their increments; the clocks come together, the increments only with them.  No field: the engine's own
    limits.  ``ignored``: the fields of a later version a parsed line had (each with the words after it), which
    this version skips; set by the parser only, never written, and no part of the value's equality.
    """

    WORD = "go"
    movetime: Optional[int] = None
    nodes: Optional[int] = None
    depth: Optional[int] = None
    # the clocks
    ftime: Optional[int] = None
    stime: Optional[int] = None
    finc: Optional[int] = None
    sinc: Optional[int] = None
    ignored: tuple[str, ...] = field(default=(), compare=False, init=False)  # set by the parser alone

    def check(self) -> None:
        for name, lowest in GO_FIELDS.items():
            _check_number("go", name, getattr(self, name), lowest)
        if (self.ftime is None) != (self.stime is None):
            raise ProtocolError("go: ftime and stime come together (both clocks or neither)")
        if self.ftime is None and (self.finc is not None or self.sinc is not None):
            raise ProtocolError("go: finc and sinc come only with the clocks ftime and stime")

    def clock(self, player: int) -> tuple[int, int] | None:
        """``(milliseconds left, increment)`` of ``player`` (1 or 2), or None without clocks."""
        if self.ftime is None or self.stime is None:
            return None
        if player == 1:
            return self.ftime, self.finc or 0
        return self.stime, self.sinc or 0

    def line(self) -> str:
        return " ".join(["go"] + [f"{name} {getattr(self, name)}" for name in GO_FIELDS
                                  if getattr(self, name) is not None])


@dataclass(frozen=True)
class NewGame(_Line):
    """``newgame``: what follows belongs to another game (forget what was learnt)."""
    WORD = "newgame"


@dataclass(frozen=True)
class Quit(_Line):
    """``quit``: end the program (a running search is stopped and answered first)."""
    WORD = "quit"


# ---- engine -> GUI ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Id(_Line):
    """``id name NAME`` or ``id author AUTHOR``."""

    WORD, TEXT, FORMAT = "id", (("value", False, True),), "id {key} {value}"
    key: str
    value: str

    def check(self) -> None:
        if self.key not in ("name", "author"):
            raise ProtocolError(f"id: the key is name or author, not {quoted(self.key)}")


@dataclass(frozen=True)
class OptionSpec(_Line):
    """``option name N type spin default D min A max B``, ``... type check default true|false`` or
    ``... type string default [TEXT]`` (a string's default may be empty and may hold spaces)."""

    WORD, TEXT = "option", (("name", False, False),)
    name: str
    type: str
    default: str
    min: int | None = None
    max: int | None = None

    def check(self) -> None:
        if self.type not in _OPTION_TYPES:
            raise ProtocolError(f"option {self.name}: the type is spin, check or string, not {quoted(self.type)}")
        text = self.type == "string"
        _check_text("option", "the default", self.default, empty=text, spaces=text)
        if self.type != "spin":
            if self.min is not None or self.max is not None:
                raise ProtocolError(f"option {self.name}: only a spin has min and max")
            if self.type == "check" and self.default not in ("true", "false"):
                raise ProtocolError(f"option {self.name}: a check's default is true or false, "
                                    f"not {quoted(self.default)}")
            return
        for bound in (self.min, self.max):
            if isinstance(bound, bool) or not isinstance(bound, int) or abs(bound) > MAX_NUMBER:
                raise ProtocolError(f"option {self.name}: a spin has whole-number min and max, not {quoted(bound)}")
        if INTEGER.fullmatch(self.default) is None or not self.min <= int(self.default) <= self.max:  # type: ignore[operator]
            raise ProtocolError(f"option {self.name}: a spin's default is a whole number in {self.min}..{self.max}, "
                                f"not {quoted(self.default)}")

    def line(self) -> str:
        spin = f" min {self.min} max {self.max}" if self.type == "spin" else ""
        return f"option name {self.name} type {self.type} default {self.default}".rstrip(" ") + spin


@dataclass(frozen=True)
class GameSpec(_Line):
    """``game SPEC``: a game the engine plays (a line for each): a name alone (``connectx``) for every game
    of that name, or a full spec for that game only."""

    WORD, TEXT, FORMAT = "game", (("spec", False, False),), "game {spec}"
    spec: str


@dataclass(frozen=True)
class HelloDone(_Line):
    """``zspok``: the handshake is over."""
    WORD = "zspok"


#: the largest value of an ``info`` line's whole-number fields, where it is not :data:`MAX_NUMBER`
INFO_BOUNDS = {"nodes": MAX_NODES}
_INF = float("inf")


@dataclass(frozen=True)
class Info(_Line):
    """``info [depth D] [nodes N] [time MS] [score exact S | score est E] [pv MOVES | string TEXT]``.

    ``nodes`` is at most :data:`MAX_NODES` (what a record keeps), ``depth`` and ``time`` at most
    :data:`MAX_NUMBER`.  ``exact``: the solver's convention (positive: the side to move wins; a win on ply p
    of a board of c cells scores ``(c + 2 - p) // 2``); ``est``: an estimate in the engine's own unit.  ``pv``
    and ``string`` take the rest of the line.  At least one field.
    """

    WORD = "info"
    depth: int | None = None
    nodes: int | None = None
    time: int | None = None
    exact: int | None = None
    est: float | None = None
    pv: str | None = None
    string: str | None = None

    def check(self) -> None:
        # quick for what is right (an engine may send 20,000 lines a move): each rule's words come from the
        # checks it calls only when a value is not a plain one in range
        for name, value, hi in (("depth", self.depth, MAX_NUMBER), ("nodes", self.nodes, INFO_BOUNDS["nodes"]),
                                ("time", self.time, MAX_NUMBER)):
            if value is not None and (type(value) is not int or not 0 <= value <= hi):
                _check_range("info", name, value, 0, hi)
        if self.exact is not None and (type(self.exact) is not int or abs(self.exact) > MAX_NUMBER):
            _check_range("info", "an exact score", self.exact, -MAX_NUMBER)
        if self.est is not None and (type(self.est) is not float or self.est != self.est or abs(self.est) == _INF):
            ok = not isinstance(self.est, bool) and isinstance(self.est, (int, float))
            if not ok or self.est != self.est or abs(self.est) == _INF:
                raise ProtocolError(f"info: an estimate is a finite number, not {quoted(self.est)}")
            object.__setattr__(self, "est", float(self.est))
        if self.exact is not None and self.est is not None:
            raise ProtocolError("info: a score is exact or an estimate, not both")
        if self.pv is not None and self.string is not None:
            raise ProtocolError("info: pv and string each take the rest of the line: one of them")
        for name, text in (("pv", self.pv), ("string", self.string)):
            if text is not None:
                _check_text("info", f"the {name}", text)
        if self.depth is None and self.nodes is None and self.time is None and self.exact is None \
                and self.est is None and self.pv is None and self.string is None:
            raise ProtocolError("info: at least one field")

    def line(self) -> str:
        parts = ["info"] + [f"{name} {getattr(self, name)}" for name in ("depth", "nodes", "time")
                            if getattr(self, name) is not None]
        if self.exact is not None:
            parts.append(f"score exact {self.exact}")
        if self.est is not None:
            parts.append(f"score est {_number_text(self.est)}")
        parts += [f"{name} {getattr(self, name)}" for name in ("pv", "string") if getattr(self, name) is not None]
        return " ".join(parts)


@dataclass(frozen=True)
class ReadyOk(_Line):
    """``readyok``: the answer to ``isready``."""
    WORD = "readyok"


@dataclass(frozen=True)
class BestMove(_Line):
    """``bestmove MOVE``: the move chosen, one move in the game's notation; None (``bestmove (none)``) when
    the position has no move."""

    WORD = "bestmove"
    move: str | None

    def check(self) -> None:
        if self.move is not None:
            _check_text("bestmove", "the move", self.move, spaces=False)
            if self.move == NO_MOVE:
                object.__setattr__(self, "move", None)

    def line(self) -> str:
        return f"bestmove {NO_MOVE if self.move is None else self.move}"


@dataclass(frozen=True)
class Unknown:
    """A line whose first word is not one of its direction's words (an engine ignores it)."""

    text: str

    def line(self) -> str:
        return self.text


Command = Union[Hello, IsReady, SetOption, NewGame, Position, Go, Stop, Quit, Unknown]
Reply = Union[Id, OptionSpec, GameSpec, HelloDone, ReadyOk, Info, BestMove, Unknown]
Message = Union[Command, Reply]
