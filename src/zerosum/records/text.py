"""Records as text: :class:`Record`, :class:`MoveNote`, :func:`parse`, :func:`format`, :func:`read` and
:func:`write` (the format is described in :mod:`zerosum.records`)."""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import GameError, IllegalMoveError, InvalidFileError
from ..game import Game
from ..values import HEURISTIC_BOUND, is_proven, loss_value, plies_to_end, win_value

__all__ = ["RESULTS", "ROSTER", "WIDTH", "MoveNote", "Record", "format", "parse", "read", "write"]

#: the result tokens
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: the tags every record has, in this order (a record read without some gets these defaults)
ROSTER: dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "First": "?",
                          "Second": "?", "Game": "", "Opening": "-", "Result": "*", "Termination": "?",
                          "TimeControl": "-"}
#: movetext lines are at most this wide (a longer comment gets a line of its own)
WIDTH = 80

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_NUMBER = re.compile(r"[+-]?[0-9]{1,20}(?:\.[0-9]{1,20})?(?:[eE][+-]?[0-9]{1,3})?")
#: a proven value: ``+W5`` the mover wins 5 plies from this move's position, ``-L4`` it loses in 4 plies
_PROVEN = re.compile(r"(?:\+W|-L)([0-9]{1,9})")
_TOKENS = re.compile(r"""
    (?P<space>\s+)
  | (?P<tag>\[\s*(?P<name>[A-Za-z][A-Za-z0-9_]*)\s+"(?P<value>(?:[^"\\\n]|\\.)*)"\s*\])
  | (?P<comment>\{(?P<body>[^{}]*)\})
  | (?P<word>[^\s{}\[\]"]+)
""", re.VERBOSE)


@dataclass(frozen=True)
class MoveNote:
    """What a move cost: seconds, nodes searched and the mover's value (each may be None).

    Kept as the text holds them: seconds to the millisecond, values to 12 significant digits."""

    time: float | None = None
    nodes: int | None = None
    value: float | None = None

    def __post_init__(self) -> None:
        for name, x in (("time", self.time), ("value", self.value)):
            if x is not None and (isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x)):
                raise InvalidFileError(f"a move's {name} is a finite number, not {x!r}")
        if self.time is not None:
            if self.time < 0:
                raise InvalidFileError(f"a move's time is at least 0 seconds, not {self.time!r}")
            object.__setattr__(self, "time", round(float(self.time), 3))
        if self.value is not None:
            object.__setattr__(self, "value", float(f"{self.value:.12g}"))
        if self.nodes is not None and (type(self.nodes) is not int or self.nodes < 0):
            raise InvalidFileError(f"a move's nodes are a whole number >= 0, not {self.nodes!r}")

    def text(self) -> str:
        """The comment's inside: ``time=0.12s nodes=3401 value=+2`` (the fields that are known)."""
        parts = []
        if self.time is not None:
            parts.append(f"time={f'{self.time:.3f}'.rstrip('0').rstrip('.')}s")
        if self.nodes is not None:
            parts.append(f"nodes={self.nodes}")
        if self.value is not None:
            parts.append(f"value={proven_text(self.value) or f'{self.value:+.12g}'}")
        return " ".join(parts)

    @classmethod
    def from_text(cls, body: str) -> MoveNote:
        """The note of a comment's inside; InvalidFileError (one line) for anything else."""
        found: dict[str, Any] = {}
        for item in body.split():
            key, eq, raw = item.partition("=")
            if not eq or key not in ("time", "nodes", "value"):
                raise InvalidFileError(f"comment {{{' '.join(body.split())}}}: {item!r} is not time=SECONDSs, "
                                       "nodes=N or value=V")
            if key in found:
                raise InvalidFileError(f"comment {{{' '.join(body.split())}}}: {key} is given twice")
            text = raw[:-1] if key == "time" and raw.endswith("s") else raw
            proven = _PROVEN.fullmatch(text) if key == "value" else None
            if proven is not None and 0 < int(proven[1]) < WIN_PLIES:
                found[key] = float((win_value if text[0] == "+" else loss_value)(int(proven[1])))
                continue
            number = _NUMBER.fullmatch(text)
            if number is None or (key == "nodes" and not text.isdigit()) or not math.isfinite(float(text)):
                want = {"time": "seconds such as 0.12s", "nodes": "a whole number",
                        "value": "a number such as +2, or +W5 / -L4 (a win / loss in 5 / 4 plies)"}
                raise InvalidFileError(f"comment {{{' '.join(body.split())}}}: {key}={raw!r} is not {want[key]}")
            found[key] = int(text) if key == "nodes" else float(text)
        return cls(**found)


#: the longest distance a proven value can carry (plies)
WIN_PLIES = 10**9 - int(HEURISTIC_BOUND)


def proven_text(value: float) -> str | None:
    """A proven value as the records write it (``+W5``: the mover wins in 5 plies; ``-L4``: loses in 4), or
    None for an estimate."""
    if not is_proven(value) or value != int(value) or not 0 < plies_to_end(value) < WIN_PLIES:
        return None
    return f"{'+W' if value > 0 else '-L'}{plies_to_end(value)}"


@dataclass
class Record:
    """One game: its tags (the roster of :data:`ROSTER` first), the moves after the opening in the game's
    notation, a note (or None) per move, and the result token."""

    tags: dict[str, str]
    moves: list[str]
    notes: list[MoveNote | None] = field(default_factory=list)
    result: str = "*"

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise InvalidFileError(f"result {self.result!r} is not one of {', '.join(RESULTS)}")
        for name, value in self.tags.items():
            if not isinstance(name, str) or not _NAME.fullmatch(name):
                raise InvalidFileError(f"tag name {name!r}: letters, digits and _, starting with a letter")
            if not isinstance(value, str) or _CONTROL.search(value):
                raise InvalidFileError(f"tag {name}: its value is text on one line, not {value!r}")
        if not self.tags.get("Game"):
            raise InvalidFileError('a record needs a Game tag naming its game, e.g. [Game "connect4"]')
        tags = {k: self.tags.get(k, d) for k, d in ROSTER.items()}
        tags["Result"] = self.result
        tags.update((k, v) for k, v in self.tags.items() if k not in ROSTER)
        self.tags = tags
        for m in self.moves:
            if not isinstance(m, str) or not re.fullmatch(r"[^\s{}\[\]\"]+", m) or m in RESULTS:
                raise InvalidFileError(f"move {m!r} is not a move token (no spaces, braces, brackets or quotes)")
        if len(self.notes) > len(self.moves):
            raise InvalidFileError(f"{len(self.notes)} notes for {len(self.moves)} moves")
        self.notes = [None if n == MoveNote() else n for n in self.notes]
        self.notes += [None] * (len(self.moves) - len(self.notes))

    @property
    def game(self) -> Game[Any, Any]:
        """The game of the ``Game`` tag."""
        from ..games import get_game

        try:
            return get_game(self.tags["Game"])
        except GameError as exc:
            raise InvalidFileError(f"Game tag {self.tags['Game']!r}: {exc}") from None

    @property
    def opening(self) -> list[Any]:
        """The actions of the ``Opening`` tag (empty for ``-``)."""
        from ..arena.openings import parse_opening

        try:
            return list(parse_opening(self.game, self.tags["Opening"]))
        except GameError as exc:
            raise InvalidFileError(f"Opening tag {self.tags['Opening']!r}: {exc}") from None

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

    def _replay(self) -> tuple[list[Any], list[Any]]:
        game, opening = self.game, self.opening
        states = game.states_of(opening)
        actions = list(opening)
        for i, text in enumerate(self.moves):
            try:
                action = game.parse_action(text, states[-1])
                states.append(game.result(states[-1], action))
            except IllegalMoveError as exc:
                raise _BadMove(i, f"ply {len(opening) + i + 1}, move {i + 1} ({text!r}): {exc}") from None
            actions.append(action)
        return states, actions

    def check(self) -> list[Any]:
        """The states (as :meth:`states`), once the result is known to agree with the board: a game over on
        the board carries its result, a game not over is unfinished or ended by forfeit or adjudication."""
        states = self._replay()[0]
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
    """The record as text: tag pairs, a blank line, the movetext wrapped at :data:`WIDTH`, a newline."""
    tags = {**record.tags, "Result": record.result}
    head = "".join(f'[{k} "{_escape(v)}"]\n' for k, v in tags.items())
    atoms: list[str] = []
    for move, note in zip(record.moves, record.notes):
        atoms.append(move if note is None else f"{move} {{{note.text()}}}")  # a move and its comment together
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


def parse(text: str) -> list[Record]:
    """Every game of a record text, each checked (see the module docstring); ``[]`` for empty text."""
    if not isinstance(text, str):
        raise InvalidFileError(f"a record is text, not {type(text).__name__}")
    games: list[Record] = []
    tags: dict[str, str] = {}
    moves: list[tuple[str, int]] = []
    notes: list[MoveNote | None] = []
    phase, start, pos, line = "between", 1, 0, 1

    def bad(what: str, at: int | None = None) -> InvalidFileError:
        return InvalidFileError(f"game {len(games) + 1}, line {at or line}: {what}")

    while pos < len(text):
        m = _TOKENS.match(text, pos)
        if m is None:
            ch = text[pos]
            what = ("a tag pair is [Name \"value\"] on one line" if ch == "[" else
                    "a comment opened with { is never closed (or holds a brace)" if ch == "{" else
                    f"unexpected {ch!r}")
            raise bad(what)
        pos, kind = m.end(), m.lastgroup
        if kind == "space":
            line += m.group().count("\n")
            continue
        if kind == "tag":
            if phase == "moves":
                raise bad(f"tag {m['name']} inside the moves: end the game with its result token first")
            if phase == "between":
                phase, start = "tags", line
            name, value = m["name"], re.sub(r"\\(.)", r"\1", m["value"])
            if name in tags:
                raise bad(f"tag {name} is given twice")
            tags[name] = value
        elif phase == "between":
            raise bad(f"expected a tag pair such as [Game \"connect4\"] to start a game, found {m.group()[:40]!r}")
        elif kind == "comment":
            if not moves or notes[-1] is not None:
                raise bad("a comment belongs after a move, one per move")
            try:
                notes[-1] = MoveNote.from_text(m["body"])
            except InvalidFileError as exc:
                raise bad(str(exc)) from None
            line += m.group().count("\n")
        elif m.group() in RESULTS:
            games.append(_finish(tags, moves, notes, m.group(), start, bad))
            tags, moves, notes, phase = {}, [], [], "between"
        else:
            phase = "moves"
            moves.append((m.group(), line))
            notes.append(None)
    if phase != "between":
        raise bad("the game has no result token (1-0, 0-1, 1/2-1/2 or *) after its moves")
    return games


def _finish(tags: dict[str, str], moves: list[tuple[str, int]], notes: list[MoveNote | None], result: str,
            start: int, bad: Callable[..., InvalidFileError]) -> Record:
    """The record of one parsed game, checked; errors name the line of the tag or move at fault."""
    if tags.get("Result", result) != result:
        raise bad(f"the Result tag says {tags['Result']} but the moves end with {result}")
    try:
        record = Record(tags, [t for t, _ in moves], [n or None for n in notes], result)
        _ = (record.game, record.opening)
    except InvalidFileError as exc:
        raise bad(str(exc), start) from None
    try:
        record.check()
    except _BadMove as exc:
        raise bad(str(exc), moves[exc.index][1]) from None
    except InvalidFileError as exc:
        raise bad(str(exc), moves[-1][1] if moves else start) from None
    return record


def read(path: str | os.PathLike[str]) -> list[Record]:
    """Every game of a record file (one-line InvalidFileError naming the file, the game and the line)."""
    from ..core.files import read_text

    text = read_text(path, "record file")
    try:
        return parse(text)
    except InvalidFileError as exc:
        raise InvalidFileError(f"record file {str(path)!r}: {exc}") from None


def write(records: Iterable[Record], path: str | os.PathLike[str], *, overwrite: bool = False) -> int:
    """Write ``records`` to ``path`` all at once (nothing is left on failure); how many were written."""
    from ..core.files import atomic_output

    count = 0
    with atomic_output(path, overwrite=overwrite, what="record file") as fh:
        for record in records:
            fh.write(("\n" if count else "") + format(record))
            count += 1
    return count


