"""Students' evaluations: any real number, a declared point of view, functions in files, evaluation counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from zerosum import ConnectX, Migration, TicTacToe, make_agent
from zerosum.agents.heuristics import evaluation
from zerosum.errors import AgentError

from agent_helpers import random_position


def share_of_moves(game: Any, state: Any, player: int) -> float:
    """A published Migration heuristic: the player's share of the moves left, minus one half (a fraction)."""
    mine = len(game._moves(state, player))
    theirs = len(game._moves(state, 3 - player))
    return mine / (mine + theirs) - 0.5 if mine + theirs else 0.0


def leaves_at(game: Any, state: Any, depth: int) -> list[Any]:
    if game.is_terminal(state):
        return []
    if depth == 0:
        return [state]
    return [leaf for a in game.actions(state) for leaf in leaves_at(game, game.result(state, a), depth - 1)]


def test_fractional_migration_heuristic_is_not_cut_to_whole_numbers() -> None:
    game = Migration(n=5)

    def two_ply(state: Any) -> float:  # minimax of the fractions themselves, two plies deep
        me = game.player(state)
        return max(min(share_of_moves(game, game.result(game.result(state, a), b), me)
                       for b in game.actions(game.result(state, a))) for a in game.actions(state))

    # a position whose value is a fraction (int() in the search would make it a whole number)
    state = next(s for s in (random_position(game, 4, seed) for seed in range(50)) if two_ply(s) % 1)
    for spec in ("minimax:depth=2", "alphabeta:depth=2,tt=0", "alphabeta:plain=1,depth=2"):
        agent = make_agent(spec)
        agent.evaluation = share_of_moves
        found = agent.search(game, state)
        assert found.value == two_ply(state), spec
        assert set(found.scores) == set(game.actions(state))


def test_fractional_heuristic_plays_as_its_whole_number_scaling() -> None:
    game = Migration(n=5)
    scaled = lambda g, s, p: round(share_of_moves(g, s, p) * 2**20)  # noqa: E731
    state = random_position(game, 2, 8)
    for depth in (1, 2, 3):
        a, b = make_agent(f"alphabeta:depth={depth},tt=0"), make_agent(f"alphabeta:depth={depth},tt=0")
        a.evaluation, b.evaluation = share_of_moves, scaled
        assert a.search(game, state).action == b.search(game, state).action


def test_search_counts_its_evaluation_calls() -> None:
    game = TicTacToe()
    state = random_position(game, 3, 5)
    for depth in (1, 2, 3):
        expected = len(leaves_at(game, state, depth))
        assert make_agent(f"minimax:depth={depth}").search(game, state).evals == expected
        plain = make_agent(f"alphabeta:plain=1,depth={depth}").search(game, state)
        assert 0 < plain.evals <= expected
    assert make_agent("minimax").search(game, state).evals == 0  # to the end: nothing evaluated


@pytest.mark.parametrize("view", ["first", "second", "player"])
def test_a_fixed_player_evaluation_is_adapted_to_the_side_to_move(view: str) -> None:
    game = ConnectX()
    window = game.evaluations()["window"]

    @evaluation(view=view)
    def fixed(g: Any, s: Any, player: int) -> Any:
        assert view != "first" or player == 1
        assert view != "second" or player == 2
        return window(g, s, player)

    for plies in (5, 6):  # either side to move
        state = random_position(game, plies, 30 + plies)
        for spec in ("minimax:depth=3", "alphabeta:depth=4,fast=0", "alphabeta:plain=1,depth=3"):
            own, named = make_agent(spec), make_agent(spec + ",eval=window")
            own.evaluation = fixed
            got, want = own.search(game, state), named.search(game, state)
            assert (got.action, got.value, got.nodes) == (want.action, want.value, want.nodes), (spec, plies)


def test_a_bad_view_is_one_line() -> None:
    with pytest.raises(AgentError, match="view"):
        evaluation(view="max")

    def f(g: Any, s: Any, p: int) -> int:
        return 0

    f.view = "sideways"  # type: ignore[attr-defined]
    agent = make_agent("minimax:depth=1")
    agent.evaluation = f
    with pytest.raises(AgentError, match="sideways"):
        agent.search(TicTacToe(), TicTacToe().initial_state)


def write_eval(tmp_path: Path, body: str = "    return 0.25 * (len(game.actions(state)) % 3)\n") -> Path:
    path = tmp_path / "student.py"
    path.write_text("from zerosum.agents.heuristics import evaluation\n\n"
                    "@evaluation(view='first')\n"
                    "def mine(game, state, player):\n" + body)
    return path


@pytest.mark.parametrize("name", ["minimax:depth=2", "alphabeta:depth=2", "alphabeta:plain=1,depth=2",
                                  "alphabeta:depth=2,fast=0"])
def test_eval_file_works_in_every_spec(tmp_path: Path, name: str) -> None:
    path = write_eval(tmp_path)
    game = ConnectX(rows=5, cols=4, k=4)
    state = random_position(game, 3, 1)
    agent = make_agent(f"{name},eval={path}:mine")
    assert callable(agent.evaluation) and getattr(agent.evaluation, "view") == "first"
    found = agent.search(game, state)
    assert found.evals > 0 and found.action in game.actions(state)


def test_eval_file_in_a_match_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from zerosum.cli import main

    monkeypatch.chdir(tmp_path)
    path = write_eval(tmp_path)
    code = main(["match", f"minimax:depth=1,eval={path}:mine", "first", "--game", "tictactoe", "--games", "2",
                 "--quiet", "--out", str(tmp_path / "r.db")])
    assert code == 0, capsys.readouterr().err


@pytest.mark.parametrize("text, words", [
    ("missing.py:mine", "not found"),
    ("{path}:nothing", "has no 'nothing'"),
    ("{path}:__name__", "not a function"),
    ("x" * 1000 + ".py:mine", "the limit is 1000"),
])
def test_bad_eval_file_is_one_line_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch, text: str,
                                                       words: str) -> None:
    from zerosum.cli import main

    monkeypatch.chdir(tmp_path)
    path = write_eval(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    code = main(["match", f"minimax:depth=1,eval={text.format(path=path)}", "first", "--game", "tictactoe",
                 "--games", "2"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and words in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


def test_failing_eval_file_is_one_agent_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("raise RuntimeError('oops')\n")
    with pytest.raises(AgentError, match="oops"):
        make_agent(f"alphabeta:eval={path}:f")


def test_the_server_never_runs_an_eval_file(tmp_path: Path) -> None:
    from zerosum.ui.service import checked_agent

    marker = tmp_path / "ran"
    path = tmp_path / "evil.py"
    path.write_text(f"open({str(marker)!r}, 'w').close()\ndef f(game, state, player):\n    return 0\n")
    with pytest.raises(AgentError, match="own evaluations"):
        checked_agent(ConnectX(), f"alphabeta:depth=2,eval={path}:f")
    assert not marker.exists()
