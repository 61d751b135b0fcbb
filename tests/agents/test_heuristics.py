"""Evaluations: window against a plain scan of the grid text, threats and mobility, numba == Python."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from zerosum import ConnectX, Migration, TicTacToe
from zerosum.agents import heuristics as H
from zerosum.games import connectx_eval as E
from zerosum.errors import AgentError

from agent_helpers import random_position


def scan_window(game: ConnectX, state, player: int, three: int = 50, two: int = 10) -> int:
    """The window evaluation computed independently, from the grid text (top row first)."""
    rows = game.to_grid(state).split("\n")[::-1]  # bottom row first
    me, them = ("X", "O") if player == 1 else ("O", "X")
    k = game.k
    score = 0
    for r in range(game.rows):
        for c in range(game.cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                cells = [(r + dr * i, c + dc * i) for i in range(k)]
                if not all(0 <= rr < game.rows and 0 <= cc < game.cols for rr, cc in cells):
                    continue
                text = [rows[rr][cc] for rr, cc in cells]
                a, b = text.count(me), text.count(them)
                if a == k:
                    return sys.maxsize
                if b == k:
                    return -sys.maxsize
                if b == 0:
                    score += three if a == k - 1 else two if a == k - 2 else 0
                if a == 0:
                    score -= three if b == k - 1 else two if b == k - 2 else 0
    return score


BOARDS = [ConnectX(), ConnectX(8, 8, 4), ConnectX(5, 7, 4), ConnectX(4, 5, 3), ConnectX(9, 9, 5)]


@pytest.mark.parametrize("game", BOARDS, ids=lambda g: g.spec)
def test_window_matches_a_plain_scan(game: ConnectX) -> None:
    for seed in range(25):
        state = random_position(game, seed % (game.cells - 1), seed)
        for player in (1, 2):
            assert H.window_eval(game, state, player) == scan_window(game, state, player)
            assert H.window_eval(game, state, player, three=7, two=3) == scan_window(game, state, player, 7, 3)


def test_window_on_a_known_position() -> None:
    game = ConnectX()
    # X: three in a row on the bottom (cols 1-3), open on the right; O: two stones stacked in column 7
    state = game.from_moves("1727")
    assert game.to_grid(state).split("\n")[-2:] == ["......O", "XX....O"]
    state = game.result(state, 2)
    # X: (1,2,3,_) three=50; (2,3,_,_) and (3,_,_,_)? no: k-2 = 2 stones -> (2,3,4,5) two... count by scan
    assert H.window_eval(game, state, 1) == scan_window(game, state, 1)
    assert H.window_eval(game, state, 1) == -H.window_eval(game, state, 2)
    assert H.window_eval(game, state, 1) > 0


def test_window_scores_a_finished_board_as_maxsize() -> None:
    game = ConnectX()
    state = game.from_moves("1212121")
    assert H.window_eval(game, state, 1) == sys.maxsize
    assert H.window_eval(game, state, 2) == -sys.maxsize


def test_window_on_tictactoe() -> None:
    game = TicTacToe()
    state = game.from_moves("15")  # X in a corner, O in the centre
    assert H.window_eval(game, state, 1) == 20 - 30
    assert H.window_eval(game, game.from_moves("124"), 2) == -H.window_eval(game, game.from_moves("124"), 1)


def test_threats_are_antisymmetric_and_see_decided_positions() -> None:
    game = ConnectX()
    for seed in range(30):
        state = random_position(game, seed, seed)
        assert H.threats_eval(game, state, 1) == -H.threats_eval(game, state, 2)
    # the side to move (X) can complete a line now
    state = game.from_moves("112233")
    assert H.threats_eval(game, state, 1) == E.THREAT_DECISIVE
    # O to move, X threatens both ends of the bottom row: O cannot stop both
    state = game.from_moves("3747")
    state = game.result(state, 4)  # X: columns 3, 4, 5 on the bottom row, 2 and 6 open
    assert H.threats_eval(game, state, 2) == -E.THREAT_DECISIVE


def test_threat_parity_favours_the_owner() -> None:
    game = ConnectX()
    h = game.height
    row0, row1 = 1 << (3 * h + 0), 1 << (3 * h + 1)  # column 4, rows 1 and 2 (1-based)
    assert E._threat_score(game, row0, 1, game.rows, h) == E.THREAT_GOOD  # odd row: the first player's
    assert E._threat_score(game, row1, 1, game.rows, h) == E.THREAT_OTHER
    assert E._threat_score(game, row1, 2, game.rows, h) == E.THREAT_GOOD  # even row: the second player's
    # stacked threats (one right above the other) are worth more; a threat above the opponent's counts less
    assert E._threat_score(game, row0 | row1, 2, game.rows, h) == E.THREAT_GOOD + E.THREAT_OTHER + E.THREAT_STACKED
    assert E._threat_score(game, row1, 2, game.rows, h, against=row0) == E.THREAT_GOOD // 4
    assert E._threat_score(game, row0, 2, game.rows, h, against=row1) == E.THREAT_OTHER
    # in a position: O to move, X threatens (not playable yet) on row 3 of column 4
    state = game.from_moves("4411122")  # X: 4, 1, 1... built by play; compare with the plain window
    diff = H.threats_eval(game, state, 1) - H.window_eval(game, state, 1)
    t_x = E.winning_cells(game, state.stones(1), state.mask)
    t_o = E.winning_cells(game, state.stones(2), state.mask)
    playable = (state.mask + game.bottom_mask) & game.board_mask
    if not (t_o & playable) and (t_x & playable).bit_count() < 2:
        centre = (state.stones(1) & game.column[3]).bit_count() - (state.stones(2) & game.column[3]).bit_count()
        expect = (E._threat_score(game, t_x, 1, game.rows, h, t_o) - E._threat_score(game, t_o, 2, game.rows, h, t_x)
                  + E.CENTRE_WEIGHT * centre)
        assert diff == expect


def test_mobility() -> None:
    game = Migration(4)
    s = game.initial_state
    assert len(game.actions(s)) == 2
    assert H.mobility_eval(game, s, 1) == 0  # symmetric start
    s1 = game.result(s, game.actions(s)[0])
    own = len(game._moves(s1, 1)) - len(game._moves(s1, 2))
    assert H.mobility_eval(game, s1, 1) == H.MOBILITY_SCALE * own
    assert H.mobility_eval(game, s1, 2) == -H.MOBILITY_SCALE * own
    assert H.mobility_eval(ConnectX(), ConnectX().initial_state, 1) == 0


def test_bad_names_and_games() -> None:
    with pytest.raises(AgentError, match="unknown evaluation"):
        H.get_evaluation("nope")
    with pytest.raises(AgentError, match="window"):
        H.window_eval(Migration(4), Migration(4).initial_state, 1)
    with pytest.raises(AgentError, match="has no threats evaluation"):
        H.threats_eval(TicTacToe(), TicTacToe().initial_state, 1)
    with pytest.raises(ValueError):
        H.window_eval(ConnectX(), ConnectX().initial_state, 3)


def test_kernel_constants_agree() -> None:
    from zerosum.agents.kernels import grid as fast

    assert (fast.THREAT_GOOD, fast.THREAT_OTHER, fast.THREAT_DECISIVE, fast.CENTRE_WEIGHT, fast.THREAT_STACKED) == (
        E.THREAT_GOOD, E.THREAT_OTHER, E.THREAT_DECISIVE, E.CENTRE_WEIGHT, E.THREAT_STACKED)


@pytest.mark.parametrize("game", BOARDS, ids=lambda g: g.spec)
def test_numba_evaluations_equal_python(game: ConnectX) -> None:
    from zerosum.agents import kernels as fast

    t = fast.make_tables(game.rows, game.cols, game.k)
    cfg = np.zeros(8, dtype=np.int64)
    cfg[fast.ROWS], cfg[fast.COLS], cfg[fast.K] = game.rows, game.cols, game.k
    scratch = np.zeros(game.cells, dtype=np.int8)
    marks = np.zeros(game.cells, dtype=np.int64)
    rng = random.Random(5)
    for seed in range(30):
        state = random_position(game, rng.randrange(game.cells - 1), seed)
        grid, heights, _ = fast.grid_of(game, state, t["zob"])
        for eval_id, func in ((fast.EVAL_WINDOW, H.window_eval), (fast.EVAL_THREATS, H.threats_eval)):
            for three, two in ((50, 10), (9, 4)):
                cfg[fast.EVAL], cfg[fast.THREE], cfg[fast.TWO] = eval_id, three, two
                got = fast.grid_eval(grid, heights, state.to_move, cfg, t["windows"], t["is_centre"], scratch, marks)
                assert got == func(game, state, state.to_move, three, two)
                assert not scratch.any()


def test_an_evaluation_the_game_does_not_offer_is_refused_before_the_search() -> None:
    from zerosum import get_game, make_agent
    from zerosum.errors import AgentError

    othello = get_game("othello:n=6")
    with pytest.raises(AgentError, match="has no 'window' evaluation"):
        make_agent("alphabeta:depth=2,eval=window").warm_up(othello)
    with pytest.raises(AgentError, match="has no 'threats' evaluation"):
        make_agent("minimax:depth=1,eval=threats").search(get_game("migration:n=4"), get_game("migration:n=4").initial_state)
    assert make_agent("alphabeta:depth=2,eval=corners")(othello, othello.initial_state) in othello.actions(othello.initial_state)


def test_the_eval_option_names_every_evaluation_a_game_offers() -> None:
    from zerosum import make_agent
    from zerosum.errors import AgentError

    with pytest.raises(AgentError) as info:
        make_agent("alphabeta:eval=nope")
    for name in ("window", "threats", "mobility", "corners", "stability"):
        assert name in str(info.value)
