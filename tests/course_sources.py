"""Course games as a student writes them (AIMA's methods), for tests that write them into a file, and one as an
object (:class:`Nim`)."""

from typing import Any


def nim(piles: tuple[int, ...] = (1, 2, 3)) -> str:
    """A Nim class whose start is ``piles``: take any number from one pile; whoever takes the last wins."""
    return f'''\
class Nim:
    def __init__(self, piles={piles!r}):
        self.initial = (tuple(piles), 1)
    def actions(self, state):
        return [(i, n) for i, pile in enumerate(state[0]) for n in range(1, pile + 1)]
    def result(self, state, move):
        piles = list(state[0]); piles[move[0]] -= move[1]
        return (tuple(piles), 3 - state[1])
    def is_terminal(self, state):
        return not any(state[0])
    def utility(self, state, player):
        return 1 if state[1] == player else -1
    def to_move(self, state):
        return state[1]
'''


def take_away(name: str, initial: int, takes: tuple[int, ...], mover: object) -> object:
    """A take-away game object as a student writes its class: ``initial`` sticks, take one of ``takes`` (those
    left), the game over at none; ``mover(state)``: the player to move; ``name``: the class's name."""
    class TakeAway:
        def actions(self, state):  # noqa: ANN001, ANN202 - as a student writes it
            return [n for n in takes if n <= state]

        def result(self, state, n):  # noqa: ANN001, ANN202
            return state - n

        def is_terminal(self, state):  # noqa: ANN001, ANN202
            return state == 0

        def utility(self, state, player):  # noqa: ANN001, ANN202 - the player to move at the end lost
            return -1 if mover(state) == player else 1  # type: ignore[operator]

        def to_move(self, state):  # noqa: ANN001, ANN202
            return mover(state)  # type: ignore[operator]

    TakeAway.__name__ = TakeAway.__qualname__ = name
    game = TakeAway()
    game.initial = initial  # type: ignore[attr-defined]
    return game


class Nim:
    """Course-style normal-play Nim: take at least one stone from one heap; who takes the last wins."""

    def __init__(self, heaps: tuple[int, ...] = (1, 2, 3)) -> None:
        self.initial = (tuple(heaps), "MAX")

    def actions(self, state: Any) -> list[Any]:
        return [(i, n) for i, h in enumerate(state[0]) for n in range(1, h + 1)]

    def result(self, state: Any, action: Any) -> Any:
        heaps = list(state[0])
        heaps[action[0]] -= action[1]
        return (tuple(heaps), "MIN" if state[1] == "MAX" else "MAX")

    def is_terminal(self, state: Any) -> bool:
        return sum(state[0]) == 0

    def utility(self, state: Any, player: Any) -> int:
        return -1 if player == state[1] else 1

    def to_move(self, state: Any) -> Any:
        return state[1]
