"""``eval=runs``, the run-length heuristic of the course's Connect Four comparison, against a plain scan of
the grid written here (cells, loops, no bitboards), on random positions of many board sizes; and the
evaluation by name in every search spec."""

from __future__ import annotations

import random
import sys

import pytest

import zerosum
from zerosum import ConnectX, make_agent
from zerosum.errors import AgentError
from zerosum.games.connectx_eval import RUN_BASE, runs_by_length, runs_eval, window_eval

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # along a row, up a column, the two diagonals (row, col)


def grids_of(game: ConnectX, moves: list[int]) -> dict[int, list[list[bool]]]:
    """Per player, ``grid[r][c]``: a stone at row r (0 at the bottom), column c, by dropping the moves here."""
    grids = {p: [[False] * game.cols for _ in range(game.rows)] for p in (1, 2)}
    height = [0] * game.cols
    for i, c in enumerate(moves):
        grids[1 + i % 2][height[c]][c] = True
        height[c] += 1
    return grids


def scan_runs(grid: list[list[bool]]) -> dict[int, int]:
    """Length -> maximal runs, by walking from every stone that has no stone before it in a direction."""
    rows, cols = len(grid), len(grid[0])
    counts: dict[int, int] = {}
    for dr, dc in DIRECTIONS:
        for r in range(rows):
            for c in range(cols):
                pr, pc = r - dr, c - dc
                if not grid[r][c] or (0 <= pr < rows and 0 <= pc < cols and grid[pr][pc]):
                    continue
                length, rr, cc = 0, r, c
                while 0 <= rr < rows and 0 <= cc < cols and grid[rr][cc]:
                    length, rr, cc = length + 1, rr + dr, cc + dc
                counts[length] = counts.get(length, 0) + 1
    return counts


def scan_eval(game: ConnectX, moves: list[int], player: int) -> int:
    """The heuristic as its definition reads (docs/agents.md): runs of 2..k-1 count 10 ** (L - 1)."""
    totals = {}
    grids = grids_of(game, moves)
    for who in (1, 2):
        runs = scan_runs(grids[who])
        if any(length >= game.k for length in runs):
            return sys.maxsize if who == player else -sys.maxsize
        totals[who] = sum(n * 10 ** (length - 1) for length, n in runs.items() if 2 <= length < game.k)
    return totals[player] - totals[3 - player]


def random_position(game: ConnectX, rng: random.Random, plies: int) -> tuple[object, list[int]]:
    """A state after up to ``plies`` random moves (stopping at a win), and its moves."""
    state, moves = game.initial_state, []
    for _ in range(plies):
        if game.is_terminal(state):
            break
        moves.append(rng.choice(game.actions(state)))
        state = game.result(state, moves[-1])
    return state, moves


SIZES = [(6, 7, 4), (8, 8, 4), (5, 5, 3), (4, 9, 5), (12, 3, 3), (1, 6, 4), (9, 9, 2), (16, 16, 6)]


@pytest.mark.parametrize("rows, cols, k", SIZES)
def test_runs_match_a_plain_scan_of_the_grid(rows: int, cols: int, k: int) -> None:
    game = ConnectX(rows=rows, cols=cols, k=k)
    rng = random.Random(rows * 100 + cols * 10 + k)
    for i in range(60):
        state, moves = random_position(game, rng, rng.randrange(rows * cols + 1))
        grids = grids_of(game, moves)
        for player in (1, 2):
            assert runs_by_length(game, state.stones(player)) == scan_runs(grids[player]), game.render(state)
            assert runs_eval(game, state, player) == scan_eval(game, moves, player), game.render(state)
        assert runs_eval(game, state, 1) == -runs_eval(game, state, 2)


def test_a_worked_position_and_a_blocked_run() -> None:
    # moves 4 1 4 2 4: X's column 4 holds a three (100), O's columns 1-2 a two (10); the rest are lone stones
    game = ConnectX()
    state = game.from_moves("41424")
    assert RUN_BASE == 10
    assert runs_by_length(game, state.stones(1)) == {3: 1, 1: 9}  # 3 stones x 3 other directions alone
    assert runs_by_length(game, state.stones(2)) == {2: 1, 1: 6}  # the two lies along a row; 2 x 3 alone
    assert runs_eval(game, state, 1) == 90 and runs_eval(game, state, 2) == -90
    # O caps the three: runs still counts it (window does not: that line can no longer be completed)
    capped = game.result(state, 3)
    assert runs_eval(game, capped, 1) == 90
    assert window_eval(game, capped, 1) < window_eval(game, state, 1)


def test_a_finished_line_scores_beyond_every_run() -> None:
    game = ConnectX()
    state = game.from_moves("1213141")
    assert runs_eval(game, state, 1) == sys.maxsize and runs_eval(game, state, 2) == -sys.maxsize


@pytest.mark.parametrize("spec", ["minimax:depth=2,eval=runs", "alphabeta:plain=1,depth=3,eval=runs",
                                  "alphabeta:depth=3,eval=runs"])
def test_every_search_takes_runs_by_name(spec: str) -> None:
    result = make_agent(spec).search(ConnectX(), ConnectX().from_moves("44"))
    assert result.action in range(7)


def test_minimax_with_runs_counts_one_evaluation_per_leaf() -> None:
    # depth-2 minimax from the empty board: 7 x 7 leaves, none finished, each evaluated once
    result = make_agent("minimax:depth=2,eval=runs").search(ConnectX(), ConnectX().initial_state)
    assert result.evals == 49
    # and its choice is the column whose worst reply leaves the best runs score (computed here by the scan)
    game = ConnectX()
    worst = {a: min(scan_eval(game, [a, b], 1) for b in range(7)) for a in range(7)}
    assert worst[result.action] == max(worst.values()) == result.value


def test_runs_is_for_connect_x_only() -> None:
    with pytest.raises(AgentError, match="no 'runs' evaluation"):
        make_agent("alphabeta:depth=2,eval=runs").search(zerosum.TicTacToe(), zerosum.TicTacToe().initial_state)
