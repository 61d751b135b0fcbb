"""The games, one module each; importing this package registers them all for :func:`get_game`."""

from typing import Any

from . import connectx, tictactoe, migration, othello  # noqa: F401,I001 - registration order: the order of GAME_NAMES
from .connectx import ConnectX, ConnectXState
from .migration import Migration, MigrationState
from .othello import Othello, OthelloState
from .registry import get_game, register_game, registered_games
from .tictactoe import TicTacToe, TicTacToeState

__all__ = [
    "ConnectX", "ConnectXState", "TicTacToe", "TicTacToeState", "Migration", "MigrationState", "Othello",
    "OthelloState", "get_game", "register_game", "registered_games", "GAME_NAMES", "PRESETS",
]


def __getattr__(attr: str) -> Any:
    # GAME_NAMES and PRESETS come from the registry when asked, so games registered later are in them
    from . import registry

    return getattr(registry, attr)
