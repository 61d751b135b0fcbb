"""Reading protocol lines (:mod:`zerosum.external.protocol`): strict parsing into the typed values of
:mod:`.messages`, and one bounded line from a byte stream."""

from __future__ import annotations

import re
from typing import IO, Callable

from ...spec import quoted
from .messages import (CONTROL, FIELD_NAME, GO_FIELDS, INFO_BOUNDS, NUMBER, TOKEN, WHOLE, MAX_LINE, MAX_NUMBER, NO_MOVE,
                       BestMove, Command, GameSpec, Go, Hello, HelloDone, Id, Info, IsReady, Message, NewGame,
                       OptionSpec, Position, ProtocolError, Quit, ReadyOk, Reply, SetOption, Stop, Unknown, shown)

__all__ = ["parse_command", "parse_reply", "format_line", "read_line"]

# ---- reading ------------------------------------------------------------------------------------


class _Words:
    """The words of one line after its first, read in order; ``rest`` takes the rest of the line."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.spans = [m.span() for m in TOKEN.finditer(line)]
        self.i = 1

    def more(self) -> bool:
        return self.i < len(self.spans)

    def word(self, what: str) -> str:
        if not self.more():
            raise ProtocolError(f"{what} is missing")
        start, end = self.spans[self.i]
        self.i += 1
        return self.line[start:end]

    def peek(self) -> str:
        start, end = self.spans[self.i]
        return self.line[start:end]

    def expect(self, word: str) -> None:
        got = self.word(f"'{word}'")
        if got != word:
            raise ProtocolError(f"expected '{word}', not {quoted(got)}")

    def number(self, what: str, lo: int = 0, hi: int = MAX_NUMBER) -> int:
        return whole(self.word(what), what, lo, hi)

    def rest(self, what: str, empty: bool = False) -> str:
        if not self.more():
            if empty:
                return ""
            raise ProtocolError(f"{what} is missing")
        text = self.line[self.spans[self.i][0]:].rstrip(" \t")
        self.i = len(self.spans)
        return text

    def end(self) -> None:
        if self.more():
            raise ProtocolError(f"unexpected {quoted(self.word(''))} (nothing may follow)")


def whole(text: str, what: str, lo: int, hi: int = MAX_NUMBER) -> int:
    """``text`` as a whole number in ``lo..hi``; ProtocolError saying which rule it breaks: not a whole number,
    or one out of range (too large for the protocol's numbers: at most 2**63 - 1 either way)."""
    if WHOLE.fullmatch(text) is None:
        raise ProtocolError(f"{what} is a whole number in {lo}..{hi}, not {quoted(text)}")
    digits = text.lstrip("+-").lstrip("0")
    value = int(text) if len(digits) <= len(str(MAX_NUMBER)) else None  # never int() of a huge string
    if value is None or not lo <= value <= hi:
        shown_ = text if len(text) <= 40 else f"{text[:20]}...({len(digits)} digits)"
        raise ProtocolError(f"{what} {shown_} is out of range: a whole number in {lo}..{hi}")
    return value


def _clean(line: str) -> str:
    """``line`` without its end, checked: text, bounded, no control characters but tabs."""
    if not isinstance(line, str):
        raise ProtocolError(f"a protocol line is text, not {type(line).__name__}")
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    size = len(line) if len(line) * 4 <= MAX_LINE else len(line.encode("utf-8", "surrogatepass"))
    if size > MAX_LINE:
        raise ProtocolError(f"a line of {size:,} bytes is longer than {MAX_LINE:,}: {shown(line)}")
    bad = CONTROL.search(line)
    if bad is not None:
        raise ProtocolError(f"control character {bad.group()!r} in line {shown(line)}")
    return line


def _parse(line: str, table: dict[str, Callable[[_Words], Message]]) -> Message:
    line = _clean(line)
    words = _Words(line)
    first = TOKEN.search(line)
    if first is None or first.group() not in table:
        return Unknown(line)
    try:
        return table[first.group()](words)
    except ProtocolError as exc:
        raise ProtocolError(f"bad line {shown(line)}: {exc}") from None


def _bare(cls: Callable[[], Message]) -> Callable[[_Words], Message]:
    def parse(w: _Words) -> Message:
        w.end()
        return cls()
    return parse


def _hello(w: _Words) -> Message:
    version = w.number("the version", 1)
    w.end()
    return Hello(version)


def _setoption(w: _Words) -> Message:
    w.expect("name")
    name = w.word("the name")
    w.expect("value")
    return SetOption(name, w.rest("the value", empty=True))


def _position(w: _Words) -> Message:
    game = w.word("the game spec")
    if not w.more():
        return Position(game)
    w.expect("moves")
    return Position(game, w.rest("the moves", empty=True))


def _go(w: _Words) -> Message:
    """The known fields, each checked; a field name this version does not know (a later version's) is skipped
    with the words after it up to the next known field, and kept in ``Go.ignored`` (docs/protocol.md: a limit
    an engine does not understand does not make it refuse the go)."""
    got: dict[str, int] = {}
    ignored: list[str] = []
    while w.more():
        key = w.word("a go field")
        if key in GO_FIELDS:
            if key in got:
                raise ProtocolError(f"{key} twice")
            got[key] = w.number(key, GO_FIELDS[key])
            continue
        if FIELD_NAME.fullmatch(key) is None:
            raise ProtocolError(f"a go field is a name ({', '.join(GO_FIELDS)} or a later version's), "
                                f"not {quoted(key)}")
        skipped = [key]
        while w.more() and w.peek() not in GO_FIELDS:
            skipped.append(w.word(""))
        ignored.append(" ".join(skipped))
    go = Go(**got)
    object.__setattr__(go, "ignored", tuple(ignored))  # words of a checked line: text, no control characters
    return go


def _id(w: _Words) -> Message:
    key = w.word("name or author")
    return Id(key, w.rest(f"the {key}"))


def _option(w: _Words) -> Message:
    w.expect("name")
    name = w.word("the name")
    w.expect("type")
    kind = w.word("the type")
    w.expect("default")
    if kind == "string":
        return OptionSpec(name, kind, w.rest("the default", empty=True))
    default = w.word("the default")
    if kind != "spin":
        w.end()
        return OptionSpec(name, kind, default)
    w.expect("min")
    low = _signed(w, "min")
    w.expect("max")
    high = _signed(w, "max")
    w.end()
    return OptionSpec(name, kind, default, low, high)


def _signed(w: _Words, what: str) -> int:
    return whole(w.word(what), what, -MAX_NUMBER)


def _game(w: _Words) -> Message:
    spec = w.word("the game spec")
    w.end()
    return GameSpec(spec)


def _info(w: _Words) -> Message:
    got: dict[str, object] = {}
    while w.more():
        key = w.word("an info field")
        name = key
        if key == "score":
            name = w.word("exact or est")
            if name not in ("exact", "est"):
                raise ProtocolError(f"a score is 'exact S' or 'est E', not {quoted(name)}")
        elif key not in ("depth", "nodes", "time", "pv", "string"):
            raise ProtocolError(f"unknown info field {quoted(key)} (expected depth, nodes, time, score, pv, string)")
        if name in got or (name in ("exact", "est") and ("exact" in got or "est" in got)):
            raise ProtocolError(f"{key} twice")
        if name in ("pv", "string"):
            got[name] = w.rest(f"the {name}")
        elif name == "exact":
            got[name] = _signed(w, "an exact score")
        elif name == "est":
            text = w.word("an estimate")
            if NUMBER.fullmatch(text) is None or abs(float(text)) == float("inf"):
                raise ProtocolError(f"an estimate is a finite decimal number, not {quoted(text)}")
            got[name] = float(text)
        else:  # nodes at most what a record keeps (MAX_NODES): a larger count is a malformed line
            got[name] = w.number(name, 0, INFO_BOUNDS.get(name, MAX_NUMBER))
    return Info(**got)  # type: ignore[arg-type]


def _bestmove(w: _Words) -> Message:
    move = w.word("the move")
    w.end()
    return BestMove(None if move == NO_MOVE else move)


_COMMANDS: dict[str, Callable[[_Words], Message]] = {
    "zsp": _hello, "isready": _bare(IsReady), "setoption": _setoption, "newgame": _bare(NewGame),
    "position": _position, "go": _go, "stop": _bare(Stop), "quit": _bare(Quit),
}
_REPLIES: dict[str, Callable[[_Words], Message]] = {
    "id": _id, "option": _option, "game": _game, "zspok": _bare(HelloDone), "readyok": _bare(ReadyOk),
    "info": _info, "bestmove": _bestmove,
}


def parse_command(line: str) -> Command:
    """A line the GUI sends, as its typed value (its end, ``\\n`` or ``\\r\\n``, may be there); an
    :class:`Unknown` when its first word is not a command; :class:`ProtocolError` (one line naming the
    line) when a command's rest is wrong or the line is too long or holds control characters."""
    return _parse(line, _COMMANDS)  # type: ignore[return-value]


def parse_reply(line: str) -> Reply:
    """A line the engine sends, as its typed value; :class:`Unknown` and :class:`ProtocolError` as for
    :func:`parse_command`.  An ``info`` line of the common form takes a short way (:func:`_fast_info`)."""
    if isinstance(line, str) and line.startswith("info ") and (info := _fast_info(line)) is not None:
        return info
    return _parse(line, _REPLIES)  # type: ignore[return-value]


#: an ``info`` line in the order and the form of docs/protocol.md (``info [depth D] [nodes N] [time MS] [score
#: exact S | score est E] [pv MOVES | string TEXT]``, one space between words), every word of which the full
#: parse takes: numbers without a sign and at most 18 digits (none out of range), an estimate without an
#: exponent, the rest of a pv or string without a control character.  Any other line takes the full parse,
#: which also says what is wrong.  An engine may write 20,000 lines a move, read as its time runs.
_FAST_INFO = re.compile(r"info(?= )(?: depth ([0-9]{1,18}))?(?: nodes ([0-9]{1,18}))?(?: time ([0-9]{1,18}))?"
                        r"(?: score (?:exact (-?[0-9]{1,18})|est (-?[0-9]{1,15}(?:\.[0-9]{1,15})?)))?"
                        r"(?: (pv|string) ([^ \t\x00-\x08\x0a-\x1f\x7f-\x9f][^\x00-\x08\x0a-\x1f\x7f-\x9f]*))?")


def _fast_info(line: str) -> Info | None:
    """``line`` as the full parse reads it when it has the common form (:data:`_FAST_INFO`), without its
    word-by-word walk; None otherwise."""
    match = _FAST_INFO.fullmatch(line) if len(line) * 4 <= MAX_LINE else None
    if match is None:
        return None
    depth, nodes, time, exact, est, key, rest = match.groups()
    text = None if rest is None else rest.rstrip(" \t")
    return Info(None if depth is None else int(depth), None if nodes is None else int(nodes),
                None if time is None else int(time), None if exact is None else int(exact),
                None if est is None else float(est), text if key == "pv" else None, text if key == "string" else None)


def format_line(message: Message) -> str:
    """The line of ``message`` without its end (``message.line()``)."""
    return message.line()


def read_line(stream: IO[bytes], limit: int = MAX_LINE) -> str | None:
    """One line from a byte stream, decoded and without its end; None at the end of the stream.

    :class:`ProtocolError` for a line longer than ``limit`` bytes (the rest of it is read and dropped, so
    the next call reads the next line) or not UTF-8.
    """
    raw = stream.readline(limit + 3)
    if not raw:
        return None
    if not raw.endswith(b"\n") and len(raw) > limit:
        dropped = len(raw)
        while True:
            more = stream.readline(1 << 16)
            dropped += len(more)
            if not more or more.endswith(b"\n"):
                break
        raise ProtocolError(f"a line of {dropped:,} bytes or more is longer than {limit:,}")
    text = raw[:-1] if raw.endswith(b"\n") else raw
    text = text[:-1] if text.endswith(b"\r") else text
    if len(text) > limit:
        raise ProtocolError(f"a line of {len(text):,} bytes is longer than {limit:,}")
    try:
        return text.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProtocolError(f"a line that is not UTF-8 (byte {exc.start}): {shown(text.decode('utf-8', 'replace'))}") \
            from None
