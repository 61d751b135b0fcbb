"""What a person's game did wrong, in one line: :class:`GameBug` (the game's fault, never a player's) and the
words of its messages.

Everything a method of the game does besides returning is the game's bug: an exception, ``sys.exit()`` (a
SystemExit), a GeneratorExit or a bare BaseException alike (:meth:`zerosum.games.course_rules.Rules.call`);
only Ctrl-C (KeyboardInterrupt) passes through, so it still stops whatever runs.  Of the answers, the two
that decide the end are checked here: a terminal test's answer must be true or false
(:func:`over_answer`: a numpy array of several values is neither), and the utility at the end a finite
real number (:func:`utility_sign`: not None, NaN, an infinity, a bool or a whole number too large for a
float).  A legal move must be equal to itself (:func:`not_itself`: NaN never is, so no move could find it).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from ..core.files import describe_exception
from ..errors import GameError
from ..game import safe_repr

__all__ = ["GameBug", "MethodFailed", "MAX_MESSAGE", "one_line", "describe_call_error", "raised", "over_answer",
           "utility_sign", "not_itself"]

#: the longest message made of what a person's code raised, in characters
MAX_MESSAGE = 300


class GameBug(GameError):
    """The code of a person's game did what no game may do: a method raised (or called sys.exit), ``actions``
    returned None or no moves in a position that is not over, or a move not equal to itself (NaN), ``result``
    returned None or changed its state, the terminal test returned neither true nor false, ``utility``
    returned no finite number at the end, ``to_move`` named a third player, or the game did not end within
    :data:`~.course.MAX_PLIES` plies.  The game is at fault, never a player: the arena stops its run with
    this line (nobody forfeits), and ``play_game`` raises it."""


class MethodFailed(GameBug):
    """A method of a person's game raised something other than a zerosum error: one line naming the method
    and the state; ``original`` is what it raised (None when the line crossed a process)."""

    def __init__(self, message: str, original: BaseException | None = None) -> None:
        super().__init__(message)
        self.original = original


def one_line(text: str) -> str:
    """``text`` on one line (a person's exception may span several), at most :data:`MAX_MESSAGE` characters."""
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 3] + "..."


def raised(exc: BaseException) -> str:
    """What a person's code did, in words: ``raised KeyError: 3``, or ``called sys.exit(0)`` for a SystemExit
    (no error, but zerosum never lets a person's function end the program)."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({safe_repr(exc.code, 40)})"
    return f"raised {describe_exception(exc)}"


def describe_call_error(name: str, what: str, exc: BaseException) -> str:
    """``TicTacToe.actions(initial state) raised KeyError: 3`` (for the probe of a new game), on one line."""
    return one_line(f"{name}.{what} {raised(exc)}")


def over_answer(name: str, method: str, answer: Any, state: Any) -> bool:
    """The terminal test's ``answer`` (of ``method``, at your ``state``) as True or False; one GameBug line
    for an answer that is neither (a numpy array of several values, a ``__bool__`` that fails)."""
    try:
        return bool(answer)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - an answer that cannot say yes or no
        raise GameBug(one_line(f"{name}: {method} returned {safe_repr(answer, 60)} ({type(answer).__name__}) at "
                               f"state {safe_repr(state, 80)}: it must return True when the game is over, else "
                               "False")) from None


def utility_sign(name: str, u: Any) -> int:
    """The winner that the utility ``u`` at the end says, by its sign: 1 (> 0), 2 (< 0) or 0 (a draw); one
    GameBug line for anything but a real number that is finite or an infinity (AIMA-style games score a win
    ``math.inf``: its sign is what counts)."""
    if isinstance(u, bool) or not isinstance(u, numbers.Real):
        finite = False
    else:
        try:
            finite = math.isfinite(u) or math.isinf(u)
        except (OverflowError, TypeError, ValueError):  # a whole number (or fraction) too large for a float
            finite = False
    if not finite:
        kind = "" if type(u) in (float, type(None)) else f" ({type(u).__name__})"
        if isinstance(u, numbers.Rational) and not isinstance(u, bool):
            kind = f" ({type(u).__name__}, too large for a float)"
        raise GameBug(one_line(f"{name}: utility returned {safe_repr(u, 60)}{kind} at the end: it must return "
                               f"a {'finite ' if isinstance(u, numbers.Real) else ''}number (> 0 the player won, "
                               "< 0 lost, 0 a draw)"))
    try:
        return 1 if u > 0 else 2 if u < 0 else 0
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a number whose comparison fails
        raise GameBug(one_line(f"{name}: utility returned {safe_repr(u, 60)} ({type(u).__name__}) at the end, "
                               "which cannot be compared with 0: it must return a number")) from None


def not_itself(name: str, action: Any, state: Any) -> GameBug:
    """The GameBug line for ``actions`` that returned ``action``, which is not equal to itself, at ``state``."""
    return GameBug(one_line(f"{name}: actions returned {safe_repr(action, 60)} at state {safe_repr(state, 80)}, "
                            "which is not equal to itself: a move must be (NaN, or a move holding NaN, never is: "
                            "it could not be found among the legal moves)"))
