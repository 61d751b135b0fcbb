"""The protocol's lines as typed values (:mod:`zerosum.external.protocol`): every value can be written as a
valid line, and a value that could not be is refused when it is built (:class:`ProtocolError`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Union

from ...errors import GameError
from ...spec import quoted

__all__ = [
    "PROTOCOL_VERSION", "MAX_LINE", "MAX_NUMBER", "NO_MOVE", "ProtocolError",
    "Hello", "IsReady", "SetOption", "NewGame", "Position", "Go", "Stop", "Quit",
    "Id", "OptionSpec", "GameSpec", "HelloDone", "ReadyOk", "Info", "BestMove", "Unknown",
    "Command", "Reply", "Message", "TOKEN", "INTEGER", "NUMBER", "CONTROL", "shown",
]

#: the version this module speaks (``zsp 1``)
PROTOCOL_VERSION = 1
#: the longest line, in bytes of UTF-8 without its end (a 64 x 64 Migration game's move string fits)
MAX_LINE = 1 << 20
#: the largest number any field takes (2**63 - 1)
MAX_NUMBER = 2**63 - 1
#: what ``bestmove`` says when the position has no move (the game is over)
NO_MOVE = "(none)"

#: a word of a line, and the numbers fields take (whole, and an estimate's decimal); the control characters
#: no line may hold (Unicode's Cc but the tab)
TOKEN = re.compile(r"[^ \t]+")
INTEGER = re.compile(r"[+-]?[0-9]{1,19}")
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


def _check_number(owner: str, name: str, value: object, lo: int, *, optional: bool = True) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= MAX_NUMBER:
        raise ProtocolError(f"{owner}: {name} is a whole number in {lo}..{MAX_NUMBER}, not {quoted(value)}")


def _number_text(value: float) -> str:
    """An estimate as the shortest text that reads back as the same float."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


# ---- GUI -> engine ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Hello:
    """``zsp VERSION``: the GUI opens the conversation; the engine answers with its handshake."""

    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        _check_number("zsp", "the version", self.version, 1, optional=False)

    def line(self) -> str:
        return f"zsp {self.version}"


@dataclass(frozen=True)
class IsReady:
    """``isready``: answered by ``readyok`` once the engine has done what it was told before."""

    def line(self) -> str:
        return "isready"


@dataclass(frozen=True)
class SetOption:
    """``setoption name N value V`` (V may be empty and may hold spaces)."""

    name: str
    value: str = ""

    def __post_init__(self) -> None:
        _check_text("setoption", "the name", self.name, spaces=False)
        _check_text("setoption", "the value", self.value, empty=True)

    def line(self) -> str:
        return f"setoption name {self.name} value {self.value}".rstrip(" ")


@dataclass(frozen=True)
class NewGame:
    """``newgame``: what follows belongs to another game (forget what was learnt)."""

    def line(self) -> str:
        return "newgame"


@dataclass(frozen=True)
class Position:
    """``position SPEC [moves MOVES]``: the game's spec and its move string from the start ("" the start)."""

    game: str
    moves: str = ""

    def __post_init__(self) -> None:
        _check_text("position", "the game", self.game, spaces=False)
        _check_text("position", "the moves", self.moves, empty=True)

    def line(self) -> str:
        return f"position {self.game}" + (f" moves {self.moves}" if self.moves else "")


@dataclass(frozen=True)
class Go:
    """``go [movetime MS] [nodes N] [depth D] [ftime MS stime MS [finc MS] [sinc MS]]``: search the position.

    ``ftime``/``stime``: the first and the second player's clocks (milliseconds left), ``finc``/``sinc``
    their increments; the clocks come together, the increments only with them.  No field: the engine's own
    limits.
    """

    movetime: int | None = None
    nodes: int | None = None
    depth: int | None = None
    ftime: int | None = None
    stime: int | None = None
    finc: int | None = None
    sinc: int | None = None

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_number("go", f.name, getattr(self, f.name), 1 if f.name in ("movetime", "nodes", "depth") else 0)
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
        return " ".join(["go"] + [f"{f.name} {getattr(self, f.name)}" for f in fields(self)
                                  if getattr(self, f.name) is not None])


@dataclass(frozen=True)
class Stop:
    """``stop``: end the search now and answer ``bestmove`` (within 100 ms)."""

    def line(self) -> str:
        return "stop"


@dataclass(frozen=True)
class Quit:
    """``quit``: end the program (after at most a short stop of a running search)."""

    def line(self) -> str:
        return "quit"


# ---- engine -> GUI ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Id:
    """``id name NAME`` or ``id author AUTHOR``."""

    key: str
    value: str

    def __post_init__(self) -> None:
        if self.key not in ("name", "author"):
            raise ProtocolError(f"id: the key is name or author, not {quoted(self.key)}")
        _check_text("id", self.key, self.value)

    def line(self) -> str:
        return f"id {self.key} {self.value}"


@dataclass(frozen=True)
class OptionSpec:
    """``option name N type spin default D min A max B``, ``... type check default true|false`` or
    ``... type string default [TEXT]`` (a string's default may be empty and may hold spaces)."""

    name: str
    type: str
    default: str
    min: int | None = None
    max: int | None = None

    def __post_init__(self) -> None:
        _check_text("option", "the name", self.name, spaces=False)
        if self.type not in _OPTION_TYPES:
            raise ProtocolError(f"option {self.name}: the type is spin, check or string, not {quoted(self.type)}")
        _check_text("option", "the default", self.default, empty=self.type == "string",
                    spaces=self.type == "string")
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
        if self.type == "spin":
            return f"option name {self.name} type spin default {self.default} min {self.min} max {self.max}"
        return f"option name {self.name} type {self.type} default {self.default}".rstrip(" ")


@dataclass(frozen=True)
class GameSpec:
    """``game SPEC``: one game the engine plays (a line for each)."""

    spec: str

    def __post_init__(self) -> None:
        _check_text("game", "the spec", self.spec, spaces=False)

    def line(self) -> str:
        return f"game {self.spec}"


@dataclass(frozen=True)
class HelloDone:
    """``zspok``: the handshake is over."""

    def line(self) -> str:
        return "zspok"


@dataclass(frozen=True)
class ReadyOk:
    """``readyok``: the answer to ``isready``."""

    def line(self) -> str:
        return "readyok"


@dataclass(frozen=True)
class Info:
    """``info [depth D] [nodes N] [time MS] [score exact S | score est E] [pv MOVES | string TEXT]``.

    ``exact``: the solver's convention (positive: the side to move wins; a win on ply p of a board of c
    cells scores ``(c + 2 - p) // 2``); ``est``: an estimate in the engine's own unit.  ``pv`` and
    ``string`` take the rest of the line.  At least one field.
    """

    depth: int | None = None
    nodes: int | None = None
    time: int | None = None
    exact: int | None = None
    est: float | None = None
    pv: str | None = None
    string: str | None = None

    def __post_init__(self) -> None:
        for name in ("depth", "nodes", "time"):
            _check_number("info", name, getattr(self, name), 0)
        if self.exact is not None and (isinstance(self.exact, bool) or not isinstance(self.exact, int)
                                       or abs(self.exact) > MAX_NUMBER):
            raise ProtocolError(f"info: an exact score is a whole number, not {quoted(self.exact)}")
        if self.est is not None:
            ok = not isinstance(self.est, bool) and isinstance(self.est, (int, float))
            if not ok or self.est != self.est or abs(self.est) == float("inf"):
                raise ProtocolError(f"info: an estimate is a finite number, not {quoted(self.est)}")
            object.__setattr__(self, "est", float(self.est))
        if self.exact is not None and self.est is not None:
            raise ProtocolError("info: a score is exact or an estimate, not both")
        if self.pv is not None and self.string is not None:
            raise ProtocolError("info: pv and string each take the rest of the line: one of them")
        if self.pv is not None:
            _check_text("info", "the pv", self.pv)
        if self.string is not None:
            _check_text("info", "the string", self.string)
        if all(getattr(self, f.name) is None for f in fields(self)):
            raise ProtocolError("info: at least one field")

    def line(self) -> str:
        parts = ["info"] + [f"{name} {getattr(self, name)}" for name in ("depth", "nodes", "time")
                            if getattr(self, name) is not None]
        if self.exact is not None:
            parts.append(f"score exact {self.exact}")
        if self.est is not None:
            parts.append(f"score est {_number_text(self.est)}")
        if self.pv is not None:
            parts.append(f"pv {self.pv}")
        if self.string is not None:
            parts.append(f"string {self.string}")
        return " ".join(parts)


@dataclass(frozen=True)
class BestMove:
    """``bestmove MOVE``: the move chosen, one move in the game's notation; None (``bestmove (none)``) when
    the position has no move."""

    move: str | None

    def __post_init__(self) -> None:
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
