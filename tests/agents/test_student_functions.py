"""A person's functions fail early and in one line (#22, item 5): naming the function, the position and what
was expected, for each way an evaluation or a player goes wrong; and the view check of a fixed-side one."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import zerosum
from zerosum import Limits, make_agent
from zerosum.agents.alphabeta import AlphaBetaAgent
from zerosum.agents.heuristics import evaluation, window_eval
from zerosum.agents.minimax import MinimaxAgent
from zerosum.agents.student import PROBE_PLIES, probe_player
from zerosum.errors import AgentError

SEARCHES = [lambda f: MinimaxAgent(eval=f, limits=Limits(depth=2)),
            lambda f: AlphaBetaAgent(eval=f, limits=Limits(depth=3)),
            lambda f: AlphaBetaAgent(eval=f, plain=True, limits=Limits(depth=2))]


def one_line(run: Any) -> str:
    with pytest.raises(AgentError) as caught:
        run()
    text = str(caught.value)
    assert "\n" not in text
    return text


def returning(value: Any) -> Any:
    def student_eval(game: Any, state: Any, player: int) -> Any:
        return value
    return student_eval


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("value, why", [(None, "returned None (a missing return?)"), (math.nan, "returned nan"),
                                        (math.inf, "returned inf"), (-math.inf, "returned -inf"),
                                        ("12", "returned '12' (str)"), (True, "returned True, a bool"),
                                        ([3], "returned [3] (list)"), (np.float64("nan"), "returned ")])
def test_a_value_that_is_no_number_is_refused_before_the_search(search: Any, value: Any, why: str) -> None:
    game = zerosum.get_game("connect4")
    text = one_line(lambda: search(returning(value)).search(game, "4453"))
    assert text.startswith("evaluation ") and "student_eval" in text and why in text
    assert "at the start position for player 1: expected a finite number" in text  # probed on the start first


def test_a_file_evaluation_is_named_by_its_file_and_a_wrong_signature_fails_when_loaded(tmp_path: Path) -> None:
    path = tmp_path / "hw.py"
    path.write_text("def two(game, state):\n    return 0\n\ndef none(game, state, player):\n    x = 1\n")
    text = one_line(lambda: make_agent(f"alphabeta:depth=2,eval={path}:two"))  # the spec itself is refused
    assert f"{path}:two(game, state) cannot be called as f(game, state, player)" in text
    text = one_line(lambda: make_agent(f"minimax:depth=2,eval={path}:none").search(zerosum.get_game("tictactoe"), ""))
    assert f"evaluation {path}:none returned None (a missing return?) at the start position" in text


def test_a_python_function_with_a_wrong_signature_fails_before_the_search() -> None:
    def lonely(state: Any) -> int:
        return 0
    text = one_line(lambda: MinimaxAgent(eval=lonely, limits=Limits(depth=2)).search(zerosum.get_game("tictactoe"), ""))
    assert "lonely(state) cannot be called as f(game, state, player)" in text


def turning_bad(bad: Any) -> Any:
    """A function that answers well while it is probed (2 calls on each of at most 13 positions), and then,
    in the middle of the search, does ``bad``."""
    calls = [0]

    def student_eval(game: Any, state: Any, player: int) -> Any:
        calls[0] += 1
        if calls[0] > 2 * (PROBE_PLIES + 1):
            return bad()
        return 1.5 if player == 1 else -1.5
    return student_eval


@pytest.mark.parametrize("search", SEARCHES)
@pytest.mark.parametrize("bad, why", [(lambda: math.nan, "returned nan"),
                                      (lambda: None, "returned None (a missing return?)"),
                                      (lambda: 1 / 0, "raised ZeroDivisionError: division by zero")])
def test_a_bad_value_in_the_middle_of_a_search_is_one_line_naming_the_position(search: Any, bad: Any,
                                                                               why: str) -> None:
    game = zerosum.get_game("connect4")
    text = one_line(lambda: search(turning_bad(bad)).search(game, "4453"))
    assert text.startswith("evaluation tests/agents/test_student_functions.py:student_eval returned") or \
        text.startswith("evaluation tests/agents/test_student_functions.py:student_eval raised")
    assert why in text and "at the position after '4453" in text and "for player " in text


@pytest.mark.parametrize("value", [7, 2.5, Fraction(5, 2), np.int64(7), np.float32(2.5), 10**30])
def test_every_real_number_passes_unchanged(value: Any) -> None:
    game = zerosum.get_game("tictactoe")

    def constant(g: Any, s: Any, player: int) -> Any:
        return value if player == 1 else -value
    found = MinimaxAgent(eval=constant, limits=Limits(depth=1)).search(game, "")
    assert found.value == min(value, 10**6)  # the heuristic range is +-1,000,000 (zerosum.values.clamp)


def test_a_checked_evaluation_searches_as_the_built_in_one() -> None:
    """The checks change nothing: a person's copy of window_eval finds what eval=window finds."""
    game = zerosum.get_game("connect4")

    def my_window(g: Any, s: Any, player: int) -> float:
        return window_eval(g, s, player)
    for plain in (False, True):
        mine = AlphaBetaAgent(eval=my_window, plain=plain, fast=False, limits=Limits(depth=4)).search(game, "4453")
        named = AlphaBetaAgent(eval="window", plain=plain, fast=False, limits=Limits(depth=4)).search(game, "4453")
        assert (mine.action, mine.value, mine.nodes, mine.scores) == (named.action, named.value, named.nodes,
                                                                      named.scores)


# ---- the view check ---------------------------------------------------------------------------------------


def o_view(game: Any, state: Any, player: int) -> float:
    """The homework's evaluation: O's stones, whoever moves and whoever is asked."""
    return window_eval(game, state, 2)


def mover_from_state(game: Any, state: Any, player: int) -> float:
    return window_eval(game, state, game.player(state))


def test_an_undeclared_fixed_side_evaluation_is_caught_with_how_to_declare_it() -> None:
    game = zerosum.get_game("connect4-8x8")
    for func in (o_view, mover_from_state):
        text = one_line(lambda: AlphaBetaAgent(eval=func, plain=True, limits=Limits(depth=2)).search(game, ""))
        assert f"{func.__name__} gives" in text and "for player 1 and for player 2 at the position after" in text
        assert '@evaluation(view="second")' in text and '@evaluation(view="mover")' in text


@pytest.mark.parametrize("view", ["second", "first", "mover", "player"])
def test_a_declared_view_is_never_refused(view: str) -> None:
    game = zerosum.get_game("connect4-8x8")

    def declared(g: Any, s: Any, player: int) -> float:
        return window_eval(g, s, 2)
    evaluation(view=view)(declared)
    assert AlphaBetaAgent(eval=declared, plain=True, limits=Limits(depth=2)).search(game, "").action in range(8)


def test_mover_view_evaluations_pass_the_view_check() -> None:
    game = zerosum.get_game("connect4-8x8")

    def antisymmetric(g: Any, s: Any, player: int) -> float:
        return window_eval(g, s, player)

    def lopsided(g: Any, s: Any, player: int) -> float:  # not antisymmetric, but it depends on player
        return 2 * window_eval(g, s, player) + 5
    for func in (antisymmetric, lopsided):
        AlphaBetaAgent(eval=func, plain=True, limits=Limits(depth=2)).search(game, "")


def test_what_the_view_check_cannot_see_is_as_documented() -> None:
    """A function that is 0 on every probed position says nothing about its view: it passes."""
    game = zerosum.get_game("connect4-8x8")
    seen: list[int] = []

    def zero_early(g: Any, s: Any, player: int) -> int:
        seen.append(s.ply)
        return 0 if s.ply <= PROBE_PLIES else window_eval(g, s, 2)
    AlphaBetaAgent(eval=zero_early, plain=True, limits=Limits(depth=1)).search(game, "")
    assert max(seen) <= PROBE_PLIES + 1


def test_the_declared_homework_view_beats_the_undeclared_reading() -> None:
    """The issue's case: O's fixed-view evaluation, declared second, plays for O wherever it is asked (read
    from the mover's view it would score X's positions as O's); one position shows it: O must block."""
    game = zerosum.get_game("connect4")
    state = game.from_moves("11223")  # X on 1, 2, 3 of the bottom row, O above 1 and 2: O must block at 4
    fixed = evaluation(view="second")(lambda g, s, p: window_eval(g, s, 2))
    assert AlphaBetaAgent(eval=fixed, plain=True, limits=Limits(depth=1)).search(game, state).action == 3


# ---- players ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("move, shown", [("4", "'4' (str)"), (3.0, "3.0 (float)"), (None, "None (NoneType)"),
                                         (9, "9 (int)"), (True, "True (bool)")])
def test_a_player_returning_a_move_of_the_wrong_kind_is_one_line(move: Any, shown: str) -> None:
    game = zerosum.get_game("connect4")

    def my_player(g: Any, s: Any) -> Any:
        return move
    text = one_line(lambda: probe_player(my_player, game))
    assert "player " in text and "my_player returned " + shown in text and "at the start position" in text
    assert "expected one of the legal actions [0, 1, 2, 3, 4, 5, 6] (int, numbered as in Python)" in text


def test_a_player_that_answers_well_passes_the_probe() -> None:
    game = zerosum.get_game("connect4")
    assert probe_player(lambda g, s: np.int64(3), game) == 3
    assert probe_player(lambda g, s: 0, zerosum.get_game("tictactoe")) == 0
    text = one_line(lambda: probe_player(lambda board: 3, game))
    assert "cannot be called as f(game, state)" in text
    text = one_line(lambda: probe_player(lambda g, s: g.nothing(), game))
    assert "raised AttributeError" in text and "at the start position" in text


# ---- on the command line: a real process ------------------------------------------------------------------


@pytest.mark.parametrize("body, words", [
    ("    return float('nan')", "evaluation hw.py:mine returned nan at the start position for player 1"),
    ("    x = player", "evaluation hw.py:mine returned None (a missing return?) at the start position"),
    ("    from zerosum.agents.heuristics import window_eval\n    return window_eval(game, state, 2)",
     "evaluation hw.py:mine gives"),
])
def test_the_command_line_says_it_in_one_line(tmp_path: Path, body: str, words: str) -> None:
    import subprocess
    import sys

    (tmp_path / "hw.py").write_text(f"def mine(game, state, player):\n{body}\n")
    done = subprocess.run([sys.executable, "-m", "zerosum", "explain", "4453", "--agent",
                           "alphabeta:plain=1,depth=2,eval=hw.py:mine"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 2 and done.stdout == "", done
    assert done.stderr.count("\n") == 1 and words in done.stderr, done.stderr


def test_a_player_whose_answer_is_no_action_forfeits_with_why() -> None:
    import zerosum

    def wrong_kind(game, state):  # type: ignore[no-untyped-def]
        return "5"  # a move string, not an action: the game is forfeited with why

    record = zerosum.play_game("tictactoe", wrong_kind, "random")
    assert record.result == "0-1" and record.reason.startswith("malformed move: ")
    assert "wrong_kind(game, state) returned '5' (str) at the start position: expected one of the legal " \
           "actions" in record.reason, record.reason

    def three(game, state, extra):  # type: ignore[no-untyped-def]
        return 0

    from zerosum.errors import AgentError

    with pytest.raises(AgentError, match=r"^three takes \(game, state, extra\): expected player\(board\)"):
        zerosum.play_game("tictactoe", three, "random")  # refused before the game: no game forfeited
