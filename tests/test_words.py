"""One vocabulary for values (#21, item 4): every face words the same position's value the same way, with
distances in moves of the side concerned -- the terminal's hint and move line, the page's analysis and move
(the API, which keeps the raw score beside the words), ``describe()``, ``zerosum analyze``, ``zerosum
explain`` and the page's "why?", and the replay of a record.

The positions: Connect Four after ``4453``, where X's best column is 3 with the solver's score -2 (36 plies
to X's loss: the opponent's 18th move, ``loss in 18 moves``); Tic-Tac-Toe after ``1425``, where X wins at
once with 3 (``win in 1 move``).
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from zerosum import get_game, make_agent
from zerosum.agents.base import SearchAgent
from zerosum.cli import main
from zerosum.core.words import (DISTANCE_LEGEND, EITHER_LEGEND, class_words, describe_value, distance_legend,
                                estimate_words, exact_words, moves_to_end, score_words, short_words, value_words)
from zerosum.values import HEURISTIC_BOUND, loss_value, score_to_value, win_value

C4, C4_BEST, C4_SCORE, C4_WORDS = "4453", "3", -2, "loss in 18 moves"
TTT, TTT_BEST, TTT_WORDS = "1425", "3", "win in 1 move"


# ---- the vocabulary itself ----------------------------------------------------------------------------


def test_distances_count_the_moves_of_the_side_concerned() -> None:
    assert [moves_to_end(win_value(p)) for p in (1, 3, 5)] == [1, 2, 3]  # the mover's plies 1, 3, 5
    assert [moves_to_end(loss_value(p)) for p in (2, 4, 6)] == [1, 2, 3]  # the opponent's plies 2, 4, 6
    assert exact_words(win_value(1)) == "win in 1 move" and exact_words(loss_value(6)) == "loss in 3 moves"
    assert exact_words(0) == "draw" and class_words(1) == "win (distance not yet proven)"
    assert score_words(1, 0, 42) == "win in 21 moves"  # DESIGN: the empty 7 x 6 board scores +1
    assert score_words(C4_SCORE, 4, 42) == C4_WORDS == exact_words(score_to_value(C4_SCORE, 4, 42))
    assert "N moves" in DISTANCE_LEGEND


@pytest.mark.parametrize("spec, last", [("connect4", True), ("connectx:rows=4,cols=4,k=3", True), ("tictactoe", True),
                                        ("migration:n=4", True), ("othello:n=4", False), ("othello:n=6", False)])
def test_the_legend_has_a_second_case_where_the_loser_can_end_the_game(spec: str, last: bool) -> None:
    # the trait is checked against play: in 300 random games every win is the winner's own move where the game
    # says so; Othello's board fills up on the loser's move in some of them
    import random

    game = get_game(spec)
    assert game.traits.winner_moves_last is last
    assert distance_legend(game) == (DISTANCE_LEGEND if last else EITHER_LEGEND)
    rng, loser_ended = random.Random(1), 0
    for _ in range(300):
        s, mover = game.initial_state, None
        while not game.is_terminal(s):
            mover = game.player(s)
            s = game.result(s, rng.choice(game.actions(s)))
        winner = game.outcome(s).winner
        if winner is not None and winner != mover:
            loser_ended += 1
    assert (loser_ended == 0) is last, loser_ended


def test_estimates_never_read_like_proofs() -> None:
    assert estimate_words(0.35) == "+0.35 est." and estimate_words(-12) == "-12 est." and estimate_words(0) == "0 est."
    assert value_words(0.35) == "+0.35 est." and value_words(0, exact=True) == "draw"
    assert value_words(win_value(3)) == "win in 2 moves"  # a proof is a proof, whoever found it
    assert short_words(win_value(7)) == "W4" and short_words(loss_value(2)) == "L1" and short_words(0, True) == "0"
    assert short_words(0.35) == "≈+0.35" and short_words(HEURISTIC_BOUND - 1).startswith("≈")
    # the threats evaluation's decided game, 100,000: in thousands, so it fits under a column on a phone (it took
    # two lines there, "≈-100000"); smaller estimates as they are
    assert short_words(-100_000) == "≈-100k" and short_words(12_345.6) == "≈+12k" and short_words(9_999) == "≈+9999"
    assert all(len(short_words(v)) <= 7 for v in (-(HEURISTIC_BOUND - 1), HEURISTIC_BOUND - 1, -99_999, 0.125))
    assert describe_value(loss_value(36)) == C4_WORDS


# ---- every face, one position -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def solver() -> None:
    pytest.importorskip("zerosum.solver.solver")


def _play(keys: list[str], **kwargs: Any) -> str:
    from zerosum.ui.terminal import play

    feed, out = iter(keys), io.StringIO()
    assert play(read=lambda prompt: next(feed, None), out=out, **kwargs) == 0
    return out.getvalue()


def test_the_terminal_hint_and_move_line(solver: None) -> None:
    hint = _play(["h", "q"], moves=C4, first="human", second="human")
    assert f"play {C4_BEST}, {C4_WORDS}" in hint and re.search(rf"^\s+{C4_BEST}  {C4_WORDS}  <- best$", hint, re.M)
    moved = _play(["q"], moves=C4, first="solver", second="human")
    assert f"X (solver) plays {C4_BEST}: {C4_WORDS} (exact" in moved
    ttt = _play(["h", "q"], game_spec="tictactoe", moves=TTT, first="human", second="human")
    assert f"play {TTT_BEST}, {TTT_WORDS}" in ttt


def test_describe(solver: None) -> None:
    game = get_game("connect4")
    agent = make_agent("solver")
    assert isinstance(agent, SearchAgent)
    found = agent.search(game, game.parse_position(C4)[1])
    assert game.format_action(found.action) == C4_BEST and found.describe() == C4_WORDS
    ttt = get_game("tictactoe")
    agent = make_agent("alphabeta:depth=3")
    assert isinstance(agent, SearchAgent)
    found = agent.search(ttt, ttt.parse_position(TTT)[1])
    assert found.describe() == TTT_WORDS


def test_zerosum_analyze(solver: None, capsys: Any) -> None:
    assert main(["analyze", C4]) == 0
    assert f"best: column {C4_BEST} (score {C4_SCORE:+d}: {C4_WORDS})" in capsys.readouterr().out


def test_zerosum_explain(solver: None, capsys: Any) -> None:
    assert main(["explain", C4, "--agent", "solver", "--depth", "0"]) == 0
    assert f"{C4_BEST} is chosen: the solver proves it scores {C4_SCORE:+d} ({C4_WORDS})" in capsys.readouterr().out
    assert main(["explain", TTT, "--game", "tictactoe", "--agent", "alphabeta:depth=2", "--depth", "0"]) == 0
    text = capsys.readouterr().out
    assert re.search(rf"^\* {TTT_BEST}\s+{TTT_WORDS}\s", text, re.M)
    assert f"it scores {TTT_WORDS}" in text


def test_the_page_and_its_api(solver: None) -> None:
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from zerosum.ui.server import create_app

    with TestClient(create_app(mode="inline", engine_time=5.0)) as client:
        data = client.get("/api/analyze", params={"game": "connect4", "moves": C4}).json()
        assert data["best"] == C4_BEST and data["words"] == C4_WORDS and data["score_words"][C4_BEST] == C4_WORDS
        assert data["scores"][C4_BEST] == C4_SCORE  # the raw score stays beside the words
        assert f"best {C4_BEST} ({C4_WORDS})" in data["summary"]
        moved = client.post("/api/move", json={"game": "connect4", "moves": C4, "agent": "solver"}).json()
        assert moved["move"] == C4_BEST and moved["words"] == C4_WORDS and moved["exact"] is True
        why = client.get("/api/explain", params={"game": "connect4", "moves": C4, "agent": "solver"}).json()
        assert C4_WORDS in why["verdict"]
        ttt = client.get("/api/analyze", params={"game": "tictactoe", "moves": TTT}).json()
        assert ttt["words"] == TTT_WORDS and ttt["points"][TTT_BEST] == "W1"
        why = client.get("/api/explain", params={"game": "tictactoe", "moves": TTT, "agent": "minimax"}).json()
        chosen = next(r for r in why["rows"] if r["chosen"])
        assert chosen["score"] == TTT_WORDS and TTT_WORDS in why["verdict"]


def test_the_replay_of_a_record(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    """A record's note keeps its file notation (``-L36``: plies); the replay says it in the vocabulary."""
    path = tmp_path / "one.pgn"
    path.write_text('[Event "t"]\n[Site "?"]\n[Date "2025.01.01"]\n[Round "1"]\n[First "solver"]\n'
                    '[Second "solver"]\n[Game "connect4"]\n[Opening "4453"]\n[Result "*"]\n[Termination "?"]\n'
                    '[TimeControl "-"]\n\n3 {nodes=0 value=-L36} *\n')
    monkeypatch.setattr("sys.stdin", io.StringIO("g 5\nq\n"))
    assert main(["replay", str(path), "--no-color"]) == 0
    assert f"its value for X: {C4_WORDS}" in capsys.readouterr().out
