"""The ``solver`` agent with a time limit: exact when it can, else a proven move -- never alpha-beta on a
board the solver takes."""

from __future__ import annotations

import itertools

import pytest

from zerosum import ConnectX, Solver, make_agent
from zerosum.solver.agent import PROOF, SolverAgent
from zerosum.values import HEURISTIC_BOUND
from solver_truth import random_positions  # type: ignore[import-not-found]


def _no_alphabeta(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: SolverAgent, seconds: float) -> None:
        raise AssertionError("the solver handed a move to alpha-beta")

    monkeypatch.setattr(SolverAgent, "_alphabeta", refuse)


def _positions(value: int, n: int) -> list:  # type: ignore[type-arg]
    """7 x 6 positions of plies 10 to 20 whose value (win/draw/loss) is ``value``."""
    game, truth = ConnectX(), Solver(tt_size=1 << 20, book=False)
    out = []
    for state in random_positions(game, 600, seed=21, min_ply=10):
        if state.ply <= 20 and truth.solve(state, weak=True) == value:
            out.append(state)
        if len(out) == n:
            break
    return out


@pytest.mark.parametrize("value", [1, 0, -1])
def test_the_solver_agent_on_7x6_plays_a_proven_move_when_time_is_out(value: int,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _no_alphabeta(monkeypatch)
    game, truth = ConnectX(), Solver(tt_size=1 << 20, book=False)
    for state in _positions(value, 2):
        agent = make_agent("solver:time=0.5,book=no,tt=18")
        ticks = itertools.count(0, 10)  # every look at the clock: 10 s later -- out of time at once
        result = agent.search_within(game, state, 0.5, clock=lambda: float(next(ticks)))  # type: ignore[attr-defined]
        scores = truth.analyze(state)
        chosen = scores[result.action]
        assert chosen is not None and (chosen > 0) - (chosen < 0) == value  # the game's value kept
        if result.exact:  # a draw, or every column that may be best was known anyway
            assert chosen == max(s for s in scores if s is not None)
            assert agent.last_proof is None  # type: ignore[attr-defined]
        else:
            assert agent.last_proof == PROOF[value] and result.value == value * HEURISTIC_BOUND  # type: ignore[attr-defined]
        assert agent.last_fallback is None  # type: ignore[attr-defined]


def test_the_solver_agent_with_time_enough_is_exact_and_reports_each_result(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_alphabeta(monkeypatch)
    game, truth = ConnectX(), Solver(tt_size=1 << 20, book=False)
    state = _positions(1, 1)[0]
    seen: list = []  # type: ignore[type-arg]
    agent = make_agent("solver:time=30,book=no,tt=18")
    result = agent.search_within(game, state, 3600.0, report=seen.append)  # type: ignore[attr-defined]
    scores = truth.analyze(state)
    assert result.exact and scores[result.action] == max(s for s in scores if s is not None)
    assert seen and all(scores[e.column] is not None for e in seen)
    assert all(e.value == scores[e.column] for e in seen if e.kind == "exact")


def test_agent_with_time_limit_solves_or_plays_a_proven_move() -> None:
    # moved from test_api.py (test_agent_with_time_limit_solves_or_says_it_did_not): a 7 x 6 position the
    # solver cannot finish in 0.2 s is no longer handed to alpha-beta
    game = ConnectX(4, 4, 4)
    agent = make_agent("solver:time=30,book=no")
    result = agent.search(game, game.from_moves("12"))
    assert agent.last_fallback is None and result.scores  # type: ignore[attr-defined]
    big = ConnectX()
    agent = make_agent("solver:time=0.2,tt=18")
    state = big.from_moves("44")  # in the book: the game's value at once, the columns' scores from the book
    action = agent(big, state)
    assert action in big.actions(state)
    assert agent.last_fallback is None  # type: ignore[attr-defined]


def test_under_a_hard_time_control_nothing_proven_lets_alphabeta_move_in_the_time_left() -> None:
    # the arena calls search(): its time is a control, so a move is made in time even when no win/draw/loss
    # could be proven (marked not exact, last_fallback saying so); the faces call search_within (patient)
    game = ConnectX()
    state = game.from_moves("13712")  # ply 5 beyond the book: seconds to prove with no table
    agent = make_agent("solver:time=0.5,book=no,tt=18")
    ticks = itertools.count(0, 10)  # every look at the clock: 10 s later -- out of time at once
    clock = lambda: float(next(ticks))  # noqa: E731
    found = agent.search_within(game, state, 0.5, clock=clock, hard=True)  # type: ignore[attr-defined]
    assert found.action in game.actions(state) and not found.exact
    assert agent.last_fallback and "alphabeta" in agent.last_fallback  # type: ignore[attr-defined]


def test_the_faces_ask_the_solver_for_a_proven_move_not_a_hard_time_control(monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum.pool import Job, choose_move
    from zerosum.ui import service

    seen: list[bool] = []
    real = SolverAgent.search_within

    def spy(self, game, state, seconds, report=None, clock=None, hard=False):  # type: ignore[no-untyped-def]
        seen.append(hard)
        return real(self, game, state, seconds, report) if clock is None else real(self, game, state, seconds,
                                                                                     report, clock, hard)

    monkeypatch.setattr(SolverAgent, "search_within", spy)
    game = ConnectX()
    actions = game.parse_moves("444444")
    agent = service.checked_agent(game, "solver:time=1")
    choose_move(Job.of(game, actions, game.states_of(actions)[-1], agent))
    assert seen == [False]
