"""The moves that lead to a position, for ``position SPEC moves MOVES``: an engine hears every move from the start.

An agent is handed a state, not its history.  :func:`moves_to` finds the moves, cheapest first:

1. the state remembers them (Connect-X and Othello states keep their history: ``game.moves_played``);
2. the state is one move after the position this agent last moved into (the opponent's reply): its moves
   and that one (the arena's games, move after move);
3. a search from the start, deepening one ply at a time over at most :data:`MAX_SEARCH` states (a fresh
   game, or a short opening of a game whose states keep no history: Tic-Tac-Toe, Migration).

Any moves that reach the position will do: the protocol sends a position, and equal positions are equal.
"""

from __future__ import annotations

from typing import Any

from ..errors import AgentError
from ..game import Game

__all__ = ["moves_to", "MAX_SEARCH"]

#: the most states the search from the start visits before it gives up
MAX_SEARCH = 200_000


def moves_to(game: Game[Any, Any], state: Any, last: tuple[Any, Any, list[Any]] | None) -> tuple[list[Any], bool]:
    """``(moves from the start to state, whether state continues the game of last)``; ``last`` is
    ``(game, the state after this agent's last move, the moves to it)`` or None.  AgentError (one line) when no
    moves are found."""
    if last is not None and last[0] == game:
        _, after, moves = last
        if after == state:
            return list(moves), True
        if not game.is_terminal(after):
            for action in game.actions(after):
                if game.result(after, action) == state:
                    return [*moves, action], True
    played = game.moves_played(state)
    if played is not None:
        return list(played), False
    found = _search(game, state)
    if found is None:
        raise AgentError(f"the moves that lead to this position of {game.spec} are unknown, so an external engine "
                         "cannot be told it (start from a position reached by moves)")
    return found, False


def _search(game: Game[Any, Any], target: Any) -> list[Any] | None:
    """Moves from the start to ``target`` by iterative deepening, within :data:`MAX_SEARCH` states."""
    budget = [MAX_SEARCH]

    def dfs(state: Any, depth: int, path: list[Any]) -> list[Any] | None:
        if state == target:
            return list(path)
        if depth == 0 or budget[0] <= 0 or game.is_terminal(state):
            return None
        for action in game.actions(state):
            budget[0] -= 1
            path.append(action)
            found = dfs(game.result(state, action), depth - 1, path)
            path.pop()
            if found is not None:
                return found
        return None

    depth = 0
    while budget[0] > 0:
        found = dfs(game.initial_state, depth, [])
        if found is not None:
            return found
        depth += 1
    return None
