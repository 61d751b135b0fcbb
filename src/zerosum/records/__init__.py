"""Game records: plain text, PGN-like, one game after another, for every zerosum game.

A record is tag pairs, a blank line, the moves in the game's own notation and the result token::

    [Event "zerosum match"]
    [Site "lab-3"]
    [Date "2025.05.14"]
    [Round "7"]
    [White "alphabeta:depth=4"]
    [Black "mcts:sims=200"]
    [Result "1-0"]
    [First "alphabeta:depth=4"]
    [Second "mcts:sims=200"]
    [Game "connectx:rows=6,cols=7,k=4"]
    [Opening "44"]
    [Termination "normal"]
    [TimeControl "1/0.5"]

    2. 3 {time=0.012s nodes=3401 value=+2} 2... 5 {time=0.03s} 3. 3 {time=0.011s nodes=2950 value=+W5} 1-0

- PGN's Seven Tag Roster comes first, in the order of PGN's export format (Event, Site, Date, Round, White,
  Black, Result), then zerosum's tags, then any others; a record is read with its tags in any order.
  ``White`` and ``Black`` repeat ``First`` and ``Second`` under PGN's names, for the tools that read PGN
  headers (Ordo, BayesElo, python-chess); a record read with only one of a pair gets the other from it, and
  a pair that disagrees is refused.  ``Result`` is PGN's: ``1-0``, ``0-1``, ``1/2-1/2``, ``*``.
- Full moves are numbered as PGN's export format (and python-chess's writer) numbers them, counting plies
  from the start position (the opening's first): ``N.`` before the first player's move, ``N...`` before a
  second player's move that starts a line or follows a comment or a variation.  A number ends in a dot, so
  the move ``4`` and the number ``4.`` never read alike.  Numbers are optional when reading (older records
  have none, or none after a comment) but must be right where given.

- A tag value escapes ``"`` and ``\\`` with a backslash, as PGN does, and holds no line break.
- A move may be followed by one note ``{time=SECONDSs nodes=N value=V}`` (any of the three, in any
  order): the mover's seconds, the nodes it searched and its value (the mover's view: a proof is ``+W5`` /
  ``-L4``, a win / loss that many plies ahead counting the move itself; an estimate is a number in the
  agent's own units).  A comment that starts with ``time=``, ``nodes=`` or ``value=`` is a note and is read
  strictly.
- An annotated record (``zerosum review -o``) adds PGN's suffixes to moves (``4?``, ``4??``, ``4!``; the
  six of ``records.notes.MARKS``) and one free comment a move, after its note (``4?? {blunder: win in 5 moves -> loss
  in 4 moves}``): :attr:`MoveNote.mark` and :attr:`MoveNote.comment`.
- A variation, PGN's recursive annotation variation, follows the move it is an alternative to, in parentheses,
  and may hold variations of its own: ``1. 4 4 2. 3 ( 2. 5 5 ( 2... 2 ) 3. 1 ) 2... 4`` (after ``4 4``, ``3`` was
  played; ``5 5 1`` could have been, and after ``5`` the reply ``2`` instead of ``5``).
  :attr:`Record.variations` maps a move's index to its alternatives, each a :class:`Variation` (moves, notes,
  variations) from the position before that move; every move of every variation is replayed legally when
  read.  At most :data:`MAX_DEPTH` levels and :data:`MAX_VARIATIONS` variations a game.  The writer puts
  spaces around the parentheses; a reader also takes them against a move (``(2. 5 5)``), except that in a game
  whose moves are written with parentheses (a course game's tuples, ``(2,2)``) a pair inside one word is the
  move's own.  :meth:`Record.lines` lists every line of the tree and :func:`tree` makes a tree from lines.
- Movetext wraps at 80 columns; reading accepts any whitespace between tokens.
- The result token: ``1-0`` (the first player won), ``0-1``, ``1/2-1/2`` or ``*`` (unfinished).
- ``Opening`` is the move string played before the moves (``-``: the start position); ``Termination`` is
  ``normal``, ``forfeit: REASON`` or ``adjudication: REASON`` (an extension of PGN's values, which
  docs/records.md describes); ``TimeControl`` is ``BASE+INC`` (a game
  clock), ``1/T`` (T seconds a move) or ``-``.

Reading takes memory in proportion to the text: a line is at most :data:`MAX_LINE` characters, a tag value
:data:`MAX_TAG`, a move :data:`MAX_MOVE`, a comment :data:`MAX_COMMENT`, variations :data:`MAX_DEPTH` deep and
:data:`MAX_VARIATIONS` a game, :data:`MAX_LINE_MOVES` moves a line and :data:`MAX_TAGS` tags a game, each
refused in one line naming the line; a tag lies on one line; text no UTF-8 file can hold (lone surrogates) is
refused wherever it is.

:func:`parse` checks each game whole: its tags, its game spec, every move replayed legally from the opening,
and a result that agrees with the board (a game over on the board must carry its result; one that is not
over needs a forfeit or an adjudication).  Anything wrong is one :class:`~zerosum.errors.InvalidFileError`
line naming the game and the line: ``game 3, line 17: ply 7, move 5 ('9'): column 9 is outside 1..7``.
A Game tag that names a Python file (your own game, ``nim.py:Nim``) is read only with the game given, ``game=``
(:func:`parse`, :func:`read`, :class:`Record`, :func:`from_store`): reading a record never runs a file it names
(:mod:`zerosum.records.trust`).

>>> r = parse('[Game "tictactoe"]\\n\\n1. 5 1 {time=0.5s} 2. 9 *')[0]
>>> r.moves, r.notes[1], r.result
(['5', '1', '9'], MoveNote(time=0.5, nodes=None, value=None, mark=None, comment=None, exact=False), '*')
>>> parse(format(r)) == [r]
True
>>> v = parse('[Game "connect4"]\\n\\n1. 4 4 2. 3 (2. 5 5 (2... 2) 3. 1) 2... 4 *')[0]
>>> v.moves, v.variations[2][0].moves, v.variations[2][0].variations[1][0].moves
(['4', '4', '3', '4'], ['5', '5', '1'], ['2'])
>>> v.lines()
[['4', '4', '3', '4'], ['4', '4', '5', '5', '1'], ['4', '4', '5', '2']]
>>> format(v).splitlines()[-1]
'1. 4 4 2. 3 ( 2. 5 5 ( 2... 2 ) 3. 1 ) 2... 4 *'
"""

from __future__ import annotations

from .lexer import (MAX_COMMENT, MAX_DEPTH, MAX_LINE, MAX_LINE_MOVES, MAX_MOVE, MAX_TAG, MAX_TAG_NAME, MAX_TAGS,
                    MAX_VARIATIONS, move_number)
from .reading import parse, read
from .sources import from_game_record, from_store, termination
from .text import MAX_NODES, MAX_SECONDS, RESULTS, ROSTER, WIDTH, MoveNote, Record, format, write
from .variations import Variation, tree
from .writer import Writer

__all__ = [
           "MAX_COMMENT",
           "MAX_DEPTH",
           "MAX_LINE",
           "MAX_LINE_MOVES",
           "MAX_MOVE",
           "MAX_NODES",
           "MAX_SECONDS",
           "MAX_TAG",
           "MAX_TAG_NAME",
           "MAX_TAGS",
           "MAX_VARIATIONS",
           "RESULTS",
           "ROSTER",
           "WIDTH",
           "MoveNote",
           "Record",
           "Variation",
           "Writer",
           "format",
           "from_game_record",
           "from_store",
           "move_number",
           "parse",
           "read",
           "termination",
           "tree",
           "write",
]
