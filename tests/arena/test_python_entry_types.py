"""``zerosum.play_game`` and ``zerosum.match`` answer a wrong type in any parameter with one GameError line
(issue #20, item 9: ``match(..., sprt=5)`` raised AttributeError).  ``trace``'s are in tests/trace."""

from __future__ import annotations

from typing import Any

import pytest

import zerosum
from zerosum.errors import GameError

WRONG = [5, 2.5, True, None, b"x", [1], {"a": 1}, object(), float("nan"), 10**30]


def _refused(call: Any) -> str:
    with pytest.raises(GameError) as caught:
        call()
    text = str(caught.value)
    assert text and "\n" not in text
    return text


@pytest.mark.parametrize("value", [v for v in WRONG if v is not None])
@pytest.mark.parametrize("param", ["game", "first", "second"])
def test_play_game_answers_a_wrong_game_or_agent_with_one_game_error_line(param: str, value: Any) -> None:
    args = {"game": "tictactoe", "first": "first", "second": "first", param: value}
    _refused(lambda: zerosum.play_game(args["game"], args["first"], args["second"]))


NOT_A_NUMBER = ["2", True, b"x", [1], {"a": 1}, object(), float("nan")]
#: wrong values of each keyword (None is the default of most, and numbers are right for the numeric ones)
PLAY_GAME = {"moves": [5, 2.5, True, b"x", [None], {"a": 1}, object()], "seed": [*NOT_A_NUMBER, 2.5, -1, 10**30],
             "limits": [5, "depth=2", True, b"x", [1], {"a": 1}, object()],
             "show": [5, "yes", None, b"x", [1], object()]}
MATCH = {"game": WRONG, "games": [*NOT_A_NUMBER, None, 2.5, 0, 10**30], "seed": [*NOT_A_NUMBER, 2.5, -1, 10**30],
         "limits": [5, "depth=2", True, b"x", [1], {"a": 1}, object()],
         "openings": [5, 2.5, True, b"x", [1], [None], {"a": 1}, object(), []],
         "opening_plies": [*NOT_A_NUMBER, 2.5, -1, 10**30], "order": WRONG,
         "deadline": [*NOT_A_NUMBER, -1, 0, float("inf")], "sprt": [5, 2.5, True, b"x", [1], {"a": 1}, object()],
         "jobs": [*NOT_A_NUMBER, None, 2.5, 0, 10**30]}


@pytest.mark.parametrize("param, value", [(k, v) for k, vs in PLAY_GAME.items() for v in vs])
def test_play_game_answers_a_wrong_keyword_with_one_game_error_line(param: str, value: Any) -> None:
    _refused(lambda: zerosum.play_game("tictactoe", "first", "first", **{param: value}))


@pytest.mark.parametrize("value", [v for v in WRONG if v is not None])
@pytest.mark.parametrize("param", ["first", "second"])
def test_match_answers_a_wrong_agent_with_one_game_error_line(param: str, value: Any) -> None:
    args = {"first": "first", "second": "first", param: value}
    _refused(lambda: zerosum.match(args["first"], args["second"], game="tictactoe", games=2))


@pytest.mark.parametrize("param, value", [(k, v) for k, vs in MATCH.items() for v in vs])
def test_match_answers_a_wrong_keyword_with_one_game_error_line(param: str, value: Any) -> None:
    kwargs = {"game": "tictactoe", "games": 2, param: value}
    _refused(lambda: zerosum.match("first", "first", **kwargs))


def test_match_sprt_must_be_a_string_as_the_issue_found() -> None:
    assert "sprt" in _refused(lambda: zerosum.match("first", "first", game="tictactoe", games=2, sprt=5))  # type: ignore[arg-type]


def test_match_openings_must_be_move_strings_not_numbers() -> None:
    assert "openings" in _refused(lambda: zerosum.match("first", "first", game="tictactoe", games=2, openings=[5]))


class _Hostile:
    """A value whose repr and == raise (as a student's object might)."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("no ==")

    __hash__ = object.__hash__


@pytest.mark.parametrize("param, value", [("seed", _Hostile()), ("order", _Hostile()), ("deadline", 10**400),
                                          ("deadline", 7200.5), ("openings", "\ud800"), ("order", ["random"])])
def test_match_answers_hostile_and_huge_values_with_one_game_error_line(param: str, value: Any) -> None:
    _refused(lambda: zerosum.match("first", "first", game="tictactoe", games=2, **{param: value}))


def test_play_game_answers_a_seed_whose_repr_fails_with_one_game_error_line() -> None:
    _refused(lambda: zerosum.play_game("tictactoe", "first", "first", seed=_Hostile()))


@pytest.mark.parametrize("value, words", [(2.5, "is not a whole number"), ("3", "is not a whole number"),
                                          (True, "is not a whole number"), (0, "is out of range"),
                                          (10**30, "is out of range")])
def test_match_says_whether_a_count_is_no_whole_number_or_out_of_range(value: Any, words: str) -> None:
    text = _refused(lambda: zerosum.match("first", "first", game="tictactoe", games=value))
    assert f"games={value!r} {words}: expected a whole number in 1..100000" in text, text
