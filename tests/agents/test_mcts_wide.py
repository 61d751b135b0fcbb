"""MCTS on wide games: the root check stops at its share of a time limit, children are made as the search needs
them, a move with no simulation claims no value, and the searches of ordinary games are as they were."""

from __future__ import annotations

import itertools
import time
import types
from typing import Any

import pytest

import zerosum.agents.mcts_tree as mcts_tree
import zerosum.agents.tactics as tactics
from zerosum import TicTacToe, get_game, make_agent
from zerosum.agents.mcts_tree import state_bytes
from zerosum.agents.tactics import tactical_move, wins_now
from zerosum.values import win_value

from course_sources import Nim  # tests/course_sources.py: a course game as a student writes it


class Sum:
    """Each side picks a number below ``width`` ``rounds`` times; an even total wins for MAX.  Counts the moves
    played (``result`` calls)."""

    played = 0

    def __init__(self, width: int, rounds: int = 2) -> None:
        self.width, self.rounds = width, rounds
        self.initial = (0, 0, "MAX")

    def actions(self, state: Any) -> list[int]:
        return [] if self.is_terminal(state) else list(range(self.width))

    def result(self, state: Any, action: int) -> Any:
        Sum.played += 1
        return (state[0] + 1, state[1] + action, "MIN" if state[2] == "MAX" else "MAX")

    def is_terminal(self, state: Any) -> bool:
        return state[0] >= 2 * self.rounds

    def utility(self, state: Any, player: Any) -> int:
        return 1 if (state[1] % 2 == 0) == (player == "MAX") else -1

    def to_move(self, state: Any) -> Any:
        return state[2]


def test_a_wide_root_check_stops_at_its_share_of_the_time() -> None:
    # 150 moves: the full check plays millions of moves (seconds); it used to leave no time for a simulation.
    # Half the limit is left for simulations, about 0.4 ms each here: 1.5 s so that a pause of the whole process
    # (a CI run's 0.5 s limit met one, another thread's compile holding the interpreter, or a garbage collection
    # of a big heap) does not take all of it
    start = time.perf_counter()
    found = make_agent("mcts:time=1.5,seed=1").search(Nim((40, 50, 60)), None)
    elapsed = time.perf_counter() - start
    assert found.nodes > 0
    assert elapsed < 1.5 + 3.5  # generous: the check alone took over 5 s


def test_children_are_made_as_the_search_needs_them() -> None:
    # 3,000 moves at the root: a few simulations make a few children, not 3,000 at once
    Sum.played = 0
    found = make_agent("mcts:plain=1,sims=5,seed=2").search(Sum(3000), None)
    assert found.nodes == 5
    assert Sum.played < 500


def test_a_time_limit_holds_on_a_root_of_ten_thousand_moves() -> None:
    game = Sum(10_000, rounds=1)  # every move loses: proving it takes 10,000 children, each checked
    start = time.perf_counter()
    found = make_agent("mcts:time=0.3,seed=3").search(game, None)
    assert time.perf_counter() - start < 0.3 + 4.7  # it took about 18 s
    assert 0 <= found.action < 10_000
    if found.nodes == 0 and not found.proven and found.outcome is None:
        assert "value" in found.unknown


@pytest.mark.parametrize("spec", ["mcts:time=0.001", "mcts:time=0.001,plain=1"])
def test_no_simulation_claims_no_value(spec: str) -> None:
    game = TicTacToe()  # a limit this short is over at the start: no simulation, no root check
    state = game.from_moves("15")
    found = make_agent(spec).search(game, state)
    assert found.action in game.actions(state)
    assert found.nodes == 0 and "value" in found.unknown and not found.scores and not found.exact
    assert found.describe() == "no value"  # it said "0 est."


@pytest.mark.parametrize("moves", ["128", "124"])
def test_the_root_check_answers_only_what_it_proved_by_its_deadline(monkeypatch: pytest.MonkeyPatch,
                                                                   moves: str) -> None:
    game = TicTacToe()
    state = game.from_moves(moves)  # O to move; 128: four moves lose in two; 124: five at once, the block in two
    actions = game.actions(state)
    full = tactical_move(game, state)
    assert full[0] is None
    losing = set()
    for a in actions:
        after = game.result(state, a)
        if wins_now(game, after, game.player(after)) or tactics._forcing_move(game, after) is not None:
            losing.add(a)
    seen = set()
    for ticks in range(0, 3000, 7):  # a clock that moves one tick a reading: the check stops after ``ticks`` readings
        clock = itertools.count()
        monkeypatch.setattr(tactics, "time", types.SimpleNamespace(perf_counter=lambda: next(clock)))
        action, value, safe = tactical_move(game, state, deadline=ticks)
        assert action is None and value == 0
        assert safe and set(safe) <= set(actions)
        assert set(actions) - set(safe) <= losing  # a move left out is proven to lose
        seen.add(tuple(safe))
    assert tuple(actions) in seen and tuple(full[2]) in seen and len(seen) > 2  # from nothing proven to all


def test_the_root_check_keeps_a_win_found_before_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    game = TicTacToe()
    state = game.from_moves("1249")  # X wins at 7, the fourth move in order
    assert tactical_move(game, state)[0] == 6
    clock = itertools.count()
    monkeypatch.setattr(tactics, "time", types.SimpleNamespace(perf_counter=lambda: next(clock)))
    assert tactical_move(game, state, deadline=2)[0] is None  # stopped before it
    clock = itertools.count()
    assert tactical_move(game, state, deadline=10)[:2] == (6, win_value(1))


def test_state_bytes_reads_a_long_container_in_part(monkeypatch: pytest.MonkeyPatch) -> None:
    state = (list(range(1000, 201_000)), "MAX")
    whole = state_bytes(state)
    calls = []
    sizeof = mcts_tree.sys.getsizeof
    monkeypatch.setattr(mcts_tree, "sys", types.SimpleNamespace(getsizeof=lambda x: calls.append(1) or sizeof(x)))
    assert state_bytes(state) == whole  # items alike: the estimate is the sum
    assert len(calls) < 5000


@pytest.mark.parametrize("name, spec, figures", [
    ("othello", "mcts:sims=200,seed=2", (26, 200, 316, 0.0)),
    ("migration", "mcts:sims=200,seed=3", ((6, 0, 6, 1), 200, 313, 0.258065)),
    ("tictactoe", "mcts:sims=300,seed=4", (4, 300, 713, 0.397436)),
    ("othello", "mcts:sims=120,seed=5,plain=1", (26, 120, 218, 0.105263)),
    ("nim", "mcts:sims=300,seed=6", ((2, 5), 300, 593, 0.265306)),
    ("nim", "mcts:sims=100,seed=7,plain=1", ((2, 1), 100, 161, 0.333333)),
    # greedy and alpha-beta playouts, before their playouts watched the deadline (test_mcts_playout_deadline.py)
    ("tictactoe", "mcts:sims=60,seed=5,playout=greedy", (2, 60, 89, 0.3)),
    ("migration", "mcts:sims=60,seed=5,playout=greedy", ((3, 2, 3, 3), 60, 109, 0.111111)),
    ("migration", "mcts:sims=60,seed=5,playout=alphabeta", ((4, 2, 4, 3), 60, 97, -0.375)),
    ("othello", "mcts:sims=60,seed=5,playout=greedy", (19, 60, 88, 0.272727)),
    ("connect4", "mcts:sims=60,seed=5,playout=greedy,fast=0", (5, 60, 120, 0.466667)),
    ("connect4", "mcts:sims=60,seed=5,playout=alphabeta", (4, 60, 120, 0.166667)),
    ("nim", "mcts:sims=150,seed=6,playout=greedy", ((0, 2), 150, 322, 0.384615)),
    ("nim", "mcts:sims=150,seed=6,playout=alphabeta", ((1, 4), 150, 289, 0.166667)),
])
def test_searches_of_ordinary_games_are_unchanged(name: str, spec: str, figures: tuple[Any, ...]) -> None:
    # the figures of the search that made every child at expansion
    game: Any = Nim((3, 4, 5)) if name == "nim" else get_game(name)
    agent = make_agent(spec)
    found = agent.search(game, None if name == "nim" else game.initial_state)
    assert (found.action, found.nodes, agent.tree_nodes, round(found.value, 6)) == figures
