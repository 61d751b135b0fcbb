"""``GET /api/explain``: the page's "why?" panel -- each root move's score and refutation, as ``zerosum explain``."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings

import pytest

pytest.importorskip("httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")
from starlette.testclient import TestClient  # noqa: E402

from zerosum import get_game  # noqa: E402
from zerosum.ui.server import create_app  # noqa: E402
from zerosum.values import is_proven  # noqa: E402

#: X to move: 3 wins at once (1 2 3); every other move lets O win (3 5 7, or 4 5 6)
ONE_WINS = "1 4 2 5 9 7"


@pytest.fixture(scope="module")
def client():
    # the engine pool's worker processes, as `zerosum serve` runs them (the job and its reply travel by pickle)
    app = create_app(engine_time=2.0, workers=1, margin=60.0, busy_wait=120)
    with TestClient(app) as c:
        yield c


def explain(client, moves: str, agent: str, game: str = "tictactoe") -> dict:
    reply = client.get("/api/explain", params={"game": game, "moves": moves, "agent": agent})
    assert reply.status_code == 200, reply.text
    return reply.json()


def cli_rows(capsys, moves: str, agent: str, game: str = "tictactoe") -> list[tuple[bool, str, str, str, str]]:
    """The rows `zerosum explain` prints: (chosen, move, score, kind, why)."""
    # in a process of its own: in this one, the rows twice went to another stream than capsys' or a
    # redirect_stdout's (runs of two workers; something of the module's server swaps sys.stdout meanwhile)
    done = subprocess.run([sys.executable, "-m", "zerosum", "explain", moves, "--game", game, "--agent", agent,
                           "--depth", "0"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("move ") and "why" in line)
    rows = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        move, score, kind, why = re.split(r" {2,}", line[2:].strip(), maxsplit=3)
        rows.append((line[0] == "*", move, score, kind, why))
    return rows


def kind_words(row: dict) -> str:
    """The page's kind as `zerosum explain` words it."""
    if row["kind"] == "bound":
        return row["bound"]
    if row["kind"] == "mean":
        return f"mean of {row['visits']}"
    return row["kind"]


@pytest.mark.parametrize("moves,agent", [
    (ONE_WINS, "minimax:depth=4"),
    (ONE_WINS, "alphabeta:depth=4"),
    ("1 5", "minimax:depth=3"),
    ("1 5", "mcts:sims=200,seed=3"),
])
def test_the_why_rows_agree_with_zerosum_explain(client, capsys, moves, agent) -> None:
    data = explain(client, moves, agent)
    expected = cli_rows(capsys, moves, agent)
    assert [r["move"] for r in data["rows"]] == [e[1] for e in expected]
    for row, (chosen, move, score, kind, why) in zip(data["rows"], expected):
        assert row["chosen"] is chosen, move
        assert (row["score"] or "-") == score, move
        assert kind_words(row) == kind, move
        if not chosen:
            assert row["why"] == why, move
    assert sum(r["chosen"] for r in data["rows"]) == 1
    assert data["agent"] == agent and data["move"] == next(r["move"] for r in data["rows"] if r["chosen"])


def test_the_winning_move_is_chosen_and_every_other_move_is_refuted_by_a_win(client) -> None:
    data = explain(client, ONE_WINS, "minimax:depth=4")
    game = get_game("tictactoe")
    state = game.parse_position(ONE_WINS)[1]
    me = game.player(state)
    chosen = [r for r in data["rows"] if r["chosen"]]
    assert [r["move"] for r in chosen] == ["3"] and data["move"] == "3"
    assert game.outcome(game.result(state, game.parse_action("3"))).winner == me  # it really wins
    others = [r for r in data["rows"] if not r["chosen"]]
    assert len(others) == len(game.actions(state)) - 1 > 0
    for row in others:
        reply = row["refutation"]
        assert reply is not None, row
        after = game.result(game.result(state, game.parse_action(row["move"])), game.parse_action(reply["move"]))
        assert game.outcome(after) is not None and game.outcome(after).winner == 3 - me, row  # the opponent wins
        assert is_proven(reply["value"]) and reply["value"] < 0 and row["value"] < 0, row  # a loss, from X's view
        assert row["pv"][:2] == [row["move"], reply["move"]]
        assert row["why"].startswith("best reply " + reply["move"])
    assert data["pv"][0] == "3" and data["verdict"].startswith("3 is chosen")
    assert data["nodes"] == sum(data["per_depth"])  # minimax: every counted node is in the tree


@pytest.mark.parametrize("params,words", [
    ({"game": "tictactoe", "moves": "1"}, "no agent given"),
    ({"game": "tictactoe", "moves": "1", "agent": "solver"}, "the solver plays Connect-X boards"),
    ({"game": "tictactoe", "moves": "1", "agent": "random"}, "does not search"),
    ({"game": "tictactoe", "moves": "1", "agent": "human"}, "not available here"),
    ({"game": "tictactoe", "moves": "1", "agent": "/tmp/evil.py:agent"}, "is a file: the page plays its own engines"),
    ({"game": "tictactoe", "moves": "1", "agent": "minimax:depth=40"}, "expected 1..6"),
    ({"game": "tictactoe", "moves": "1", "agent": "mcts:sims=10000000"}, "expected 1..100000"),
    ({"game": "tictactoe", "moves": "1", "agent": "alphabeta:eval=/tmp/e.py:f"}, "the games' own evaluations"),
    ({"game": "tictactoe", "moves": "1 1", "agent": "minimax:depth=2"}, "taken"),
    ({"game": "tictactoe", "moves": "1 4 2 5 3", "agent": "minimax:depth=2"}, "the game is over"),
    ({"game": "chess", "agent": "minimax:depth=2"}, "unknown game"),
    ({"game": "connect4", "moves": "448", "agent": "minimax:depth=2"}, "outside 1..7"),
    ({"game": "connect4", "moves": "4" * 5000, "agent": "minimax:depth=2"}, "limit is 2000"),
    # past 100,000 nodes or past the engine time (2 s here), whichever comes first: the same advice
    ({"game": "connect4", "moves": "", "agent": "minimax:depth=6"}, "ask about a smaller search"),
])
def test_bad_explain_requests_are_one_line_400s(client, params, words) -> None:
    reply = client.get("/api/explain", params=params)
    message = reply.json()["error"]
    assert reply.status_code == 400 and words in message and "\n" not in message, reply.text


def test_an_explain_parameter_given_twice_is_refused(client) -> None:
    reply = client.get("/api/explain", params=[("game", "tictactoe"), ("agent", "minimax"), ("agent", "mcts")])
    assert reply.status_code == 400 and "agent is given 2 times" in reply.json()["error"]


def test_the_solver_why_is_its_exact_analysis_not_a_trace(client) -> None:
    pytest.importorskip("zerosum.solver.solver")
    data = explain(client, "444433335555", "solver:tt=20", game="connect4")
    analysis = client.get("/api/analyze", params={"game": "connect4", "moves": "444433335555"}).json()
    assert data["search"] == analysis["engine"] and data["move"] == analysis["best"]
    assert {r["move"]: r["value"] for r in data["rows"]} == analysis["scores"]
    chosen = [r for r in data["rows"] if r["chosen"]]
    assert [r["move"] for r in chosen] == [analysis["best"]] and chosen[0]["why"].startswith("exact scores:")
    assert all(r["kind"] == "exact" and r["refutation"] is None for r in data["rows"])
