"""The search's pieces one by one: the frames' named fields, the transposition table, the move sorter,
and a search that allocates nothing per node."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from solver_truth import random_positions, read_bench  # type: ignore[import-not-found]

from zerosum import ConnectX, Solver
from zerosum.kernels.connectx import centre_order, column_masks, mirror
from zerosum.solver import frames, search
from zerosum.solver.bounds import claimeven_upper_py
from zerosum.solver.order import CUT, sort_key
from zerosum.solver.table import (
    NEAR_EMPTY,
    SYM_PLY,
    lower_bound,
    narrow,
    probe,
    put,
    slot,
    table_key,
    tables,
    upper_bound,
)

U64 = np.uint64


def test_frame_fields_name_every_column_of_their_array_once() -> None:
    mv, sc, wc, fb, fi, near = frames.new_frames(6, 7, 1 << 20)
    bitboard_fields = [frames.CUR, frames.MASK, frames.THREATS, frames.SLOT, frames.PART]
    integer_fields = [frames.ALPHA, frames.BETA, frames.COUNT, frames.TRYING, frames.FLIP, frames.START]
    assert sorted(bitboard_fields) == list(range(fb.shape[1])) and fb.dtype == np.uint64
    assert sorted(integer_fields) == list(range(fi.shape[1])) and fi.dtype == np.int64
    assert mv.shape == sc.shape == wc.shape == fb.shape[:1] + (7,) == (6 * 7 + 2, 7)  # one frame a ply, + 2


# ---- the table ----------------------------------------------------------------------------------


@njit
def _table_ops(table, near, geo, keys, works, ask):  # type: ignore[no-untyped-def]
    """Store ``keys[i]`` with a lower bound ``i`` and ``works[i]`` in the main table, then read ``ask``:
    ``(lower bound or -99 when absent)`` for each."""
    tt = tables(near, geo[6], geo[7], geo[8])
    for i in range(keys.shape[0]):
        idx, part = slot(tt, keys[i], False)
        put(table, near, tt, False, idx, part, lower_bound(i, 2), works[i])
    out = np.full(ask.shape[0], -99)
    for i in range(ask.shape[0]):
        idx, part = slot(tt, ask[i], False)
        lo, _, _ = narrow(probe(table, near, tt, idx, part, False), -99, 99, 0, 7)
        out[i] = lo
    return out


def _keys_sharing_a_slot(geo: tuple, n: int) -> list[int]:  # type: ignore[type-arg]
    odd, bmask, shift = 0x9E3779B97F4A7C15, int(geo[6]), int(geo[7])
    by_slot: dict[int, list[int]] = {}
    key = 1
    while True:
        key += 1
        keys = by_slot.setdefault(((key * odd) & bmask) >> shift, [])
        keys.append(key)
        if len(keys) == n:
            return keys


def test_two_slots_per_key_and_the_bigger_search_stays() -> None:
    table = search.make_table(8, 49)
    geo = frames.board_constants(6, 7, 4, table.shape[0])
    near = np.zeros(1 << 8, dtype=np.uint64)
    a, b, c = _keys_sharing_a_slot(geo, 3)
    ask = np.array([a, b, c], dtype=np.uint64)
    # a (work 5) in its slot, b (work 3) displaced to the next: both found, neither confused with c
    assert _table_ops(table, near, geo, np.array([a, b], dtype=np.uint64), np.array([5, 3]), ask).tolist() == [0, 1, -99]
    # c (work 4) takes the slot of less work: b's; a, the bigger search, stays
    table.fill(0)
    got = _table_ops(table, near, geo, np.array([a, b, c], dtype=np.uint64), np.array([5, 3, 4]), ask)
    assert got.tolist() == [0, -99, 2]
    # the same key stored again replaces its own entry, wherever it is
    table.fill(0)
    got = _table_ops(table, near, geo, np.array([a, b, b], dtype=np.uint64), np.array([5, 3, 1]), ask)
    assert got.tolist() == [0, 2, -99]


def test_narrow_reads_both_bounds_and_mirrors_the_remembered_column() -> None:
    assert narrow(U64(lower_bound(5, 1)), -10, 10, 0, 7) == (5, 10, 1)
    assert narrow(U64(lower_bound(5, 1)), 7, 10, 1, 7) == (7, 10, 5)  # a lower bound below lo changes nothing
    assert narrow(U64(upper_bound(-3)), -10, 10, 1, 7) == (-10, -3, -1)  # no column stored
    assert narrow(U64(0), -10, 10, 0, 7) == (-10, 10, -1)


def test_a_position_and_its_mirror_image_share_one_key_near_the_root() -> None:
    game = ConnectX(6, 7, 4)
    h, cols = game.rows + 1, game.cols
    state, mirrored = game.from_moves("1123"), game.from_moves("7765")
    key, flip, sym = table_key(U64(state.current), U64(state.mask), state.ply, h, cols)
    mkey, mflip, msym = table_key(U64(mirrored.current), U64(mirrored.mask), mirrored.ply, h, cols)
    assert key == mkey and flip != mflip and not sym and not msym
    assert key == min(state.current + state.mask, mirrored.current + mirrored.mask)
    assert mirror(U64(state.mask), h, cols) == mirrored.mask
    centre = game.from_moves("4444")
    assert table_key(U64(centre.current), U64(centre.mask), centre.ply, h, cols)[2]  # its own mirror image
    late = random_positions(game, 1, seed=3, min_ply=SYM_PLY + 1)[0]
    assert table_key(U64(late.current), U64(late.mask), late.ply, h, cols) == (late.current + late.mask, 0, False)


# ---- the move sorter ----------------------------------------------------------------------------


def _sorted(moves: str, hint: int = -1, beta: int = 33) -> tuple[list[int], int]:
    """The legal columns in the order their sort keys give (``_negamax`` sorts by them) in a node whose
    window ends at ``beta``, and a column no reply survives (-1: none)."""
    game = ConnectX(6, 7, 4)
    state = game.from_moves(moves)
    geo = frames.board_constants(6, 7, 4, 1 << 10)
    keys, win = [], -1
    for rank, col in enumerate(centre_order(7).tolist()):
        if col in game.actions(state):
            m = U64(int(column_masks(6, 7)[col]) & (state.mask + int(geo[4])))
            _, key = sort_key(U64(state.current), U64(state.mask), m, rank, col == hint, U64(0), geo, state.ply,
                              beta)
            if key < 0 and win < 0:
                win = col
            keys.append((key, col))
    return [col for _, col in sorted(keys, reverse=True)], win


def test_moves_are_tried_centre_first_and_the_remembered_column_before_all() -> None:
    assert centre_order(7).tolist() == [3, 2, 4, 1, 5, 0, 6] and centre_order(4).tolist() == [1, 2, 0, 3]
    assert _sorted("") == ([3, 2, 4, 1, 5, 0, 6], -1)
    assert _sorted("", hint=6) == ([6, 3, 2, 4, 1, 5, 0], -1)


def test_a_move_claimeven_refutes_the_reply_to_ends_the_node_when_it_cuts() -> None:
    """In a node whose window asks for at least a draw (beta <= 0), a move after which claimeven bounds
    the opponent to 0 or less (bounds.py) gets a cut key (at most ``CUT``; ``CUT - key`` = the bound it
    proves): ``_negamax`` stops there without entering the child.  With a window asking for a win, such
    moves keep plain keys."""
    game = ConnectX(6, 7, 4)
    geo = frames.board_constants(6, 7, 4, 1 << 10)
    seen = 0
    for moves, _ in read_bench("Test_L3_R1", limit=400):
        state = game.from_moves(moves)
        if (game.cells - state.ply) % 2 == 0:
            continue
        for rank, col in enumerate(centre_order(7).tolist()):
            if col not in game.actions(state):
                continue
            child = game.result(state, col)
            if child.won_by:
                continue
            m = U64(int(column_masks(6, 7)[col]) & (state.mask + int(geo[4])))
            args = (U64(state.current), U64(state.mask), m, rank, False, U64(0), geo, state.ply)
            _, cut = sort_key(*args, 0)
            _, plain = sort_key(*args, 33)
            if cut == -1:  # no reply survives: a win, whatever the window
                continue
            bound = claimeven_upper_py(child.current, child.mask, child.ply, 6, 7, 4)
            if bound <= 0:
                assert cut <= CUT and CUT - cut == -bound and plain >= 0, (moves, col, cut, bound)
                seen += 1
            else:
                assert cut >= 0 and plain >= 0, (moves, col, cut, plain)  # a plain key (weighed for the sign)
    assert seen > 0


def test_moves_making_more_winning_cells_come_first() -> None:
    """Against a plain count: each move's new winning cells found cell by cell, line by line."""
    game = ConnectX(6, 7, 4)

    def wins(stones: set[tuple[int, int]], cell: tuple[int, int]) -> bool:
        c, r = cell
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                step = 1
                while (c + sign * step * dc, r + sign * step * dr) in stones:
                    run += 1
                    step += 1
            if run >= 4:
                return True
        return False

    rank = {c: i for i, c in enumerate(centre_order(7).tolist())}
    checked = 0
    for state in random_positions(game, 60, seed=11, min_ply=SYM_PLY + 1):
        legal = game.actions(state)
        if any(game.result(state, col).won_by for col in legal):
            continue  # the search never orders where the side to move wins at once
        cols, win = _sorted(game.to_moves(state))
        if win >= 0:
            continue

        def made(col: int, state: object = state) -> int:  # empty cells where the mover's next stone wins
            child = game.result(state, col)  # type: ignore[arg-type]
            mover = child.mask ^ child.current
            stones = {(c, r) for c in range(7) for r in range(6) if mover >> (c * 7 + r) & 1}
            empty = [(c, r) for c in range(7) for r in range(6) if not child.mask >> (c * 7 + r) & 1]
            return sum(wins(stones, cell) for cell in empty)

        assert cols == sorted(legal, key=lambda c: (-made(c), rank[c])), game.to_moves(state)
        checked += 1
    assert checked > 20


def _made_cells(game: ConnectX, state, col: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """``(winning cells, those right above a playable cell)`` of the side that plays ``col``, once it has,
    found cell by cell against a plain line test (the rows and columns of a 6 x 7 board)."""
    child = game.result(state, col)
    mover = child.mask ^ child.current
    h = game.rows + 1

    def bit(c: int, r: int) -> int:
        return 1 << (c * h + r)

    def stone(c: int, r: int) -> bool:
        return 0 <= c < game.cols and 0 <= r < game.rows and bool(mover & bit(c, r))

    def wins(c: int, r: int) -> bool:
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                step = 1
                while stone(c + sign * step * dc, r + sign * step * dr):
                    run += 1
                    step += 1
            if run >= 4:
                return True
        return False

    playable = {(c, bin(child.mask >> (c * h) & ((1 << game.rows) - 1)).count("1")) for c in range(game.cols)}
    made = [(c, r) for c in range(game.cols) for r in range(game.rows) if not child.mask & bit(c, r) and wins(c, r)]
    return len(made), sum((c, r - 1) in playable for c, r in made)


def test_in_a_window_about_the_sign_threats_right_above_a_playable_cell_weigh_five_times() -> None:
    """With beta in -1..1 (a weak solve's windows) a move's key counts its winning cells, and those right
    above a cell playable at once (the opponent can never play under them) four times more (Steininger's
    weighting: -31% nodes on Test_L1_R3's first 20, weak); with a wider window, they do not."""
    game = ConnectX(6, 7, 4)
    rank = {c: i for i, c in enumerate(centre_order(7).tolist())}
    checked = differ = 0
    for state in random_positions(game, 80, seed=12, min_ply=SYM_PLY + 1):
        legal = game.actions(state)
        if any(game.result(state, col).won_by for col in legal):
            continue
        moves = game.to_moves(state)
        cols, win = _sorted(moves, beta=1)
        plain, plain_win = _sorted(moves)
        if win >= 0 or plain_win >= 0:
            continue  # a win or a claimeven cut ends the ordering
        made = {c: _made_cells(game, state, c) for c in legal}
        assert cols == sorted(legal, key=lambda c: (-(made[c][0] + 4 * made[c][1]), rank[c])), moves
        assert plain == sorted(legal, key=lambda c: (-made[c][0], rank[c])), moves
        checked += 1
        differ += cols != plain
    assert checked > 20 and differ > 0


def test_a_move_no_reply_survives_ends_the_ordering() -> None:
    # x on c1, d1 (o above): b1 or e1 makes _ x x x _ with both ends playable
    _, win = _sorted("3344")
    assert win in (1, 4) and win == next(c for c in centre_order(7) if c in (1, 4))
    assert Solver(book=False, tt_size=1 << 16).solve("3344") == (42 + 2 - 7) // 2  # won with the 7th stone


# ---- the loop -----------------------------------------------------------------------------------


def test_the_search_allocates_nothing_per_node() -> None:
    """A solve allocates only the wrappers of its argument arrays: as many for 10**5 nodes as for a few thousand."""
    from numba.core.runtime import _nrt_python, rtsys

    solver = Solver(ConnectX(5, 5, 4), tt_size=1 << 14, book=False)
    solver.solve("1")  # compiled and loaded

    def allocations(moves: str) -> tuple[int, int]:
        state = solver.position(moves)
        stats = np.zeros(search.STATS_SIZE, dtype=np.int64)
        before = rtsys.get_allocation_stats().alloc
        search.solve_prepared(U64(state.current), U64(state.mask), 5, 5, 4, False, solver._prepared, solver.table,
                              stats)
        return rtsys.get_allocation_stats().alloc - before, int(stats[0])

    enabled = _nrt_python.memsys_stats_enabled()
    _nrt_python.memsys_enable_stats()
    try:
        small, few = allocations("1231231")
        solver.reset()
        big, many = allocations("")
    finally:
        if not enabled:
            _nrt_python.memsys_disable_stats()
    assert many > 10**5 and few < many // 10
    assert big == small


@pytest.mark.parametrize("rows, cols", [(4, 5), (5, 4)])
def test_small_table_serves_positions_near_the_end(rows: int, cols: int) -> None:
    """Positions with at most NEAR_EMPTY empty cells are stored in the small table, the others in the main
    one."""
    solver = Solver(ConnectX(rows, cols, 4), tt_size=1 << 12, book=False)
    solver.solve("")
    near, main = solver._prepared[2][5], solver.table
    assert np.count_nonzero(near) > 0 and np.count_nonzero(main) > 0
    assert rows * cols > NEAR_EMPTY
