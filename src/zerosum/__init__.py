"""zerosum: two-player zero-sum games and the agents that play them.

>>> from zerosum import ConnectX, make_agent
>>> game = ConnectX()
>>> state = game.from_moves("4453")
>>> game.to_moves(state)
'4453'
"""

from __future__ import annotations

from typing import Any

from .core.kernel_cache import refresh as _refresh_kernel_cache

_refresh_kernel_cache()  # before any compiled kernel loads: drop those built from sources since changed

from . import errors  # noqa: E402
from .agents.base import Limits, SearchResult
from .agents.registry import make_agent, register_agent
from .game import Game, Outcome
from .core.version import __version__
from .games import ConnectX, Migration, TicTacToe, get_game


def _openspiel_mcts() -> Any:
    """OpenSpiel's MCTS as the agent ``openspiel-mcts``, or None where OpenSpiel is not installed (the adapter
    is a face: it is registered here, and imported only when the name is used)."""
    import importlib

    return importlib.import_module("zerosum.interop.openspiel").OpenSpielMCTSAgent


register_agent("openspiel-mcts", _openspiel_mcts, missing="OpenSpiel is not installed: pip install 'zerosum[openspiel]'")

__all__ = [
    "ConnectX",
    "TicTacToe",
    "Migration",
    "get_game",
    "make_agent",
    "Limits",
    "SearchResult",
    "Solver",
    "Game",
    "Outcome",
    "play_game",
    "match",
    "trace",
    "errors",
    "records",
    "analysis",
    "review",
    "__version__",
]


def __getattr__(name: str) -> Any:
    # The solver pulls in numba; import it only when asked for, so `import zerosum` stays quick.
    if name == "Solver":
        from .solver import Solver

        return Solver
    if name in ("trace", "records", "analysis"):  # zerosum.trace(agent, game, state), zerosum.records.read(path),
        # zerosum.analysis.service(game)
        import importlib

        return importlib.import_module(f"zerosum.{name}")
    if name == "review":  # zerosum.review(moves or record): every move judged (zerosum.reviewer)
        from .reviewer import review

        return review
    if name in ("play_game", "match"):  # the arena: imported when asked for (a Kaggle submission carries none)
        from . import teaching

        return getattr(teaching, name)
    from .games import registered_games  # every registered game class is public by its class name

    for cls in registered_games():
        if cls.__name__ == name:
            return cls
    raise AttributeError(f"module 'zerosum' has no attribute {name!r}")
