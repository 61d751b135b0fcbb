"""Spec strings such as ``alphabeta:depth=6,eval=window`` or ``connectx:rows=8,cols=8,k=4``.

A spec is a name, optionally followed by ``:`` and comma-separated ``key=value`` options.  Values stay
strings here; each consumer converts them with :func:`convert` and says what it accepts.  On purpose (and
documented: docs/games.md), the name is read in any case and spaces around the name, keys and values are
ignored; keys keep their case.

Numbers are read by :func:`integer` and :func:`real`, the one definition of a number zerosum accepts in any
text a person types (specs, move strings, command-line options): ASCII digits only (``int("4²")`` and
``"٣".isdigit()`` would let other scripts through), at most :data:`MAX_DIGITS` digits, and finite.

Every message that quotes what a person typed quotes it through :func:`quoted`, which keeps the first
:data:`QUOTE_CHARS` characters and says how long the whole was: a 700 KB spec gives a short line, not a
1.4 MB one.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable, Iterable, TypeVar, cast

__all__ = ["parse_spec", "convert", "integer", "real", "between", "quoted", "printable", "visible", "unshowable",
           "listed", "MAX_DIGITS", "QUOTE_CHARS", "LIST_CHARS", "JOINERS"]

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.\-]*$")
_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

T = TypeVar("T")

#: the longest whole number accepted anywhere: 19 digits hold the largest documented maximum, a seed's
#: 2**63 - 1 (9,223,372,036,854,775,807); each option's own range is checked after
MAX_DIGITS = 19
#: how many characters of a person's input an error message quotes (:func:`quoted`)
QUOTE_CHARS = 40
#: how many characters of a list of names (the choices) an error message shows (:func:`listed`)
LIST_CHARS = 90
_INTEGER = re.compile(r"-?[0-9]{1,%d}" % MAX_DIGITS)  # a minus where a range goes below 0; no plus
_REAL = re.compile(r"[+-]?(?:[0-9]{1,%d}(?:\.[0-9]{0,9})?|\.[0-9]{1,9})(?:[eE][+-]?[0-9]{1,2})?" % MAX_DIGITS)


def integer(text: str) -> int:
    """A whole number written in ASCII digits, a ``-`` before them for a negative one, spaces around them
    ignored; ValueError otherwise (``+6``, ``4²``, ``1e3``, ``0x10``).

    >>> integer(" 42 "), integer("-3")
    (42, -3)
    """
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise ValueError(f"{quoted(text)} is not a whole number")
    if isinstance(text, int):
        return text
    raw = text.strip()
    if not _INTEGER.fullmatch(raw):
        raise ValueError(f"{quoted(raw)} is not a whole number written with the digits 0-9 (at most {MAX_DIGITS})")
    return int(raw)


def real(text: str) -> float:
    """A finite decimal number written in ASCII (``1.5``, ``.25``, ``2e-3``); ValueError otherwise.

    ``nan``, ``inf`` and ``1e999`` are refused: no option means "forever" by accident.
    """
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise ValueError(f"{quoted(text)} is not a number")
    if isinstance(text, (int, float)):
        value = float(text)
    else:
        raw = text.strip()
        if not _REAL.fullmatch(raw):
            raise ValueError(f"{quoted(raw)} is not a finite decimal number such as 1.5")
        value = float(raw)
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{quoted(text)} is not a finite number")
    return value


def quoted(value: object, limit: int = QUOTE_CHARS) -> str:
    """``repr(value)`` for an error message, bounded: at most ``limit`` characters of it and, when cut, how
    long the whole was.

    >>> quoted("connect4")
    "'connect4'"
    >>> quoted("9" * 700_000, 8)
    "'99999999'... (700,000 characters)"
    """
    if isinstance(value, str):
        if len(value) <= limit and len(shown := repr(value)) <= limit + 2:
            return shown
        cut = value[:limit]
        while len(repr(cut)) > limit + 2:  # escapes (\x00, \U0001f600) count against the bound too
            cut = cut[:-1]
        return f"{cut!r}... ({len(value):,} characters)"
    try:
        shown = repr(value)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - an int past Python's digit limit, a hostile __repr__ (sys.exit too)
        if isinstance(value, int):
            return f"a whole number of {value.bit_length():,} bits"
        return f"a {type(value).__name__}"
    return shown if len(shown) <= limit else f"{shown[:limit]}... ({len(shown):,} characters)"


def printable(text: str, limit: int | None = None) -> str:
    """Words from outside (an engine's, SQLite's) as a message may show them: as they are when every character
    prints (and, with ``limit``, they are at most that long), else :func:`quoted` (``'\\x1b[31mboom'``), so a
    terminal escape or a right-to-left override never reaches a table, a record or a terminal."""
    if text.isprintable() and (limit is None or len(text) <= limit):
        return text
    return quoted(text, 200 if limit is None else limit)


def visible(text: str) -> str:
    r"""``text`` with each character that does not print written as ``repr`` writes it, and every other
    character as it is: words from outside (an agent's error message, the ``repr`` of its answer) that may
    hold anything, made safe to show in a table, a record or a terminal and to store as UTF-8.  A control
    character (``\x1b``, ``\n``), a right-to-left override (``\u202e``), a zero-width one, a lone surrogate
    (``\ud800``) is escaped; accents, CJK and every other printing character stay (unlike :func:`printable`,
    which quotes the whole text as soon as one character does not print).

    >>> print(visible("café 五 \u202eevil\x1b[0m \ud800"))
    café 五 \u202eevil\x1b[0m \ud800
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


#: the format characters (Unicode category Cf) a name may hold: the zero-width non-joiner and joiner, which emoji
#: sequences (``👩\u200d💻``) and Indic and Persian words need; every other one hides or reorders text
JOINERS = frozenset("\u200c\u200d")
#: the bidirectional controls: marks, embeddings, overrides and isolates, which reorder the text around them
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_KINDS = {"Cc": "a control character", "Zl": "a line separator", "Zp": "a paragraph separator",
          "Cs": "a lone surrogate", "Cf": "an invisible format character"}


def unshowable(text: str) -> str | None:
    r"""Whether ``text`` (a name: an agent's label or spec) may be shown in a table, a record or a terminal as it
    is: None when it may, else what its first character that may not is, that character as ``repr`` writes
    it.  Refused: control characters (``\x1b``, ``\n``; category Cc), line and paragraph separators (Zl, Zp),
    lone surrogates (Cs), and every format character (Cf) but the joiners (:data:`JOINERS`): the bidirectional
    controls (``\u202e``) and the invisible ones (``\u200b``, ``\ufeff``, ``\u2060``, a soft hyphen).

    >>> unshowable("👩\u200d💻bot.py:agent") is None, unshowable("a\x1bb.py:agent")
    (True, "a control character '\\x1b'")
    >>> unshowable("evil\u202etxt.py")
    "a bidirectional control '\\u202e'"
    """
    if text.isprintable():
        return None
    for c in text:
        kind = unicodedata.category(c)
        if kind in _KINDS and c not in JOINERS:
            what = "a bidirectional control" if c in _BIDI else _KINDS[kind]
            return f"{what} {quoted(c)}"
    return None


def listed(names: Iterable[str], limit: int = LIST_CHARS) -> str:
    """``names`` for an error message, comma-separated and bounded: the first ones within ``limit``
    characters, each at most :data:`QUOTE_CHARS`, and how many more (however many are registered).

    >>> listed(["random", "first", "mcts"])
    'random, first, mcts'
    >>> listed([f"engine{i}" for i in range(100)], 30)
    'engine0, engine1, engine2 and 97 more'
    """
    every = list(names)
    shown: list[str] = []
    size = 0
    for i, name in enumerate(every):
        name = name if len(name) <= QUOTE_CHARS else name[:QUOTE_CHARS] + "..."
        if shown and size + 2 + len(name) > limit:
            return f"{', '.join(shown)} and {len(every) - i} more"
        shown.append(name)
        size += len(name) + 2 * (len(shown) > 1)
    return ", ".join(shown)


integer.__name__ = "a whole number"  # how convert() names the kind in its messages
real.__name__ = "a number"


def between(lo: float, hi: float) -> Callable[[float], bool]:
    """A range check ``lo <= value <= hi`` for :func:`convert` (and a readable ``expect`` via ``str``)."""
    return lambda value: lo <= value <= hi


def parse_spec(spec: str, error: type[Exception]) -> tuple[str, dict[str, str]]:
    """Split ``name:k=v,k=v`` into the name and a dict of raw option strings.

    Raises ``error`` (with a one-line message quoting the spec) when the text is malformed.
    """
    if not isinstance(spec, str):
        raise error(f"a spec must be a string, not {type(spec).__name__}")
    text = spec.strip()
    name, sep, rest = text.partition(":")
    name = name.strip()
    if not _NAME.match(name):
        raise error(f"malformed spec {quoted(spec)}: expected a name such as 'alphabeta' or 'connect4'")
    options: dict[str, str] = {}
    if sep and rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            key, value = key.strip(), value.strip()
            if not eq or not _KEY.match(key) or not value:
                raise error(f"malformed option {quoted(part.strip())} in spec {quoted(spec)}: expected key=value")
            if key in options:
                raise error(f"option {quoted(key)} given twice in spec {quoted(spec)}")
            options[key] = value
    elif sep:
        raise error(f"malformed spec {quoted(spec)}: nothing after ':'")
    return name.lower(), options


def convert(
    key: str,
    value: str,
    kind: Callable[[str], T],
    error: type[Exception],
    spec: str,
    check: Callable[[T], bool] | None = None,
    expect: str = "",
) -> T:
    """Convert one option value, raising ``error`` with a message that names the option and the spec.

    ``int`` and ``float`` mean :func:`integer` and :func:`real` (ASCII digits only, finite).
    """
    parse: Callable[[str], Any] = {int: integer, float: real}.get(kind, kind)  # type: ignore[call-overload]
    try:
        result = parse(value)
    except (TypeError, ValueError):
        raise error(f"option {key}={quoted(value)} in {quoted(spec)} is not {expect or parse.__name__}") from None
    if check is not None and not check(result):
        raise error(f"option {key}={quoted(value)} in {quoted(spec)} is out of range: expected {expect}")
    return cast(T, result)
