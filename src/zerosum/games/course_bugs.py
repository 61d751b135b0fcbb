"""What a person's game did wrong, in one line: :class:`GameBug` (the game's fault, never a player's) and the
words of its messages.

Everything a method of the game does besides returning is the game's bug: an exception, ``sys.exit()`` (a
SystemExit), a GeneratorExit or a bare BaseException alike (:meth:`zerosum.games.course_rules.Rules.call`);
only Ctrl-C (KeyboardInterrupt) passes through, so it still stops whatever runs.  Of the answers, the two
that decide the end are checked here: a terminal test's answer must be true or false
(:func:`over_answer`: a numpy array of several values is neither, nor a string or a list), and the utility at the end a finite
real number (:func:`utility_sign`: not None, NaN, an infinity, a bool or a whole number too large for a
float), and the two players' utilities there opposite (:func:`zero_sum`: zerosum reads the first player's
alone, so a ``utility`` that ignores its ``player`` would credit every game to one side).  A legal move must
be equal to itself (:func:`not_itself`: NaN never is, so no move could find it), and listed once
(:func:`first_repeat`, :func:`repeated`: a move listed twice is shown twice and searched twice).
"""

from __future__ import annotations

import contextlib
import copy
import math
import numbers
from typing import Any, Callable

from ..core.checks import clip
from ..core.files import describe_exception
from ..errors import GameError
from ..game import safe_repr

__all__ = ["GameBug", "MethodFailed", "MAX_MESSAGE", "one_line", "describe_call_error", "raised", "over_answer",
           "utility_sign", "not_itself", "zero_sum", "first_repeat", "repeated", "ZERO_SUM_CHECKS", "copy_hint",
           "handed", "changed_words"]

#: the longest message made of what a person's code raised, in characters
MAX_MESSAGE = 300

#: both players' utilities are compared (:func:`zero_sum`) at the first this many finished states a game
#: object scores, none after (a utility that ignores its player shows at once): asked at every end, the
#: second call cost a minimax of Tic-Tac-Toe 1.7% more instructions (valgrind), at the first 10,000 0.6%
ZERO_SUM_CHECKS = 10_000


class GameBug(GameError):
    """The code of a person's game did what no game may do: a method raised (or called sys.exit), ``actions``
    returned None or no moves in a position that is not over, a move not equal to itself (NaN) or a move
    twice, ``result`` returned None or changed its state, the terminal test returned neither true nor false,
    ``utility`` returned no finite number at the end or values for the two players that do not sum to 0,
    ``to_move`` named a third player, or the game did not end within
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
    return clip(" ".join(text.split()), MAX_MESSAGE)


def raised(exc: BaseException) -> str:
    """What a person's code did, in words: ``raised KeyError: 3``, or ``called sys.exit(0)`` for a SystemExit
    (no error, but zerosum never lets a person's function end the program)."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({safe_repr(exc.code, 40)})"
    return f"raised {describe_exception(exc)}"


def describe_call_error(name: str, what: str, exc: BaseException) -> str:
    """``TicTacToe.actions(initial state) raised KeyError: 3`` (for the probe of a new game), on one line."""
    return one_line(f"{name}.{what} {raised(exc)}")


#: answers a terminal test may not give: true whenever not empty, whatever they hold (``[s[0] == 0]``, ``"no"``)
_CONTAINERS = (str, bytes, list, tuple, dict, set, frozenset)


def over_answer(name: str, method: str, answer: Any, state: Any) -> bool:
    """The terminal test's ``answer`` (of ``method``, at your ``state``) as True or False; one GameBug line
    for an answer that is neither (a numpy array of several values, a ``__bool__`` that fails) or a string or
    container, true whenever it is not empty (``[state[0] == 0]`` ended every game at once).  None, a number,
    a numpy bool say it by their truth, as Python's ``if`` reads them."""
    if answer is True or answer is False:  # the common answer, at every node a search visits: no more asked
        return answer
    try:
        if isinstance(answer, _CONTAINERS):
            raise TypeError
        return bool(answer)
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - an answer that cannot say yes or no
        also = (f" (a {type(answer).__name__} is true whenever it is not empty)" if isinstance(answer, _CONTAINERS)
                else "")
        raise GameBug(one_line(f"{name}: {method} returned {safe_repr(answer, 60)} ({type(answer).__name__}) at "
                               f"state {safe_repr(state, 80)}: it must return True when the game is over, else "
                               f"False{also}")) from None


def utility_sign(name: str, u: Any, state: Any = None) -> int:
    """The winner that the utility ``u`` at the end (your finished ``state``, named in the line) says, by its
    sign: 1 (> 0), 2 (< 0) or 0 (a draw); one GameBug line for anything but a real number that is finite or an
    infinity (AIMA-style games score a win ``math.inf``: its sign is what counts)."""
    at = "at the end" if state is None else f"at the end (state {safe_repr(state, 80)})"
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
        raise GameBug(one_line(f"{name}: utility returned {safe_repr(u, 60)}{kind} {at}: it must return "
                               f"a {'finite ' if isinstance(u, numbers.Real) else ''}number (> 0 the player won, "
                               "< 0 lost, 0 a draw)"))
    try:
        return 1 if u > 0 else 2 if u < 0 else 0
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - a number whose comparison fails
        raise GameBug(one_line(f"{name}: utility returned {safe_repr(u, 60)} ({type(u).__name__}) {at}, "
                               "which cannot be compared with 0: it must return a number")) from None


def not_itself(name: str, action: Any, state: Any) -> GameBug:
    """The GameBug line for ``actions`` that returned ``action``, which is not equal to itself, at ``state``."""
    return GameBug(one_line(f"{name}: actions returned {safe_repr(action, 60)} at state {safe_repr(state, 80)}, "
                            "which is not equal to itself: a move must be (NaN, or a move holding NaN, never is: "
                            "it could not be found among the legal moves)"))


def zero_sum(game: Any, state: Any, one: Any, two: Any) -> None:
    """One GameBug line unless ``one`` and ``two``, the utilities of ``game``'s first and second players (by
    their own labels, ``game.first`` and ``game.second``) at its finished ``state``, sum to 0 (floats within a
    relative 1e-9; ``math.inf`` and ``-math.inf`` do): zerosum reads the first player's alone, so one that
    does not speak for the second too misleads every reader.  ``one`` was checked already
    (:func:`utility_sign`); ``two`` is checked here the same way.  Before the line, ``game.player(state)`` may
    raise its own: a third player to move is the bug to name first (a ``to_move`` that fails there is not)."""
    name = game.name_
    utility_sign(name, two, getattr(state, "value", state))
    try:
        if one == -two or math.isclose(one, -two, rel_tol=1e-9, abs_tol=1e-12):
            return
        same = bool(one == two)
    except (ArithmeticError, TypeError, ValueError):  # a number that cannot be negated or compared: said
        same = False
    first, second = (f"utility(state, {safe_repr(p, 20)})" for p in (game.first, game.second))
    said = (f"{first} and {second} both returned {safe_repr(one, 24)}" if same else
            f"{first} returned {safe_repr(one, 24)} and {second} returned {safe_repr(two, 24)}")
    hint = ("utility may ignore its player argument (a draw is 0 for both)" if same else
            "a loss must score the opposite of a win, a draw 0 for both")
    with contextlib.suppress(MethodFailed):
        game.player(state)
    raise GameBug(one_line(f"{name}: utility is not zero-sum at state {safe_repr(state.value, 80)}: {said} (they "
                           f"must sum to 0): {hint}"))


def first_repeat(moves: list[Any]) -> int:
    """Where the first move equal to an earlier one stands in ``moves``, -1 when none does: by a set when the
    moves hash, else by ``==`` (every pair: moves that do not hash, compared as ``list.index`` compares them).
    The adapter counts a set of the moves at each ``actions`` call, and asks this only of a list found wanting
    or of moves that had to be made hashable."""
    try:
        if len(set(moves)) == len(moves):
            return -1
        seen: set[Any] = set()
        for i, move in enumerate(moves):
            if move in seen:
                return i
            seen.add(move)
        return -1
    except TypeError:
        for i in range(1, len(moves)):
            for earlier in moves[:i]:
                try:
                    if bool(earlier == moves[i]):
                        return i
                except Exception:  # noqa: BLE001 - an == that answers no truth value (a numpy array) differs
                    continue
        return -1


def repeated(name: str, action: Any, state: Any) -> GameBug:
    """The GameBug line for ``actions`` that listed ``action`` more than once at ``state``."""
    return GameBug(one_line(f"{name}: actions returned {safe_repr(action, 60)} twice at state {safe_repr(state, 80)}: "
                            "each legal move must be listed once (a move listed twice is shown and searched twice)"))


def copy_hint(value: Any) -> str:
    """How to copy a state like ``value`` before changing it, for the GameBug line of a result that changed it."""
    if hasattr(value, "shape") and callable(getattr(value, "copy", None)):
        return "copy it first: board = state.copy()"
    if isinstance(getattr(value, "board", None), dict):  # AIMA's GameState: a namedtuple with a dict board
        return "copy the board first, e.g. board = dict(state.board)"
    if isinstance(value, list):
        return "copy it first, e.g. board = copy.deepcopy(state)"
    return "copy what you change first, e.g. copy.deepcopy(state)"


def handed(game: Any, state: Any) -> tuple[Any, Callable[[], bool]]:
    """What a player is handed for ``state``, and a test, for after it answered, of whether it changed it.  A
    course game's states (:class:`~.course.CourseGame`) are your own, lists and dicts that can be changed: the
    player gets a copy (``copy.deepcopy``), so that a change cannot reach the game's own state (the start, which
    every game of a run shares), and the test takes the copy's key again, as ``result``'s own check does.  A
    change is the player's fault, which forfeits its game, not the game's, which would stop every game of a run.
    Elsewhere (zerosum's own games, whose states never change; a state that is its own key) ``state`` itself
    and a test that is always False."""
    if not getattr(game, "COURSE", False) or not getattr(game, "watch", False):
        return state, lambda: False
    held = game.check_state(state)
    before = held.key
    if before is held.value:
        return state, lambda: False
    try:
        given = game.wrap(copy.deepcopy(held.value), held._ply)
    except Exception:  # noqa: BLE001 - a state deepcopy cannot copy: the player reads the game's own
        given = held
    return given, lambda: bool(game.key_changed(given.value, before))


def changed_words(label: str | None, state: Any) -> str:
    """Why a player (``label``: its name, when it has one) that changed the course game's ``state`` it was given
    (:func:`handed`) forfeits, or its move is refused."""
    who = f": {label} left it changed" if label else ""
    return (f"changed the state it was given{who} (a trial move not taken back?); a player must leave it as it is "
            f"({copy_hint(getattr(state, 'value', state))})")
