"""Records as text: :class:`Record`, :func:`format` and :func:`write` (the format is described in
:mod:`zerosum.records`; the tokens and their bounds in :mod:`zerosum.records.lexer`; reading in
:mod:`zerosum.records.reading`; variations in :mod:`zerosum.records.variations`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.checks import safe_repr
from ..errors import GameError, IllegalMoveError, InvalidFileError
from ..game import Game
from .lexer import RESULTS, check_tag, flag, path_of
from .notes import MAX_NODES, MAX_SECONDS, MoveNote
from .variations import BadMove, Variation, check_branches, check_line, check_tree, lines_of, movetext, replay_line

__all__ = ["MAX_NODES", "MAX_SECONDS", "PGN_NAMES", "RESULTS", "ROSTER", "WIDTH", "MoveNote", "Record", "format",
           "write"]

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


@dataclass
class Record:
    """One game: its tags (the roster of :data:`ROSTER` first), the moves after the opening in the game's
    notation, a note (or None) per move, the result token, and the variations: ``variations[i]`` the
    alternatives to ``moves[i]`` (each a :class:`~zerosum.records.Variation` from the position before it,
    with its own notes and variations).  Everything is checked when it is made: text a UTF-8 file can hold,
    within the bounds of :mod:`zerosum.records.lexer`."""

    tags: dict[str, str]
    moves: list[str]
    notes: list[MoveNote | None] = field(default_factory=list)
    result: str = "*"
    variations: dict[int, list[Variation]] = field(default_factory=dict)

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
        for ours, pgn in PGN_NAMES.items():  # First rules (as the result token rules Result); White from it
            tags[ours] = tags[pgn] = self.tags.get(ours, self.tags.get(pgn, "?"))
        tags.update((k, v) for k, v in self.tags.items() if k not in ROSTER)
        self.tags = tags
        self.moves, self.notes = check_line(self.moves, self.notes, "a record's")
        self.variations = check_branches(self.variations, len(self.moves))
        check_tree(self.variations)

    def lines(self) -> list[list[str]]:
        """Every line of the record's tree, each the moves after the opening to a leaf: :attr:`moves` first,
        then a line a leaf, in the order a walk meets them that takes each move's main continuation before its
        variations (the order of the page's tree); :func:`zerosum.records.tree` makes the tree again."""
        return lines_of(self.moves, self.variations)

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
        except BadMove as exc:
            raise IllegalMoveError(f"game {self.tags['Round']} ({self.tags['First']} - {self.tags['Second']}): "
                                   f"{exc}") from None

    def _replay(self, keep: bool = True, branches: bool = False) -> tuple[list[Any], list[Any]]:
        """The states and actions of the main line from the start (``keep=False``: only the last state, no
        actions); ``branches``: every variation's moves replayed too (BadMove names the line at fault)."""
        game, opening = self.game, self.opening
        states = game.states_of(opening)
        actions = list(opening) if keep else []
        for i, text in enumerate(self.moves):
            for v in self.variations.get(i, ()) if branches else ():
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

    def _check(self, keep: bool) -> list[Any]:
        states = self._replay(keep, branches=True)[0]
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


# ---- text ----------------------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format(record: Record) -> str:
    """The record as text: tag pairs, a blank line, the movetext wrapped at :data:`WIDTH`, a newline.

    The record is checked again first (its fields may have been changed since it was made)."""
    if not isinstance(record, Record):
        raise InvalidFileError(f"format takes a Record, not {safe_repr(record, 40)}")
    record = Record(record.tags, record.moves, record.notes, record.result, record.variations)
    head = "".join(f'[{k} "{_escape(v)}"]\n' for k, v in record.tags.items())
    # plies are numbered from the start position, the opening's first
    atoms = movetext(record.moves, record.notes, record.variations, len(record.opening))
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
