"""The solver on several threads (zerosum.solver.parallel): one shared table, the same scores as one thread."""

from __future__ import annotations

import itertools
import threading

import numpy as np
import pytest
from solver_truth import brute_score, random_positions  # type: ignore[import-not-found]

from zerosum import ConnectX, Solver
from zerosum.cli import main
from zerosum.errors import UsageError
from zerosum.solver import search
from zerosum.solver.parallel import MAX_THREADS, default_threads, helper_order
from zerosum.solver.progressive import EXACT, WDL, Progressive


def _middle(game: ConnectX, n: int, seed: int, lo: int = 10, hi: int = 20) -> list:  # type: ignore[type-arg]
    """``n`` random positions of plies ``lo`` to ``hi``."""
    return [s for s in random_positions(game, 40 * n, seed=seed, min_ply=lo) if s.ply <= hi][:n]


@pytest.fixture(scope="module")
def one() -> Solver:
    return Solver(tt_size=1 << 20, book=False)


@pytest.fixture(scope="module")
def two() -> Solver:
    return Solver(tt_size=1 << 20, book=False, threads=2)


def test_two_threads_analyze_to_the_scores_of_one(one: Solver, two: Solver) -> None:
    game = ConnectX()
    for state in _middle(game, 12, seed=31):
        assert two.analyze(state) == one.analyze(state, threads=1)
        assert two.analyze(state, weak=True) == one.analyze(state, weak=True)


def test_two_threads_analyze_small_boards_to_brute_force_scores() -> None:
    # 4 x 5 from 4 stones on: from the empty board its brute force met 308,000 positions (nine tenths of this
    # test's time), from 4 stones 32,000; the other two boards from the empty one
    for rows, cols, k, min_ply in ((4, 4, 3, 0), (4, 5, 3, 4), (3, 5, 3, 0)):
        game = ConnectX(rows=rows, cols=cols, k=k)
        solver = Solver(game, tt_size=1 << 12, book=False, threads=2)  # a tiny table: many racing overwrites
        memo: dict = {}  # type: ignore[type-arg]
        for state in random_positions(game, 12, seed=rows * cols, min_ply=min_ply):
            expected = []
            for c in range(cols):
                if state.mask & game.top[c]:
                    expected.append(None)
                    continue
                child = game.result(state, c)
                if child.won_by:
                    expected.append((game.cells + 2 - child.ply) // 2)
                elif child.mask == game.board_mask:
                    expected.append(0)
                else:
                    expected.append(-brute_score(game, child, memo))
            assert solver.analyze(state) == expected


def test_lazy_smp_solves_to_the_scores_of_one_thread(one: Solver, two: Solver) -> None:
    game = ConnectX()
    assert two.lazy_smp
    for state in _middle(game, 12, seed=7, lo=8, hi=16):
        assert two.solve(state) == one.solve(state)
        assert two.solve(state, weak=True) == one.solve(state, weak=True)


def test_searches_racing_on_one_small_table_keep_every_score(one: Solver) -> None:
    """Two threads solve many positions at once over one table of 2**10 entries (races on most slots):
    every score is still the one-thread score."""
    game = ConnectX()
    states = _middle(game, 24, seed=5, lo=12, hi=24)
    expected = [one.solve(s) for s in states]
    shared = Solver(tt_size=1 << 10, book=False, threads=2)
    lanes = shared.lanes(2)
    got: dict[int, int] = {}

    def run(lane_index: int) -> None:
        for i, s in enumerate(states):
            got[(i, lane_index)] = shared.solve_on(lanes[lane_index], s.current, s.mask)  # type: ignore[index]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [got[(i, 0)] for i in range(len(states))] == expected  # type: ignore[index]
    assert [got[(i, 1)] for i in range(len(states))] == expected  # type: ignore[index]


def test_a_halted_lane_stops_its_search_at_once() -> None:
    solver = Solver(tt_size=1 << 16, book=False, threads=2)
    lane = solver.lanes(2)[1]
    state = solver.position("4444")
    lane.halt()
    assert solver.search_on(lane, state.current, state.mask, False, None) == search.ABORTED
    assert lane.nodes <= search.HALT_EVERY  # stopped at the first look at the flag
    lane.clear()
    assert solver.search_on(lane, state.current, state.mask, False, 1000) == search.ABORTED
    assert lane.nodes == 1000  # the node budget as before


def test_the_helper_searches_in_another_order() -> None:
    order = np.array([3, 2, 4, 1, 5, 0, 6])
    assert helper_order(order).tolist() == [3, 4, 2, 5, 1, 6, 0]


def test_two_progressive_workers_prove_the_scores_of_one_wdl_first(two: Solver, one: Solver) -> None:
    game = ConnectX()
    for state in _middle(game, 4, seed=13):
        expected = one.analyze(state, threads=1)
        two.reset()
        run = Progressive(two, state, first_slice=1 << 12)
        assert run.threads == 2
        events = list(run.events())
        assert run.done and run.scores() == expected
        # every win/draw/loss comes before every exact score searched for (a draw's 0 follows its WDL at once)
        searched = [e.kind for e in events if e.nodes and (e.kind == WDL or e.value)]
        assert searched == sorted(searched, key=lambda k: k != WDL)
        kinds = [e.kind for e in events]
        assert kinds.count(EXACT) == kinds.count(WDL) == sum(s is not None for s in expected)


def test_a_progressive_worker_with_nothing_to_start_helps_with_the_slice_under_way(one: Solver) -> None:
    """Lazy SMP in the progressive analysis: once every search left is under way, the idle worker searches one
    of them too (the same position and nodes, on its own lane); the first answer counts, the other lane is
    halted and searches again, and the scores are one thread's."""
    game, solver = ConnectX(), Solver(tt_size=1 << 20, book=False, threads=2)
    searched: dict[tuple[int, int, bool, int | None], set[int]] = {}
    solve_on = solver.solve_on

    def recorded(lane, current, mask, weak=False, node_limit=None):  # type: ignore[no-untyped-def]
        searched.setdefault((current, mask, weak, node_limit), set()).add(id(lane))
        return solve_on(lane, current, mask, weak, node_limit)

    solver.solve_on = recorded  # type: ignore[method-assign]
    for state in _middle(game, 4, seed=23):
        solver.reset()
        run = Progressive(solver, state, first_slice=1 << 12)
        assert list(run.events()) and run.done and run.scores() == one.analyze(state, threads=1)
    assert any(len(lanes) == 2 for lanes in searched.values())  # a slice searched on both lanes at once
    assert not any(lane.halted for lane in solver.lanes(2))  # the halted helpers were cleared


def test_two_progressive_workers_stopped_and_resumed_say_every_result_once(two: Solver, one: Solver) -> None:
    state = _middle(ConnectX(), 1, seed=17)[0]
    expected = one.analyze(state, threads=1)
    for n in (1, 3):
        two.reset()
        run = Progressive(two, state, first_slice=1 << 12)
        first = list(itertools.islice(run.events(), n))
        rest = list(run.events())
        assert run.done and run.scores() == expected
        assert len(first) + len(rest) == 2 * sum(s is not None for s in expected)
        assert len({(e.column, e.kind) for e in first + rest}) == len(first) + len(rest)


def test_two_progressive_workers_stop_at_a_flag(two: Solver) -> None:
    state = _middle(ConnectX(), 1, seed=19)[0]
    two.reset()
    stop = threading.Event()
    stop.set()
    run = Progressive(two, state)
    assert [e for e in run.events(stop=stop) if e.nodes] == []


@pytest.mark.parametrize("threads", [0, -1, MAX_THREADS + 1, 1.5, True, "2"])
def test_threads_out_of_range_is_one_usage_error(threads: object) -> None:
    with pytest.raises(UsageError, match=f"threads must be a whole number 1..{MAX_THREADS}"):
        Solver(tt_size=1 << 10, book=False, threads=threads)  # type: ignore[arg-type]
    with pytest.raises(UsageError):
        Solver(tt_size=1 << 10, book=False).analyze("44", threads=threads)  # type: ignore[arg-type]


def test_the_faces_use_two_threads_where_there_are_two_cores() -> None:
    assert 1 <= default_threads() <= 2


@pytest.mark.parametrize("bad", ["0", "33", "two", "1.5"])
def test_bench_analysis_threads_out_of_range_is_one_line(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "analysis", "--threads", bad, "--plies", "40"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--threads" in err[-1]


def test_the_solver_agent_takes_a_threads_option() -> None:
    from zerosum.agents.registry import make_agent
    from zerosum.errors import GameError

    assert make_agent("solver:threads=1").threads == 1  # type: ignore[attr-defined]
    with pytest.raises(GameError, match="threads"):
        make_agent("solver:threads=0")


def test_an_agent_searches_on_one_core_unless_a_face_offers_more() -> None:
    # matches stay fair: one core an engine by default; a face offers the machine's cores, a spec's own
    # threads= wins over the offer
    from zerosum.agents.registry import make_agent
    from zerosum.solver.parallel import default_threads

    agent = make_agent("solver")
    assert agent.threads == 1  # type: ignore[attr-defined]
    agent.use_cores(8)
    assert agent.threads == default_threads()  # type: ignore[attr-defined]
    agent.use_cores(1)
    assert agent.threads == 1  # type: ignore[attr-defined]
    pinned = make_agent("solver:threads=1")
    pinned.use_cores(8)
    assert pinned.threads == 1  # type: ignore[attr-defined]
    make_agent("alphabeta:depth=2").use_cores(8)  # agents on one core take the offer quietly


def test_the_faces_offer_the_solver_the_machines_cores(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from zerosum import get_game
    from zerosum.ui import service

    monkeypatch.setattr(service, "usable_cores", lambda: 2)
    agent = service.checked_agent(get_game("connect4"), "solver")
    from zerosum.solver.parallel import default_threads

    assert agent.threads == min(2, default_threads())  # type: ignore[attr-defined]
