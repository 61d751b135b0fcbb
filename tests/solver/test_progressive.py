"""The progressive analysis (zerosum.solver.progressive): the same scores as ``Solver.analyze``, win/draw/loss
first, stoppable between slices and resumable."""

from __future__ import annotations

import itertools
import threading

import pytest

from zerosum import ConnectX, Solver
from zerosum.solver.progressive import EXACT, ROOT, WDL, Progressive
from solver_truth import brute_score, random_positions  # type: ignore[import-not-found]


def _sign(v: int) -> int:
    return (v > 0) - (v < 0)


def _middle_positions() -> list[str]:
    """A few 7 x 6 positions of plies 10 to 20 (random games, fixed seed)."""
    game = ConnectX()
    out = []
    for state in random_positions(game, 400, seed=13, min_ply=10):
        if state.ply <= 20:
            out.append(state)
        if len(out) == 4:
            break
    return [game.format_moves(list(game.moves_played(s) or ())) for s in out]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(tt_size=1 << 22, book=False)


def _check_run(solver: Solver, position: object, expected: list[int | None]) -> list:  # type: ignore[type-arg]
    solver.reset()
    run = Progressive(solver, position, first_slice=1 << 12)
    events = list(run.events())
    assert run.done and run.scores() == expected
    kinds = [e.kind for e in events]
    searched = [e for e in events if e.nodes]
    # every win/draw/loss found by a search comes before every exact score found by a search
    assert [e.kind for e in searched] == sorted((e.kind for e in searched), key=lambda k: k != WDL)
    for e in events:
        if e.kind == WDL:
            assert e.value == _sign(expected[e.column])  # type: ignore[arg-type]
    assert kinds.count(EXACT) == kinds.count(WDL) == sum(s is not None for s in expected)
    return events


def test_progressive_scores_equal_analyze_on_middle_game_positions(solver: Solver) -> None:
    for moves in _middle_positions():
        expected = Solver(tt_size=1 << 20, book=False).analyze(moves)
        _check_run(solver, moves, expected)


def test_progressive_scores_equal_brute_force_on_small_boards() -> None:
    game = ConnectX(4, 4, 3)  # brute force is quick here
    solver = Solver(game, tt_size=1 << 14, book=False)
    memo: dict = {}  # type: ignore[type-arg]
    for state in random_positions(game, 25, seed=5):
        expected: list[int | None] = []
        for c in range(game.cols):
            if state.mask & game.top[c]:
                expected.append(None)
                continue
            child = game.result(state, c)
            if child.won_by:
                expected.append((game.cells + 2 - (state.ply + 1)) // 2)
            elif child.mask == game.board_mask:
                expected.append(0)
            else:
                expected.append(-brute_score(game, child, memo))
        _check_run(solver, state, expected)


def test_progressive_stopped_after_n_events_and_resumed_ends_the_same(solver: Solver) -> None:
    moves = _middle_positions()[0]
    expected = Solver(tt_size=1 << 20, book=False).analyze(moves)
    for n in (1, 3, 8):
        solver.reset()
        run = Progressive(solver, moves, first_slice=1 << 12)
        first = list(itertools.islice(run.events(), n))
        assert len(first) == n and not run.done
        rest = list(run.events())
        assert run.done and run.scores() == expected
        assert len(first) + len(rest) == 2 * sum(s is not None for s in expected)


def test_progressive_stops_between_slices_at_a_deadline_a_node_total_or_a_flag(solver: Solver) -> None:
    moves = _middle_positions()[1]
    expected = Solver(tt_size=1 << 20, book=False).analyze(moves)
    solver.reset()
    ticks = itertools.count()
    run = Progressive(solver, moves, clock=lambda: float(next(ticks)), first_slice=1 << 12)
    list(run.events(deadline=3.0))  # a clock that advances one second a call: at most a few slices
    assert not run.done
    list(run.events(max_nodes=1))  # one small slice at most
    stop = threading.Event()
    stop.set()
    assert list(run.events(stop=stop)) == []
    list(run.events())
    assert run.scores() == expected


def test_a_win_in_one_is_known_without_a_search() -> None:
    solver = Solver(book=False, tt_size=1 << 12)
    run = Progressive(solver, "121212")  # X wins at once in column 1
    events = list(run.events(max_nodes=0))
    assert (0, WDL, 1) in [(e.column, e.kind, e.value) for e in events]
    assert run.exact[0] == (42 + 2 - 7) // 2 and run.best_class() == 1 and run.proven()[0] == 0


def test_the_position_itself_is_searched_first_when_asked(solver: Solver) -> None:
    moves = _middle_positions()[2]
    solver.reset()
    run = Progressive(solver, moves, root=True)
    first = next(e for e in run.events() if e.nodes)
    value = Solver(tt_size=1 << 20, book=False).solve(moves, weak=True)
    if first.column == ROOT:
        assert first.value == value
    assert run.best_class() == value
