"""Every error zerosum raises on purpose, under one base class.

::

    GameError                       anything zerosum refuses
    ├── IllegalMoveError(ValueError)     a well-formed move the rules do not allow
    │   └── InvalidMoveError            input that does not parse as a move at all
    ├── InvalidPositionError(ValueError) a position that cannot arise in play
    ├── InvalidSpecError(ValueError)     an unknown or malformed game spec
    ├── AgentError                      a bad agent spec, or an agent that failed
    ├── InvalidFileError(ValueError)     a file that is missing, unreadable, binary or malformed
    └── UsageError(ValueError)           a command-line option out of range or options that conflict

Messages quote the bad input and say what would be valid, for example
``column 9 is outside 1..7`` or ``column 4 is full``.  Raising never changes a state.
"""

from __future__ import annotations

__all__ = [
    "GameError",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidSpecError",
    "AgentError",
    "InvalidFileError",
    "UsageError",
]


class GameError(Exception):
    """Base class of every error zerosum raises on purpose."""


class IllegalMoveError(GameError, ValueError):
    """A move that the rules do not allow in this state (full column, taken cell, game over...)."""


class InvalidMoveError(IllegalMoveError):
    """Input that does not parse as a move (a letter where a column number belongs, ...)."""


class InvalidPositionError(GameError, ValueError):
    """A position that cannot arise in play: floating stones, wrong stone counts, play after a win."""


class InvalidSpecError(GameError, ValueError):
    """An unknown game name or a malformed game spec such as ``connectx:rows=0``."""


class AgentError(GameError):
    """An unknown agent, a bad agent option, or an agent that failed while choosing a move."""


class InvalidFileError(GameError, ValueError):
    """A file that cannot be used: missing, a directory, binary, malformed, or not writable."""


class UsageError(GameError, ValueError):
    """Bad usage found after parsing the command line: an option out of range, options that conflict."""
