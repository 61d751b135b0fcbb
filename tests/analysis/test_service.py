"""The analysis service (:mod:`zerosum.analysis`): one per process and game, owning the one solver that the
solver agent, the hints, the page's analysis and ``zerosum analyze`` share; exact answers that agree with the
solver's own; the documented tie-break; the book; alpha-beta where the solver does not go; the adjudicator's
ruling on its own table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from zerosum import ConnectX, analysis, get_game, make_agent
from zerosum.analysis import Analysis, Service, service
from zerosum.values import plies_to_end

pytest.importorskip("zerosum.solver.solver")

SRC = Path(analysis.__file__).parents[1]


def test_import_zerosum_loads_no_compiled_code_and_finds_the_service_lazily() -> None:
    code = ("import sys, zerosum; assert 'numba' not in sys.modules; s = zerosum.analysis.service; "
            "assert 'numba' not in sys.modules; print(zerosum.analysis.Service.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "Service", out.stderr


def test_one_service_a_process_and_game() -> None:
    game = get_game("connect4")
    assert service(game) is service(ConnectX()) is service(get_game("connectx:rows=6,cols=7,k=4"))
    assert service(get_game("connectx:rows=5,cols=6,k=4")) is not service(game)
    assert service(get_game("tictactoe")).solver is None and not service(get_game("tictactoe")).solves


def test_the_solver_agent_borrows_the_services_solver_so_a_hint_warms_its_table() -> None:
    game = get_game("connectx:rows=5,cols=6,k=4")
    state = game.from_moves("3344")
    engine = Service(game, table=1 << 16)  # apart from the process's, to count from an empty table
    cold = engine.analyse(state, threads=1)  # one thread: node counts that do not vary
    assert cold.exact and cold.nodes > 1000
    again = engine.analyse(state, threads=1)
    assert again.scores == cold.scores and again.nodes < cold.nodes / 4  # what the first proved is in the table

    shared = service(game)
    shared.analyse(state, seconds=30)  # a hint: the progressive analysis of the terminal and the page
    agent = make_agent("solver")
    found = agent.search(game, state)  # type: ignore[attr-defined]
    assert found.exact and found.scores == {c: int(s) for c, s in cold.scores.items()}
    assert found.nodes < cold.nodes / 2  # the agent searched the table the hint filled
    with shared.borrowed() as solver:
        assert solver is shared.solver  # one solver of the game in this process


def test_exact_answers_agree_with_the_solver_and_break_ties_centre_first() -> None:
    from zerosum.solver.solver import Solver, best_of

    game = get_game("connect4")
    truth = Solver(game, tt_size=1 << 20)
    for moves in ("", "4453", "4444433321", "32164625"):
        state = game.from_moves(moves)
        found = service(game).analyse(state)
        raw = truth.analyze(state)
        assert found.engine == "the solver" and found.exact and found.done and found.solver_scores
        assert [found.scores.get(c) for c in range(7)] == raw
        assert found.best == best_of(raw, 7)  # the centre-most of the best, left first between equals
        for c, s in found.scores.items():
            assert found.kind(c) == "exact" and found.values[c] == service(game).score_value(state, int(s))
            assert found.distance(c) == (None if s == 0 else plies_to_end(found.values[c]))


def test_the_book_answers_without_a_search_and_says_so() -> None:
    game = get_game("connect4")
    engine = service(game)
    depth = engine.book_depth
    if depth is None:
        pytest.skip("no opening book shipped")
    inside = game.from_moves("4453")
    found = engine.analyse(inside)
    assert engine.from_book(inside) and found.from_book and found.nodes == 0
    past = game.from_moves("4444433321")
    assert not engine.from_book(past) and not engine.analyse(past).from_book
    booked = engine.analyse(inside, book=False)  # the book left out for one call: the same scores, searched
    assert booked.scores == found.scores and booked.nodes > 0 and not booked.from_book
    assert engine.solver.book is not None  # and back for the others


def test_alphabeta_estimates_where_the_solver_does_not_go() -> None:
    ttt = get_game("tictactoe")
    actions, state = ttt.parse_position("1425")
    found = service(ttt).analyse(state, time=0.3)
    assert found.engine.startswith("alphabeta:time=") and found.exact and found.best == 2
    assert found.kind(2) == "exact" and found.distance(2) == 1
    big = get_game("connectx:rows=15,cols=9,k=4")  # 144 bits: past the solver
    guess = service(big).analyse(big.initial_state, time=0.2)
    assert not guess.exact and all(guess.kind(a) == "estimate" for a in big.actions(big.initial_state))
    assert guess.distance(0) is None and guess.progress is None


def test_a_finished_game_has_nothing_to_analyse() -> None:
    from zerosum.errors import InvalidPositionError

    game = get_game("connect4")
    with pytest.raises(InvalidPositionError, match="nothing to analyse"):
        service(game).analyse(game.from_moves("1212121"))


def test_the_adjudicator_rules_on_a_table_of_its_own_without_the_book() -> None:
    small = get_game("connectx:rows=5,cols=6,k=4")
    state = small.from_moves("3344")
    ruled, fresh = Service(small, table=1 << 16), Service(small, table=1 << 16)
    assert ruled.prove(state, 10_000_000, 1 << 12) is not None  # proven, on the adjudicator's own table
    after = ruled.analyse(state, threads=1)
    assert after.nodes == fresh.analyse(state, threads=1).nodes  # the shared table learned nothing from it
    game = get_game("connect4")
    inside = game.from_moves("4453")
    if service(game).from_book(inside):  # the book would answer at once; the ruling searches, within its budget
        assert service(game).prove(inside, 100, 1 << 12) is None


def test_no_face_builds_a_solver_or_keeps_one() -> None:
    faces = [*sorted((SRC / "ui").rglob("*.py")), SRC / "commands" / "bench_analysis.py",
             SRC / "arena" / "adjudicate.py", SRC / "pool" / "jobs.py"]
    for path in faces:
        text = path.read_text()
        assert "Solver(" not in text and "_SOLVERS" not in text and "load_solver" not in text, path
    analyze = (SRC / "commands" / "solver.py").read_text().split("def _run_analyze")[1].split("\ndef ")[0]
    assert "Solver(" not in analyze and "solver_from" not in analyze and "service(game)" in analyze


def test_an_analysis_is_plain_data_a_face_words() -> None:
    found = Analysis("someone", False, {0: 3, 1: 0.5}, {0: 999_999_995.0, 1: 0.5}, 0, classes={})
    assert found.kind(0) == "exact" and found.kind(1) == "estimate" and found.kind(2) == ""
    assert found.distance(0) == 5 and found.distance(1) is None and found.value == 999_999_995.0


def test_the_next_job_goes_to_the_worker_that_answered_last() -> None:
    """A page's slices of one analysis meet the worker that kept it (and its warm table) when it is free."""
    import os
    import time

    from zerosum.pool import Pool

    with Pool(size=2, wait=60.0) as pool:
        pool.start()
        deadline = time.monotonic() + 120
        while pool.ready < 2 and time.monotonic() < deadline:  # both idle, so either could take the jobs
            time.sleep(0.05)
        pids = [pool.run(os.getpid, (), 60.0) for _ in range(4)]
    assert len(set(pids)) == 1, pids
