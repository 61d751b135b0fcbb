"""``zerosum explain`` (and the page's why?) say what an MCTS search proved: the moves its root check proves lost
before any simulation ("proven lost", each checked here by a full minimax), and the position's value when the
search proved it.  Before, those moves read "not searched" and a proven draw "mean of 24"."""

from __future__ import annotations

import zerosum
from zerosum.cli import main
from zerosum.trace.tree import LEFT_OUT
from zerosum.ui.explain import check_explain, explain_job

MOVES = "591"  # Tic-Tac-Toe, O to move: four moves let X fork; the other two draw


def _lost_for_o(move: str) -> bool:
    game = zerosum.get_game("tictactoe")
    state = game.initial_state
    for action in game.parse_moves(MOVES + move):
        state = game.result(state, action)
    return zerosum.make_agent("minimax").search(game, state).value > 0  # X, to move, wins: a full minimax


def test_the_cli_says_which_moves_the_root_check_proved_lost_and_what_the_search_proved(capsys) -> None:
    assert main(["explain", MOVES, "--game", "tictactoe", "--agent", "mcts:sims=500,seed=0", "--depth", "0",
                 "--no-boards"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {line.split()[0 if not line.startswith("*") else 1]: line for line in lines[4:10]}
    left = [m for m, line in rows.items() if "proven lost" in line]
    assert left == ["2", "4", "6", "8"] and all(LEFT_OUT in rows[m] for m in left), lines
    assert all(_lost_for_o(m) for m in left) and not any(_lost_for_o(m) for m in rows if m not in left)
    assert lines[-1].endswith("plays the move it visited most; it proved the position: draw"), lines[-1]


def test_the_page_says_the_same() -> None:
    found = explain_job(check_explain("tictactoe", MOVES, "mcts:sims=500,seed=0"))
    kinds = {row["move"]: (row["kind"], row["why"]) for row in found["rows"]}
    assert {m for m, (kind, _) in kinds.items() if kind == "proven lost"} == {"2", "4", "6", "8"}
    assert kinds["2"][1] == LEFT_OUT and found["verdict"].endswith("; it proved the position: draw")


def test_plain_uct_claims_nothing(capsys) -> None:
    assert main(["explain", MOVES, "--game", "tictactoe", "--agent", "mcts:plain=1,sims=300,seed=0", "--depth",
                 "0", "--no-boards"]) == 0
    out = capsys.readouterr().out
    assert "proven lost" not in out and "proved the position" not in out
