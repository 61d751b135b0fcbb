"""A course game's own ``evaluate(state, player)`` is checked as an ``eval=file.py:fn`` evaluation is.

A class written the course's way may bring its evaluation; the searches call it at their depth limit.  A
value that is no finite number (None from a missing return, NaN, an infinity, a bool, a string), or an
exception, is one AgentError line naming ``Class.evaluate``, the position and the player (as the class names
it), through :func:`zerosum.agents.student.checked`: before, NaN scored +1,000,000 silently and None was a
raw TypeError from ``values.clamp``.
"""

from __future__ import annotations

from typing import Any

import pytest

import zerosum
from zerosum.errors import AgentError


class Nim:
    """Take 1-3 sticks; whoever takes the last one wins."""

    def __init__(self, sticks: int = 9) -> None:
        self.initial = (sticks, "MAX")

    def actions(self, s: Any) -> list[int]:
        return [n for n in (1, 2, 3) if n <= s[0]]

    def result(self, s: Any, n: int) -> Any:
        return (s[0] - n, "MIN" if s[1] == "MAX" else "MAX")

    def terminal_test(self, s: Any) -> bool:
        return s[0] == 0

    def utility(self, s: Any, p: Any) -> int:
        return -1 if s[1] == p else 1

    def to_move(self, s: Any) -> Any:
        return s[1]


def nim_evaluating(answer: Any, name: str = "BadNim") -> Nim:
    """A Nim whose evaluate returns ``answer`` (called, when it is a function)."""

    def evaluate(self: Any, s: Any, p: Any) -> Any:
        return answer() if callable(answer) else answer

    return type(name, (Nim,), {"evaluate": evaluate})()


BAD = [(None, "returned None (a missing return?)"), (float("nan"), "returned nan"),
       (float("inf"), "returned inf"), (True, "returned True, a bool"), ("3", "returned '3' (str)")]
SEARCHES = ["alphabeta:depth=2", "alphabeta:plain=1,depth=2", "minimax:depth=2"]


def one_line(call: Any) -> str:
    with pytest.raises(AgentError) as caught:
        call()
    text = str(caught.value)
    assert "\n" not in text and len(text) <= 300, text
    return text


@pytest.mark.parametrize("spec", SEARCHES)
@pytest.mark.parametrize("answer, words", BAD)
def test_a_course_games_evaluate_returning_no_number_is_one_line(spec: str, answer: Any, words: str) -> None:
    game = nim_evaluating(answer)
    text = one_line(lambda: zerosum.make_agent(spec).search(game, game.initial))
    assert text.startswith(f"evaluation BadNim.evaluate {words} at the position "), text
    assert " for player " in text and ("('MAX')" in text or "('MIN')" in text), text
    assert text.endswith("expected a finite number (evaluate(state, player) -> int or float)"), text


def test_a_course_games_evaluate_that_raises_is_one_line_naming_it() -> None:
    game = nim_evaluating(lambda: 1 / 0, "BoomNim")
    text = one_line(lambda: zerosum.make_agent("alphabeta:depth=2").search(game, game.initial))
    assert text.startswith("evaluation BoomNim.evaluate raised ZeroDivisionError: division by zero at the "
                           "position "), text
    assert " for player " in text


@pytest.mark.parametrize("answer, words", BAD[:2])
def test_play_game_forfeits_with_the_evaluations_line(answer: Any, words: str) -> None:
    record = zerosum.play_game(nim_evaluating(answer), "minimax:depth=2", "random", seed=1)
    assert record.forfeit and record.winner == 2, record
    assert f"evaluation BadNim.evaluate {words} at the position " in record.reason, record.reason
    assert "TypeError" not in record.reason and "\n" not in record.reason


def test_a_good_evaluate_is_used_as_it_is_and_zerosums_own_are_not_wrapped() -> None:
    good = nim_evaluating(lambda: 0.5, "GoodNim")
    found = zerosum.make_agent("alphabeta:depth=2").search(good, good.initial)
    assert set(found.scores.values()) <= {0.5, -0.5, 1_000_000_000 - 1, -(1_000_000_000 - 2)}
    # the checked wrapper is only the person's: a project game's evaluation is its own function
    from zerosum.agents.heuristics import bind_evaluation

    connect4 = zerosum.get_game("connect4")
    assert bind_evaluation(connect4, "threats") is connect4.evaluations()["threats"]
    # ... and a NaN of a course game never became the best heuristic value (1,000,000) unnoticed
    nan = nim_evaluating(float("nan"))
    with pytest.raises(AgentError):
        zerosum.make_agent("alphabeta:depth=2").search(nan, nan.initial)
