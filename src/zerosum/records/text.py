"""Records as text: :class:`Record`, :class:`MoveNote`, :func:`parse`, :func:`format`, :func:`read` and
:func:`write` (the format is described in :mod:`zerosum.records`; the tokens and their bounds in
:mod:`zerosum.records.lexer`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.checks import safe_repr
from ..errors import GameError, IllegalMoveError, InvalidFileError
from ..game import Game
from .lexer import TextError, check_move, check_tag, flag, is_move_number, move_number, path_of, tokens
from .notes import MAX_NODES, MAX_SECONDS, MoveNote, clip, is_note, split_mark

__all__ = ["MAX_NODES", "MAX_SECONDS", "RESULTS", "ROSTER", "WIDTH", "MoveNote", "Record", "format", "parse",
           "read", "write"]

#: the result tokens
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: the tags every record has, in this order (a record read without some gets these defaults; White and Black
#: are PGN's names of First and Second, written for the tools that read PGN: Ordo, BayesElo, python-chess)
ROSTER: dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "First": "?",
                          "Second": "?", "White": "?", "Black": "?", "Game": "", "Opening": "-", "Result": "*",
                          "Termination": "?", "TimeControl": "-"}
#: PGN's name of each player tag
_PGN_NAMES = {"First": "White", "Second": "Black"}
#: movetext lines are at most this wide (a longer comment gets a line of its own)
WIDTH = 80


@dataclass
class Record:
    """One game: its tags (the roster of :data:`ROSTER` first), the moves after the opening in the game's
    notation, a note (or None) per move, and the result token.  Everything is checked when it is made: text
    a UTF-8 file can hold, within the bounds of :mod:`zerosum.records.lexer`."""

    tags: dict[str, str]
    moves: list[str]
    notes: list[MoveNote | None] = field(default_factory=list)
    result: str = "*"

    def __post_init__(self) -> None:
        if not isinstance(self.result, str) or self.result not in RESULTS:
            raise InvalidFileError(f"result {safe_repr(self.result, 40)} is not one of {', '.join(RESULTS)}")
        if not isinstance(self.tags, Mapping):
            raise InvalidFileError(f"a record's tags are a dict of names to values, not {safe_repr(self.tags, 40)}")
        for name, value in self.tags.items():
            check_tag(name, value)
        if not self.tags.get("Game"):
            raise InvalidFileError('a record needs a Game tag naming its game, e.g. [Game "connect4"]')
        tags = {k: self.tags.get(k, d) for k, d in ROSTER.items()}
        tags["Result"] = self.result
        for ours, pgn in _PGN_NAMES.items():  # First rules (as the result token rules Result); White from it
            tags[ours] = tags[pgn] = self.tags.get(ours, self.tags.get(pgn, "?"))
        tags.update((k, v) for k, v in self.tags.items() if k not in ROSTER)
        self.tags = tags
        for what, items in (("moves", self.moves), ("notes", self.notes)):
            if not isinstance(items, (list, tuple)):
                raise InvalidFileError(f"a record's {what} are a list, not {safe_repr(items, 40)}")
        for m in self.moves:
            check_move(m, RESULTS)
        self.moves = list(self.moves)
        if len(self.notes) > len(self.moves):
            raise InvalidFileError(f"{len(self.notes)} notes for {len(self.moves)} moves")
        for n in self.notes:
            if n is not None and not isinstance(n, MoveNote):
                raise InvalidFileError(f"a move's note is a MoveNote or None, not {safe_repr(n, 40)}")
        self.notes = [None if n == MoveNote() else n for n in self.notes]
        self.notes += [None] * (len(self.moves) - len(self.notes))

    @property
    def game(self) -> Game[Any, Any]:
        """The game of the ``Game`` tag."""
        from ..games import get_game

        try:
            return get_game(self.tags["Game"])
        except GameError as exc:
            raise InvalidFileError(f"Game tag {safe_repr(self.tags['Game'], 60)}: {exc}") from None

    @property
    def opening(self) -> list[Any]:
        """The actions of the ``Opening`` tag (empty for ``-``)."""
        from ..arena.openings import parse_opening

        try:
            return list(parse_opening(self.game, self.tags["Opening"]))
        except GameError as exc:
            raise InvalidFileError(f"Opening tag {safe_repr(self.tags['Opening'], 60)}: {exc}") from None

    def actions(self) -> list[Any]:
        """Every action from the start: the opening's, then the moves'."""
        return self._replay()[1]

    def states(self) -> list[Any]:
        """The states from the start: after each opening move, then after each move (``1 + len(opening) +
        len(moves)`` of them).  A move that does not replay raises IllegalMoveError naming the game and ply."""
        try:
            return self._replay()[0]
        except _BadMove as exc:
            raise IllegalMoveError(f"game {self.tags['Round']} ({self.tags['First']} - {self.tags['Second']}): "
                                   f"{exc}") from None

    def _replay(self, keep: bool = True) -> tuple[list[Any], list[Any]]:
        """The states and actions from the start (``keep=False``: only the last state, no actions)."""
        game, opening = self.game, self.opening
        states = game.states_of(opening)
        actions = list(opening) if keep else []
        for i, text in enumerate(self.moves):
            try:
                action = game.parse_action(text, states[-1])
                after = game.result(states[-1], action)
            except IllegalMoveError as exc:
                raise _BadMove(i, f"ply {len(opening) + i + 1}, move {i + 1} ({text!r}): {exc}") from None
            if keep:
                states.append(after)
                actions.append(action)
            else:
                states = [after]
        return states, actions

    def check(self) -> list[Any]:
        """The states (as :meth:`states`), once the result is known to agree with the board: a game over on
        the board carries its result, a game not over is unfinished or ended by forfeit or adjudication."""
        return self._check(keep=True)

    def _check(self, keep: bool) -> list[Any]:
        states = self._replay(keep)[0]
        game, last = self.game, states[-1]
        out = game.outcome(last)
        if out is not None:
            said = {1: "1-0", 2: "0-1", None: "1/2-1/2"}[out.winner]
            if self.result not in (said, "*"):
                raise InvalidFileError(f"the moves end the game {said} ({out.reason}), but the result is {self.result}")
        elif self.result != "*" and self.tags["Termination"] == "normal":
            raise InvalidFileError(f"the game is not over after its moves, yet its result is {self.result} "
                                   "with Termination \"normal\" (a forfeit or an adjudication says why)")
        return states


class _BadMove(IllegalMoveError):
    """A move of a record that does not replay, with its index among the moves."""

    def __init__(self, index: int, text: str) -> None:
        super().__init__(text)
        self.index = index


# ---- text ----------------------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format(record: Record) -> str:
    """The record as text: tag pairs, a blank line, the movetext wrapped at :data:`WIDTH`, a newline.

    The record is checked again first (its fields may have been changed since it was made)."""
    if not isinstance(record, Record):
        raise InvalidFileError(f"format takes a Record, not {safe_repr(record, 40)}")
    record = Record(record.tags, record.moves, record.notes, record.result)
    head = "".join(f'[{k} "{_escape(v)}"]\n' for k, v in record.tags.items())
    atoms: list[str] = []
    start = len(record.opening)  # plies are numbered from the start position, the opening's first
    for i, (move, note) in enumerate(zip(record.moves, record.notes)):
        number = f"{move_number(start + i)} " if (start + i) % 2 == 0 or i == 0 else ""
        atoms.append(number + move + _annotation(note))  # kept together
    atoms.append(record.result)
    lines: list[str] = []
    line = ""
    for atom in atoms:
        if line and len(line) + 1 + len(atom) > WIDTH:
            lines.append(line)
            line = atom
        else:
            line = f"{line} {atom}" if line else atom
    lines.append(line)
    return head + "\n" + "\n".join(lines) + "\n"


def _annotation(note: MoveNote | None) -> str:
    """What follows a move in the movetext: its PGN suffix, its note comment and its free comment."""
    if note is None:
        return ""
    body = note.text()
    return (note.mark or "") + (f" {{{body}}}" if body else "") + (f" {{{note.comment}}}" if note.comment else "")


def _commented(note: MoveNote | None, body: str) -> MoveNote:
    """``note`` with a comment's inside added: a note (``time=``, ``nodes=``, ``value=``) or free text, one of
    each a move; InvalidFileError (one line) for a second."""
    note = note or MoveNote()
    if is_note(body):
        if note.text():
            raise InvalidFileError("a comment belongs after a move: one note {time= nodes= value=} and one free "
                                   "comment a move")
        found = MoveNote.from_text(body)
        return replace(note, time=found.time, nodes=found.nodes, value=found.value)
    if note.comment is not None:
        raise InvalidFileError("a comment belongs after a move: one note {time= nodes= value=} and one free "
                               "comment a move")
    return replace(note, comment=body)


def parse(text: str) -> list[Record]:
    """Every game of a record text, each checked (see the module docstring); ``[]`` for empty text.

    Memory stays proportional to the text: lines, tags, moves and comments are bounded (see
    :mod:`zerosum.records.lexer`), and a game's moves are replayed keeping only the last state."""
    if not isinstance(text, str):
        raise InvalidFileError(f"a record is text, not {type(text).__name__}")
    games: list[Record] = []
    tags: dict[str, str] = {}
    moves: list[tuple[str, int]] = []
    notes: list[MoveNote | None] = []
    numbers: list[tuple[int, str, int]] = []  # each move number: the index of the move it precedes, its text, line
    phase, start, line = "between", 1, 1

    def bad(what: str, at: int | None = None) -> InvalidFileError:
        return InvalidFileError(f"game {len(games) + 1}, line {at or line}: {what}")

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
                tags[token.name] = token.value
            elif phase == "between":
                raise bad(f"expected a tag pair such as [Game \"connect4\"] to start a game, found "
                          f"{safe_repr(token.text, 40)}")
            elif numbers and numbers[-1][0] == len(moves):  # a move number: a move comes next
                if token.kind == "comment" or token.text in RESULTS or is_move_number(token.text):
                    raise bad(f"move number {numbers[-1][1]} is followed by {safe_repr(token.text, 40)}, not a move")
                phase = "moves"
                _moved(moves, notes, token.text, line)
            elif token.kind == "comment":
                if not moves:
                    raise bad("a comment belongs after a move")
                try:
                    notes[-1] = _commented(notes[-1], token.name)
                except InvalidFileError as exc:
                    raise bad(str(exc)) from None
            elif token.text in RESULTS:
                games.append(_finish(tags, moves, notes, numbers, token.text, start, bad))
                tags, moves, notes, numbers, phase = {}, [], [], [], "between"
            elif is_move_number(token.text):
                phase = "moves"
                numbers.append((len(moves), token.text, line))
            else:
                phase = "moves"
                _moved(moves, notes, token.text, line)
    except TextError as exc:
        raise bad(str(exc), exc.line) from None
    if phase != "between":
        raise bad("the game has no result token (1-0, 0-1, 1/2-1/2 or *) after its moves")
    return games


def _moved(moves: list[tuple[str, int]], notes: list[MoveNote | None], word: str, line: int) -> None:
    """A move read: its text without a PGN suffix (``4?``), the suffix kept in its note."""
    move, mark = split_mark(word)
    moves.append((move, line))
    notes.append(None if mark is None else MoveNote(mark=mark))


def _finish(tags: dict[str, str], moves: list[tuple[str, int]], notes: list[MoveNote | None],
            numbers: list[tuple[int, str, int]], result: str, start: int,
            bad: Callable[..., InvalidFileError]) -> Record:
    """The record of one parsed game, checked; errors name the line of the tag, move or number at fault."""
    if tags.get("Result", result) != result:
        raise bad(f"the Result tag says {clip(tags['Result'], 40)} but the moves end with {result}")
    for ours, pgn in _PGN_NAMES.items():
        if tags.get(ours, tags.get(pgn)) != tags.get(pgn, tags.get(ours)):
            raise bad(f"the {pgn} tag says {clip(tags[pgn], 40)!r} but the {ours} tag says "
                      f"{clip(tags[ours], 40)!r} ({pgn} is PGN's name for the {ours.lower()} player)", start)
    try:
        record = Record(tags, [t for t, _ in moves], [n or None for n in notes], result)
        _ = (record.game, record.opening)
    except InvalidFileError as exc:
        raise bad(str(exc), start) from None
    plies = len(record.opening)
    for index, text, at in numbers:  # optional (older records have none), but right where given
        if text != move_number(plies + index):
            raise bad(f"move number {text} where {move_number(plies + index)} belongs (ply {plies + index + 1}, "
                      f"counted from the start position)", at)
    try:
        record._check(keep=False)
    except _BadMove as exc:
        raise bad(str(exc), moves[exc.index][1]) from None
    except InvalidFileError as exc:
        raise bad(str(exc), moves[-1][1] if moves else start) from None
    return record


def read(path: str | os.PathLike[str]) -> list[Record]:
    """Every game of a record file (one-line InvalidFileError naming the file, the game and the line)."""
    from ..core.files import read_text

    text = read_text(path_of(path, "record file"), "record file")
    try:
        return parse(text)
    except InvalidFileError as exc:
        raise InvalidFileError(f"record file {str(path)!r}: {exc}") from None


def write(records: Iterable[Record], path: str | os.PathLike[str], *, overwrite: bool = False) -> int:
    """Write ``records`` to ``path`` all at once (nothing is left on failure, and a file replaced with
    ``overwrite`` stays as it was); how many were written."""
    from ..core.files import atomic_output

    target = path_of(path, "record file")
    flag(overwrite, "overwrite")
    if isinstance(records, (str, bytes, Record)) or not isinstance(records, Iterable):
        raise InvalidFileError(f"write takes a list (or any iterable) of records, not {safe_repr(records, 40)}")
    count = 0
    try:
        with atomic_output(target, overwrite=overwrite, what="record file") as fh:
            for record in records:
                fh.write(("\n" if count else "") + format(record))
                count += 1
    except OSError as exc:
        raise InvalidFileError(f"record file {str(target)!r}: {exc.strerror or exc}; nothing was written "
                               "(a file there is left as it was)") from None
    return count
