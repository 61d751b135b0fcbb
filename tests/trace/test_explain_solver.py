"""``zerosum explain --agent solver`` (the explain audit).

* On a board the solver does not take, alpha-beta moves for it: explain refuses at once in the page's own
  words ("... so ask alphabeta:time=1 why"), never a false "did not end within 60 s", and never credits the
  solver with alpha-beta's search.
* Every legal column gets its exact score, as the page's why? gives it, checked against a brute-force
  negamax written here (before, the columns the solver's move did not need were "not scored").
* A proven draw is said in words: "(draw)", not "(0)".
"""

from __future__ import annotations

import re
import time
from functools import lru_cache
from typing import Any

import pytest

import zerosum
from zerosum.cli import main
from zerosum.errors import AgentError
from zerosum.trace.bounds import TraceBound, time_bound

SOLVER = pytest.importorskip("zerosum.solver.solver")


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = main(["explain", *argv, "--no-boards", "--depth", "0"])
    out, err = capsys.readouterr()
    return code, out, err


def pages_words(game: str, agent: str) -> str:
    from zerosum.ui.explain import check_explain

    with pytest.raises(AgentError) as caught:
        check_explain(game, "", agent)
    return str(caught.value)


@pytest.mark.parametrize("game, agent, seconds", [("tictactoe", "solver", 1), ("othello:n=4", "solver", 1),
                                                  ("tictactoe", "solver:time=1", 1),
                                                  ("othello:n=4", "solver:time=2", 2)])
def test_the_solver_on_a_board_it_does_not_take_is_refused_at_once_in_the_pages_words(
        capsys: Any, game: str, agent: str, seconds: int) -> None:
    start = time.monotonic()
    code, out, err = run(capsys, "--game", game, "--agent", agent)
    assert code == 2 and out == "" and err.count("\n") == 1, (out, err)
    assert "did not end within" not in err and "proves" not in out
    said = err.strip().partition("error: trace: ")[2]
    assert said.endswith(f"alpha-beta moves for it here, so ask alphabeta:time={seconds} why"), err
    assert said == pages_words(game, agent)  # the page's /api/explain says the same
    with pytest.raises(AgentError, match="alpha-beta moves for it here") as caught:
        zerosum.trace(agent, game)
    assert not isinstance(caught.value, TraceBound)
    assert time.monotonic() - start < 20


def test_a_solver_that_does_not_answer_a_board_is_not_said_to_run_out_of_time(capsys: Any) -> None:
    from zerosum.agents.registry import make_agent
    from zerosum.games import get_game

    agent, game = make_agent("solver"), get_game("tictactoe")  # its search falls back, as without numba
    with pytest.raises(AgentError, match="alpha-beta moves for it here, so ask alphabeta:time=1 why") as caught:
        with time_bound(agent, 60.0):
            agent.search(game, game.initial_state)
    assert not isinstance(caught.value, TraceBound) and "did not end within" not in str(caught.value)


def brute_force(rows: int, cols: int, k: int, moves: str) -> list[int]:
    """Every column's solver score (Pons: a win with the mover's stone number s scores (cells + 2 - s) // 2
    counted in stones on the board after it; a draw 0; a loss the opposite), by plain negamax."""
    cells = rows * cols

    def won(board: tuple[tuple[int, ...], ...], player: int) -> bool:
        def at(r: int, c: int) -> int:
            return board[c][r] if 0 <= c < cols and 0 <= r < len(board[c]) else 0

        return any(all(at(r + i * dr, c + i * dc) == player for i in range(k))
                   for c in range(cols) for r in range(rows)
                   for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)))

    def play(board: tuple[tuple[int, ...], ...], col: int, player: int) -> tuple[tuple[int, ...], ...]:
        return tuple(column + (player,) if c == col else column for c, column in enumerate(board))

    @lru_cache(maxsize=None)
    def column_score(board: tuple[tuple[int, ...], ...], col: int, player: int, stones: int) -> int:
        after = play(board, col, player)
        if won(after, player):
            return (cells + 2 - (stones + 1)) // 2
        if stones + 1 == cells:
            return 0
        return -max(column_score(after, c, 3 - player, stones + 1) for c in range(cols) if len(after[c]) < rows)

    board: tuple[tuple[int, ...], ...] = tuple(() for _ in range(cols))
    for i, ch in enumerate(moves):
        board = play(board, int(ch) - 1, 1 + i % 2)
    player = 1 + len(moves) % 2
    return [column_score(board, c, player, len(moves)) for c in range(cols) if len(board[c]) < rows]


def table(out: str) -> dict[str, tuple[str, str, str]]:
    rows = out.split("\n\n")[1].splitlines()[1:]
    return {m.group(1): (m.group(2), m.group(3), m.group(4))
            for m in (re.match(r". (\S+)\s+(\S+)\s+(exact|not scored|estimate|class)\s+(.*)$", line) for line in rows)
            if m}


@pytest.mark.parametrize("rows, cols, k, moves", [(3, 3, 3, "21"), (4, 4, 3, "12"), (3, 3, 3, "")])
def test_every_column_has_its_exact_score_as_a_brute_force_negamax_gives_it(
        capsys: Any, rows: int, cols: int, k: int, moves: str) -> None:
    truth = brute_force(rows, cols, k, moves)
    code, out, _ = run(capsys, *([moves] if moves else []), "--game", f"connectx:rows={rows},cols={cols},k={k}",
                       "--agent", "solver")
    assert code == 0
    found = table(out)
    assert [int(found[str(c + 1)][0]) for c in range(cols)] == truth, out
    assert {kind for _, kind, _ in found.values()} == {"exact"} and "not scored" not in out
    best = max(truth)
    chosen = [line for line in out.splitlines() if line.startswith("* ")]
    assert len(chosen) == 1 and truth[int(chosen[0].split()[1]) - 1] == best
    for score, _, why in found.values():  # each other move's value in words
        if why != "chosen":
            assert why == "draw" if int(score) == 0 else why.startswith("win in" if int(score) > 0 else "loss in")


def test_a_proven_draw_is_said_in_words(capsys: Any) -> None:
    code, out, _ = run(capsys, "3", "--agent", "solver")
    assert code == 0
    verdict = out.rstrip("\n").splitlines()[-1]
    assert verdict == "4 is chosen: the solver proves it scores 0 (draw), the best there is", out
