"""A record's tree of variations: :class:`Variation` (an alternative line, with its own notes and variations),
the checks of a tree (:func:`check_line`, :func:`check_tree`, bounded by
:data:`~zerosum.records.lexer.MAX_DEPTH` and :data:`~zerosum.records.lexer.MAX_VARIATIONS`), its movetext
(:func:`movetext`), its lines (:func:`lines_of`, :func:`tree`) and the replay that checks every move of it
(:func:`replay_line`).

A variation is an alternative to one move of the line it belongs to: ``Record.variations[i]`` lists the lines
that could have been played instead of ``moves[i]``, each starting from the position before it, as PGN writes
``( ... )`` right after that move.  A variation's own ``variations`` are alternatives to its moves, in the same
way, to any depth up to :data:`~zerosum.records.lexer.MAX_DEPTH`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..core.checks import safe_repr
from ..errors import IllegalMoveError, InvalidFileError
from .lexer import MAX_DEPTH, MAX_LINE_MOVES, MAX_VARIATIONS, check_move, move_number
from .notes import MoveNote

__all__ = ["NO_BRANCHES", "BadMove", "Line", "Variation", "annotation", "check_line", "check_tree", "lines_of",
           "movetext", "replay_line", "tree"]

Branches = dict[int, list["Variation"]]
_NO_NOTE = MoveNote()


def check_line(moves: object, notes: object, whose: str) -> tuple[list[str], list[MoveNote | None]]:
    """The moves and notes of a line once checked: a list of move tokens, at most as many notes (each a
    :class:`MoveNote` or None), padded with None, an empty note made None."""
    for what, items in (("moves", moves), ("notes", notes)):
        if not isinstance(items, (list, tuple)):
            raise InvalidFileError(f"{whose} {what} are a list, not {safe_repr(items, 40)}")
    assert isinstance(moves, (list, tuple)) and isinstance(notes, (list, tuple))
    if len(moves) > MAX_LINE_MOVES:  # what reading refuses (lexer.MAX_LINE_MOVES)
        raise InvalidFileError(f"{whose} moves: more than {MAX_LINE_MOVES:,} in one line: no game is that long")
    for m in moves:
        check_move(m)
    if len(notes) > len(moves):
        raise InvalidFileError(f"{len(notes)} notes for {len(moves)} moves")
    for n in notes:
        if n is not None and not isinstance(n, MoveNote):
            raise InvalidFileError(f"a move's note is a MoveNote or None, not {safe_repr(n, 40)}")
    kept: list[MoveNote | None] = [None if n == _NO_NOTE else n for n in notes]
    return list(moves), kept + [None] * (len(moves) - len(kept))


def check_branches(variations: object, count: int) -> Branches:
    """A line's variations once checked (not those inside them): a dict of move index 0..``count`` - 1 to a
    list of :class:`Variation`, in index order, without empty lists."""
    if not isinstance(variations, Mapping):
        raise InvalidFileError("variations are a dict of move index to a list of Variation, not "
                               f"{safe_repr(variations, 40)}")
    out: Branches = {}
    for index in sorted(variations, key=lambda k: k if type(k) is int else -1):
        lines = variations[index]
        if type(index) is not int or not 0 <= index < count:
            raise InvalidFileError(f"a variation is an alternative to a move of its line: its index is 0.."
                                   f"{count - 1}, not {safe_repr(index, 20)}" if count else
                                   "a line without moves has no variations")
        if not isinstance(lines, (list, tuple)) or not all(isinstance(v, Variation) for v in lines):
            raise InvalidFileError(f"the variations of move {index} are a list of Variation, not "
                                   f"{safe_repr(lines, 40)}")
        if lines:
            out[index] = list(lines)
    return out


#: no variations: the empty mapping a line is made with by default (never changed)
NO_BRANCHES: Mapping[int, list[Any]] = MappingProxyType({})


class Line:
    """What a record and a variation share: ``moves``, a note (or None) a move as ``notes``, and
    ``variations`` by the index of the move each replaces.

    A line is kept compact until one of these is first used (a tuple of moves, ``()`` for no notes and for no
    variations), so that a record read costs little more than its text; the first use turns it into the list
    or dict it always was, which may then be changed in place (everything is checked again when it is written).
    """

    __slots__ = ("_moves", "_notes", "_variations")
    _moves: Any
    _notes: Any
    _variations: Any

    def _set(self, moves: object, notes: object, variations: object, whose: str, least: int = 0) -> None:
        """Check a line's moves, notes and variations (not those inside them) and keep them compact."""
        checked, kept = check_line(moves, notes, whose)
        if len(checked) < least:
            raise InvalidFileError("a variation holds at least one move")
        branches = check_branches(variations, len(checked))
        self._moves = tuple(checked)
        self._notes = () if all(n is None for n in kept) else tuple(kept)
        self._variations = branches or ()

    @property
    def moves(self) -> list[str]:
        """The line's moves, each in the game's notation."""
        if type(self._moves) is tuple:
            self._moves = list(self._moves)
        return self._moves  # type: ignore[no-any-return]

    @moves.setter
    def moves(self, value: list[str]) -> None:
        self._moves = value

    @property
    def notes(self) -> list[MoveNote | None]:
        """A note (or None) for each move."""
        if type(self._notes) is tuple:
            self._notes = list(self._note_view())
        return self._notes  # type: ignore[no-any-return]

    @notes.setter
    def notes(self, value: list[MoveNote | None]) -> None:
        self._notes = value

    @property
    def variations(self) -> dict[int, list[Variation]]:
        """The alternatives to the line's moves, by the index of the move each replaces."""
        if type(self._variations) is tuple:
            self._variations = {}
        return self._variations  # type: ignore[no-any-return]

    @variations.setter
    def variations(self, value: dict[int, list[Variation]]) -> None:
        self._variations = value

    # The parts as they stand, for reading them without making the lists (a value changed from outside is
    # given back as it is, for the checks to refuse):
    def _move_view(self) -> Any:
        return self._moves

    def _note_view(self) -> Any:
        if type(self._notes) is tuple and not self._notes:  # no notes: None for each move
            return (None,) * len(self._moves) if isinstance(self._moves, (list, tuple)) else ()
        return self._notes

    def _branch_view(self) -> Any:
        return NO_BRANCHES if type(self._variations) is tuple else self._variations

    def lines(self) -> list[list[str]]:
        """Every line of this tree (its moves first), as :meth:`zerosum.records.Record.lines`."""
        return lines_of(list(self._move_view()), self._branch_view())

    def count_variations(self) -> int:
        """How many variations the tree holds at every depth (``len(self.lines()) - 1``, without making the
        lines)."""
        count, todo = 0, [self._branch_view()]
        while todo:
            for line in todo.pop().values():
                count += len(line)
                todo += [branches for v in line if (branches := v._branch_view())]
        return count

    def _parts(self) -> tuple[Any, Any, Any]:
        """The moves, notes and variations as the attributes give them, without keeping what is made."""
        moves, notes, branches = self._move_view(), self._note_view(), self._branch_view()
        return (list(moves) if type(moves) is tuple else moves, list(notes) if type(notes) is tuple else notes,
                {} if branches is NO_BRANCHES else branches)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Line)
        return self._parts() == other._parts()

    __hash__ = None  # type: ignore[assignment]


class Variation(Line):
    """An alternative line: its moves in the game's notation (from the position before the move it replaces),
    a note (or None) per move, and its own variations (alternatives to its moves, keyed by their index, as
    :attr:`zerosum.records.Record.variations`).  At least one move."""

    __slots__ = ()

    def __init__(self, moves: Sequence[str], notes: Sequence[MoveNote | None] = (),
                 variations: Mapping[int, list[Variation]] = NO_BRANCHES) -> None:
        self._set(moves, notes, variations, "a variation's", least=1)

    def _recheck(self) -> None:
        """Checked again, as it may have been changed since it was made."""
        self._set(self._move_view(), self._note_view(), self._branch_view(), "a variation's", least=1)

    def __repr__(self) -> str:
        moves, notes, branches = self._parts()
        return f"Variation(moves={moves!r}, notes={notes!r}, variations={branches!r})"


def check_tree(variations: Branches) -> None:
    """Every variation under ``variations`` checked again (each may have been changed since it was made),
    within :data:`~zerosum.records.lexer.MAX_DEPTH` and :data:`~zerosum.records.lexer.MAX_VARIATIONS`."""
    count, todo = 0, [(variations, 1)]
    while todo:
        branches, depth = todo.pop()
        for line in branches.values():
            for v in line:
                if depth > MAX_DEPTH:
                    raise InvalidFileError(f"variations nested more than {MAX_DEPTH} deep")
                count += 1
                if count > MAX_VARIATIONS:
                    raise InvalidFileError(f"more than {MAX_VARIATIONS:,} variations in one game")
                v._recheck()
                todo.append((v._branch_view(), depth + 1))


def annotation(note: MoveNote | None) -> str:
    """What follows a move in the movetext: its PGN suffix, its note comment and its free comment."""
    if note is None:
        return ""
    body = note.text()
    return (note.mark or "") + (f" {{{body}}}" if body else "") + (f" {{{note.comment}}}" if note.comment else "")


def movetext(moves: list[str], notes: list[MoveNote | None], variations: Branches, ply: int) -> list[str]:
    """The atoms of a line's movetext (each kept on one line when wrapped), its first move at ``ply``
    (counted from 0 at the start position): a number before each first player's move, and before the first
    move of a line, the move after a comment and the move after a variation (``N...`` for a second player's
    move, where python-chess's PGN writer puts it); each variation ``( ... )`` right after the move it
    replaces, its parentheses apart from its moves."""
    atoms: list[str] = []

    def line(moves: list[str], notes: list[MoveNote | None], variations: Branches, ply: int) -> None:
        fresh = True
        for i, (move, note) in enumerate(zip(moves, notes)):
            number = f"{move_number(ply + i)} " if (ply + i) % 2 == 0 or fresh else ""
            atoms.append(number + move + annotation(note))
            fresh = note is not None and bool(note.text() or note.comment)  # a comment: the next move numbered
            for v in variations.get(i, ()):
                first = len(atoms)
                line(*v._parts(), ply + i)  # as deep as the tree: MAX_DEPTH
                atoms[first] = "( " + atoms[first]
                atoms[-1] += " )"
                fresh = True

    line(moves, notes, variations, ply)
    return atoms


def lines_of(moves: list[str], variations: Branches) -> list[list[str]]:
    """Every line of a tree, each the moves from its first to a leaf: the main line first, then one a leaf in
    the order a walk meets them that takes each move's main continuation before its variations (so the
    variations of later moves come first, as the page lists its tree's lines)."""
    out = [list(moves)]
    for index in sorted(variations, reverse=True):
        for v in variations[index]:
            out += [moves[:index] + line for line in v.lines()]
    return out


def tree(lines: Iterable[list[str]]) -> tuple[list[str], dict[int, list[Variation]]]:
    """The main line and the variations of the tree whose lines (each the moves from the first) are
    ``lines``: ``(moves, variations)`` for :class:`~zerosum.records.Record`.  The first line is the main
    line; a line leaves the lines before it where its moves part from theirs, and opens a variation there
    (the inverse of :func:`lines_of`, where no two variations of a move start alike)."""
    if isinstance(lines, (str, bytes, Mapping)) or not isinstance(lines, Iterable):
        raise InvalidFileError(f"tree takes a list of lines (each a list of moves), not {safe_repr(lines, 40)}")
    root: dict[str, dict[str, Any]] = {}
    count = 0
    for line in lines:
        if not isinstance(line, (list, tuple)) or not all(isinstance(m, str) for m in line):
            raise InvalidFileError(f"a line is a list of moves (text), not {safe_repr(line, 40)}")
        count += 1
        if count > MAX_VARIATIONS + 1:
            raise InvalidFileError(f"more than {MAX_VARIATIONS:,} variations in one game")
        node = root
        for move in line:
            node = node.setdefault(move, {})
    return _chain(root, 0)


def _chain(node: dict[str, Any], depth: int) -> tuple[list[str], Branches]:
    """The line of first children from ``node`` on, each other child a variation."""
    moves: list[str] = []
    variations: Branches = {}
    while node:
        children = iter(node.items())
        first, after = next(children)
        for move, sub in children:
            if depth >= MAX_DEPTH:
                raise InvalidFileError(f"variations nested more than {MAX_DEPTH} deep")
            alt, inner = _chain({move: sub}, depth + 1)
            variations.setdefault(len(moves), []).append(Variation(alt, [], inner))
        moves.append(first)
        node = after
    return moves, variations


class BadMove(IllegalMoveError):
    """A move of a record that does not replay: its index among the moves of its line, and the line
    (``where``: the :class:`Variation`, or None for the main line)."""

    def __init__(self, index: int, text: str, where: Variation | None = None) -> None:
        super().__init__(text)
        self.index = index
        self.where = where


def replay_line(game: Any, state: Any, v: Variation, ply: int) -> None:
    """Every move of variation ``v`` and of its variations replayed from ``state``, its first move at ``ply``
    (counted from 0); :class:`BadMove` for the first that is not legal."""
    for i, text in enumerate(v._move_view()):
        for inner in v._branch_view().get(i, ()):
            replay_line(game, state, inner, ply + i)  # as deep as the tree: MAX_DEPTH
        try:
            state = game.result(state, game.parse_action(text, state))
        except IllegalMoveError as exc:
            raise BadMove(i, f"ply {ply + i + 1}, move {i + 1} of a variation from ply {ply + 1} ({text!r}): {exc}",
                          v) from None
