"""The solver against independent truths: brute force, published values, Pons' benchmark sets."""

from __future__ import annotations

import random

import pytest

from zerosum import ConnectX, Solver
from zerosum.solver.search import make_table
from solver_truth import brute_score, random_positions, read_bench  # type: ignore[import-not-found]


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# 4 x 5 and 5 x 4 from 10 stones on (up to 10 cells empty; 4 x 4 from the empty board): from 8, their brute
# force met 580,000 and 275,000 positions, not 150,000 and 87,000
@pytest.mark.parametrize(
    "rows, cols, k, n, min_ply",
    [(4, 4, 4, 1500, 0), (4, 5, 4, 400, 10), (5, 4, 4, 400, 10), (4, 3, 3, 1500, 0), (3, 5, 3, 500, 0)],
)
def test_agrees_with_brute_force(rows: int, cols: int, k: int, n: int, min_ply: int) -> None:
    game = ConnectX(rows, cols, k)
    solver = Solver(game, tt_size=1 << 16, book=False)
    memo: dict = {}
    for state in random_positions(game, n, seed=rows * 100 + cols * 10 + k, min_ply=min_ply):
        expected = brute_score(game, state, memo)
        assert solver.solve(state) == expected, game.to_moves(state)
        assert solver.solve(state, weak=True) == sign(expected), game.to_moves(state)


@pytest.mark.parametrize("rows, cols, k, n, min_ply", [(1, 8, 3, 200, 0), (8, 2, 3, 200, 0), (2, 5, 4, 200, 0),
                                                     (7, 8, 4, 30, 44)])
def test_odd_boards_agree_with_brute_force(rows: int, cols: int, k: int, n: int, min_ply: int) -> None:
    game = ConnectX(rows, cols, k)  # 7 x 8: all 64 bits of the bitboard in use
    solver = Solver(game, tt_size=1 << 16, book=False)
    memo: dict = {}
    for state in random_positions(game, n, seed=7, min_ply=min_ply):
        assert solver.solve(state) == brute_score(game, state, memo), game.to_moves(state)


def test_analyze_agrees_with_brute_force() -> None:
    game = ConnectX(4, 4, 4)
    solver = Solver(game, tt_size=1 << 14, book=False)
    memo: dict = {}
    for state in random_positions(game, 200, seed=5):
        got = solver.analyze(state)
        for col in range(game.cols):
            if col not in game.actions(state):
                assert got[col] is None
                continue
            child = game.result(state, col)
            if child.won_by:
                want = (game.cells + 2 - child.ply) // 2
            elif game.is_terminal(child):
                want = 0
            else:
                want = -brute_score(game, child, memo)
            assert got[col] == want


# width x height -> the empty board's value (DESIGN.md): + first player, 0 draw, - second player
@pytest.mark.parametrize(
    "cols, rows, outcome",
    [(4, 4, 0), (5, 4, 0), (6, 4, -1), (7, 4, 0), (4, 5, 0), (5, 5, 0), (6, 5, 0), (7, 5, 0)],
)
def test_known_empty_boards(cols: int, rows: int, outcome: int) -> None:
    solver = Solver(ConnectX(rows, cols, 4), tt_size=1 << 20, book=False)
    assert sign(solver.solve("")) == outcome
    assert solver.solve("", weak=True) == outcome


@pytest.mark.slow
@pytest.mark.parametrize("cols, rows, outcome", [(6, 6, -1)])
def test_known_empty_boards_slow(cols: int, rows: int, outcome: int) -> None:
    solver = Solver(ConnectX(rows, cols, 4), book=False)
    assert solver.solve("", weak=True) == outcome


def late_positions(game: ConnectX, n: int, seed: int, empty: int) -> list:  # type: ignore[type-arg]
    """``n`` random positions with 1 to ``empty`` cells left, none over: random games whose moves are drawn
    among those that complete no line.  (Random games rarely last that long: random_positions played about
    400 games for each position it kept on 7 x 8 and 6 x 9, nine tenths of this test's time.)"""
    rng = random.Random(seed)
    found = []
    while len(found) < n:
        state = game.initial_state
        target = rng.randrange(game.cells - empty, game.cells)
        while state is not None and state.ply < target:
            columns = list(game.actions(state))
            rng.shuffle(columns)
            children = [game.result(state, c) for c in columns]
            state = next((child for child in children if not child.won_by), None)
        if state is not None:
            assert not game.is_terminal(state)
            found.append(state)
    return found


@pytest.mark.parametrize("rows, cols", [(7, 8), (6, 9), (4, 12)])
def test_wide_keys_and_the_smallest_table(rows: int, cols: int) -> None:
    """Boards whose keys take 64, 63 and 60 bits, each with the smallest table allowed (2**(bits - 44)
    entries): every entry then stores 44 key bits, the most it can hold.  Late positions, so brute force
    can check (drawn by :func:`late_positions`)."""
    game = ConnectX(rows, cols, 4)
    bits = cols * (rows + 1)
    solver = Solver(game, tt_size=1, book=False)
    assert solver.table.shape[0] == 1 << max(8, bits - 44)
    with pytest.raises(ValueError, match="too small"):
        make_table(bits - 45, bits)
    checked = 0
    for state in late_positions(game, 120, seed=rows * cols, empty=10):
        memo: dict = {}
        assert solver.solve(state) == brute_score(game, state, memo), state
        checked += 1
    assert checked == 120


def test_known_positions() -> None:
    solver = Solver(book=False, tt_size=1 << 22)
    assert solver.solve("4455") == 18
    assert solver.solve("44455554221") == -15
    assert solver.solve("4455", weak=True) == 1
    assert solver.solve("44455554221", weak=True) == -1


@pytest.mark.parametrize("name, limit", [("Test_L3_R1", None), ("Test_L2_R1", None), ("Test_L2_R2", None),
                                         ("Test_L1_R1", None)])
def test_pons_sets(name: str, limit: int | None) -> None:
    solver = Solver(book=False)
    wrong = [(m, s) for m, s in read_bench(name, limit) if solver.solve(m) != s]
    assert wrong == []


@pytest.mark.parametrize("name", ["Test_L2_R2", "Test_L1_R1"])
def test_pons_sets_weak(name: str) -> None:
    solver = Solver(book=False)
    wrong = [m for m, s in read_bench(name, 300) if solver.solve(m, weak=True) != sign(s)]
    assert wrong == []


@pytest.mark.slow
@pytest.mark.parametrize("name, limit", [("Test_L1_R2", None), ("Test_L1_R3", 100)])
def test_pons_beginning_sets(name: str, limit: int | None) -> None:
    solver = Solver(book=False)
    wrong = [m for m, s in read_bench(name, limit) if solver.solve(m) != s]
    assert wrong == []


@pytest.mark.slow
def test_empty_board_without_book() -> None:
    solver = Solver(book=False)
    assert solver.solve("") == 1


def test_empty_board_with_book() -> None:
    solver = Solver(tt_size=1 << 20)
    if solver.book is None:
        pytest.skip("no opening book shipped for 7 x 6")
    assert solver.solve("") == 1
    assert solver.solve("", weak=True) == 1
    assert solver.analyze("") == [-2, -1, 0, 1, 0, -1, -2]
    assert solver.best_move("") == 3


@pytest.mark.slow
def test_empty_board_columns_without_book() -> None:
    solver = Solver(book=False)
    assert solver.analyze("") == [-2, -1, 0, 1, 0, -1, -2]



@pytest.mark.parametrize("n", [12, pytest.param(300, marks=pytest.mark.slow)])
def test_uci_weak_sample(n: int) -> None:
    """Weak solves of a random sample of the UCI set (all 8-ply positions, x to move, with x's outcome)."""
    import os
    import random

    from solver_truth import UCI  # type: ignore[import-not-found]

    if not os.path.exists(UCI):
        pytest.skip("UCI data set not present")
    with open(UCI) as fh:
        lines = fh.read().split()
    sample = random.Random(2024).sample(lines, n)
    solver = Solver(book=False)
    outcome = {"win": 1, "draw": 0, "loss": -1}
    for line in sample:
        *cells, result = line.split(",")
        current = mask = 0
        for i, cell in enumerate(cells):
            bit = 1 << ((i // 6) * 7 + i % 6)  # a1..a6, b1..b6, ...: column-major from the bottom
            if cell != "b":
                mask |= bit
                if cell == "x":
                    current |= bit
        assert bin(mask).count("1") == 8
        assert solver.solve_bits(current, mask, weak=True) == outcome[result], line


def test_shipped_book_agrees_with_pons_sets() -> None:
    """Every position of Pons' beginning sets that the shipped book covers gets his published score from
    the book (no search), strong and weak."""
    solver = Solver(tt_size=1 << 16)
    if solver.book is None:
        pytest.skip("no opening book shipped for 7 x 6")
    covered = [(m, s) for name in ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3")
               for m, s in read_bench(name) if len(m) <= solver.book.depth]
    assert len(covered) >= (100 if solver.book.depth >= 4 else 1)
    for moves, score in covered:
        assert solver.solve(moves) == score and solver.nodes == 0, moves
        assert solver.solve(moves, weak=True) == sign(score)


@pytest.mark.slow  # 22 s of Python over every book position: CI checks a seeded sample (test_book.py) instead
def test_shipped_book_is_complete_and_consistent() -> None:
    solver = Solver(tt_size=1 << 16)
    book = solver.book
    if book is None:
        pytest.skip("no opening book shipped for 7 x 6")
    game = solver.game
    frontier = [game.initial_state]
    for ply in range(book.depth):
        nxt = {}
        for state in frontier:
            children = [game.result(state, a) for a in game.actions(state)]
            win_now = (game.cells + 1 - ply) // 2  # the score of a win with the next stone (number ply + 1)
            want = max(win_now if game.is_terminal(c) else -book.get(c.current, c.mask)  # type: ignore[operator]
                       for c in children)
            assert book.get(state.current, state.mask) == want
            for c in children:  # finished games are no book positions; each position once
                if not game.is_terminal(c):
                    nxt[(c.current, c.mask)] = c
        frontier = list(nxt.values())
    assert all(book.get(s.current, s.mask) is not None for s in frontier)
