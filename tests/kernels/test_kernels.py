"""The one Connect-X kernel module: the numba bit tricks agree with the Python-int ones and the rules."""

from __future__ import annotations

import random

import pytest

from zerosum.games.connectx import ConnectX
from zerosum.kernels import bits

BOARDS = [(6, 7, 4), (7, 8, 4), (5, 5, 3), (6, 7, 5), (4, 9, 4), (3, 3, 2), (12, 4, 4)]


def random_position(game: ConnectX, rnd: random.Random) -> tuple[int, int]:
    """Random stones in random column heights (not necessarily reachable: the tricks do not care)."""
    cur = mask = 0
    for c in range(game.cols):
        for r in range(rnd.randrange(game.rows + 1)):
            mask |= 1 << (c * game.height + r)
            if rnd.random() < 0.5:
                cur |= 1 << (c * game.height + r)
    return cur, mask


def test_column_order_is_centre_first_left_before_right() -> None:
    for cols in range(1, 65):
        assert bits.column_order(cols) == sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c))
    assert bits.column_order(7) == [3, 2, 4, 1, 5, 0, 6] and bits.centre_columns(6) == [2, 3]


def test_python_int_win_cells_complete_a_line() -> None:
    rnd = random.Random(3)
    for rows, cols, k in BOARDS + [(8, 8, 4), (10, 12, 5)]:  # any size: Python ints
        game = ConnectX(rows, cols, k)
        for _ in range(100):
            cur, mask = random_position(game, rnd)
            cells = bits.win_cells(cur, mask, game.height, k, game.board_mask)
            for cell in range(game.height * cols):
                if (game.board_mask >> cell) & 1 and not (mask >> cell) & 1:
                    stones = cur | 1 << cell
                    makes = any(m >> cell & 1 and stones & m == m for m in bits.line_masks(rows, cols, k))
                    assert bool((cells >> cell) & 1) == makes


def test_line_masks_are_the_lines_of_k_cells() -> None:
    game = ConnectX(6, 7, 4)
    masks = bits.line_masks(6, 7, 4)
    assert len(masks) == 69 and all(m.bit_count() == 4 for m in masks)
    assert all(any(bits.line_bits(m, d, 4) for d in game.directions) for m in masks)


@pytest.mark.parametrize("rows,cols,k", BOARDS)
def test_numba_kernels_agree_with_python_ints(rows: int, cols: int, k: int) -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("numba")
    from zerosum.kernels import connectx as K

    game = ConnectX(rows, cols, k)
    h = game.height
    bottom, board = K.geometry(rows, cols)
    assert (int(bottom), int(board)) == (game.bottom_mask, game.board_mask)
    assert list(K.centre_order(cols)) == bits.column_order(cols)
    assert [int(m) for m in K.column_masks(rows, cols)] == game.column
    rnd = random.Random(rows * 100 + cols)
    for _ in range(200):
        cur, mask = random_position(game, rnd)
        c64, m64 = np.uint64(cur), np.uint64(mask)
        assert int(K.win_cells(c64, m64, h, k, board)) == bits.win_cells(cur, mask, h, k, game.board_mask)
        assert int(K.mirror(c64, h, cols)) == bits.mirror(cur, rows, cols)
        assert K.popcnt(c64) == cur.bit_count() and K.bits_of(c64) == cur.bit_length()
        assert int(K.playable(m64, bottom, board)) == (mask + game.bottom_mask) & game.board_mask
        for d in game.directions:
            assert int(K.line_bits(c64, d, k)) == bits.line_bits(cur, d, k)
        line = any(bits.line_bits(cur, d, k) for d in game.directions)
        assert K.has_line(c64, rows, k) == line and K.open_line(c64, h, k, rows) == line


def test_random_playouts_end_every_game() -> None:
    pytest.importorskip("numba")
    from zerosum.kernels import connectx as K

    w1, w2, d = K.random_playouts(500, 6, 7, 4, 7)
    assert w1 + w2 + d == 500 and w1 > w2 > 0
    assert K.random_playouts(500, 6, 7, 4, 7) == (w1, w2, d)  # the seed fixes the games

