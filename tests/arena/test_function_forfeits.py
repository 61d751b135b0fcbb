"""A plain player function handed over in Python forfeits with a reason that names it and says what was expected.

``f(game, state) -> action`` from a notebook that answers no action, or raises, loses by forfeit (never an
exception); the reason reads as the homework's ``player(board)`` one does: ``malformed move: bad(game, state)
returned '0' (str) at the start position: expected one of the legal actions [0, 1, ...] (int, numbered as in
Python)`` and ``error: boom(game, state) raised ZeroDivisionError: division by zero at the start position``.
Before, the reason was ``malformed move: '0' (str)`` and ``error: ZeroDivisionError: division by zero``,
naming neither the function nor what it should have answered.  Other agents keep their words.
"""

from __future__ import annotations

from typing import Any

import zerosum
from zerosum.arena.forfeits import short_reason


def bad(game: Any, state: Any) -> Any:
    return str(game.actions(state)[0])  # a move string, not an action


def boom(game: Any, state: Any) -> Any:
    return 1 / 0


def test_an_answer_of_the_wrong_kind_names_the_function_and_the_legal_actions() -> None:
    record = zerosum.play_game("connect4", bad, "random", seed=1)
    assert record.forfeit and record.winner == 2, record
    reason = record.reason
    assert reason.startswith("malformed move: "), reason  # the kind the arena's tables count by
    assert "bad(game, state) returned '0' (str) at the start position: expected one of the legal actions " \
           "[0, 1, 2, 3, 4, 5, 6] (int, numbered as in Python)" in reason, reason
    assert "\n" not in reason and len(reason) <= 300


def test_an_exception_names_the_function_and_where_it_was() -> None:
    record = zerosum.play_game("connect4", "first", boom, seed=1)
    assert record.forfeit and record.winner == 1, record
    reason = record.reason
    assert reason.startswith("error: "), reason
    assert "boom(game, state) raised ZeroDivisionError: division by zero at the position after '1'" in reason
    assert short_reason(reason).startswith("error: "), short_reason(reason)  # the Forfeits table's line


def test_a_long_answer_or_message_stays_one_bounded_line() -> None:
    def chatty(game: Any, state: Any) -> Any:
        raise ValueError("line one\nline two " + "x" * 2000)

    def listy(game: Any, state: Any) -> Any:
        return ["no"] * 1000

    for player, words in ((chatty, "chatty(game, state) raised ValueError: line one line two x"),
                          (listy, "listy(game, state) returned ['no', ")):
        reason = zerosum.play_game("tictactoe", player, "random", seed=1).reason
        assert words in reason and "\n" not in reason and len(reason) <= 300, reason


def test_other_agents_keep_their_words_and_an_illegal_move_names_the_function_too() -> None:
    # an illegal action of a function: the function and its answer named, then the game's own explanation (it
    # was the explanation alone, naming no function, unlike every other bad answer)
    record = zerosum.play_game("connect4", "alphabeta:depth=2", lambda game, state: 9, seed=1)
    assert record.reason == ("illegal move: tests/arena/test_function_forfeits.py:<lambda>(game, state) returned 9 "
                             "(int) at the position after '4': column 10 is outside 1..7 (action 9 is outside 0..6)")
    # an Agent object that raises: no function to name (its spec is the record's label)
    from zerosum.agents.base import Agent

    class Broken(Agent):
        name = "broken"

        def __call__(self, game: Any, state: Any) -> Any:
            raise KeyError("k")

    record = zerosum.play_game("connect4", Broken(), "random", seed=1)
    assert record.reason == "error: KeyError: 'k'", record.reason
    # ... while the plain function beside it is named
    assert "bad(game, state) returned" in zerosum.play_game("tictactoe", bad, "random", seed=1).reason


def test_a_files_function_and_the_homeworks_player_are_named_too(tmp_path: Any) -> None:
    """The arena's forfeits of a file's f(game, state) and of the homework's player(board) name them (audit:
    'error: oops (ValueError)', naming neither the function nor the position)."""
    from zerosum.agents.registry import make_agent

    (tmp_path / "hw.py").write_text("def player(board):\n    raise ValueError('oops')\n")
    (tmp_path / "mine.py").write_text("def f(game, state):\n    raise ValueError('oops')\n"
                                      "def g(game, state):\n    return 'x'\n")
    hw = make_agent(str(tmp_path / "hw.py"))
    reason = zerosum.play_game("connect4-8x8", hw, "random", seed=1).reason
    assert reason.startswith("error: hw.py:player(board) raised ValueError: oops at the "), reason
    reason = zerosum.play_game("tictactoe", "first", make_agent(f"{tmp_path / 'mine.py'}:f"), seed=1).reason
    assert reason.startswith("error: mine.py:f(game, state) raised ValueError: oops at the position "), reason
    reason = zerosum.play_game("tictactoe", make_agent(f"{tmp_path / 'mine.py'}:g"), "first", seed=1).reason
    assert reason.startswith("malformed move: mine.py:g(game, state) returned 'x' (str) at the start "), reason
