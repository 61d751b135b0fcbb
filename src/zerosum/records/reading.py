"""Reading records: :func:`parse` (text) and :func:`read` (a file), every game checked whole (the format is
described in :mod:`zerosum.records`; the tokens and their bounds in :mod:`zerosum.records.lexer`), and
:func:`iter_parse` / :func:`iter_read`, the same games one at a time (``zerosum replay`` holds one game).

The movetext is read into a tree of lines, kept on a stack as the parentheses open and close (never deeper
than :data:`~zerosum.records.lexer.MAX_DEPTH`, never more than
:data:`~zerosum.records.lexer.MAX_VARIATIONS` variations a game): each line its moves with the line of text
they are on, their notes, its move numbers and its variations, so that every error names the line at fault."""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.checks import safe_repr
from ..errors import GameError, InvalidFileError
from ..game import Game
from .lexer import MAX_DEPTH, MAX_LINE_MOVES, MAX_TAGS, MAX_VARIATIONS, RESULTS, TextError, is_move_number, move_number, path_of, \
    split_parens, tokens
from .notes import MoveNote, clip, is_note, split_mark
from .text import PGN_NAMES, Record, game_of, opening_of
from .trust import given_game
from .variations import BadMove, Variation

__all__ = ["iter_parse", "iter_read", "parse", "read"]


@dataclass(slots=True)
class _Line:
    """A line as it is read: its moves, the line of text each is on, notes, move numbers (the index of the move each
    precedes, its text, its line of text), variations (by the index of the move they replace), the line of
    text its ``(`` is on, and whether a variation was closed since its last move."""

    opened: int = 0
    moves: list[str] = field(default_factory=list)
    at: array[int] = field(default_factory=lambda: array("q"))
    notes: list[MoveNote | None] = field(default_factory=list)
    numbers: list[tuple[int, str, int]] = field(default_factory=list)
    variations: dict[int, list[_Line]] = field(default_factory=dict)
    closed: bool = False

    def pending(self) -> str | None:
        """The move number that waits for its move (None: none)."""
        return self.numbers[-1][1] if self.numbers and self.numbers[-1][0] == len(self.moves) else None

    def move(self, word: str, line: int, shared: Callable[[str], str]) -> None:
        """A move read: its text without a PGN suffix (``4?``), the suffix kept in its note."""
        move, mark = split_mark(word)
        self.moves.append(shared(move))
        self.at.append(line)
        self.notes.append(None if mark is None else MoveNote(mark=mark))
        self.closed = False


def _commented(note: MoveNote | None, body: str) -> MoveNote:
    """``note`` with a comment's inside added: a note (``time=``, ``nodes=``, ``value=``) or free text, one of
    each a move; InvalidFileError (one line) for a second."""
    note = note or MoveNote()
    if is_note(body):
        if note.text():
            raise InvalidFileError("a comment belongs after a move: one note {time= nodes= value=} and one free "
                                   "comment a move")
        found = MoveNote.from_text(body)
        return replace(note, time=found.time, nodes=found.nodes, value=found.value, exact=found.exact)
    if note.comment is not None:
        raise InvalidFileError("a comment belongs after a move: one note {time= nodes= value=} and one free "
                               "comment a move")
    return replace(note, comment=body)


#: the most strings, games and openings a text's games share through :class:`_Shared` (then it starts afresh),
#: and the longest string shared (a move, a tag name, a short tag value: those that recur)
_SHARED = 4_096
_SHARED_CHARS = 64


class _Shared:
    """What the games of one text share, so that each game costs little more than its text: one string for
    each tag name, tag value and move that recurs, and each game (by its spec) and opening made once."""

    def __init__(self, given: Game[Any, Any] | None = None) -> None:
        self.given = given  # the game the caller names (game=): every game's, and the only file's game read
        self.strings: dict[str, str] = {}
        self.starts: dict[tuple[str, str], tuple[Game[Any, Any], list[Any]]] = {}
        self.games: dict[str, Game[Any, Any]] = {}
        self.parens: dict[str, bool] = {}

    def text(self, value: str) -> str:
        """``value``, as the one string kept for it."""
        if len(value) > _SHARED_CHARS:
            return value
        if len(self.strings) >= _SHARED:
            self.strings.clear()
        return self.strings.setdefault(value, value)

    def start(self, spec: str, opening: str) -> tuple[Game[Any, Any], list[Any]]:
        """The game of a Game tag and the actions of an Opening tag (InvalidFileError, one line, as
        :attr:`Record.game` and :attr:`Record.opening` say it)."""
        found = self.starts.get((spec, opening))
        if found is None:
            if len(self.starts) >= _SHARED:
                self.starts.clear()
                self.games.clear()
            game = self.games.get(spec) or game_of(spec, self.given)
            self.games[spec] = game
            found = self.starts[spec, opening] = (game, opening_of(game, opening))
        return found

    def paren_moves(self, spec: str | None) -> bool:
        """Whether the moves of game ``spec`` are written with parentheses (a course game's tuples ``(2,2)``),
        so that a pair of them inside a word is part of a move.  A Game tag that names no game the record can
        be read with (unknown, or a game file's without the game given) is its error (InvalidFileError), here
        rather than a move's parentheses misread as a variation."""
        key = spec or ""
        if key not in self.parens:
            game = game_of(key, self.given)
            try:
                self.parens[key] = any(c in game.format_action(a) for a in game.actions(game.initial_state)[:64]
                                       for c in "()")
            except GameError:  # the game's own error comes when its moves are replayed
                self.parens[key] = False
        return self.parens[key]


def parse(text: str, *, game: Any = None) -> list[Record]:
    """Every game of a record text, each checked (see the module docstring); ``[]`` for empty text.

    ``game``: the game the records are of (a Game, a spec such as ``"nim.py:Nim"``, or an object with the
    course's methods), used instead of making the game each Game tag names; every record must be of it (see
    :mod:`zerosum.records.trust` for how a game file's tag is matched).  Without it, a record whose Game tag
    names a Python file is refused in one line: reading a record never runs a file it names.

    Memory stays proportional to the text: lines, tags, moves and comments are bounded (see
    :mod:`zerosum.records.lexer`), a game's moves are replayed keeping only the last state (and one state
    a level of variations), and each record is kept compact (docs/records.md gives the measured cost).  Too
    little memory for it all is one line too."""
    if not isinstance(text, str):
        raise InvalidFileError(f"a record is text, not {type(text).__name__}")
    return _whole(iter_parse(text, game=game), lambda: f"not enough memory to hold the games of {len(text):,} "
                  "characters of records (zerosum.records.reading.iter_parse reads them one at a time)")


def _whole(games: Iterator[Record], short: Callable[[], str]) -> list[Record]:
    """Every game of ``games``; InvalidFileError(``short()``) when memory runs out (one line, not a traceback)."""
    try:
        return list(games)
    except MemoryError:
        pass  # the games read so far are let go before the message is made
    raise InvalidFileError(short())


def iter_parse(text: str, *, game: Any = None) -> Iterator[Record]:
    """The games of a record text one at a time, each checked as :func:`parse` checks it, so that only the
    text and the game being read are held; InvalidFileError (one line) at the first fault.  ``game``: as
    :func:`parse`'s."""
    if not isinstance(text, str):
        raise InvalidFileError(f"a record is text, not {type(text).__name__}")
    shared, count, failed = _Shared(given_game(game)), 0, False
    try:
        for record in _games(text, shared):
            count += 1
            yield record
    except MemoryError:
        failed = True
    if failed:  # outside the handler, so that what the failed game held is let go first
        raise InvalidFileError(f"game {count + 1}: not enough memory to read on ({len(text):,} characters of "
                               "records)")


def _games(text: str, shared: _Shared) -> Iterator[Record]:
    done: list[Record] = []  # the game a token finished, if any
    tags: dict[str, str] = {}
    stack = [_Line()]  # the main line, then each variation open inside it
    phase, start, line, count, number = "between", 1, 1, 0, 1
    keep_pairs: bool | None = None  # whether the game's moves hold parentheses (asked once a word has one)

    def bad(what: str, at: int | None = None) -> InvalidFileError:
        return InvalidFileError(f"game {number}, line {at or line}: {what}")

    def word(piece: str) -> None:
        nonlocal phase, tags, count, keep_pairs
        here = stack[-1]
        pending = here.pending()
        if pending is not None and (piece in RESULTS or is_move_number(piece) or piece in ("(", ")")):
            raise bad(f"move number {pending} is followed by {safe_repr(piece, 40)}, not a move")
        if piece == "(":
            if not here.moves:
                raise bad("a variation ( ... ) comes right after the move it is an alternative to")
            if len(stack) > MAX_DEPTH:
                raise bad(f"variations nested more than {MAX_DEPTH} deep")
            count += 1
            if count > MAX_VARIATIONS:
                raise bad(f"more than {MAX_VARIATIONS:,} variations in one game")
            inner = _Line(opened=line)
            here.variations.setdefault(len(here.moves) - 1, []).append(inner)
            here.closed, phase = True, "moves"
            stack.append(inner)
        elif piece == ")":
            if len(stack) == 1:
                raise bad("a ) closes no variation (a variation is ( MOVES ) right after a move)")
            if not here.moves:
                raise bad("an empty variation ( ): a variation holds at least one move")
            stack.pop()
        elif piece in RESULTS:
            if len(stack) > 1:
                raise bad(f"the variation opened on line {here.opened} is not closed by a ) before the result "
                          f"token {piece}")
            done.append(_finish(tags, stack[0], piece, start, bad, shared))
            tags, phase, count, keep_pairs = {}, "between", 0, None
            stack[:] = [_Line()]
        elif is_move_number(piece):
            phase = "moves"
            here.numbers.append((len(here.moves), shared.text(piece), line))
        else:
            phase = "moves"
            if len(here.moves) >= MAX_LINE_MOVES:  # no game is longer: refused now, not replayed at the end
                raise bad(f"more than {MAX_LINE_MOVES:,} moves in one line: no game is that long")
            here.move(piece, line, shared.text)

    try:
        for token in tokens(text):
            line = token.line
            if token.kind == "tag":
                if phase == "moves":
                    raise bad(f"tag {token.name} inside the moves: end the game with its result token first")
                if phase == "between":
                    phase, start = "tags", line
                if token.name in tags:
                    raise bad(f"tag {token.name} is given twice")
                if len(tags) >= MAX_TAGS:
                    raise bad(f"more than {MAX_TAGS:,} tags in one game")
                tags[shared.text(token.name)] = shared.text(token.value)
            elif phase == "between":
                raise bad(f"expected a tag pair such as [Game \"connect4\"] to start a game, found "
                          f"{safe_repr(token.text, 40)}")
            elif token.kind == "comment":
                here = stack[-1]
                if here.pending() is not None:
                    raise bad(f"move number {here.pending()} is followed by {safe_repr(token.text, 40)}, not a move")
                if not here.moves:
                    raise bad("a comment belongs after a move")
                if here.closed:
                    raise bad("a comment belongs right after its move, before the variations that follow it")
                try:
                    here.notes[-1] = _commented(here.notes[-1], token.name)
                except InvalidFileError as exc:
                    raise bad(str(exc)) from None
            elif "(" in token.text or ")" in token.text:
                if keep_pairs is None:
                    try:
                        keep_pairs = shared.paren_moves(tags.get("Game"))
                    except InvalidFileError as exc:  # as the game's record would say it when finished
                        raise bad(str(exc), start) from None
                for piece in split_parens(token.text, keep_pairs):
                    word(piece)
            else:
                word(token.text)
            if done:
                yield done.pop()
                number += 1
    except TextError as exc:
        raise bad(str(exc), exc.line) from None
    if len(stack) > 1:
        raise bad(f"the variation opened on line {stack[-1].opened} is never closed by a ), and the game has no "
                  "result token")
    if phase != "between":
        raise bad("the game has no result token (1-0, 0-1, 1/2-1/2 or *) after its moves")


def _finish(tags: dict[str, str], main: _Line, result: str, start: int,
            bad: Callable[..., InvalidFileError], shared: _Shared) -> Record:
    """The record of one parsed game, checked; errors name the line of the tag, move or number at fault."""
    if tags.get("Result", result) != result:
        raise bad(f"the Result tag says {clip(tags['Result'], 40)} but the moves end with {result}")
    for ours, pgn in PGN_NAMES.items():
        if tags.get(ours, tags.get(pgn)) != tags.get(pgn, tags.get(ours)):
            raise bad(f"the {pgn} tag says {clip(tags[pgn], 40)!r} but the {ours} tag says "
                      f"{clip(tags[ours], 40)!r} ({pgn} is PGN's name for the {ours.lower()} player)", start)
    read: dict[int, _Line] = {}  # each Variation made: the line it was read from (by id)
    try:
        record = Record(tags, main.moves, main.notes, result, _made(main, read))
        begin = shared.start(record._tag("Game"), record._tag("Opening"))
    except InvalidFileError as exc:
        raise bad(str(exc), start) from None
    if shared.given is not None:
        record._game = begin[0]  # the game given, which the tag names (a game file's is never made from the tag)
    todo, wrong = [(main, len(begin[1]))], None  # each line and the ply of its first move; the first number wrong
    while todo:
        here, plies = todo.pop()
        for index, text, at in here.numbers:  # optional (older records have none), but right where given
            if text != move_number(plies + index) and (wrong is None or at < wrong[0]):  # the first in the file
                wrong = (at, f"move number {text} where {move_number(plies + index)} belongs (ply {plies + index + 1}, "
                             f"counted from the start position)")
        todo += [(v, plies + index) for index, inner in here.variations.items() for v in inner]
    if wrong is not None:
        raise bad(wrong[1], wrong[0])
    try:
        record._check(keep=False, start=begin)
    except BadMove as exc:
        where = main if exc.where is None else read[id(exc.where)]
        raise bad(str(exc), where.at[exc.index]) from None
    except InvalidFileError as exc:
        raise bad(str(exc), main.at[-1] if main.moves else start) from None
    return record


def _made(line: _Line, read: dict[int, _Line]) -> dict[int, list[Variation]]:
    """The variations of a line as read, each :class:`Variation` noted in ``read`` with the line it was read
    from (by its id)."""
    out: dict[int, list[Variation]] = {}
    for index, inner in line.variations.items():
        for v in inner:
            out.setdefault(index, []).append(Variation(v.moves, v.notes, _made(v, read)))
            read[id(out[index][-1])] = v  # as deep as the tree: MAX_DEPTH
    return out


def read(path: str | os.PathLike[str], *, game: Any = None) -> list[Record]:
    """Every game of a record file (one-line InvalidFileError naming the file, the game and the line).
    ``game``: the game the records are of, as :func:`parse`'s (needed for a record of a game file)."""
    return _whole(iter_read(path, game=game), lambda: f"record file {str(path)!r}: not enough memory to hold its "
                  "games (zerosum.records.reading.iter_read reads them one at a time)")


def iter_read(path: str | os.PathLike[str], *, game: Any = None) -> Iterator[Record]:
    """The games of a record file one at a time, each checked as :func:`read` checks it, holding only the
    file's text and the game being read (one-line InvalidFileError naming the file, the game and the line,
    at the first fault: the games before it have been given by then).  ``game``: as :func:`parse`'s."""
    from ..core.files import read_text

    name = path_of(path, "record file")
    failed = False
    try:
        text = read_text(name, "record file")
    except MemoryError:
        failed = True
    if failed:
        raise InvalidFileError(f"record file {str(path)!r}: not enough memory to read it")
    try:
        yield from iter_parse(text, game=game)
    except InvalidFileError as exc:
        raise InvalidFileError(f"record file {str(path)!r}: {exc}") from None
