"""Connect-X rules: win detection against a plain scan, notation round trips, errors that change nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import ConnectX, get_game
from zerosum.errors import GameError, IllegalMoveError, InvalidMoveError, InvalidPositionError, InvalidSpecError


def plain_has_line(grid: list[list[int]], player: int, k: int) -> bool:
    """An independent scan: grid[row][col] with row 0 at the bottom."""
    rows, cols = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < rows and 0 <= cc < cols and grid[rr][cc] == player for rr, cc in cells):
                    return True
    return False


def random_gravity_grid(rows: int, cols: int, rng: random.Random) -> list[list[int]]:
    grid = [[0] * cols for _ in range(rows)]
    for c in range(cols):
        for r in range(rng.randint(0, rows)):
            grid[r][c] = rng.choice((1, 2))
    return grid


def grid_text(grid: list[list[int]]) -> str:
    return "\n".join("".join(".XO"[v] for v in row) for row in reversed(grid))


SIZES = [(6, 7, 4), (3, 4, 3), (4, 4, 4), (5, 7, 4), (8, 8, 4), (6, 12, 5), (4, 16, 5), (16, 3, 3), (1, 9, 4),
         (9, 1, 5), (16, 16, 6), (7, 9, 2), (10, 10, 10)]


@pytest.mark.parametrize("rows,cols,k", SIZES)
def test_has_line_matches_plain_scan(rows: int, cols: int, k: int) -> None:
    game = ConnectX(rows, cols, k)
    rng = random.Random(rows * 1000 + cols * 10 + k)
    found = 0
    for _ in range(300):
        grid = random_gravity_grid(rows, cols, rng)
        state = game.from_grid(grid_text(grid), strict=False)
        for player in (1, 2):
            expected = plain_has_line(grid, player, k)
            found += expected
            assert game.has_line(state, player) == expected, (grid_text(grid), player)
    assert found > 0  # the sample exercised wins


@pytest.mark.parametrize("rows,cols,k", SIZES)
def test_every_single_line_is_detected_near_every_edge(rows: int, cols: int, k: int) -> None:
    """Place exactly one line of k (every start cell, every direction) and nothing else."""
    game = ConnectX(rows, cols, k)
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if not all(0 <= rr < rows and 0 <= cc < cols for rr, cc in cells):
                    continue
                grid = [[0] * cols for _ in range(rows)]
                for rr, cc in cells:
                    grid[rr][cc] = 1
                for cc in range(cols):  # fill below with O so the line rests on something
                    top = max((rr for rr, c2 in cells if c2 == cc), default=-1)
                    for rr in range(top):
                        if grid[rr][cc] == 0:
                            grid[rr][cc] = 2
                state = game.from_grid(grid_text(grid), strict=False)
                assert game.has_line(state, 1)
                assert game.has_line(state, 2) == plain_has_line(grid, 2, k)
                # turn the line's last stone to O: one short, no line left for X
                rr, cc = cells[-1]
                grid[rr][cc] = 2
                short = game.from_grid(grid_text(grid), strict=False)
                assert not game.has_line(short, 1) and not plain_has_line(grid, 1, k)


def test_win_draw_and_terminal() -> None:
    game = ConnectX()
    assert game.outcome(game.initial_state) is None
    won = game.from_moves("4455667")
    assert game.winner(won) == 1 and game.is_terminal(won)
    assert game.actions(won) == []
    assert game.utility(won, 1) == 1 and game.utility(won, 2) == -1
    assert game.winning_line(won) == [(5, 3), (5, 4), (5, 5), (5, 6)]  # row 0 at the top
    row = ConnectX(1, 3, 3)
    drawn = row.from_moves("123")  # X O X: the board is full without a line
    assert row.winner(drawn) is None and row.is_terminal(drawn) and row.actions(drawn) == []
    assert row.outcome(drawn).reason == "board full"


def test_full_board_draws_on_4x4() -> None:
    game = ConnectX(4, 4, 4)
    rng = random.Random(5)
    draws = 0
    for _ in range(200):
        state = game.initial_state
        while game.actions(state):
            state = game.result(state, rng.choice(game.actions(state)))
        if state.mask == game.board_mask and game.winner(state) is None:
            draws += 1
            assert game.is_terminal(state) and game.utility(state, 1) == game.utility(state, 2) == 0
            assert not game.has_line(state, 1) and not game.has_line(state, 2)
    assert draws > 0


def test_from_moves_forms_agree() -> None:
    game = ConnectX()
    assert game.from_moves("4453") == game.from_moves([3, 3, 4, 2]) == game.from_moves("4,4,5,3")
    wide = ConnectX(6, 12, 4)
    s = wide.from_moves("10,4,11,12")
    assert wide.to_moves(s) == "10,4,11,12"
    assert wide.from_moves([9, 3, 10, 11]) == s


@pytest.mark.parametrize(
    "moves,cls,words",
    [
        ("448", IllegalMoveError, "column 8 is outside 1..7"),
        ("4444444", IllegalMoveError, "column 4 is full"),
        ("40", IllegalMoveError, "column 0 is outside 1..7"),
        ("4a", InvalidMoveError, "'a'"),
        ("4455667" + "1", IllegalMoveError, "game is over"),
        ("4-4", InvalidMoveError, "'-'"),
    ],
)
def test_bad_move_strings(moves: str, cls: type, words: str) -> None:
    game = ConnectX()
    with pytest.raises(cls) as info:
        game.from_moves(moves)
    assert words in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, GameError)


def test_illegal_result_changes_nothing() -> None:
    game = ConnectX()
    state = game.from_moves("444444")
    before = (state.current, state.mask, state.to_move, game.to_moves(state))
    for bad in (3, 7, -1, "4", 2.0, True, None):
        with pytest.raises(IllegalMoveError):
            game.result(state, bad)  # type: ignore[arg-type]
    assert (state.current, state.mask, state.to_move, game.to_moves(state)) == before
    with pytest.raises(IllegalMoveError, match="column 4 is full"):
        game.result(state, 3)
    won = game.from_moves("4455667")
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.result(won, 0)


def test_numpy_integers_are_accepted() -> None:
    np = pytest.importorskip("numpy")
    game = ConnectX()
    assert game.result(game.initial_state, np.int64(3)) == game.from_moves("4")


def test_states_are_immutable() -> None:
    state = ConnectX().from_moves("44")
    with pytest.raises(AttributeError):
        state.mask = 0  # type: ignore[misc]


def test_parse_action() -> None:
    game = ConnectX()
    state = game.from_moves("444444")
    assert game.parse_action(" 3 ", state) == 2
    with pytest.raises(InvalidMoveError, match="not a column number"):
        game.parse_action("x", state)
    with pytest.raises(IllegalMoveError, match="outside 1..7"):
        game.parse_action("9", state)
    with pytest.raises(IllegalMoveError, match="column 4 is full"):
        game.parse_action("4", state)


@pytest.mark.parametrize(
    "grid,words",
    [
        (".......\n.......\n.......\n.......\n...X...\n.......", "floating"),
        (".......\n.......\n.......\n.......\n.......\n..XX...", "stone counts"),
        (".......\n.......\n.......\n.......\n.......\nO......", "stone counts"),
        (".......\n.......\n.......\nO......\nOOO....\nXXXX...", "other player moved"),
        (".......\n.......\n.......\nX......\nOOXO...\nXXXXOO.", "after a win"),
        (".......\n.......\n.......\n.......\n.......", "rows"),
        (".......\n.......\n.......\n.......\n.......\n......", "columns"),
        (".......\n.......\n.......\n.......\n.......\n...Z...", "unexpected"),
        ("......\n.......\n.......\n.......\nOOOO...\nXXXX...", "columns"),
        (".......\n.......\n.......\n.......\nOOOO...\nXXXX...", "both players"),
    ],
)
def test_impossible_grids(grid: str, words: str) -> None:
    with pytest.raises(InvalidPositionError, match=words):
        ConnectX().from_grid(grid)


def test_lenient_grid_and_header() -> None:
    game = ConnectX()
    state = game.from_grid(game.render(game.from_moves("4453")))  # the header line is skipped
    assert state == game.from_moves("4453")
    lenient = game.from_grid(".......\n.......\n.......\n.......\n.......\nXXX....", strict=False)
    assert game.player(lenient) == 2 and not game.is_terminal(lenient)
    with pytest.raises(InvalidPositionError):
        game.to_moves(lenient)
    both = game.from_grid(".......\n.......\n.......\n.......\nOOOO...\nXXXX...", strict=False)
    assert game.has_line(both, 1) and game.has_line(both, 2) and game.is_terminal(both)
    forced = game.from_grid(".......\n.......\n.......\n.......\n.......\nXXX....", strict=False, to_move=1)
    assert game.player(forced) == 1


def test_specs_and_presets() -> None:
    assert get_game("connect4") == ConnectX(6, 7, 4)
    assert get_game("connect4-8x8") == ConnectX(8, 8, 4)
    assert get_game("connect4-5x7") == ConnectX(5, 7, 4)
    assert get_game("connectx:rows=8,cols=8,k=4") == ConnectX(8, 8, 4)
    assert get_game("connectx:cols=9") == ConnectX(6, 9, 4)
    assert get_game(get_game("connect4").spec) == get_game("connect4")
    for bad in ("connect5", "connectx:rows=0", "connectx:k=1", "connectx:k=8", "connectx:rows=x", "connectx:foo=1",
                "connectx:rows", "connectx:", ":rows=3", "migration:n=2", "tictactoe:n=4", "connectx:rows=3,rows=4"):
        with pytest.raises(InvalidSpecError):
            get_game(bad)


# ---- properties over random play --------------------------------------------------------------------

boards = st.sampled_from([(6, 7, 4), (3, 4, 3), (5, 5, 4), (8, 8, 4), (6, 11, 5), (4, 16, 4), (2, 2, 2)])


@settings(max_examples=150, deadline=None)
@given(boards, st.lists(st.integers(min_value=0, max_value=10**6), max_size=80))
def test_random_play_properties(size: tuple[int, int, int], picks: list[int]) -> None:
    game = ConnectX(*size)
    state = game.initial_state
    seen = [state]
    for pick in picks:
        actions = game.actions(state)
        assert (actions == []) == game.is_terminal(state)
        if not actions:
            break
        snapshot = (state.current, state.mask, state.to_move, state.history)
        nxt = game.result(state, actions[pick % len(actions)])
        assert (state.current, state.mask, state.to_move, state.history) == snapshot  # never mutates
        state = nxt
        seen.append(state)
    for s in seen:
        assert game.utility(s, 1) == -game.utility(s, 2)
        assert game.from_moves(game.to_moves(s)) == s
        assert game.from_grid(game.to_grid(s)) == s  # every reachable position is a legal grid
        assert game.from_grid(game.render(s)) == s
        assert game.player(s) == 1 + s.ply % 2
        assert hash(game.from_grid(game.to_grid(s))) == hash(s)
    if game.is_terminal(state):
        assert game.utility(state, 1) in (-1, 0, 1)
        assert (game.winner(state) is None) == (game.utility(state, 1) == 0)
