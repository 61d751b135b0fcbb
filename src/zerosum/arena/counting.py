"""The counting game: how a plain player function is held to a node limit (``--nodes N``).

A search agent keeps its own node budget (``alphabeta:nodes=N``) and reports the nodes it searched.  A plain
function ``f(game, state) -> action`` cannot be asked to, so under a node limit the arena hands it a
:class:`CountingGame` instead of the game: the same game, whose calls that make a new state from a given
one are counted, move by move.  What counts, exactly (the contest rule "a state expanded is a node"):

- ``result(state, action)``: one state expanded, each call (whatever it is called on, and even when the
  rules refuse the action);
- ``states_of(actions)``: one per action in the list;
- ``place(state, where, player)`` (a free board for exercises): one.

Nothing else counts: ``actions``, ``player``, ``outcome``, ``is_terminal``, ``utility``, ``render`` and the
evaluations are free, and so are boards built from nothing (``initial_state``, ``from_board``,
``parse_position``).  The call that would go beyond the limit raises :class:`NodeLimitExceeded` inside the
function, before anything is computed, and the game is lost by forfeit, reason ``node limit: ...``; catching
that exception does not help (every later counted call raises again, and the move is forfeited even when the
function returns one).  The count of every move is stored as that move's nodes, like a search agent's.

Otherwise the counting game is the game: every attribute and method comes from it, it compares equal to it,
``isinstance`` against the game's own class holds, and the function sees the same actions and the same
resulting states.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..errors import AgentError

__all__ = ["CountingGame", "NodeLimitExceeded", "node_limit_reason"]


class NodeLimitExceeded(AgentError):
    """Raised inside a player function at the counted call that goes beyond its node limit."""


def node_limit_reason(limit: int) -> str:
    """The reason stored for a game forfeited over the node limit (its kind, before the colon: ``node limit``)."""
    return f"node limit: more than {limit:,} states expanded in one move"


class CountingGame:
    """``game`` as a player function sees it under a node limit of ``limit`` states expanded per move."""

    __slots__ = ("_game", "limit", "count", "exceeded")

    def __init__(self, game: Any, limit: int) -> None:
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "limit", limit)
        object.__setattr__(self, "count", 0)
        object.__setattr__(self, "exceeded", False)

    def start_move(self) -> None:
        """A new move: the count starts again from zero."""
        object.__setattr__(self, "count", 0)
        object.__setattr__(self, "exceeded", False)

    def _spend(self, n: int) -> None:
        if self.exceeded or self.count + n > self.limit:
            object.__setattr__(self, "exceeded", True)
            raise NodeLimitExceeded(f"{node_limit_reason(self.limit)} (the contest's --nodes)")
        object.__setattr__(self, "count", self.count + n)

    # ---- the counted calls ----------------------------------------------------------------------------

    def result(self, state: Any, action: Any) -> Any:
        self._spend(1)
        return self._game.result(state, action)

    def states_of(self, actions: Sequence[Any]) -> list[Any]:
        actions = list(actions)
        self._spend(len(actions))
        return self._game.states_of(actions)  # type: ignore[no-any-return]

    def place(self, state: Any, where: Any, player: int) -> Any:
        self._spend(1)
        return self._game.place(state, where, player)

    # ---- everything else is the game's -----------------------------------------------------------------

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"the game is read-only for a player (cannot set {name!r})")

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance against the game's class holds, as for the game itself
        return type(self._game)

    def __eq__(self, other: object) -> bool:
        return bool(self._game == (other._game if type(other) is CountingGame else other))

    def __hash__(self) -> int:
        return hash(self._game)

    def __repr__(self) -> str:
        return repr(self._game)

    def __str__(self) -> str:
        return str(self._game)
