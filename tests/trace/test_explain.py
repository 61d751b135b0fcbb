"""``zerosum explain``: each root move's score, the principal variation, and the refutation of each alternative."""

from __future__ import annotations

import re
from typing import Any

import pytest

from zerosum import TicTacToe
from zerosum.cli import main

# X (1, 2, 9) against O (4, 5, 7), X to move: 3 wins at once; 6 and 8 each lose to an O line
POSITION = "1 4 2 5 9 7"


def explain(capsys: Any, *argv: str) -> str:
    code = main(["explain", *argv])
    out = capsys.readouterr()
    assert code == 0 and out.err == ""
    return out.out


def rows(text: str) -> dict[str, tuple[str, str]]:
    """move -> (the row's mark, the rest of the row), from the table of root moves."""
    table = text.split("\n\n")[1].splitlines()[1:]
    return {m.group(2): (m.group(1), m.group(3)) for m in (re.match(r"(.) (\S+)\s+(.*)", line) for line in table) if m}


# (not the full alpha-beta: its deepening stops at depth 1, where the win is proven, and scores the
# other moves by the evaluation, as the explanation then says)
@pytest.mark.parametrize("agent", ["alphabeta:plain=1", "alphabeta:plain=1,depth=3", "minimax",
                                   "minimax:discount=0"])
def test_explain_names_the_winning_move_and_refutes_every_other(capsys: Any, agent: str) -> None:
    game = TicTacToe()
    state = game.parse_position(POSITION)[1]
    winning = [a for a in game.actions(state) if game.winner(game.result(state, a)) == game.player(state)]
    assert len(winning) == 1
    text = explain(capsys, POSITION, "--game", "tictactoe", "--agent", agent, "--depth", "1")
    table = rows(text)
    assert set(table) == {game.format_action(a) for a in game.actions(state)}
    best = game.format_action(winning[0])
    assert table[best][0] == "*" and "chosen" in table[best][1] and "win" in table[best][1]
    for move, (mark, rest) in table.items():
        if move == best:
            continue
        assert mark == " " and "loss" in rest.split()[0]
        found = re.search(r"(?:refuted by|best reply) (\S+) \(([^)]*)\)", rest)
        assert found, rest
        reply = game.parse_action(found.group(1), game.result(state, game.parse_action(move, state)))
        after = game.result(game.result(state, game.parse_action(move, state)), reply)
        assert game.winner(after) == 3 - game.player(state)  # the named reply wins for the opponent
        assert "loss" in found.group(2)
    assert f"principal variation: {best}" in text
    assert f"{best} is chosen" in text


def test_explain_says_which_alphabeta_scores_are_bounds(capsys: Any) -> None:
    text = explain(capsys, POSITION, "--game", "tictactoe", "--agent", "alphabeta:plain=1", "--depth", "0",
                   "--no-boards")
    table = rows(text)
    assert "exact" in table["3"][1]
    assert all("at most" in table[m][1] for m in ("6", "8"))


def test_explain_prints_the_tree_to_the_chosen_depth(capsys: Any) -> None:
    shallow = explain(capsys, "4453", "--agent", "alphabeta:plain=1,depth=3,eval=window", "--depth", "1")
    deep = explain(capsys, "4453", "--agent", "alphabeta:plain=1,depth=3,eval=window", "--depth", "2",
                   "--no-boards")
    nodes = lambda text, d: sum(1 for line in text.splitlines()  # noqa: E731
                                if re.match(" " * (2 * d) + r"\S+: M(AX|IN) ", line))
    assert nodes(shallow, 0) == 1 and nodes(shallow, 1) == 7 and nodes(shallow, 2) == 0
    assert nodes(deep, 2) > 0
    assert ". . . O . . ." in shallow and ". . . O . . ." not in deep  # boards, then none


def test_explain_mcts_gives_visits_and_replies(capsys: Any) -> None:
    text = explain(capsys, "4453", "--agent", "mcts:sims=200,seed=1", "--depth", "0", "--no-boards")
    assert "200 simulations" in text and "mean of" in text and "visited most" in text


@pytest.mark.parametrize("argv, says", [
    (["zz", "--game", "tictactoe"], "'z' is not a cell"),
    (["1 4 2 5 3", "--game", "tictactoe"], "game is over"),
    (["", "--agent", "random"], "does not search"),
    (["", "--agent", "nobody"], "unknown agent"),
    (["", "--depth", "99"], "out of range"),
    (["", "--depth", "-1"], "--depth"),
    (["", "--max-nodes", "0"], "out of range"),
    (["", "--agent", "alphabeta:plain=1", "--max-nodes", "500"], "more than 500 nodes"),
    (["", "--game", "connect99"], "connect99"),
])
def test_explain_bad_input_is_one_line_exit_2(capsys: Any, argv: list[str], says: str) -> None:
    code = main(["explain", *argv])
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    assert len(out.err.strip().splitlines()) == 1 and says in out.err
