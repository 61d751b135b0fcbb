"""The notebook API: zerosum.play_game and zerosum.match with agents, spec strings and plain functions."""

from __future__ import annotations

import doctest
import random

import pytest

import zerosum
import zerosum.teaching.matches
import zerosum.teaching.play
from zerosum.agents.base import SearchResult
from zerosum.errors import AgentError, GameError, InvalidMoveError


def centre_first(game, state):
    actions = game.actions(state)
    return min(actions, key=lambda a: abs(a - game.cols // 2))


def test_play_game_takes_specs_agents_and_functions_and_records_every_move() -> None:
    agent = zerosum.make_agent("alphabeta:depth=3")
    record = zerosum.play_game("connect4", agent, centre_first, seed=3)
    game = record.game
    assert record.first == "alphabeta:depth=3" and record.second == "centre_first"
    assert game.parse_moves(record.notation) == record.actions  # the notation replays the game
    assert game.states_of(record.actions)[-1] == record.final
    assert record.winner == game.winner(record.final) and not record.forfeit
    for move in record.moves:
        if move.player == 1:  # the search agent: its SearchResult, nodes and value
            assert isinstance(move.search, SearchResult) and move.search.action == move.action
            assert move.nodes == move.search.nodes and move.nodes > 0
        else:
            assert move.search is None and move.nodes is None
        assert move.seconds >= 0 and game.format_action(move.action) == move.notation


def test_play_game_from_moves_in_notation_or_actions() -> None:
    a = zerosum.play_game("tictactoe", "first", "first", moves="59")
    b = zerosum.play_game(zerosum.TicTacToe(), "first", "first", moves=[4, 8])
    assert a.opening == b.opening == [4, 8] and a.notation == b.notation and a.notation.startswith("59")
    assert a.moves[0].ply == 3


@pytest.mark.parametrize(
    ("player", "reason"),
    [
        (lambda game, state: 42, "illegal move"),
        (lambda game, state: "left", "malformed move"),
        (lambda game, state: 1 / 0, "error: "),  # the function named: tests/arena/test_function_forfeits.py
    ],
)
def test_a_bad_function_forfeits_with_the_reason_not_an_exception(player, reason: str) -> None:
    record = zerosum.play_game("connect4", "first", player)
    assert record.forfeit and record.winner == 1 and record.reason.startswith(reason)
    assert "ZeroDivisionError" in record.reason or reason != "error: "
    assert len(record.moves) == 1  # the first agent's move, then the forfeit


def test_same_seed_same_game_and_the_global_random_state_is_restored() -> None:
    def noisy(game, state):
        return random.choice(game.actions(state))

    random.seed(123)
    before = random.random()
    random.seed(123)
    one = zerosum.play_game("connect4", noisy, "mcts:sims=50", seed=7)
    assert random.random() == before  # the notebook's generator is as it was
    two = zerosum.play_game("connect4", noisy, "mcts:sims=50", seed=7)
    assert one.notation == two.notation


def test_show_prints_each_move_as_text_outside_jupyter(capsys) -> None:
    record = zerosum.play_game("tictactoe", "first", "first", show=True)
    out = capsys.readouterr().out
    assert "1. X 1 (" in out and f"{len(record.moves)}. X 7 (" in out
    assert out.count(" s)\n") == len(record.moves)  # one line a move, each followed by the board
    assert out.rstrip().endswith(record.game.render(record.final))


def test_records_draw_their_final_board() -> None:
    record = zerosum.play_game("connect4", "first", "first")
    assert record._repr_svg_().count("stone p") == len(record.actions)
    assert "GameRecord connectx" in repr(record)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"game": "chess"}, GameError, "chess"),
        ({"first": 42}, AgentError, "not int"),
        ({"first": "nosuchagent"}, AgentError, "unknown agent"),
        ({"first": "human"}, AgentError, "human"),
        ({"moves": "9"}, GameError, "column"),
        ({"moves": "4545454"}, GameError, "end the game"),
        ({"seed": -1}, AgentError, "seed"),
        ({"limits": {"depth": -2}}, AgentError, "depth"),
        ({"limits": {"width": 2}}, AgentError, "unknown width"),
    ],
)
def test_bad_arguments_are_one_line_errors(kwargs: dict, error: type, words: str) -> None:
    args = {"game": "connect4", "first": "first", "second": "first", **kwargs}
    with pytest.raises(error, match=words) as info:
        zerosum.play_game(args.pop("game"), args.pop("first"), args.pop("second"), **args)
    assert "\n" not in str(info.value)


def test_match_gives_the_arena_statistics_with_plain_functions() -> None:
    result = zerosum.match("alphabeta:depth=2", centre_first, game="connectx:rows=5,cols=5,k=4", games=4, seed=1)
    assert result.wins + result.draws + result.losses == 4 == len(result.games)
    pairing = result.report.pairings[0]
    assert (result.wins, result.draws, result.losses) == (pairing.wins, pairing.draws, pairing.losses)
    assert result.score == pytest.approx((result.wins + 0.5 * result.draws) / 4)
    low, high = result.elo_interval
    assert low <= result.elo <= high
    # colours swap within each pair, and each record agrees with the tally
    assert [g.first for g in result.games] == ["alphabeta:depth=2", "centre_first"] * 2
    first_agent_points = sum((g.winner == 1) + 0.5 * (g.winner is None) if g.first == result.first
                             else (g.winner == 2) + 0.5 * (g.winner is None) for g in result.games)
    assert first_agent_points == pytest.approx(4 * result.score)
    assert "score" in repr(result) and "<table>" in result._repr_html_()


def test_match_same_seed_same_games() -> None:
    a = zerosum.match("mcts:sims=30", "random", game="tictactoe", games=2, seed=5)
    b = zerosum.match("mcts:sims=30", "random", game="tictactoe", games=2, seed=5)
    assert [g.notation for g in a.games] == [g.notation for g in b.games]


def test_match_refuses_jobs_for_plain_functions_in_one_line() -> None:
    with pytest.raises(AgentError, match="jobs=2 needs spec strings") as info:
        zerosum.match(centre_first, "random", games=2, jobs=2)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [({"games": 0}, "games"), ({"games": 10**6}, "games"), ({"jobs": 99}, "jobs"), ({"sprt": "x"}, "sprt"),
     ({"opening_plies": 500}, "opening_plies"), ({"order": "best"}, "order")],
)
def test_match_bad_arguments_are_one_line(kwargs: dict, words: str) -> None:
    with pytest.raises(GameError, match=words):
        zerosum.match("random", "random", game="tictactoe", **kwargs)


def test_a_move_over_its_deadline_forfeits_in_process() -> None:
    import time

    def slow(game, state):
        time.sleep(0.3)
        return game.actions(state)[0]

    result = zerosum.match(slow, "first", game="tictactoe", games=2, deadline=0.05, opening_plies=0)
    assert all(g.forfeit and g.reason.startswith("timeout") for g in result.games)
    assert result.losses == 2


def test_notebook_doctests() -> None:
    for module in (zerosum.teaching.play, zerosum.teaching.matches):
        assert doctest.testmod(module).failed == 0


def test_show_draws_one_svg_board_updated_after_each_move_in_jupyter(monkeypatch, capsys) -> None:
    import sys
    import types

    shown: list[str] = []

    class Handle:
        def update(self, obj) -> None:
            shown.append(obj.data)

    class SVG:
        def __init__(self, data: str) -> None:
            self.data = data

    def display(obj, display_id=False):
        shown.append(obj.data)
        return Handle()

    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: types.SimpleNamespace(kernel=object())  # a running kernel
    display_module = types.ModuleType("IPython.display")
    display_module.SVG, display_module.display = SVG, display
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display_module)
    record = zerosum.play_game("tictactoe", "first", "first", show=True)
    assert len(shown) == len(record.moves) + 1 and capsys.readouterr().out == ""
    assert [svg.count("stone p") for svg in shown] == list(range(len(record.moves) + 1))


def test_match_with_spec_strings_runs_in_worker_processes_too() -> None:
    result = zerosum.match("alphabeta:depth=2", "random", game="tictactoe", games=2, jobs=2, seed=3)
    assert len(result.games) == 2 and result.wins + result.draws + result.losses == 2
    for g in result.games:  # replayed from the stored moves
        assert g.game.states_of(g.actions)[-1] == g.final and g.moves[0].search is None
