"""Tic-Tac-Toe and Migration rules against DESIGN.md, with their bad inputs."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import Migration, TicTacToe, get_game
from zerosum.errors import IllegalMoveError, InvalidMoveError, InvalidPositionError, InvalidSpecError


def test_tictactoe_basics() -> None:
    game = get_game("tictactoe")
    s = game.from_moves("159")
    assert game.render(s) == "X..\n.O.\n..X"
    assert game.player(s) == 2
    assert game.actions(s) == [1, 2, 3, 5, 6, 7]
    won = game.from_moves("14253")
    assert game.winner(won) == 1 and game.actions(won) == []
    assert game.from_grid(game.render(won)) == won


@pytest.mark.parametrize("action,cls,words", [(4, IllegalMoveError, "cell 5 is taken"), (9, IllegalMoveError, "outside"),
                                              (-1, IllegalMoveError, "outside"), ("a", InvalidMoveError, "cell index")])
def test_tictactoe_bad_actions_change_nothing(action: object, cls: type, words: str) -> None:
    game = TicTacToe()
    s = game.from_moves("5")
    with pytest.raises(cls, match=words):
        game.result(s, action)  # type: ignore[arg-type]
    assert s.cells == (0, 0, 0, 0, 1, 0, 0, 0, 0)


def test_tictactoe_after_the_end_and_bad_grids() -> None:
    game = TicTacToe()
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.result(game.from_moves("14253"), 8)
    for bad in ("XX.\n...\n...", "XXX\nOOO\n...", "X..\n...", "XQ.\n...\n..."):
        with pytest.raises(InvalidPositionError):
            game.from_grid(bad)
    with pytest.raises(InvalidMoveError):
        game.parse_action("middle")


def expected_migration_board(n: int) -> list[list[int]]:
    k = math.ceil(n / 2 - 1)
    board = [[0] * n for _ in range(n)]
    for x in range(n):
        for y in range(n):
            if y < k and y + 1 <= x <= n - y - 2:
                board[x][y] = 1
    for xp in range(n):
        for yp in range(n):
            if xp < k and xp + 1 <= yp <= n - xp - 2:
                board[n - 1 - xp][yp] = 2
    return board


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7, 8, 9])
def test_migration_initial_board_follows_design(n: int) -> None:
    game = Migration(n)
    board = [list(r) for r in game.initial_state.board]
    assert board == expected_migration_board(n)
    assert game.player(game.initial_state) == 1


def test_migration_4_and_8_first_moves() -> None:
    g4 = Migration(4)
    assert [list(r) for r in g4.initial_state.board] == [[0, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 2, 2, 0]]
    assert g4.actions(g4.initial_state) == [(1, 0, 1, 1), (2, 0, 2, 1)]
    s = g4.result(g4.initial_state, (1, 0, 1, 1))
    assert g4.actions(s) == [(3, 1, 2, 1), (3, 2, 2, 2)]  # player 2 moves up
    g8 = Migration(8)
    stones1 = sum(row.count(1) for row in g8.initial_state.board)
    stones2 = sum(row.count(2) for row in g8.initial_state.board)
    assert stones1 == stones2 == 6 + 4 + 2
    first = g8.actions(g8.initial_state)
    # only the rightmost stone of each row can step right (x from 1 to 6, stones blocked by their neighbours)
    assert first == [(1, 0, 1, 1), (2, 1, 2, 2), (3, 2, 3, 3), (4, 2, 4, 3), (5, 1, 5, 2), (6, 0, 6, 1)]


@pytest.mark.parametrize(
    "action,words",
    [((1, 0, 1, 2), "one step right"), ((0, 0, 0, 1), "no stone"), ((3, 1, 2, 1), "no stone"),
     ((2, 0, 1, 0), "one step right"), ((9, 9, 9, 10), "outside")],
)
def test_migration_illegal_moves_change_nothing(action: tuple[int, int, int, int], words: str) -> None:
    game = Migration(4)
    s = game.initial_state
    with pytest.raises(IllegalMoveError, match=words):
        game.result(s, action)
    assert s == game.initial_state
    with pytest.raises(InvalidMoveError):
        game.result(s, "1,0")  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [(True, 0, 1, 1), (1, 0, 1, True), (1.0, 0, 1, 1), (1, 0, 1)])
def test_migration_refuses_an_action_that_is_not_four_whole_numbers(action: tuple) -> None:
    """True played the move 1,0 (audit); Othello refuses it."""
    game = Migration(4)
    with pytest.raises(InvalidMoveError, match=r"^a Migration action is a tuple \(x, y, nx, ny\), not "):
        game.result(game.initial_state, action)  # type: ignore[arg-type]


def test_migration_occupied_and_parse() -> None:
    game = Migration(5)
    s = game.initial_state
    assert game.parse_action("3,0", s) == (3, 0, 3, 1)
    assert game.parse_action("(3, 0) > (3, 1)", s) == (3, 0, 3, 1)
    with pytest.raises(IllegalMoveError, match="occupied"):
        game.parse_action("2,0", s)  # (2,1) holds a player-1 stone
    for bad in ("left", "1", "1,2,3", "1;2x"):
        with pytest.raises(InvalidMoveError):
            game.parse_action(bad, s)
    with pytest.raises(InvalidSpecError):
        Migration(2)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=3, max_value=8), st.lists(st.integers(min_value=0, max_value=999), max_size=200))
def test_migration_random_play_properties(n: int, picks: list[int]) -> None:
    game = Migration(n)
    state = game.initial_state
    for pick in picks:
        actions = game.actions(state)
        assert (actions == []) == game.is_terminal(state)
        assert game.utility(state, 1) == -game.utility(state, 2)
        if not actions:
            assert game.winner(state) == 3 - game.player(state)  # no move: that player loses, no draws
            break
        before = state
        state = game.result(state, actions[pick % len(actions)])
        assert before.board != state.board


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=99), max_size=9))
def test_tictactoe_random_play_properties(picks: list[int]) -> None:
    game = TicTacToe()
    state = game.initial_state
    for pick in picks:
        actions = game.actions(state)
        assert (actions == []) == game.is_terminal(state)
        if not actions:
            break
        snapshot = state.cells
        nxt = game.result(state, actions[pick % len(actions)])
        assert state.cells == snapshot
        state = nxt
        assert game.from_grid(game.render(state)) == state
        assert game.utility(state, 1) == -game.utility(state, 2)


@pytest.mark.parametrize("spec", ["tictactoe", "migration:n=4", "othello:n=4", "connect4"])
@pytest.mark.parametrize("player", [3, 0, "1", None, 1.0, True])
def test_utility_refuses_a_bad_player_while_the_game_goes_on(spec: str, player: object) -> None:
    # the game over or not: Tic-Tac-Toe, Migration and Othello answered 0 for player 3 before the end
    game = get_game(spec)
    with pytest.raises(InvalidMoveError, match=r"^a player is 1 \(moves first\) or 2, not "):
        game.utility(game.initial_state, player)
    assert game.utility(game.initial_state, 1) == game.utility(game.initial_state, 2) == 0
