"""The faces read an answer's own word: who answered (``engine``), whether it is exact (``exact``) and which
scores are estimates -- never the spec of the engine -- and draw pieces in the colours the game names."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from zerosum import get_game
from zerosum.agents.base import Limits
from zerosum.agents.registry import FunctionAgent, agent_class, make_agent
from zerosum.ui import position, service, terminal
from zerosum import analysis
from zerosum.ui.analysis import Analysis, keeps_no_clock
from zerosum.values import loss_value, win_value

UI = Path(service.__file__).parent


def test_faces_hold_no_comparison_with_an_engine_spec() -> None:
    """The terminal and the page decide from ``exact``/``engine``; the name "solver" appears there only in the
    list of opponents the page offers."""
    terminal_text = (UI / "terminal.py").read_text() + (UI / "terminal_session.py").read_text()
    page = (UI / "static" / "app.js").read_text()
    for text in (terminal_text, page):
        assert not re.search(r"""[=!]==?\s*["']solver["']""", text)
        assert not re.search(r"""["']solver["']\s*[=!]==?""", text)
        assert ".source" not in text and "split(\":\")[0] == " not in text


def test_an_estimate_is_marked_and_an_exact_answer_is_not() -> None:
    if agent_class("alphabeta") is None:
        pytest.skip("alphabeta is not installed")
    game = get_game("connect4")
    guess = service.analyze_job(game, [], game.initial_state, 0.2, use_solver=False)
    assert guess["exact"] is False and guess["engine"].startswith("alphabeta")
    assert set(guess["estimates"]) == set(guess["scores"])  # nothing is proven at the start
    assert guess["legend"] and all(guess["points"][m] for m in guess["scores"])
    ttt = get_game("tictactoe")
    actions, state = ttt.parse_position("1425")
    proof = service.analyze_job(ttt, actions, state, 0.5)
    assert proof["exact"] is True and proof["estimates"] == []
    assert proof["points"]["3"] == "W1" and proof["score_words"]["3"] == "win in 1 move"


def test_a_proven_move_is_no_estimate_even_in_an_inexact_analysis() -> None:
    values = {0: 5.0, 1: float(win_value(1))}
    found = Analysis("someone", False, dict(values), dict(values), 1)
    assert found.estimate(0) and not found.estimate(1)
    assert found.point(1) == "W1" and found.point(0) == "≈+5.00"  # an estimate's short figure is marked
    assert not Analysis("someone", True, {0: 0.0}, {0: 0.0}, 0).estimate(0)


def test_the_solver_analysis_gives_its_own_scores_as_points() -> None:
    pytest.importorskip("zerosum.solver.solver")
    game = get_game("connect4")
    found = analysis.service(game).analyse(game.from_moves("4453"))
    assert found.engine == "the solver" and found.exact
    assert all(found.point(c) == (f"{int(s):+d}" if s else "0") for c, s in found.scores.items())


def _hint(game_spec: str, found: Analysis) -> str:
    game = get_game(game_spec)
    feed = iter(["h", "q"])
    out = io.StringIO()
    session = terminal.PlaySession(game, {1: None, 2: None}, lambda p: next(feed, None), terminal.Output(out, False),
                                   [], analyzer=lambda *a, **k: found)
    session.run()
    return out.getvalue()


def test_the_terminal_hint_labels_estimates() -> None:
    values = {c: float(c) for c in range(7)}
    text = _hint("connect4", Analysis("alphabeta:time=1", False, dict(values), dict(values), 6))
    assert "Hint from alphabeta:time=1 (estimates): play 7, +6.00 est." in text
    assert "     7  +6.00 est.  <- best" in text and "est.: alphabeta:time=1's heuristic estimate" in text
    values = {4: 0.5, 0: float(win_value(1))}
    grid = _hint("tictactoe", Analysis("alphabeta:time=1", False, dict(values), dict(values), 0))
    assert "5  +0.50 est." in grid and "1  win in 1 move  <- best\n" in grid


def test_the_terminal_hint_of_an_exact_analysis_has_no_estimate_label() -> None:
    values = {c: float(win_value(9) if c == 3 else loss_value(10)) for c in range(7)}
    text = _hint("connect4", Analysis("alphabeta:time=1", True, dict(values), dict(values), 3))
    assert "Hint from alphabeta:time=1 (exact): play 4, win in 5 moves" in text and "est." not in text
    assert "     4  win in 5 moves  <- best" in text  # 9 plies: the side to move's 5th move


def test_which_agent_thinks_in_a_stoppable_worker_is_decided_by_its_budget_not_its_name() -> None:
    named = FunctionAgent(lambda g, s: g.actions(s)[0], spec="solver")
    assert not keeps_no_clock(named)
    if agent_class("alphabeta") is not None:
        assert not keeps_no_clock(make_agent("alphabeta:time=1"))
        assert not keeps_no_clock(make_agent("alphabeta:depth=3"))
    if agent_class("solver") is not None:
        assert keeps_no_clock(make_agent("solver"))
        assert not keeps_no_clock(make_agent("solver:time=2"))
    assert make_agent("random").limits == Limits() and not keeps_no_clock(make_agent("random"))


def test_pieces_take_the_colours_the_game_names() -> None:
    assert get_game("othello").board_view(get_game("othello").initial_state).to_dict()["colors"] == ["black", "white"]
    for spec in ("connect4", "tictactoe", "migration"):
        game = get_game(spec)
        assert game.board_view(game.initial_state).to_dict()["colors"] == ["red", "yellow"]
    state = position.describe_state(get_game("othello:n=6"), [])
    assert state["view"]["colors"] == ["black", "white"] and state["labels"] == {"1": "black", "2": "white"}


@pytest.mark.parametrize("spec, moves", [("connect4", "4453"), ("tictactoe", "159"), ("othello", "f5d6c3"),
                                         ("migration", "")])
def test_parse_position_is_parse_moves_and_its_position(spec, moves) -> None:
    game = get_game(spec)
    actions, state = game.parse_position(moves)
    assert actions == game.parse_moves(moves) and state == game.states_of(actions)[-1]
