"""The games: Connect-X, Tic-Tac-Toe and Migration, and :func:`get_game` for spec strings."""

from .connectx import ConnectX, ConnectXState
from .migration import Migration, MigrationState
from .registry import GAME_NAMES, PRESETS, get_game
from .tictactoe import TicTacToe, TicTacToeState

__all__ = [
    "ConnectX", "ConnectXState", "TicTacToe", "TicTacToeState", "Migration", "MigrationState",
    "get_game", "GAME_NAMES", "PRESETS",
]
