"""Contest rules for students' functions: a node limit for plain functions (counted game objects) and a hard
deadline that is stated and tight."""

import json
import sqlite3
from pathlib import Path

import pytest

import zerosum
from zerosum.arena.counting import Meter, NodeLimitExceeded, metered, node_limit_reason
from zerosum.arena.match import ArenaConfig, deadline_for, default_deadline, describe_deadline
from zerosum.cli import main
from zerosum.errors import GameError

HERE = Path(__file__).resolve().parent
STUDENTS = HERE / "student_agents.py"


def student(name: str) -> str:
    return f"{STUDENTS}:{name}"


def games(db: Path) -> list[tuple]:
    """(loser's label or None, reason, forfeit, nodes of every move, moves, first agent id) of every game."""
    con = sqlite3.connect(db)
    try:
        got = con.execute(
            "SELECT CASE WHEN g.winner IS NULL THEN NULL ELSE a.label END, g.reason, g.forfeit, g.nodes, g.moves, p.first "
            "FROM games g JOIN plan p USING (idx) LEFT JOIN agents a ON a.id = CASE WHEN g.winner = p.first "
            "THEN p.second ELSE p.first END ORDER BY g.idx").fetchall()
    finally:
        con.close()
    return [(loser, reason, forfeit, json.loads(nodes), json.loads(moves), first)
            for loser, reason, forfeit, nodes, moves, first in got]


# ---- node limits -------------------------------------------------------------------------------------


def test_a_function_that_expands_a_few_states_plays_and_its_counts_are_recorded(tmp_path):
    db = tmp_path / "few.db"
    assert main(["match", student("one_ply"), student("first"), "--game", "tictactoe", "--games", "2",
                 "--opening-plies", "0", "--nodes", "100", "--jobs", "1", "--out", str(db), "--quiet"]) == 0
    game = zerosum.get_game("tictactoe")
    for loser, reason, forfeit, nodes, moves, first in games(db):
        assert not forfeit and not reason.startswith("node limit")
        state = game.initial_state
        seat_of_one_ply = 1 if first == 0 else 2
        for text, counted in zip(moves, nodes):
            if game.player(state) == seat_of_one_ply:  # one state expanded per legal move, until a win is found
                assert counted is not None and 1 <= counted <= len(game.actions(state))
            else:
                assert counted is None  # 'first' expands no state: its nodes are not counted, never 0
            state = game.result(state, game.parse_action(text, state))


def test_a_full_search_function_forfeits_over_its_node_limit_in_a_match(tmp_path, capsys):
    db = tmp_path / "greedy.db"
    assert main(["match", student("full_search"), student("first"), "--game", "tictactoe", "--games", "2",
                 "--opening-plies", "0", "--nodes", "100", "--jobs", "1", "--out", str(db)]) == 0
    got = games(db)
    assert len(got) == 2
    for loser, reason, forfeit, nodes, moves, first in got:
        assert loser == "student_agents.py:full_search"
        assert forfeit == 1 and reason == node_limit_reason(100)
    out = capsys.readouterr().out
    assert "Forfeits" in out and "node limit" in out


def test_a_full_search_function_forfeits_over_its_node_limit_in_a_tournament(tmp_path):
    db = tmp_path / "contest.db"
    assert main(["tournament", student("full_search"), student("one_ply"), student("first"), "--game", "tictactoe",
                 "--games", "2", "--opening-plies", "0", "--nodes", "100", "--jobs", "1", "--out", str(db),
                 "--quiet"]) == 0
    got = games(db)
    assert len(got) == 6
    searcher = [g for g in got if g[0] == "student_agents.py:full_search"]
    assert len(searcher) == 4  # it loses every game it plays, each over the node limit
    assert all(forfeit == 1 and reason.startswith("node limit:") for _, reason, forfeit, *_ in searcher)
    assert not any(reason.startswith("node limit") for loser, reason, *_ in got if loser != "student_agents.py:full_search")


def test_the_same_function_plays_normally_without_a_node_limit(tmp_path):
    db = tmp_path / "free.db"
    assert main(["match", student("full_search"), student("first"), "--game", "tictactoe", "--games", "2",
                 "--opening-plies", "4", "--jobs", "1", "--out", str(db), "--quiet"]) == 0
    for loser, reason, forfeit, nodes, *_ in games(db):
        assert not forfeit and all(n is None for n in nodes)  # not counted: it plays the game itself


def test_catching_the_node_limit_does_not_escape_it():
    record = zerosum.play_game("tictactoe", student("stubborn"), "first", limits={"nodes": 100}, seed=1)
    assert record.forfeit and record.winner == 2 and record.reason == node_limit_reason(100)


def _students():
    import importlib.util

    spec = importlib.util.spec_from_file_location("student_agents_for_python", STUDENTS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_zerosum_match_forfeits_a_plain_function_over_its_node_limit():
    module = _students()
    result = zerosum.match(module.full_search, "first", game="tictactoe", games=2, opening_plies=0,
                           limits={"nodes": 100})
    assert result.losses == 2
    assert all(g.forfeit and g.reason == node_limit_reason(100) for g in result.games)
    assert result.report.forfeits == {("full_search", "node limit"): 2}
    record = zerosum.play_game("tictactoe", module.one_ply, module.first, limits={"nodes": 100}, seed=2)
    assert not record.forfeit
    assert all(m.nodes >= 1 for m in record.moves if m.player == 1)  # one_ply expands a state or more a move
    assert all(m.nodes is None for m in record.moves if m.player == 2)  # first expands none: not counted
    # the function's own limit wins over none given to the match
    limited = zerosum.agents.registry.make_agent(module.full_search, limits=zerosum.Limits(nodes=50))
    assert zerosum.play_game("tictactoe", limited, "first", seed=1).reason == node_limit_reason(50)


def test_search_agents_keep_their_own_budgets_under_nodes(tmp_path):
    pytest.importorskip("zerosum.agents.alphabeta")
    db = tmp_path / "search.db"
    assert main(["match", "alphabeta", student("first"), "--game", "tictactoe", "--games", "2",
                 "--opening-plies", "0", "--nodes", "100", "--jobs", "1", "--out", str(db), "--quiet"]) == 0
    got = games(db)
    assert not any(forfeit for _, _, forfeit, *_ in got)
    for loser, reason, forfeit, nodes, moves, first in got:
        searcher = nodes[0::2] if first == 0 else nodes[1::2]
        assert all(n is not None and n <= 100 for n in searcher)  # its own node budget, honoured by itself


def test_a_metered_move_counts_the_game_itself_and_refuses_past_the_limit():
    game = zerosum.get_game("tictactoe")
    state = game.initial_state
    meter = Meter(8, declared=False)
    with metered(meter):
        assert game.actions(state) and game.outcome(state) is None and meter.count == 0  # asking is free
        for a in game.actions(state)[:3]:
            assert game.result(state, a) == zerosum.get_game("tictactoe").result(state, a)
        assert meter.count == 6  # three here and three in the fresh game built to compare
        with pytest.raises(NodeLimitExceeded, match="node limit"):
            game.states_of([4, 0, 1])  # a list longer than what is left is refused before any work
        with pytest.raises(NodeLimitExceeded):
            game.result(state, 1)  # once over, every expansion refuses until the next move
    assert isinstance(NodeLimitExceeded("x"), GameError)
    assert game.result(state, 1) is not None  # outside a metered move nothing counts
    with metered(meter):
        assert meter.count == 0 and not meter.exceeded
        assert game.place(state, 5, 2) == game.place(state, 5, 2) and meter.count == 2


# ---- the hard deadline -------------------------------------------------------------------------------


def test_the_default_deadline_is_the_time_limit_and_a_small_stated_margin():
    assert default_deadline(1.0) == 1.25  # max(0.25 s, 10%)
    assert default_deadline(30.0) == 33.0  # not 61 s
    assert default_deadline(None) == 60.0
    config = ArenaConfig(game="connect4", agents=["alphabeta:time=0.5", "random"], games=2, limits={"time": 2.0})
    assert deadline_for(config, "alphabeta:time=0.5") == 0.75 and deadline_for(config, "random") == 2.25
    assert describe_deadline(config, rule=False) == "deadline per move: alphabeta:time=0.5 0.75 s, random 2.25 s"
    config.deadline = 5.0
    assert deadline_for(config, "random") == 5.0 and describe_deadline(config) == "deadline per move: 5 s (--deadline)"
    clocked = ArenaConfig(game="connect4", agents=["random", "first"], games=2, tc=[2.0, 0.05])
    assert describe_deadline(clocked) == "deadline per move: 60 s (or the clock's time left, when less)"  # not
    # "(no time limit)" above the line "time control 2+0.05": the clock bounds a move first


def test_a_function_over_its_time_forfeits_and_one_within_it_does_not(tmp_path, capsys):
    db = tmp_path / "clock.db"
    assert main(["match", student("slow_1_5"), student("slow_0_9"), "--game", "tictactoe", "--games", "2",
                 "--opening-plies", "0", "--time", "1", "--grace", "0", "--jobs", "2", "--out", str(db)]) == 0
    out = capsys.readouterr().out
    assert "deadline per move: 1.25 s" in out.splitlines()[0]  # stated before the first move
    got = games(db)
    assert len(got) == 2
    for loser, reason, forfeit, nodes, moves, first in got:
        assert loser == "student_agents.py:slow_1_5"
        assert forfeit == 1 and reason == "timeout: no move within 1.25 s"


def test_the_deadline_help_names_the_rule(capsys):
    assert main(["tournament", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "the time limit + max(0.25 s, 10%)" in text and "--time 30 33 s" in text
