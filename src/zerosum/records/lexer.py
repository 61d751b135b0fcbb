"""The tokens of a record's text, read in memory proportional to the text: the bounds on a line, a tag, a
move and a comment (named below, stated in the README's Limits), each line checked once before its first
token is read, and the checks of what a :class:`~zerosum.records.Record` holds (text a file can hold).

The bounds keep every token short, so no regular expression ever runs over a long span: a 5 MB tag value is
refused as a long line before any token is matched."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import NamedTuple

from ..core.checks import safe_repr
from ..errors import InvalidFileError

__all__ = ["MAX_COMMENT", "MAX_DEPTH", "MAX_LINE", "MAX_LINE_MOVES", "MAX_MOVE", "MAX_TAG", "MAX_TAG_NAME", "MAX_TAGS",
           "MAX_VARIATIONS", "RESULTS",
           "TextError", "Token", "check_move", "check_tag", "check_text", "flag", "is_move_number", "move_number",
           "path_of", "split_parens", "tokens"]

# The bounds of a record's text, in characters (the README's Limits):
MAX_LINE = 16_384  # a line: a tag line at its longest (every character of the value escaped) fits
MAX_TAG = 4_096  # a tag's value, unescaped
MAX_TAG_NAME = 64  # a tag's name
MAX_MOVE = 64  # a move token
MAX_COMMENT = 1_000  # a comment, between its braces
# The bounds of a record's tree of variations (the README's Limits):
MAX_DEPTH = 32  # variations inside variations: a main line's variation is at depth 1
MAX_VARIATIONS = 10_000  # the variations of one game, at every depth
# The bounds of one game (the README's Limits): no game is longer (Migration 64 x 64, the longest, ends within
# 105,152 plies, a course game stops at 10,000), so a longer line is refused as it is read, not replayed move by
# move at the end
MAX_LINE_MOVES = 200_000  # the moves of one line: the main line, or a variation
MAX_TAGS = 1_000  # the tags of one game

#: the result tokens
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_MOVE = re.compile(r"[^\s{}\[\]\"]+")
#: a move number, as PGN writes it: ``3.`` before the first player's move of full move 3, ``3...`` before the
#: second player's when no first player's move comes before it (a number ends in a dot, so the Connect Four
#: move ``4`` and the move number ``4.`` never read alike; a move token never has this form)
_MOVE_NUMBER = re.compile(r"[0-9]{1,12}\.(?:\.\.)?")
#: characters no UTF-8 file can hold (lone surrogates, as ``surrogateescape`` or a broken string leaves them)
_UNENCODABLE = re.compile("[\ud800-\udfff]")
# A tag lies on one line (blanks are spaces and tabs); its value is unrolled (runs of plain characters between
# escapes) so that matching keeps no state per character.
_TOKENS = re.compile(rf"""
    (?P<space>\s+)
  | (?P<tag>\[[ \t]*(?P<name>[A-Za-z][A-Za-z0-9_]*)[ \t]+"(?P<value>[^"\\\n]*(?:\\.[^"\\\n]*)*)"[ \t]*\])
  | (?P<comment>\{{(?P<body>[^{{}}]{{0,{MAX_COMMENT}}})\}})
  | (?P<word>[^\s{{}}\[\]"]+)
""", re.VERBOSE)
_ESCAPE = re.compile(r"\\(.)")


class Token(NamedTuple):
    """One token of a record text: ``kind`` is ``tag``, ``comment`` or ``word``; ``line`` counts from 1."""

    kind: str
    text: str
    line: int
    name: str = ""  # a tag's name, or a comment's inside
    value: str = ""  # a tag's value, unescaped


class TextError(InvalidFileError):
    """Text that is not a record's, with the line it is on."""

    def __init__(self, line: int, what: str) -> None:
        super().__init__(what)
        self.line = line


def tokens(text: str) -> Iterator[Token]:
    """The tokens of ``text`` (whitespace skipped); :class:`TextError` with the line for anything else.

    Each line is checked (its length, its characters) before the first token on it is read, so the line
    numbers are the text's own whatever the tokens span.  A byte-order mark that starts the text (as Windows
    Notepad saves UTF-8) is skipped."""
    pos, size = (1 if text.startswith("\ufeff") else 0), len(text)
    line, next_line = 0, 0  # the number of the last line checked, and where the line after it starts
    while pos < size:
        while next_line <= pos:  # check every line up to the one this token starts on
            end = text.find("\n", next_line)
            end = size if end < 0 else end
            line += 1
            _check_line(text, next_line, end, line)
            next_line = end + 1
        m = _TOKENS.match(text, pos)
        if m is None:
            raise TextError(line, _unmatched(text, pos))
        pos, kind = m.end(), m.lastgroup or ""
        if kind == "space":
            continue
        if kind == "tag":
            if len(m["name"]) > MAX_TAG_NAME:
                raise TextError(line, f"tag name {m['name'][:20]!r}... is {len(m['name']):,} characters; "
                                      f"the longest is {MAX_TAG_NAME}")
            value = _ESCAPE.sub(r"\1", m["value"])
            if len(value) > MAX_TAG:
                raise TextError(line, f"tag {m['name']}: a value of {len(value):,} characters; the longest is "
                                      f"{MAX_TAG:,}")
            yield Token(kind, m.group(), line, m["name"], value)
        elif kind == "comment":
            yield Token(kind, m.group(), line, m["body"])
        else:
            if len(m.group()) > MAX_MOVE:
                raise TextError(line, f"a token of {len(m.group()):,} characters ({m.group()[:20]!r}...); a move "
                                      f"is at most {MAX_MOVE}")
            yield Token(kind, m.group(), line)


def _check_line(text: str, start: int, end: int, line: int) -> None:
    if end - start > MAX_LINE:
        raise TextError(line, f"a line of {end - start:,} characters; the longest is {MAX_LINE:,}")
    bad = _UNENCODABLE.search(text, start, end)
    if bad is not None:
        raise TextError(line, f"character {bad.start() - start + 1} is {bad.group()!r}, a lone surrogate that no "
                              "UTF-8 file can hold")


def _unmatched(text: str, pos: int) -> str:
    ch = text[pos]
    if ch == "[":
        return 'a tag pair is [Name "value"] on one line'
    if ch == "{":
        return (f"a comment opened with {{ is never closed (or holds a brace, or is longer than {MAX_COMMENT:,} "
                "characters)")
    return f"unexpected {ch!r}"


# ---- what a record holds -------------------------------------------------------------------------


def check_text(value: str, what: str) -> None:
    """``value`` is text a UTF-8 file can hold (no lone surrogates)."""
    if _UNENCODABLE.search(value):
        raise InvalidFileError(f"{what}: {safe_repr(value, 60)} holds a lone surrogate, which no UTF-8 file can hold")


def check_tag(name: object, value: object) -> None:
    """A tag a record may hold: a name of letters, digits and _, a value of text on one line, both bounded."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or len(name) > MAX_TAG_NAME:
        raise InvalidFileError(f"tag name {safe_repr(name, 60)}: letters, digits and _, starting with a letter, "
                               f"at most {MAX_TAG_NAME}")
    if not isinstance(value, str) or _CONTROL.search(value):
        raise InvalidFileError(f"tag {name}: its value is text on one line, not {safe_repr(value, 60)}")
    if len(value) > MAX_TAG:
        raise InvalidFileError(f"tag {name}: a value of {len(value):,} characters; the longest is {MAX_TAG:,}")
    check_text(value, f"tag {name}")


def move_number(ply: int) -> str:
    """The move number written before the move of ``ply`` (counted from 0 at the start position): full move
    ``ply // 2 + 1``, as ``N.`` before the first player's move and ``N...`` before the second player's."""
    if type(ply) is not int or not 0 <= ply < 10**12:
        raise InvalidFileError(f"a ply is a whole number 0..10**12 - 1, not {safe_repr(ply, 40)}")
    return f"{ply // 2 + 1}{'.' if ply % 2 == 0 else '...'}"


def is_move_number(token: str) -> bool:
    """Whether a movetext token is a move number (``12.`` or ``12...``) rather than a move."""
    return _MOVE_NUMBER.fullmatch(token) is not None


def check_move(move: object, results: tuple[str, ...] = RESULTS) -> None:
    """A move token: text without spaces, braces, brackets or quotes, whose parentheses (if any) pair up
    inside it, not a result token or a move number (``4.``), bounded."""
    if not isinstance(move, str) or not _MOVE.fullmatch(move) or move in results or is_move_number(move) \
            or split_parens(move, True) != [move]:
        raise InvalidFileError(f"move {safe_repr(move, 60)} is not a move token (no spaces, braces, brackets or "
                               "quotes, parentheses only in pairs; not a result or a move number such as 4.)")
    if len(move) > MAX_MOVE:
        raise InvalidFileError(f"move {safe_repr(move, 30)} is {len(move):,} characters; the longest is {MAX_MOVE}")
    check_text(move, "move")


def split_parens(word: str, keep_pairs: bool) -> list[str]:
    """A movetext word cut at the parentheses that open and close variations: each ``(`` and ``)`` a piece of
    its own, the rest as it stands (``"(2."`` -> ``["(", "2."]``, ``"5))"`` -> ``["5", ")", ")"]``).  With
    ``keep_pairs`` (a game whose moves are written with parentheses, as a course game's tuples ``(2,2)``), a
    pair of parentheses inside the word is part of it and only the others are cut off."""
    if "(" not in word and ")" not in word:
        return [word]
    cuts: set[int] = set()  # the positions of the parentheses that stand alone
    opened: list[int] = []
    for i, ch in enumerate(word):
        if ch == "(":
            opened.append(i)
        elif ch == ")":
            if keep_pairs and opened:
                opened.pop()
            else:
                cuts.add(i)
    cuts.update(opened if keep_pairs else (i for i, ch in enumerate(word) if ch == "("))
    pieces, start = [], 0
    for i in sorted(cuts):
        pieces += [word[start:i], word[i]] if i > start else [word[i]]
        start = i + 1
    return pieces + ([word[start:]] if start < len(word) else [])


def path_of(path: object, what: str) -> str | os.PathLike[str]:
    """``path`` once it is a file name (text or a path object naming text); InvalidFileError otherwise."""
    if isinstance(path, (str, os.PathLike)):
        try:
            name = os.fspath(path)
        except Exception:  # noqa: BLE001 - a path object whose __fspath__ fails
            name = None
        if isinstance(name, str) and name.strip():
            check_text(name, f"{what} name")
            return path
    raise InvalidFileError(f"the {what} needs a file name (text or a path), not {safe_repr(path, 60)}")


def flag(value: object, what: str) -> bool:
    """A yes/no argument, which must be a bool."""
    if not isinstance(value, bool):
        raise InvalidFileError(f"{what} is True or False, not {safe_repr(value, 60)}")
    return value
