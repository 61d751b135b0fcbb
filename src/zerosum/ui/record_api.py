"""``POST /api/record``: the games of a game record (:mod:`zerosum.records`), ready for the page's move list.

The page pastes a record (or reads a file) and sends its text (a file's as :func:`record_fields` takes it, so a
file that is no UTF-8 text is refused in the words of ``zerosum replay``); the answer lists every game with its tags, its
moves and result (as :func:`zerosum.records.parse` reads them) and ``line``: the moves from the start of the
game -- the opening's, then the game's (``separator``: what joins them in a move string) -- checked against the
page's limits (:func:`check_position`) so the page can step through them; ``lines``: every line of the game's
tree of variations the same way (the main line first, then one a leaf as :meth:`zerosum.records.Record.lines`
orders them; at most :data:`MAX_LINES`), which the page plants as its tree; ``marks``: the main line's moves'
PGN suffixes and comments (``zerosum review -o``), ``variation_marks`` those of every variation's moves
(:func:`tree_marks`), which ``POST /api/export`` takes back as they are. A game the page cannot show (a
board past 16 x 16, a game it does not know) keeps its place in the list with ``error`` saying why; malformed
text is a 400 naming the game and the line.

Reading a record replays its moves, which can cost seconds and memory, so :func:`record_job` runs in an engine
worker (:mod:`zerosum.pool`) under an engine job's time and memory bounds, and the page's board check comes
first, from the tags alone: the text is cut into games (:func:`games_of`), each game's ``Game`` tags are
checked with :func:`check_game`, and a game the page cannot show is never replayed.  At most
:data:`MAX_GAMES` games are read.
"""

from __future__ import annotations

import json
import re
from typing import Any, cast

from ..core.files import not_text, shown
from ..errors import GameError, InvalidFileError
from .position import check_game, checked_position

__all__ = ["record_job", "record_games", "record_fields", "games_of", "joined", "tree_marks", "MAX_RECORD", "MAX_GAMES",
           "MAX_LINES", "MAX_RECORD_REQUESTS"]

MAX_RECORD = 256 * 1024  # bytes of a record sent to the page's server
MAX_GAMES = 1000  # games of one record read and listed (a record of more is cut, and the answer says so)
MAX_RECORD_REQUESTS = 2  # records read at once by one server; more are refused at once (503)
MAX_LINES = 1001  # lines of a game's tree shown on the page: its main line and 1,000 variations (as it exports)

#: the start of a Game tag, as the record reader sees one; then its value, at most a long spec's length
_GAME_TAG = re.compile(r'\[\s*Game\s+"')
_VALUE = re.compile(r'((?:[^"\\\n]|\\.){0,400})"')
#: a tag shown for a game that is not read (one line, a bounded value)
_TAG = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]{0,63})\s+"((?:[^"\\\n]|\\.){0,400})"\s*\]')
_ESCAPE = re.compile(r"\\(.)")
_WHERE = re.compile(r"^game (\d+), line (\d+): ")


def games_of(text: str) -> list[tuple[int, str]]:
    """The text cut into games: ``(number of its first line, its text)``.  A game starts at a line that opens
    with ``[`` (a tag) after a line of moves; a comment (``{...}``) may run over lines.  Malformed text is
    cut somewhere all the same (reading the pieces then says what is wrong).  A cut never falls inside a
    tag (a tag's name and value follow its ``[`` on the same line)."""
    pieces: list[tuple[int, str]] = []
    start, start_line, line, pos = 0, 1, 1, 0
    moves_seen = in_comment = False
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end + 1
        row = text[pos:end].strip()
        if row.startswith("[") and not in_comment:
            if moves_seen:
                pieces.append((start_line, text[start:pos]))
                start, start_line, moves_seen = pos, line, False
            row = row[row.rfind("]") + 1:]  # moves after the tags, on the same line
        if row:
            moves_seen = True
            opened, closed = row.rfind("{"), row.rfind("}")
            if opened != closed:  # the line's last brace says whether a comment runs on
                in_comment = opened > closed
        pos, line = end, line + 1
    if text[start:].strip() or not pieces:
        pieces.append((start_line, text[start:]))
    return pieces


def _game_specs(piece: str) -> list[str | None]:
    """The value of every Game tag in a piece of record text (None: one longer than any spec, or unclosed)."""
    specs: list[str | None] = []
    for m in _GAME_TAG.finditer(piece):
        value = _VALUE.match(piece, m.end())
        specs.append(None if value is None else _ESCAPE.sub(r"\1", value[1]))
    return specs


def _refusal(spec: str | None) -> str | None:
    """Why the page cannot show a game of ``spec`` (None: it can), from the spec alone: nothing is built past
    the page's size."""
    if spec is None:
        return "its Game tag is longer than any game spec, or not closed"
    try:
        check_game(spec)
    except GameError as exc:
        return str(exc)
    return None


def joined(first: tuple[str | None, str | None], then: tuple[str | None, str | None]) -> tuple[str | None, str | None]:
    """Two annotations ``(mark, comment)`` of one move of the page's tree, which holds each line of moves once
    (a record may reach a position twice by the same moves, ``4 ( 4 ... )``): the first mark, and the comments
    joined by ``"; "`` where they fit one comment (:data:`~zerosum.records.MAX_COMMENT`), else the first's."""
    from ..records import MAX_COMMENT

    comments = [c for c in (first[1], then[1]) if c]
    if len(comments) == 2 and comments[0] != comments[1] and len(comments[0]) + 2 + len(comments[1]) <= MAX_COMMENT:
        comments = ["; ".join(comments)]
    return first[0] or then[0], comments[0] if comments else None


def tree_marks(record: Any, tree: list[list[str]], start: int) -> list[dict[str, Any]]:
    """The annotations of every move of ``record``'s tree (main line and variations, at every depth):
    ``{"line": L, "ply": N, "mark": M, "comment": C}`` sorted by line and ply, the move N of ``tree[L]`` (the
    record's lines from the start, in the game's spelling; ``start``: the opening's moves before them), L the
    first line of ``tree`` through the move (0: the main line).  Two moves of the record that are one move of
    the page's tree are one mark (:func:`joined`)."""
    root: list[Any] = [{}, 0]  # a trie of the lines: [children by move, the first line through it]
    for number, line in enumerate(tree):
        node = root
        for move in line:
            node = node[0].setdefault(move, [{}, number])
    found: dict[int, dict[str, Any]] = {}

    def walk(line: Any, number: int, node: list[Any], ply: int) -> None:
        """The marks of ``line`` (``tree[number]`` from ``ply`` on, from ``node``) and of its variations."""
        before = []
        for i, note in enumerate(line.notes):
            before.append(node)
            node = node[0][tree[number][ply + i]]
            if note is not None and (note.mark or note.comment):
                had = found.setdefault(id(node), {"line": node[1], "ply": ply + i + 1, "mark": None, "comment": None})
                had["mark"], had["comment"] = joined((had["mark"], had["comment"]), (note.mark, note.comment))
        after = number + 1  # the lines as Record.lines() lists them: a line, then its later moves' variations first
        for index in sorted(line.variations, reverse=True):
            for v in line.variations[index]:
                walk(v, after, before[index], ply + index)  # as deep as the tree: MAX_DEPTH
                after += 1 + v.count_variations()

    node = root
    for move in tree[0][:start]:
        node = node[0][move]
    walk(record, 0, node, start)
    return sorted(found.values(), key=lambda m: (m["line"], m["ply"]))


def _entry(record: Any) -> dict[str, Any]:
    """A game read from the record, with its line from the start checked against the page's limits."""
    entry: dict[str, Any] = {"tags": dict(record.tags), "moves": list(record.moves), "result": record.result,
                             "game": None, "line": [], "lines": [], "separator": "", "error": None, "marks": [],
                             "variation_marks": []}
    try:
        game = check_game(record.tags.get("Game"))
        opening = record.tags.get("Opening", "").strip()
        start = [game.format_action(a) for a in game.parse_moves(opening)] if opening not in ("", "-") else []
        lines = record.lines()
        if len(lines) > MAX_LINES:
            raise InvalidFileError(f"its tree has {len(lines):,} lines; the page shows at most {MAX_LINES:,}")
        # each line of the tree from the start, in the game's own spelling (the page's tree compares moves)
        tree = [[game.format_action(a) for a in checked_position(game, game.move_separator.join([*start, *line]))[0]]
                for line in lines]
        entry.update(game=game.spec, line=tree[0], lines=tree, separator=game.move_separator)
        # an annotated record's marks (zerosum review -o): {ply, mark, comment} for each move that has one, those
        # of the variations' moves apart ({line, ply, ...}), so that the page's list of the main line's marks
        # is what it always was
        marks = tree_marks(record, tree, len(start))
        entry["marks"] = [{k: m[k] for k in ("ply", "mark", "comment")} for m in marks if m["line"] == 0]
        entry["variation_marks"] = [m for m in marks if m["line"] > 0]
    except GameError as exc:
        entry["error"] = str(exc)
    return entry


def _unread(piece: str, why: str) -> dict[str, Any]:
    """A game the page cannot show, listed from its tags (its moves are not read)."""
    tags: dict[str, str] = {}
    for m in _TAG.finditer(piece):
        tags.setdefault(m[1], _ESCAPE.sub(r"\1", m[2]))
    return {"tags": tags, "moves": [], "result": tags.get("Result", "*"), "game": None, "line": [], "lines": [],
            "separator": "", "error": why, "marks": [], "variation_marks": []}


def _read(piece: str, first_line: int, games_before: int) -> list[Any]:
    """The games of one piece, read by :func:`zerosum.records.parse`; its errors name the record's game and
    line, not the piece's."""
    from ..records import parse

    try:
        return parse(piece)
    except InvalidFileError as exc:
        message = _WHERE.sub(lambda m: f"game {games_before + int(m[1])}, line {first_line - 1 + int(m[2])}: ",
                             str(exc), count=1)
        raise InvalidFileError(message) from None


def record_games(text: str) -> dict[str, Any]:
    """The games of the record ``text`` for the page (raises GameError: the text is not a record)."""
    if not isinstance(text, str):
        raise InvalidFileError(f"a record is text, not {type(text).__name__}")
    pieces = games_of(text)
    games: list[dict[str, Any]] = []
    refused: dict[str | None, str | None] = {}  # each spec checked once
    read = 0
    for read, (first_line, piece) in enumerate(pieces, 1):
        specs = _game_specs(piece)
        for spec in specs:
            if spec not in refused:
                refused[spec] = _refusal(spec)
        refusals = [why for why in (refused[spec] for spec in specs) if why is not None]
        if refusals and len(specs) > 1:
            raise InvalidFileError(f"game {len(games) + 1}, line {first_line}: a game the page cannot show "
                                   f"({refusals[0]}) shares its lines with another game: start each game's tags "
                                   "on a line of their own")
        if refusals:
            games.append(_unread(piece, refusals[0]))
        else:
            games.extend(_entry(record) for record in _read(piece, first_line, len(games)))
        if len(games) >= MAX_GAMES:
            break
    total = len(games) + len(pieces) - read
    note = None
    if total > MAX_GAMES:
        note = f"the record holds {total} games; the first {MAX_GAMES} are listed (the rest are not read)"
    return {"games": games[:MAX_GAMES], "note": note}


def record_fields(data: dict[str, Any]) -> tuple[str, str | None]:
    """The text of a ``POST /api/record`` body and the name of the file it came from (None: pasted).

    ``{"text": RECORD}`` is pasted text; ``{"file": NAME, "text": TEXT, "nul": BOOL}`` a file the page read as
    bytes: TEXT their UTF-8 text, null where they are not UTF-8, ``nul`` whether one of them is 0.  A file is
    refused as :func:`zerosum.records.read` refuses one (:func:`zerosum.core.files.read_text`'s words): a NUL
    byte, "not a text file", before bytes that are not UTF-8, "not UTF-8 text"."""
    name, text, nul = data.get("file"), data.get("text"), data.get("nul", False)
    pasted = set(data) == {"text"} and isinstance(text, str)
    read = set(data) <= {"text", "file", "nul"} and "text" in data and isinstance(name, str) \
        and isinstance(nul, bool) and (text is None or isinstance(text, str))
    if not (pasted or read):
        raise GameError('send {"text": RECORD}: the text of a game record, as a string (a file read as bytes: '
                        '{"file": NAME, "text": TEXT or null where its bytes are not UTF-8, "nul": BOOL})')
    if name is not None and (nul or text is None or "\0" in text):
        raise not_text("record file", name, binary=nul or (text is not None and "\0" in text))
    return cast(str, text), cast("str | None", name)  # pasted: a string; a file's: refused above unless text


def record_job(text: str, name: str | None = None) -> bytes:
    """:func:`record_games` as JSON (ASCII), made in the worker that reads the record: the server only passes
    the bytes on.  ``name``: the file the text came from, named in an error as :func:`zerosum.records.read`
    names it (``record file 'games.pgn': game 1, line 3: ...``)."""
    try:
        games = record_games(text)
    except InvalidFileError as exc:
        if name is None:
            raise
        raise InvalidFileError(f"record file {shown(name)}: {exc}") from None
    return json.dumps(games, separators=(",", ":")).encode("ascii")
