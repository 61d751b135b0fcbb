"""Gaps a mutation audit of the analysis layer found (engine, estimate, progress, result): each test fails on a
careless edit a user would notice, checked against hand-worked figures and the solver.  Late positions, book
positions and small searches only: the whole file runs in a few seconds."""

from __future__ import annotations

import pytest

from zerosum import ConnectX, Solver, get_game
from zerosum.analysis import Service, service
from zerosum.analysis.engine import REACH, prove
from zerosum.analysis.estimate import estimated
from zerosum.values import HEURISTIC_BOUND, loss_value, win_value

pytest.importorskip("zerosum.solver.solver")

GAME = get_game("connect4")
#: X holds columns 2, 3 and 4 of the bottom row, 1 and 5 open; O (to move) has two stones in column 7:
#: whatever O plays, X wins with the 7th stone, two plies on: -(42 + 2 - 7) // 2 = -18, loss_value(2)
DOUBLE_THREAT = "27374"
#: the same with colours swapped, at an even ply: X (to move) faces O's two threats, O wins with the 8th stone
DOUBLE_THREAT_EVEN = "727364"
#: X to move has three in column 1 and wins there with the 7th stone: (42 + 2 - 7) // 2 = 18, win_value(1);
#: O has no threat, so no other move is proven at a shallow depth
WIN_IN_ONE = "121317"


def test_the_reach_past_64_bits_starts_at_ply_24_on_8_by_8() -> None:
    board = ConnectX(8, 8, 4)
    engine = Service(board)
    moves = "12345678" * 3  # every column three high, no line: ply 24, 40 empty cells
    assert board.cells - 24 == REACH
    assert engine.reaches(board.from_moves(moves)) and not engine.reaches(board.from_moves(moves[:-1]))
    assert service(GAME).reaches(GAME.initial_state)  # 7 x 6 fits 64 bits: every position


def test_from_book_means_every_move_is_in_the_book() -> None:
    engine = service(GAME)
    depth = engine.book_depth
    if depth is None:
        pytest.skip("no shipped book")
    last = GAME.from_moves("1234567"[:depth - 1] if depth <= 8 else "12345671234"[:depth - 1])
    deep = GAME.from_moves("12345671234"[:depth])
    assert last.ply == depth - 1 and deep.ply == depth
    assert engine.from_book(last) and not engine.from_book(deep)  # its moves reach ply depth + 1: searched
    found = engine.analyse(last)
    assert found.from_book and found.nodes == 0


def test_prove_says_the_plies_to_the_end() -> None:
    judge = Solver(GAME, tt_size=1 << 12, book=False)
    for moves in (DOUBLE_THREAT, DOUBLE_THREAT_EVEN):  # lost in two plies, at an odd and an even ply
        assert prove(judge, GAME.from_moves(moves), 10_000) == (-1, 2)
        assert service(GAME).score_value(GAME.from_moves(moves), -18) == loss_value(2)
    assert prove(judge, GAME.from_moves(WIN_IN_ONE), 10_000) == (1, 1)


def test_prove_says_the_sign_when_the_distance_is_beyond_the_budget() -> None:
    from zerosum.solver.solver import BudgetExceeded

    moves = "1233722555341451114725221333"  # Pons L2_R1: -1, lost with the 42nd stone: 14 plies on from ply 28
    state = GAME.from_moves(moves)
    weak = Solver(GAME, tt_size=1 << 16, book=False)
    assert weak.solve(moves, weak=True) == -1
    budget = weak.nodes
    with pytest.raises(BudgetExceeded):  # the distance takes more than the win/draw/loss did
        weak.solve(moves, node_limit=budget)
    assert prove(Solver(GAME, tt_size=1 << 16, book=False), state, budget) == (-1, None)
    assert prove(Solver(GAME, tt_size=1 << 16, book=False), state, 100 * budget) == (-1, 14)


def test_a_move_without_the_book_leaves_the_service_with_its_book() -> None:
    engine = service(GAME)
    with engine.borrowed(book=False) as solver:
        assert solver.book is None
    assert engine.solver.book is not None and engine.analyse(GAME.from_moves("4444")).from_book


def test_a_weak_analysis_says_draws_exactly_and_wins_and_losses_as_classes() -> None:
    state = GAME.from_moves("274552224131661")  # Pons L2_R2 line 1: the centre draws, every other column loses
    found = service(GAME).analyse(state, weak=True)
    assert found.done and found.best == 3 and found.value == 0
    assert found.kind(3) == "exact" and found.scores[3] == 0
    for c in (0, 1, 2, 4, 5, 6):
        assert found.kind(c) == "class" and found.classes[c] == -1 and found.values[c] == -HEURISTIC_BOUND


def test_ties_go_to_the_left_of_two_columns_equally_near_the_centre() -> None:
    state = GAME.from_moves("444444")  # the centre is full: columns 3 and 5 mirror each other
    found = service(GAME).analyse(state)
    assert found.scores[2] == found.scores[4] == max(found.scores.values())
    assert found.best == 2


def test_an_estimate_adds_a_ply_to_each_proven_value_and_is_exact_only_when_all_are() -> None:
    lost = GAME.from_moves(DOUBLE_THREAT)
    found = estimated(GAME, lost, GAME.actions(lost), 1.0, depth=3)
    assert found.values == dict.fromkeys(range(7), loss_value(2)) and found.exact  # the solver's -18 everywhere
    won = GAME.from_moves(WIN_IN_ONE)
    found = estimated(GAME, won, GAME.actions(won), 1.0, depth=2)
    assert found.best == 0 and found.values[0] == win_value(1) and not found.exact
    assert found.kind(0) == "exact" and found.distance(0) == 1
    assert all(found.kind(c) == "estimate" for c in range(1, 7))


def test_an_estimate_with_one_move_seen_to_the_end_and_one_not_is_not_exact() -> None:
    board = ConnectX(4, 4, 4)
    state = board.from_moves("1313414341")  # X wins in column 4; column 2 is seen lost to every end at depth 3;
    found = estimated(board, state, board.actions(state), 1.0, depth=3)  # column 3 is not
    assert found.values[3] == win_value(1) and found.values[1] == loss_value(2) and not found.exact
    assert [found.kind(c) for c in (1, 2, 3)] == ["exact", "estimate", "exact"]


def test_a_timed_estimate_shares_its_seconds_among_the_moves() -> None:
    board = ConnectX(8, 8, 4)
    state = board.initial_state
    estimated(board, state, board.actions(state), 0.05)  # alpha-beta's code loaded
    found = estimated(board, state, board.actions(state), 0.4)
    assert found.elapsed < 1.6  # about 0.4 s in all, not 0.4 s for each of the 8 moves


def test_a_service_keeps_its_solver_while_nobody_asks_for_a_larger_table() -> None:
    engine = Service(GAME, table=1 << 12)
    solver = engine.solver
    with engine.borrowed(table=1 << 12) as lent:
        assert lent is solver
    with engine.borrowed(table=1 << 10) as lent:
        assert lent is solver
    with engine.borrowed(table=1 << 13) as lent:  # larger: made once, kept
        assert lent is not solver and lent.table.shape[0] == 1 << 13
    assert engine.solver is lent


def test_a_progress_text_longer_than_the_limit_is_refused_before_it_is_read() -> None:
    from zerosum.analysis import parse
    from zerosum.analysis.progress import MAX_TOKEN
    from zerosum.errors import UsageError

    text = '{"position": [0, 0], "pad": "' + "x" * MAX_TOKEN + '"}'  # well-formed JSON, too long
    with pytest.raises(UsageError, match=f"at most {MAX_TOKEN}"):
        parse(text)
    assert parse('{"position": [0, 0]}') == {"position": [0, 0]}


def test_a_service_lets_the_oldest_unfinished_run_go_first_and_keeps_no_finished_one() -> None:
    import itertools

    from zerosum.analysis.engine import MAX_RUNS

    engine = Service(GAME, table=1 << 16)
    states = [GAME.from_moves(m) for m in (  # Pons' Test_L2_R2 positions of plies 15-17: each takes a few slices
        "274552224131661 5455174361263362 2531276566711153 6614446666373154 24617524315172127 4642332434166445 "
        "7441746225252552 6323454652623215 1113222154334225").split()]
    assert len(states) == MAX_RUNS + 1

    def one_slice(state):  # type: ignore[no-untyped-def]
        ticks = itertools.count()  # a clock a second later at every look: a slice or two
        return engine.analyse(state, seconds=1.5, clock=lambda: float(next(ticks)), threads=1, book=False)

    for state in states[:MAX_RUNS]:
        assert not one_slice(state).done
    one_slice(states[0])  # asked again: the newest
    one_slice(states[MAX_RUNS])  # one too many: the oldest, the second asked, is let go
    kept = {key[:2] for key in engine._runs}
    assert len(kept) == MAX_RUNS and (states[0].current, states[0].mask) in kept
    assert (states[1].current, states[1].mask) not in kept
    assert engine.analyse(states[0], seconds=600, threads=1, book=False).done  # finished: nothing to keep
    assert (states[0].current, states[0].mask) not in {key[:2] for key in engine._runs}


@pytest.mark.parametrize("nodes", [150, 400, 1000, 2500, 6000])
def test_a_node_budget_estimate_is_the_fixed_depth_estimate_of_the_round_every_move_completed(nodes: int) -> None:
    from zerosum import make_agent
    from zerosum.analysis.estimate import lockstep_values

    state = GAME.from_moves("445")  # not symmetric: a child cut short would show
    actions = GAME.actions(state)
    values, _, _, reached = lockstep_values(GAME, state, actions, make_agent(f"alphabeta:nodes={nodes}"))
    assert reached is not None and reached >= 1
    assert values == estimated(GAME, state, actions, 1.0, depth=reached).values, reached
