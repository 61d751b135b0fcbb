"""Boards past 64 bits (8 x 8, 9 x 7, 7 x 9) against an independent truth: brute force near the end.

The brute force here is a plain negamax over a grid of lists, memoized, written without any of zerosum's
code (no bitboards, no ``ConnectX.result``): it drops stones, looks for four in a row around the stone just
dropped, and scores a win with the stone of ply ``p`` as ``(cells + 2 - p) // 2`` (DESIGN.md's convention),
a full board 0.  It is checked first against published scores (Pons' 7 x 6 end-game set), then the solver
is checked against it on late positions of the wide boards (10 to 14 empty cells), sampled by the
project's own quiet-position sampler with fixed seeds.  ``Solver`` takes these boards (the 128-bit search)
even while the game's trait keeps the faces within 64 bits, so these tests always run.
"""

from __future__ import annotations

import pytest

from solver_truth import read_bench
from zerosum import get_game
from zerosum.solver.sampling import quiet_positions

#: the wide boards: (spec, rows, cols) with cols x (rows + 1) > 64
WIDE = [("connect4-8x8", 8, 8), ("connectx:rows=7,cols=9,k=4", 7, 9), ("connectx:rows=9,cols=7,k=4", 9, 7)]
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Grid:
    """A Connect Four board as columns of stones (1 or 2, bottom first), four in a row to win."""

    def __init__(self, rows: int, cols: int, moves: list[int]) -> None:
        self.rows, self.cols = rows, cols
        self.columns: list[list[int]] = [[] for _ in range(cols)]
        self.ply = 0
        for col in moves:
            assert self.playable(col) and not self.drop(col), "the sample holds only games still going"

    def playable(self, col: int) -> bool:
        return len(self.columns[col]) < self.rows

    def stone(self, col: int, row: int) -> int:
        column = self.columns[col] if 0 <= col < self.cols else []
        return column[row] if 0 <= row < len(column) else 0

    def drop(self, col: int) -> bool:
        """Plays ``col`` for the side to move; True when that stone makes four in a row."""
        who = 1 + self.ply % 2
        self.columns[col].append(who)
        self.ply += 1
        row = len(self.columns[col]) - 1
        for dc, dr in DIRECTIONS:
            run = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while self.stone(c, r) == who:
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= 4:
                return True
        return False

    def undo(self, col: int) -> None:
        self.columns[col].pop()
        self.ply -= 1

    def key(self) -> tuple[tuple[int, ...], ...]:
        return tuple(map(tuple, self.columns))


def brute_columns(grid: Grid, memo: dict[tuple[tuple[int, ...], ...], int]) -> list[int | None]:
    """Each column's exact score for the side to move (None: full), by plain negamax over the rest of the game."""
    cells = grid.rows * grid.cols
    scores: list[int | None] = []
    for col in range(grid.cols):
        if not grid.playable(col):
            scores.append(None)
            continue
        if grid.drop(col):
            scores.append((cells + 2 - grid.ply) // 2)
        elif grid.ply == cells:
            scores.append(0)
        else:
            scores.append(-brute_score(grid, memo))
        grid.undo(col)
    return scores


def brute_score(grid: Grid, memo: dict[tuple[tuple[int, ...], ...], int]) -> int:
    key = grid.key()
    if key not in memo:
        memo[key] = max(s for s in brute_columns(grid, memo) if s is not None)
    return memo[key]


def late_positions(spec: str, empty: int, count: int, seed: int) -> list:  # type: ignore[type-arg]
    game = get_game(spec)
    return quiet_positions(game, game.cells - empty, count, seed=seed)


def test_brute_force_matches_published_scores() -> None:
    """The brute force gives Pons' published score on the 7 x 6 end-game positions with at most 12 empty
    cells (sign and scale both: wins, losses and draws)."""
    cases = [(m, s) for m, s in read_bench("Test_L3_R1") if 42 - len(m) <= 12][:12]
    assert len(cases) >= 8 and {s > 0 for _, s in cases} >= {True, False}
    for moves, expected in cases:
        grid = Grid(6, 7, [int(c) - 1 for c in moves])
        assert brute_score(grid, {}) == expected, moves


def test_brute_force_sees_every_direction() -> None:
    """A line in each of the four directions ends the game, on a wide board, whoever makes it."""
    for moves in ([0, 1, 0, 1, 0, 1, 0], [0, 0, 1, 1, 2, 2, 3], [0, 1, 1, 2, 3, 2, 2, 3, 7, 3, 3],
                  [3, 2, 2, 1, 0, 1, 1, 0, 7, 0, 0], [7, 6, 7, 6, 7, 6, 5, 7]):
        grid = Grid(8, 8, moves[:-1])  # no line before the last move (Grid checks)
        assert grid.drop(moves[-1]) == (moves[0] != 7), moves


def _solver_or_skip(spec: str):  # type: ignore[no-untyped-def]
    """zerosum's Solver on ``spec`` (the 128-bit search past 64 bits; the faces' trait may still stop at 64)."""
    pytest.importorskip("numba")
    from zerosum import Solver

    return Solver(spec, book=False)


def _check_against_brute_force(spec: str, rows: int, cols: int, plan: tuple[tuple[int, int], ...]) -> set[int]:
    """The solver's score of every column, and of the position (strong and weak), equal the brute force on
    3 quiet positions for each (empty cells, seed) of ``plan``; the outcomes seen come back."""
    solver = _solver_or_skip(spec)
    states = [s for empty, seed in plan for s in late_positions(spec, empty, 3, seed)]
    assert len(states) >= 2 * len(plan), "the sampler found too few late quiet positions"
    outcomes = set()
    for state in states:
        expected = brute_columns(Grid(rows, cols, list(state.history)), {})
        shown = get_game(spec).to_moves(state)
        assert solver.analyze(state) == expected, shown
        best = max(s for s in expected if s is not None)
        assert solver.solve(state) == best, shown
        assert solver.solve(state, weak=True) == (best > 0) - (best < 0), shown
        outcomes.add((best > 0) - (best < 0))
    return outcomes


@pytest.mark.parametrize(("spec", "rows", "cols"), WIDE)
def test_late_wide_positions_match_brute_force(spec: str, rows: int, cols: int) -> None:
    """Late positions, 10 to 14 empty cells (a few seconds of brute force a board)."""
    outcomes = _check_against_brute_force(spec, rows, cols, ((10, 1), (11, 2), (12, 3), (13, 4), (14, 5)))
    assert len(outcomes) >= 2, "the sample should hold more than one outcome"


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "rows", "cols"), WIDE)
def test_later_wide_positions_match_brute_force(spec: str, rows: int, cols: int) -> None:
    """The same with 15 and 16 empty cells (up to half a minute of brute force a board)."""
    _check_against_brute_force(spec, rows, cols, ((15, 6), (16, 7)))
