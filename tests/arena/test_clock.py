"""Game clocks in the arena (``--tc BASE+INC``): the clock's arithmetic, what agents are told, losses on
time enforced by the supervisor, and bad values refused up front."""

import json
import re

import pytest
from test_runs import agent, rows  # the arena tests' helpers (tests/arena/test_runs.py)

from zerosum.arena.clock import (
    Clock,
    format_tc,
    move_budget,
    parse_tc,
    tell_budget,
    timed_agent,
)
from zerosum.arena.match import ArenaConfig
from zerosum.cli import main
from zerosum.errors import InvalidFileError, UsageError


def test_clock_takes_each_move_off_then_adds_the_increment():
    clock = Clock(10, 0.5)
    assert clock.charge(1, 2.0) and clock.left == {1: 8.5, 2: 10.0}
    assert clock.charge(2, 0.0) and clock.left[2] == 10.5  # every move earns the increment
    assert clock.charge(1, -3.0) and clock.left[1] == 9.0  # a negative time is no time
    assert not clock.charge(1, 9.0)  # run out: no increment, the flag has fallen
    assert clock.left[1] == 0.0


def test_move_budget_is_a_share_of_the_remaining_time_capped():
    assert move_budget(20, 0.1) == pytest.approx(20 / 20 + 0.1)
    assert move_budget(0.1, 1.0) == pytest.approx(0.05)  # never more than half of what remains
    assert move_budget(60, 0, cap=0.25) == 0.25  # the per-move limit caps the clock's budget
    assert move_budget(0, 0) > 0  # Limits.time must be above 0
    assert move_budget(86_400, 3_600) <= 3_600  # and at most MAX_TIME
    assert Clock(30, 1).budget(2) == pytest.approx(2.5)


def test_timed_agents_are_told_their_time_and_depth_bound_agents_are_not():
    from zerosum.agents.registry import make_agent

    clock = Clock(40, 0)
    told = make_agent("alphabeta")
    assert timed_agent(told)
    own = told.limits
    tell_budget(told, own, clock, 1)
    assert told.limits.time == pytest.approx(2.0)
    capped = make_agent("mcts:time=0.5")
    assert timed_agent(capped)
    tell_budget(capped, capped.limits, clock, 1)
    assert capped.limits.time == 0.5  # its own time= caps what the clock allows
    assert not timed_agent(make_agent("alphabeta:depth=4"))
    assert not timed_agent(make_agent("mcts:sims=100"))
    assert not timed_agent(make_agent(agent("first")))  # plain functions cannot be told


@pytest.mark.parametrize("text, expected", [("10+0.1", [10.0, 0.1]), ("60", [60.0, 0.0]), (" 1e+3+0.5 ", [1000.0, 0.5]),
                                            ("0.5+0", [0.5, 0.0]), ("+5", [5.0, 0.0])])
def test_parse_tc_forms(text, expected):
    assert parse_tc(text) == expected
    assert parse_tc(format_tc(expected)) == expected


@pytest.mark.parametrize("bad", ["abc", "-1+0", "10+", "1e999", "1e9", "0", "10+-1", "10+0.1+1", "nan", "",
                                 "10+7200", "inf+0"])
def test_bad_tc_is_one_line_and_writes_nothing(tmp_path, capsys, bad):
    with pytest.raises(UsageError):
        parse_tc(bad)
    db = tmp_path / "tc.db"
    assert main(["match", "random", "random", "--game", "tictactoe", f"--tc={bad}", "--out", str(db)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--tc" in err and "BASE" in err
    assert not db.exists()


def test_stored_tc_is_checked():
    base = {"game": "tictactoe", "agents": ["random", "random"], "games": 2}
    assert ArenaConfig.from_json({**base, "tc": [10, 0.1]}).tc == [10, 0.1]
    for bad in ([0, 1], [10], "10+0", [10, -1], [float("inf"), 0]):
        with pytest.raises(InvalidFileError, match="'tc'"):
            ArenaConfig.from_json({**base, "tc": bad})


def test_slow_function_loses_on_time_and_the_fast_one_never(tmp_path, capsys):
    db = tmp_path / "clock.db"
    code = main(["match", agent("slow_first"), agent("first"), "--games", "2", "--jobs", "2", "--tc", "0.5+0",
                 "--grace", "0", "--out", str(db)])
    assert code == 0
    assert "time control 0.5+0" in capsys.readouterr().out  # the run's header
    got = rows(db, "SELECT reason, forfeit, winner FROM games")
    # agent 1 (first) wins in both colours; the reason says what the clock had left, as an engine's own does
    assert [(f, w) for _, f, w in got] == [(1, 1)] * 2, got
    assert all(re.fullmatch(r"time forfeit: no move within the 0\.[0-4]\d s left on its clock", r) for r, _, _ in got)
    config = json.loads(rows(db, "SELECT value FROM meta WHERE key = 'config'")[0][0])
    assert config["tc"] == [0.5, 0.0]


def test_fast_agents_finish_their_games_under_a_short_clock(tmp_path):
    db = tmp_path / "fast.db"
    assert main(["match", agent("first"), "random", "--games", "4", "--jobs", "2", "--tc", "0.5+0", "--grace", "0",
                 "--out", str(db), "--quiet"]) == 0
    got = rows(db, "SELECT reason, forfeit FROM games")
    assert len(got) == 4 and all(f == 0 and not r.startswith("time forfeit") for r, f in got)


def test_a_hanging_agent_loses_on_time_when_its_clock_runs_out(tmp_path):
    db = tmp_path / "hang.db"
    # the per-move deadline is 60 s: the game ends at the clock's 1 s, as a loss on time
    assert main(["match", agent("sleeper"), agent("first"), "--games", "1", "--jobs", "1", "--tc", "1+0",
                 "--grace", "0", "--out", str(db), "--quiet"]) == 0
    assert rows(db, "SELECT reason, forfeit, winner FROM games") == [
        ("time forfeit: no move within the 1.00 s left on its clock", 1, 1)]


def test_increment_keeps_a_slow_agent_alive(tmp_path):
    db = tmp_path / "inc.db"
    # 0.1 s a move against 0.3 s and 0.15 s back after each move: the clock never runs out
    assert main(["match", agent("slow_first"), agent("first"), "--game", "connectx:rows=4,cols=4,k=4", "--games", "2",
                 "--jobs", "2", "--tc", "0.3+0.15", "--grace", "0", "--out", str(db), "--quiet"]) == 0
    got = rows(db, "SELECT reason, forfeit FROM games")
    assert len(got) == 2 and all(f == 0 for _, f in got), got


@pytest.mark.slow
def test_clock_with_the_ray_backend(tmp_path):
    ray = pytest.importorskip("ray")
    db = tmp_path / "ray.db"
    try:
        code = main(["match", agent("first"), agent("sleeper"), "--games", "2", "--tc", "1+0", "--grace", "0",
                     "--backend", "ray", "--jobs", "2", "--out", str(db), "--quiet"])
    finally:
        ray.shutdown()
    assert code == 0
    assert rows(db, "SELECT reason, forfeit, winner FROM games ORDER BY idx") == [
        ("time forfeit: no move within the 1.00 s left on its clock", 1, 0)] * 2
