"""The engine protocol, version 1 (docs/protocol.md): every line in both directions, parsed and formatted.

Each line is one typed, frozen value: the GUI's commands (:data:`Command`) and the engine's replies
(:data:`Reply`).  ``parse_command(line)`` and ``parse_reply(line)`` read a line strictly: a line whose first
word is a known one but whose rest is wrong raises :class:`ProtocolError`, one line naming the line; a line
whose first word is not one of that direction's words is an :class:`Unknown` (an engine ignores it).
``message.line()`` (or :func:`format_line`) writes the line back; a value that could not be written as a
valid line cannot be built, so ``parse(x.line()) == x`` for every value.  :func:`read_line` reads one bounded
line from a byte stream.

Words (a move string is the game's own notation, as ``zerosum`` writes it everywhere)::

    GUI -> engine                               engine -> GUI
    zsp 1                           Hello       id name NAME | id author AUTHOR      Id
    isready                         IsReady     option name N type T default D ...   OptionSpec
    setoption name N value V        SetOption   game SPEC                            GameSpec
    newgame                         NewGame     zspok                                HelloDone
    position SPEC [moves MOVES]     Position    readyok                              ReadyOk
    go [movetime MS] [nodes N] ...  Go          info [depth D] ... [pv MOVES]        Info
    stop                            Stop        bestmove MOVE | bestmove (none)      BestMove
    quit                            Quit
"""

from __future__ import annotations

from .lines import format_line, parse_command, parse_reply, read_line
from .messages import (MAX_LINE, MAX_NODES, MAX_NUMBER, NO_MOVE, PROTOCOL_VERSION, BestMove, Command, GameSpec, Go,
                       Hello, HelloDone, Id, Info, IsReady, Message, NewGame, OptionSpec, Position, ProtocolError, Quit,
                       ReadyOk, Reply, SetOption, Stop, Unknown)

__all__ = [
    "PROTOCOL_VERSION", "MAX_LINE", "MAX_NUMBER", "MAX_NODES", "NO_MOVE", "ProtocolError",
    "Hello", "IsReady", "SetOption", "NewGame", "Position", "Go", "Stop", "Quit",
    "Id", "OptionSpec", "GameSpec", "HelloDone", "ReadyOk", "Info", "BestMove", "Unknown",
    "Command", "Reply", "Message", "parse_command", "parse_reply", "format_line", "read_line",
]
