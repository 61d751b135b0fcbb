"""The registry and the protocol's defaults: a game defined outside zerosum plays through every face."""

from __future__ import annotations

from typing import ClassVar

import pytest

from zerosum.errors import IllegalMoveError, InvalidSpecError
from zerosum.game import BoardView, Game, GameOption, Outcome
from zerosum.games import registry
from zerosum.games.registry import get_game, register_game


class Row(Game[tuple[int, ...], int]):
    """A toy: players fill cells of one row; whoever fills the last cell wins.  Built only when asked."""

    name = "toyrow"
    OPTIONS: ClassVar[dict[str, GameOption]] = {"n": GameOption(3, 1, 1000, "cells")}
    MOVES_HELP = "cell numbers 1..n"
    built = 0

    @classmethod
    def cells_for(cls, options: dict[str, int]) -> int:
        return options["n"]

    def __init__(self, n: int = 3) -> None:
        Row.built += 1
        self.n, self.spec = n, f"toyrow:n={n}"

    @property
    def initial_state(self) -> tuple[int, ...]:
        return (0,) * self.n

    def player(self, state: tuple[int, ...]) -> int:
        return 1 + (self.n - state.count(0)) % 2

    def actions(self, state: tuple[int, ...]) -> list[int]:
        return [i for i, v in enumerate(state) if not v]

    def result(self, state: tuple[int, ...], action: int) -> tuple[int, ...]:
        if action not in self.actions(state):
            raise IllegalMoveError(f"cell {action + 1} is not free")
        return state[:action] + (self.player(state),) + state[action + 1:]

    def outcome(self, state: tuple[int, ...]) -> Outcome | None:
        return None if 0 in state else Outcome(2 - self.n % 2, "last cell")

    def render(self, state: tuple[int, ...]) -> str:
        return "".join(".XO"[v] for v in state)

    def parse_action(self, text: str, state: tuple[int, ...]) -> int:
        return int(text) - 1

    def format_action(self, action: int) -> str:
        return str(action + 1)

    def board_view(self, state: tuple[int, ...], last: int | None = None) -> BoardView:
        return BoardView(1, self.n, (state,), last=((0, last),) if last is not None else ())

    def action_at(self, state: tuple[int, ...], row: int, col: int) -> int | None:
        return col if col in self.actions(state) else None


@pytest.fixture
def toy():
    saved = dict(registry._NAMES), list(registry._GAMES)
    register_game(Row)
    yield Row
    registry._NAMES.clear(), registry._NAMES.update(saved[0])
    registry._GAMES[:] = saved[1]


def test_a_registered_game_is_found_by_name_and_sized_before_it_is_built(toy) -> None:
    assert "toyrow" in registry.GAME_NAMES
    game = get_game("toyrow:n=4")
    assert isinstance(game, Row) and game.n == 4
    before = Row.built
    with pytest.raises(InvalidSpecError, match="has 900 cells; at most 256"):
        get_game("toyrow:n=900", max_cells=256)
    with pytest.raises(InvalidSpecError, match="out of range: expected 1..1000"):
        get_game("toyrow:n=5000")
    with pytest.raises(InvalidSpecError, match="has no option 'k'"):
        get_game("toyrow:k=3")
    assert Row.built == before  # nothing was built for a refused spec


def test_names_are_not_taken_twice_and_a_game_must_say_its_size(toy) -> None:
    class Other(Row):
        name = "connectx"

    with pytest.raises(TypeError, match="taken"):
        register_game(Other)

    class Sizeless(Game):  # type: ignore[type-arg]
        name = "sizeless"

    with pytest.raises(TypeError, match="cells_for"):
        register_game(Sizeless)


def test_the_default_notation_and_the_faces_need_no_code_for_a_new_game(toy) -> None:
    from zerosum.ui.position import describe_state
    from zerosum.ui.terminal import render_plain

    game = get_game("toyrow:n=3")
    actions = game.parse_moves("2 3")
    assert actions == [1, 2] and game.format_moves(actions) == "2 3"
    with pytest.raises(IllegalMoveError, match="move 2 of '2 2'"):
        game.parse_moves("2 2")
    state = game.states_of(actions)[-1]
    assert render_plain(game, state, actions[-1]) == ". X O"
    info = describe_state(game, actions)
    assert info["board"] == [[0, 1, 2]] and info["targets"] == [["1", None, None]] and info["legal"] == ["1"]
    # the page names a player as its board draws the pieces (ui.position.player_name): a gravity row's in colour
    assert info["status"] == "Player 1 (red) to move." and any(g["spec"] == "toyrow" for g in info["games"])
