"""Records as text: :class:`Record`, :func:`format` and :func:`write` (the format is described in
:mod:`zerosum.records`; the tokens and their bounds in :mod:`zerosum.records.lexer`; reading in
:mod:`zerosum.records.reading`; variations in :mod:`zerosum.records.variations`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.checks import safe_repr
from ..errors import GameError, IllegalMoveError, InvalidFileError
from ..game import Game
from .lexer import MAX_TAGS, RESULTS, check_tag, flag, path_of
from .notes import MAX_NODES, MAX_SECONDS, MoveNote
from .trust import TagRefused, given_game, trusted_game
from .variations import NO_BRANCHES, BadMove, Line, Variation, check_tree, movetext, replay_line

__all__ = ["MAX_NODES", "MAX_SECONDS", "PGN_NAMES", "RESULTS", "ROSTER", "WIDTH", "MoveNote", "Record", "format",
           "game_of", "opening_of", "write"]

#: the tags every record has, in this order (a record read without some gets these defaults): PGN's Seven Tag
#: Roster first, in the order of its export format, then ours; White and Black are PGN's names of First and
#: Second, written for the tools that read PGN (Ordo, BayesElo, python-chess)
ROSTER: dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?",
                          "Black": "?", "Result": "*", "First": "?", "Second": "?", "Game": "", "Opening": "-",
                          "Termination": "?", "TimeControl": "-"}
#: PGN's name of each player tag
PGN_NAMES = {"First": "White", "Second": "Black"}
#: movetext lines are at most this wide (a longer comment gets a line of its own)
WIDTH = 80


class Record(Line):
    """One game: its tags (the roster of :data:`ROSTER` first), the moves after the opening in the game's
    notation, a note (or None) per move, the result token, and the variations: ``variations[i]`` the
    alternatives to ``moves[i]`` (each a :class:`~zerosum.records.Variation` from the position before it,
    with its own notes and variations).  Everything is checked when it is made: text a UTF-8 file can hold,
    within the bounds of :mod:`zerosum.records.lexer`.

    Kept compact until an attribute is first used (see :class:`~zerosum.records.variations.Line`): the tags as
    the pairs that differ from the roster's defaults, so that a record read costs little more than its text."""

    __slots__ = ("_tags", "result", "_game")
    _tags: Any
    result: str
    _game: Game[Any, Any] | None

    def __init__(self, tags: Mapping[str, str], moves: Sequence[str], notes: Sequence[MoveNote | None] = (),
                 result: str = "*", variations: Mapping[int, list[Variation]] = NO_BRANCHES, *,
                 game: Any = None) -> None:
        if not isinstance(result, str) or result not in RESULTS:
            raise InvalidFileError(f"result {safe_repr(result, 40)} is not one of {', '.join(RESULTS)}")
        if not isinstance(tags, Mapping):
            raise InvalidFileError(f"a record's tags are a dict of names to values, not {safe_repr(tags, 40)}")
        if len(tags) > MAX_TAGS:  # what reading refuses
            raise InvalidFileError(f"a record's tags: more than {MAX_TAGS:,} in one game")
        for name, value in tags.items():
            check_tag(name, value)
        if not tags.get("Game"):
            raise InvalidFileError('a record needs a Game tag naming its game, e.g. [Game "connect4"]')
        self.result = RESULTS[RESULTS.index(result)]  # the token itself, one string for every record
        full = {k: tags.get(k, d) for k, d in ROSTER.items()}
        full["Result"] = self.result
        for ours, pgn in PGN_NAMES.items():  # First rules (as the result token rules Result); White from it
            full[ours] = full[pgn] = tags.get(ours, tags.get(pgn, "?"))
        full.update((k, v) for k, v in tags.items() if k not in ROSTER)
        self._tags = tuple(x for k, v in full.items() if k not in ROSTER or v != ROSTER[k] for x in (k, v))
        self._set(moves, notes, variations, "a record's")
        check_tree(self._branch_view())
        self._game = None
        if game is not None:  # the game the caller names: it must be the tag's (a game file's is used only so)
            self._game = game_of(full["Game"], given_game(game))

    @property
    def tags(self) -> dict[str, str]:
        """The tags, names to values: the roster of :data:`ROSTER` first, in its order, then any others."""
        if type(self._tags) is tuple:
            self._tags = self._tag_view()
        return self._tags  # type: ignore[no-any-return]

    @tags.setter
    def tags(self, value: dict[str, str]) -> None:
        self._tags = value

    def _tag_view(self) -> Any:
        """The tags as :attr:`tags` gives them, without keeping the dict made."""
        if type(self._tags) is not tuple:
            return self._tags
        pairs = self._tags
        full = dict(ROSTER)
        full.update(zip(pairs[::2], pairs[1::2]))
        return full

    def _parts(self) -> tuple[Any, ...]:
        return (self._tag_view(), *super()._parts(), self.result)

    def __repr__(self) -> str:
        tags, moves, notes, branches, result = self._parts()
        return f"Record(tags={tags!r}, moves={moves!r}, notes={notes!r}, result={result!r}, variations={branches!r})"

    def lines(self) -> list[list[str]]:
        """Every line of the record's tree, each the moves after the opening to a leaf: :attr:`moves` first,
        then a line a leaf, in the order a walk meets them that takes each move's main continuation before its
        variations (the order of the page's tree); :func:`zerosum.records.tree` makes the tree again."""
        return super().lines()

    def _tag(self, name: str) -> str:
        """``tags[name]``, without making the dict."""
        if type(self._tags) is not tuple:
            return self._tags[name]  # type: ignore[no-any-return]
        pairs = self._tags
        for i in range(0, len(pairs), 2):
            if pairs[i] == name:
                return pairs[i + 1]  # type: ignore[no-any-return]
        return ROSTER[name]

    @property
    def game(self) -> Game[Any, Any]:
        """The game of the ``Game`` tag: the one given (``game=``, or to :func:`~zerosum.records.read`), else
        the game the tag names; a tag that names a Python file is refused without one given (nothing a record
        names is run: :mod:`zerosum.records.trust`)."""
        return game_of(self._tag("Game"), self._game)

    @property
    def opening(self) -> list[Any]:
        """The actions of the ``Opening`` tag (empty for ``-``)."""
        return opening_of(self.game, self._tag("Opening"))

    def actions(self) -> list[Any]:
        """Every action from the start: the opening's, then the moves'."""
        return self._replay()[1]

    def states(self) -> list[Any]:
        """The states from the start: after each opening move, then after each move (``1 + len(opening) +
        len(moves)`` of them).  A move that does not replay raises IllegalMoveError naming the game and ply."""
        try:
            return self._replay()[0]
        except BadMove as exc:
            raise IllegalMoveError(f"game {self._tag('Round')} ({self._tag('First')} - {self._tag('Second')}): "
                                   f"{exc}") from None

    def _replay(self, keep: bool = True, branches: bool = False,
                start: tuple[Game[Any, Any], list[Any]] | None = None) -> tuple[list[Any], list[Any]]:
        """The states and actions of the main line from the start (``keep=False``: only the last state, no
        actions); ``branches``: every variation's moves replayed too (BadMove names the line at fault);
        ``start``: the game and the opening's actions, when known."""
        game, opening = start or (self.game, self.opening)
        states = game.states_of(opening)
        actions = list(opening) if keep else []
        alternatives = self._branch_view() if branches else NO_BRANCHES
        for i, text in enumerate(self._move_view()):
            for v in alternatives.get(i, ()):
                replay_line(game, states[-1], v, len(opening) + i)
            try:
                action = game.parse_action(text, states[-1])
                after = game.result(states[-1], action)
            except IllegalMoveError as exc:
                raise BadMove(i, f"ply {len(opening) + i + 1}, move {i + 1} ({text!r}): {exc}") from None
            if keep:
                states.append(after)
                actions.append(action)
            else:
                states = [after]
        return states, actions

    def check(self) -> list[Any]:
        """The states (as :meth:`states`), once every move of every variation is known to be legal and the
        result to agree with the board: a game over on the board carries its result, a game not over is
        unfinished or ended by forfeit or adjudication."""
        return self._check(keep=True)

    def _check(self, keep: bool, start: tuple[Game[Any, Any], list[Any]] | None = None) -> list[Any]:
        game, opening = start or (self.game, self.opening)
        states = self._replay(keep, branches=True, start=(game, opening))[0]
        out = game.outcome(states[-1])
        if out is not None:
            said = {1: "1-0", 2: "0-1", None: "1/2-1/2"}[out.winner]
            if self.result not in (said, "*"):
                raise InvalidFileError(f"the moves end the game {said} ({out.reason}), but the result is {self.result}")
        elif self.result != "*" and self._tag("Termination") == "normal":
            raise InvalidFileError(f"the game is not over after its moves, yet its result is {self.result} "
                                   "with Termination \"normal\" (a forfeit or an adjudication says why)")
        return states


def game_of(spec: str, game: Game[Any, Any] | None = None) -> Game[Any, Any]:
    """The game of a ``Game`` tag: ``game`` when given (it must be the tag's), else the game the tag names,
    never a file's (:func:`~zerosum.records.trust.trusted_game`); InvalidFileError (one line) otherwise."""
    try:
        return trusted_game(spec, game)
    except GameError as exc:
        raise InvalidFileError(f"Game tag {safe_repr(spec, 160)}{' ' if isinstance(exc, TagRefused) else ': '}"
                               f"{exc}") from None


def opening_of(game: Game[Any, Any], opening: str) -> list[Any]:
    """The actions of an ``Opening`` tag in ``game``; InvalidFileError (one line) for moves it does not take."""
    from ..arena.openings import parse_opening

    try:
        return list(parse_opening(game, opening))
    except GameError as exc:
        raise InvalidFileError(f"Opening tag {safe_repr(opening, 60)}: {exc}") from None


# ---- text ----------------------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format(record: Record) -> str:
    """The record as text: tag pairs, a blank line, the movetext wrapped at :data:`WIDTH`, a newline.

    The record is checked again first (its fields may have been changed since it was made)."""
    if not isinstance(record, Record):
        raise InvalidFileError(f"format takes a Record, not {safe_repr(record, 40)}")
    tags, moves, notes, branches, result = record._parts()  # as they stand, none of them kept
    record = Record(tags, moves, notes, result, branches, game=record._game)
    tags, moves, notes, branches, result = record._parts()
    head = "".join(f'[{k} "{_escape(v)}"]\n' for k, v in tags.items())
    # plies are numbered from the start position, the opening's first
    atoms = movetext(moves, notes, branches, len(record.opening))
    atoms.append(result)
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


def write(records: Iterable[Record], path: str | os.PathLike[str], *, overwrite: bool = False) -> int:
    """Write ``records`` to ``path`` all at once (nothing is left on failure, and a file replaced with
    ``overwrite`` stays as it was); how many were written."""
    from ..arena.store_files import lock_file
    from ..core.files import atomic_output

    target = path_of(path, "record file")
    flag(overwrite, "overwrite")
    if isinstance(records, (str, bytes, Record)) or not isinstance(records, Iterable):
        raise InvalidFileError(f"write takes a list (or any iterable) of records, not {safe_repr(records, 40)}")
    count = 0
    try:  # a file a run's records go to (its lock held) is in use: never renamed over under that run
        with lock_file(Path(target), "record file"), atomic_output(target, overwrite=overwrite, what="record file") as fh:
            for record in records:
                fh.write(("\n" if count else "") + format(record))
                count += 1
    except OSError as exc:
        raise InvalidFileError(f"record file {str(target)!r}: {exc.strerror or exc}; nothing was written "
                               "(a file there is left as it was)") from None
    return count
