"""``agent.search`` and ``zerosum.trace`` take a state, a move string or a list of moves, alike (#22, item 5)."""

from __future__ import annotations

from typing import Any

import pytest

import zerosum
from zerosum import make_agent
from zerosum.errors import GameError, IllegalMoveError, InvalidMoveError

SPECS = ["minimax:depth=2", "alphabeta:depth=3", "alphabeta:plain=1,depth=2", "mcts:sims=60,seed=1"]


def by_hand(game: Any, actions: list[Any]) -> Any:
    """The position after ``actions``, one ``result`` at a time (the protocol itself, nothing else)."""
    state = game.initial_state
    for a in actions:
        state = game.result(state, a)
    return state


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("game_spec, text, actions", [("connect4", "4453", [3, 3, 4, 2]),
                                                      ("tictactoe", "1 5 9", [0, 4, 8])])
def test_every_form_of_a_position_searches_alike(spec: str, game_spec: str, text: str, actions: list[int]) -> None:
    game = zerosum.get_game(game_spec)
    state = by_hand(game, actions)
    answers = [make_agent(spec).search(game, form) for form in (state, text, actions, tuple(actions))]
    assert len({(r.action, r.value, r.nodes) for r in answers}) == 1
    assert make_agent(spec)(game, text) == answers[0].action  # calling the agent: the same


def test_none_is_the_start_and_the_solver_takes_a_move_string() -> None:
    game = zerosum.get_game("connect4")
    agent = make_agent("alphabeta:depth=2")
    assert agent.search(game, None).action == agent.search(game, game.initial_state).action
    # the published score of 4453's columns (Pons' solver convention) is no concern here: the same answer
    solver = make_agent("solver")
    assert solver.search(game, "4453").value == solver.search(game, [3, 3, 4, 2]).value


@pytest.mark.parametrize("form", ["4453", [3, 3, 4, 2], (3, 3, 4, 2)])
def test_trace_takes_every_form(form: Any) -> None:
    game = zerosum.get_game("connect4")
    tree = zerosum.trace("minimax:depth=2", game, form)
    assert tree.state == game.from_moves("4453")
    assert len(tree) == 1 + 7 + 49


@pytest.mark.parametrize("form, error, words", [
    ("4483", IllegalMoveError, "move 3 of '4483': column 8 is outside 1..7"),
    ([3, 3, 9], IllegalMoveError, "move 3 of [3, 3, 9]: column 10 is outside 1..7 (action 9 is outside 0..6)"),
    ("44444444", IllegalMoveError, "move 7 of '44444444': column 4 is full"),
    ([3, 3, 3, 3, 3, 3, 3], IllegalMoveError, "move 7 of [3, 3, 3, 3, 3, 3, 3]: column 4 is full"),
    ([3, "x"], InvalidMoveError, "move 2 of [3, 'x']"),
    ("4a", InvalidMoveError, "move 2 of '4a'"),
])
def test_a_bad_move_is_the_games_one_line_in_search_and_trace(form: Any, error: type, words: str) -> None:
    game = zerosum.get_game("connect4")
    for run in (lambda: make_agent("alphabeta:depth=2").search(game, form),
                lambda: zerosum.trace("minimax:depth=1", game, form)):
        with pytest.raises(error) as caught:
            run()
        assert words in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("spec", ["random:seed=3", "first"])
def test_the_simple_agents_take_every_form_too(spec: str) -> None:
    # "every agent is called as agent(game, state)" with the position in any form: random and first refused
    # a move string and a list ("not a position of ..."), and a bad move was not named
    game = zerosum.get_game("connect4")
    moves = [make_agent(spec)(game, form) for form in (game.from_moves("4453"), "4453", [3, 3, 4, 2], (3, 3, 4, 2))]
    assert len(set(moves)) == 1 and moves[0] in game.actions(game.from_moves("4453"))
    assert make_agent("first")(game, "1111112") == 1  # column 1 is full: the first legal column is 2 (action 1)
    with pytest.raises(IllegalMoveError, match=r"^move 3 of \[3, 3, 9\]: column 10 is outside 1..7"):
        make_agent(spec)(game, [3, 3, 9])


@pytest.mark.parametrize("form", [5, 2.5, {3: 3}, b"44"])
def test_what_is_no_position_is_still_one_line(form: Any) -> None:
    with pytest.raises(GameError) as caught:
        make_agent("alphabeta:depth=2").search(zerosum.get_game("connect4"), form)
    assert "not a position of" in str(caught.value) and "\n" not in str(caught.value)


def test_a_game_whose_states_are_plain_tuples_is_handed_its_states() -> None:
    # a tuple is a list of moves only where the game's states are not tuples themselves
    from zerosum import make_agent
    from zerosum.game import Game

    class ToFive(Game):  # add 1 or 2 to a running total; who reaches 5 wins; a state is (total, mover)
        initial_state = (0, 1)

        def player(self, s): return s[1]  # type: ignore[no-untyped-def]  # noqa: E704
        def actions(self, s): return [] if self.is_terminal(s) else [1, 2]  # type: ignore[no-untyped-def]  # noqa: E704
        def result(self, s, a): return (s[0] + a, 3 - s[1])  # type: ignore[no-untyped-def]  # noqa: E704
        def is_terminal(self, s): return s[0] >= 5  # type: ignore[no-untyped-def]  # noqa: E704
        def utility(self, s, p): return (1 if 3 - s[1] == p else -1) if s[0] >= 5 else 0  # type: ignore[no-untyped-def]  # noqa: E704,E501
        def display(self, s): print(s)  # type: ignore[no-untyped-def]  # noqa: E704

    game = ToFive()
    agent = make_agent("alphabeta:plain=1")
    # totals 2 and 5 are the winning ones to reach (5 - 3k): from 0 play 2, from 3 play 2, from 1 play 1
    assert agent.search(game, game.initial_state).action == 2
    assert agent.search(game, (3, 1)).action == 2
    assert agent.search(game, [1]).action == 1  # a list is moves: total 1, the second player to move
