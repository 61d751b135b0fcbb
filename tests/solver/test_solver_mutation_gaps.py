"""Gaps a mutation audit of the solver layer found (solver, solver_state, answers, progressive, agent, book,
sampling, bench): each test fails on a careless edit a user would notice, and is checked against independent
truth (Pons' benchmark scores, brute force on small boards, hand-worked figures).  Small boards and late
positions only: the whole file runs in a few seconds."""

from __future__ import annotations

from pathlib import Path

import pytest

from zerosum import ConnectX, Solver
from zerosum.errors import InvalidSpecError
from zerosum.solver.book import Book, generate

from solver_truth import brute_score, read_bench  # type: ignore[import-not-found]

SMALL = ConnectX(4, 4, 3)  # 4 x 4, three in a row: brute force in well under a second


@pytest.fixture(scope="module")
def small_k3_book() -> Book:
    return generate(Solver(SMALL, tt_size=1 << 12, book=False), 6)


def test_a_book_of_another_line_length_is_refused(small_k3_book: Book, tmp_path: Path) -> None:
    path = tmp_path / "k3.zsb"
    small_k3_book.save(str(path))
    assert Solver(SMALL, tt_size=1 << 10, book=str(path)).book is not None  # its own board takes it
    with pytest.raises(InvalidSpecError, match="another board"):
        Solver(ConnectX(4, 4, 4), tt_size=1 << 10, book=str(path))  # same rows and columns, four in a row


def test_reset_forgets_every_table_so_a_repeat_searches_as_a_fresh_solver_does() -> None:
    # zerosum bench --reset-table times each position from cleared tables: the near-end table must go too
    solver = Solver(tt_size=1 << 16, book=False)
    for moves, score in read_bench("Test_L3_R1", 6):
        fresh = Solver(tt_size=1 << 16, book=False)
        assert fresh.solve(moves) == score
        first = fresh.nodes
        assert solver.solve(moves) == score
        solver.solve(moves)
        solver.reset()
        assert solver.solve(moves) == score and solver.nodes == first, moves


def _positions(game: ConnectX, depth: int) -> list:  # type: ignore[type-arg]
    """Every position (not over) of up to ``depth`` plies, mirror images included, by playing every move."""
    level, out = [game.initial_state], [game.initial_state]
    for _ in range(depth):
        nxt = {}
        for state in level:
            for col in game.actions(state):
                child = game.result(state, col)
                if not child.won_by and child.mask != game.board_mask:
                    nxt[(child.current, child.mask)] = child
        level = list(nxt.values())
        out += level
    return out


def test_every_book_entry_and_its_mirror_image_is_the_brute_force_score(small_k3_book: Book) -> None:
    memo: dict = {}  # type: ignore[type-arg]
    positions = _positions(SMALL, 6)
    assert len(positions) > 1000 and any(s.ply == 6 for s in positions)
    for state in positions:  # the plies searched (6) and the ones derived above them by negamax (wins in one too)
        assert small_k3_book.get(state.current, state.mask) == brute_score(SMALL, state, memo), SMALL.to_moves(state)
    lost = [s for s in positions if brute_score(SMALL, s, memo) < 0]
    assert lost  # a position whose every move loses is in the book with its negative score


def test_the_book_alone_scores_a_win_in_one_as_the_search_does() -> None:
    from zerosum import get_game
    from zerosum.solver.answers import book_answer
    from zerosum.solver.book import load_default

    game = get_game("connect4")
    book = load_default(game)
    if book is None:
        pytest.skip("no shipped book")
    state = game.from_moves("121212")  # column 1 wins with the 7th stone: (42 + 2 - 7) // 2 = 18
    found = book_answer(game, state, book)
    assert found is not None and found.action == 0 and found.scores[0] == 18
    truth = Solver(game, tt_size=1 << 16).analyze(state)  # its children searched through the book: 18 too
    assert [found.scores.get(c) for c in range(7)] == truth and found.exact


LOST = "3575316255751336464276636772271112"  # Test_L3_R1, line 21: -3; columns 1-5 score -3 -3 -3 -4 -3


def test_a_loss_proven_only_in_win_draw_loss_is_said_as_a_loss_centre_first_and_not_exact() -> None:
    from zerosum import get_game
    from zerosum.solver.agent import PROOF, SolverAgent
    from zerosum.values import HEURISTIC_BOUND

    game = get_game("connect4")
    state = game.from_moves(LOST)
    assert Solver(game, tt_size=1 << 16, book=False).analyze(state) == [-3, -3, -3, -4, -3, None, None]
    ticks = iter([0.0])
    clock = lambda: next(ticks, 1e6)  # noqa: E731 - the time is out once win/draw/loss is proven
    agent = SolverAgent()
    found = agent.search_within(game, state, 1.0, clock=clock)
    assert not found.exact and found.value == -HEURISTIC_BOUND  # a proven loss, its distance unknown
    assert agent.last_proof == PROOF[-1] and agent.last_fallback is None
    # every move loses: the centre-most of those that hand over no win at once (the centre's does: -4), not the edge
    assert found.action == 2
    exact = SolverAgent().search_within(game, state, None)  # untimed: the move that loses slowest, centre-most
    assert exact.exact and exact.action == 2 and exact.scores == {0: -3, 1: -3, 2: -3, 3: -4, 4: -3}


HARD_CENTRE = "274552224131661"  # Test_L2_R2, line 1: 0; its centre column needs more than one slice


def _progressive(moves: str, **options):  # type: ignore[no-untyped-def]
    from zerosum.solver.progressive import Progressive
    from zerosum.solver.progressive_state import MIN_SLICE

    options.setdefault("first_slice", MIN_SLICE)
    return Progressive(Solver(tt_size=1 << 18, book=False), moves, threads=1, **options)


def test_a_hard_column_waits_for_the_easy_ones_and_its_budget_grows_and_travels() -> None:
    from zerosum.solver.progressive_state import GROWTH, MIN_SLICE, WDL

    run = _progressive(HARD_CENTRE)
    events = list(run.events())
    assert run.done and max(run.scores()) == 0  # type: ignore[type-var]  # Pons: 0
    assert run.scores() == Solver(tt_size=1 << 18, book=False).analyze(HARD_CENTRE)
    wdl = [e.column for e in events if e.kind == WDL]
    assert wdl[-1] == 3 and sorted(wdl) == list(range(7))  # the centre ran out of its slice: the others first
    assert run.best_class() == 0 and run.proven() == [3]  # six columns lose, the centre draws: a draw
    snap = run.snapshot()
    assert snap["budgets"] == [[WDL, 3, GROWTH * MIN_SLICE]]  # the next try of a column gets GROWTH times more
    other = _progressive(HARD_CENTRE)
    other.restore(snap)  # another process: the results and the budgets
    assert other.done and other.snapshot() == snap and list(other.events()) == []


def test_a_draw_proven_in_win_draw_loss_is_its_exact_score_at_once() -> None:
    from zerosum.solver.progressive import EXACT, WDL

    run = _progressive(HARD_CENTRE)
    events = list(run.events(kinds=(WDL,)))
    assert len(events) == 7 and run.exact == {3: 0} and not run.done  # a draw's score is 0: known at once
    nodes = run.nodes
    assert [(e.column, e.kind, e.value) for e in run.events(kinds=(EXACT,), columns=[3])] == [(3, EXACT, 0)]
    assert run.nodes == nodes  # said without a search of its own


def test_a_slice_cut_short_by_the_node_total_does_not_grow_the_budget() -> None:
    from zerosum.solver.progressive_state import MIN_SLICE

    run = _progressive(HARD_CENTRE, first_slice=1 << 16)
    list(run.events(max_nodes=MIN_SLICE))  # the centre first, cut to MIN_SLICE nodes: it runs out
    assert not run.wdl and run.nodes >= MIN_SLICE
    assert run.snapshot()["budgets"] == []  # not its whole budget: the next try is no larger


def test_restore_keeps_the_larger_budget_and_refuses_a_score_one_past_the_fastest_win() -> None:
    from zerosum.errors import UsageError
    from zerosum.solver.progressive import EXACT, WDL

    run = _progressive(HARD_CENTRE)
    snap = run.snapshot()
    run.restore({**snap, "budgets": [[WDL, 3, 1 << 14]]})
    run.restore({**snap, "budgets": [[WDL, 3, 1 << 16]]})
    run.restore({**snap, "budgets": [[WDL, 3, 1 << 15]]})
    assert run.snapshot()["budgets"] == [[WDL, 3, 1 << 16]]
    even = _progressive("5455174361263362")  # Test_L2_R2, line 2: ply 16, so a move now wins at best with
    hi = (42 + 2 - 17) // 2  # the 17th stone: 13
    data = even.snapshot()
    for bad in ([[3, hi + 1]], [[3, -hi - 1]]):  # a loss: at the soonest the 18th stone, -(42 + 2 - 18) // 2 = -13
        with pytest.raises(UsageError, match="does not hold together"):
            even.restore({**data, EXACT: bad})
    even.restore({**data, EXACT: [[3, hi]]})  # in range: taken (nothing can check it without a search)
    assert even.exact == {3: hi}
    with pytest.raises(UsageError, match="does not hold together"):
        even.restore({**data, EXACT: [[3, hi - 1]]})  # contradicts the score it holds


def test_bench_reads_the_limit_counts_weak_signs_and_starts_each_file_from_a_cleared_table() -> None:
    from solver_truth import bench_file  # type: ignore[import-not-found]
    from zerosum.solver.bench import read_file, run_file

    path = bench_file("Test_L2_R1")
    solver = Solver(tt_size=1 << 16, book=False)
    items, states = read_file(solver, path, limit=12)
    assert len(items) == len(states) == 12
    assert [score for _, _, score in items] == [score for _, score in read_bench("Test_L2_R1", 12)]
    cold = run_file(Solver(tt_size=1 << 16, book=False), path, limit=12)
    again = run_file(solver, path, limit=12, repeat=2)  # each pass starts from a cleared table: the same nodes
    assert cold[0] == again[0] == 12 and cold[4] == again[4] == 0 and cold[3] == again[3] > 0
    assert run_file(solver, path, weak=True, limit=12)[4] == 0  # with --weak, the signs are compared
    alone = []
    for moves, _ in read_bench("Test_L2_R1", 12):  # --reset-table: each position as a fresh solver searches it
        fresh = Solver(tt_size=1 << 16, book=False)
        fresh.solve(moves)
        alone.append(fresh.nodes)
    assert run_file(solver, path, limit=12, reset_table=True)[3] == sum(alone) / 12


def _quiet_by_rules(game: ConnectX, state) -> bool:  # type: ignore[no-untyped-def]
    """Quiet, by the rules alone: not over, and after every move the opponent has no winning reply."""
    if game.is_terminal(state):
        return False
    for col in game.actions(state):
        child = game.result(state, col)
        if not child.won_by and any(game.result(child, reply).won_by for reply in game.actions(child)):
            return False
    return True


def test_quiet_positions_are_quiet_by_the_rules_distinct_and_safe_moves_never_win() -> None:
    from solver_truth import random_positions  # type: ignore[import-not-found]
    from zerosum.solver.sampling import is_quiet, quiet_positions, safe_moves

    game = ConnectX(5, 6, 4)
    for state in random_positions(game, 150, 3, min_ply=6):  # quiet or not: the same answer as the rules
        assert is_quiet(game, state) == _quiet_by_rules(game, state), game.to_moves(state)
    found = quiet_positions(game, 12, 25, seed=2)
    assert len({(s.current, s.mask) for s in found}) == len(found) == 25
    assert all(_quiet_by_rules(game, s) for s in found)
    few = quiet_positions(ConnectX(4, 4, 4), 2, 20, seed=1)  # a board with only 16 positions at ply 2
    assert len({(s.current, s.mask) for s in few}) == len(few) == 16
    won = ConnectX(6, 7, 4).from_moves("121213")  # X wins in column 1; column 2 (O's stack) stays quiet
    assert 0 not in safe_moves(ConnectX(6, 7, 4), won) and safe_moves(ConnectX(6, 7, 4), won)


def test_a_piped_move_string_with_its_newline_is_a_move_string() -> None:
    solver = Solver(tt_size=1 << 16)
    assert solver.position("4455\n") == solver.position("4455") and solver.solve("4455\n") == 18  # DESIGN.md


def test_a_board_of_exactly_64_bits_is_searched_with_the_64_bit_code() -> None:
    from zerosum.solver.steps import solver_steps, wide

    board = ConnectX(7, 8, 4)  # 8 columns of 7 + 1 bits: 64
    assert not wide(board) and wide(ConnectX(8, 8, 4))
    assert Solver(board, tt_size=1 << 10, book=False).wide is False
    assert not any("128" in s.label for s in solver_steps(board, Solver))


def test_an_untimed_move_with_a_report_reports_every_result() -> None:
    from zerosum import get_game
    from zerosum.solver.agent import SolverAgent

    game = get_game("connect4")
    seen: list = []  # type: ignore[type-arg]
    found = SolverAgent().search_within(game, game.from_moves(LOST), None, report=seen.append)
    assert found.exact and found.action == 2 and found.scores == {0: -3, 1: -3, 2: -3, 3: -4, 4: -3}
    assert {(e.column, e.kind) for e in seen} >= {(c, "wdl") for c in range(5)} | {(2, "exact")}


def test_ctrl_c_during_analyze_says_each_column_proven_from_the_movers_view(monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum.solver.solver import Interrupted

    solver = Solver(tt_size=1 << 16, book=False)
    real = solver.solve_on
    calls = iter(range(100))

    def interrupted_on_the_third(*args, **kwargs):  # type: ignore[no-untyped-def]
        if next(calls) == 2:
            raise KeyboardInterrupt  # as Ctrl-C arrives between two slices
        return real(*args, **kwargs)

    monkeypatch.setattr(solver, "solve_on", interrupted_on_the_third)
    with pytest.raises(Interrupted) as caught:
        solver.analyze(LOST, threads=1)  # columns 1 and 2 proven (-3 each), the third interrupted
    assert caught.value.scores == [-3, -3, None, None, None, None, None]


def test_under_a_time_control_alpha_beta_keeps_its_share_when_nothing_is_proven() -> None:
    from zerosum import get_game
    from zerosum.solver.agent import FALLBACK_SHARE, SolverAgent

    game = get_game("connect4")
    agent = SolverAgent()
    agent.warm_up(game)
    ticks = iter([0.0])
    clock = lambda: next(ticks, 0.8)  # noqa: E731 - 0.8 s gone at the first look: past the proving share
    assert 1.0 - FALLBACK_SHARE < 0.8
    found = agent.search_within(game, game.from_moves(LOST), 1.0, clock=clock, hard=True)
    assert agent.last_fallback == "nothing proven within 1 s: alphabeta:time=0.20 chose"  # the 0.2 s left
    assert found.action in game.actions(game.from_moves(LOST))  # alpha-beta's move (late: it may prove it)


def test_a_drawn_position_is_exact_once_a_drawing_move_is_proven() -> None:
    from zerosum import get_game
    from zerosum.solver.agent import SolverAgent

    game = get_game("connect4")
    state = game.from_moves("52677675164321472411331752454")  # Test_L3_R1: 0; the centre draws, proven first
    ticks = iter([0.0])
    agent = SolverAgent()
    found = agent.search_within(game, state, 1.0, clock=lambda: next(ticks, 1e6))  # out of time after the proof
    assert found.exact and found.value == 0 and found.action == 3 and agent.last_proof is None


def test_the_solver_agent_prepares_its_own_code_from_the_reach_on() -> None:
    from zerosum.solver.agent import SolverAgent

    board = ConnectX(8, 8, 4)
    moves = "12345678" * 3  # ply 24: 40 empty cells, the reach (analysis.REACH)
    agent = SolverAgent()
    at = [s.label for s in agent.preparation(board, board.from_moves(moves))]
    before = [s.label for s in agent.preparation(board, board.from_moves(moves[:-1]))]
    assert "the solver's 128-bit search" in at
    assert not any("solver" in label for label in before) and "alpha-beta's kernel" in before  # alpha-beta moves
