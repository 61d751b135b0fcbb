"""One numbering (#22, item 6): people count cells, columns and rows from 1 (rows from the top, as the board
is drawn, in Python's structures too), Python counts actions and indexes from 0; every rendering agrees with a
textbook board kept in this test (stones dropped into lists), and ``place`` and ``result`` word alike."""

from __future__ import annotations

import random
from typing import Any

import pytest

import zerosum
from zerosum.errors import IllegalMoveError, InvalidPositionError


def textbook(rows: int, cols: int, columns: list[int]) -> list[list[int]]:
    """The board after ``columns`` (0-based, X first), the textbook way: a stack per column, then rows top
    first (row 0 is the top row, as the board is drawn)."""
    stacks: list[list[int]] = [[] for _ in range(cols)]
    for i, c in enumerate(columns):
        stacks[c].append(1 + i % 2)
    return [[stacks[c][rows - 1 - r] if rows - 1 - r < len(stacks[c]) else 0 for c in range(cols)]
            for r in range(rows)]


def random_game(game: Any, plies: int, seed: int) -> list[int]:
    rng, state, played = random.Random(seed), game.initial_state, []
    for _ in range(plies):
        if game.is_terminal(state):
            break
        a = rng.choice(game.actions(state))
        played.append(a)
        state = game.result(state, a)
    return played


@pytest.mark.parametrize("spec", ["connect4", "connectx:rows=4,cols=5,k=3", "connectx:rows=3,cols=11,k=3"])
@pytest.mark.parametrize("seed", range(6))
def test_every_connectx_rendering_agrees_with_the_textbook_board(spec: str, seed: int) -> None:
    game = zerosum.get_game(spec)
    played = random_game(game, 3 + 4 * seed, seed)
    state = game.from_moves(played)
    board = textbook(game.rows, game.cols, played)
    marks = ".XO"
    # the move string: people's 1-based columns
    assert game.to_moves(state) == ("," if game.cols > 9 else "").join(str(c + 1) for c in played)
    assert [game.parse_action(game.format_action(c)) for c in played] == played
    # Python's structures: row 0 at the top, as drawn
    assert [list(r) for r in game.board_view(state).cells] == board
    assert game.to_grid(state).splitlines() == ["".join(marks[v] for v in row) for row in board]
    assert game.from_board(board, game.player(state)) == state
    for r in range(game.rows):
        for c in range(game.cols):
            assert game.cell(state, r, c, origin="top") == board[r][c]
            assert game.cell(state, game.rows - 1 - r, c, origin="bottom") == board[r][c]
            assert game.cell(state, r, c) == board[r][c]  # the default: from the top
    # the text people read: a 1-based header over the grid
    header, *lines = game.render(state).splitlines()
    assert header.split() == [str(c + 1) for c in range(game.cols)]
    assert ["".join(line.split()) for line in lines] == game.to_grid(state).splitlines()
    # the winning line: cells of the winner, rows from the top
    winner = game.winner(state)
    for r, c in game.winning_line(state):
        assert board[r][c] == winner
    if winner:  # in words: 1-based columns from the left, rows from the bottom (the terminal's and page's)
        people = sorted((c + 1, game.rows - r) for r, c in game.winning_line(state))
        cols, rows = {c for c, _ in people}, {r for _, r in people}
        where = (f"row {min(rows)}, columns {min(cols)} to {max(cols)}" if len(rows) == 1 else
                 f"column {min(cols)}, rows {min(rows)} to {max(rows)}" if len(cols) == 1 else
                 f"diagonal from column {people[0][0]} row {people[0][1]} to column {people[-1][0]} row "
                 f"{people[-1][1]}")
        assert game.describe_win(state) == f"{game.k} in a row, {where}"


def test_a_vertical_line_is_named_by_its_column_as_people_count_it() -> None:
    game = zerosum.get_game("connect4")
    state = game.from_moves("4545454")  # X four in column 4
    assert game.winning_line(state) == [(5, 3), (4, 3), (3, 3), (2, 3)]  # rows from the top, 0-based
    assert game.describe_win(state) == "4 in a row, column 4, rows 1 to 4"  # rows from the bottom, 1-based


@pytest.mark.parametrize("spec", ["connect4", "connectx:rows=2,cols=12,k=2"])
def test_place_and_result_word_the_same_error_alike(spec: str) -> None:
    game = zerosum.get_game(spec)
    full = game.from_moves([0] * game.rows)  # column 1 full
    player = game.player(full)
    for where in (0, game.cols, -1):
        with pytest.raises(IllegalMoveError) as by_result:
            game.result(full, where)
        with pytest.raises(IllegalMoveError) as by_place:
            game.place(full, where, player)
        assert str(by_place.value) == str(by_result.value)
    assert str(by_result.value) != ""
    with pytest.raises(IllegalMoveError, match=r"^column 1 is full$"):
        game.place(full, 0, player)
    with pytest.raises(IllegalMoveError, match=rf"^column {game.cols + 1} is outside 1..{game.cols} "
                                               rf"\(action {game.cols} is outside 0..{game.cols - 1}\)$"):
        game.column_height(full, game.cols)


def test_cell_names_its_origin_and_refuses_an_unknown_one() -> None:
    game = zerosum.get_game("connect4")
    state = game.from_moves("44")
    assert game.cell(state, 0, 3, origin="bottom") == game.cell(state, 5, 3) == 1  # X, at the bottom
    assert game.cell(state, 1, 3, origin="bottom") == game.cell(state, 4, 3) == 2
    with pytest.raises(InvalidPositionError, match="'left'"):
        game.cell(state, 0, 0, origin="left")
    with pytest.raises(InvalidPositionError, match="rows 0..5 from the top"):
        game.cell(state, 6, 0, origin="top")


def test_a_floating_stone_is_named_by_the_row_of_the_grid_as_written() -> None:
    game = zerosum.get_game("connect4")
    grid = ".......\n.......\n.......\n.......\n...X...\n......."  # line 5 of the grid, column 4
    with pytest.raises(InvalidPositionError, match=r"column 4, row 5 of the grid \(counted from the top\)"):
        game.from_grid(grid, strict=False)


def test_tictactoe_cells_are_1_to_9_for_people_and_0_to_8_for_python() -> None:
    game = zerosum.get_game("tictactoe")
    for a in range(9):
        assert game.format_action(a) == str(a + 1) and game.parse_action(str(a + 1)) == a
    state = game.from_moves("1 5 2") if hasattr(game, "from_moves") else game.parse_position("1 5 2")[1]
    cells = [[0] * 3 for _ in range(3)]
    for i, a in enumerate([0, 4, 1]):
        cells[a // 3][a % 3] = 1 + i % 2
    assert [list(r) for r in game.board_view(state).cells] == cells
    with pytest.raises(IllegalMoveError) as by_result:
        game.result(state, 4)
    with pytest.raises(IllegalMoveError) as by_place:
        game.place(state, 4, 1)
    assert str(by_result.value).startswith("cell 5 is taken") and str(by_place.value) == str(by_result.value)
    with pytest.raises(IllegalMoveError, match=r"^cell 10 is outside 1..9 \(action 9 is outside 0..8\)$"):
        game.result(state, 9)
    won = game.parse_position("1 4 2 5 3")[1]
    assert game.winning_line(won) == [(0, 0), (0, 1), (0, 2)]  # the top row, 0-based
    assert game.describe_win(won) == "three in a row, cells 1 2 3"


@pytest.mark.parametrize("position, sign, moves", [("1 4 2 5", "win", "1 move"), ("1 2 5", "loss", "2 moves")])
def test_a_search_without_a_depth_discount_says_its_distance_is_not_counted(position: str, sign: str,
                                                                            moves: str) -> None:
    """X to move wins at once after 1 4 2 5 (cell 3); after 1 2 5, O to move cannot stop two lines: the
    textbook's minimax scores every win alike, so no distance is said (it said 'won', or 'win in 0 moves')."""
    game = zerosum.get_game("tictactoe")
    for spec in ("minimax:discount=0", "alphabeta:plain=1"):
        assert zerosum.make_agent(spec).search(game, position).describe() == \
            f"{sign} (distance not counted: no depth discount)"
    assert zerosum.make_agent("minimax").search(game, position).describe() == f"{sign} in {moves}"
