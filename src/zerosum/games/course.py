"""Your own game: any object that speaks the course's protocol, as a zerosum :class:`~zerosum.game.Game`.

``zerosum.get_game(obj)`` adapts an object written the way the courses write games -- AIMA's and the
game-API course's names, or easyAI's ``TwoPlayerGame`` (:mod:`.course_rules` lists both) -- or a file of one
(``"path/to/file.py:ClassName"``, optionally with constructor arguments as Python literals:
``"nim.py:Nim(piles=(1, 2, 3))"``).  Every agent, ``zerosum.trace``, ``play_game``, ``match``, ``zerosum play``
and the arena then play it; agents also take the object and its own states directly
(``make_agent("alphabeta:plain=1").search(game, game.initial)``).

What the adapter adds, and how:

* **Players** are 1 (whoever is to move at the start) and 2 (the other value ``to_move`` returns); where
  your labels are ints that zerosum could read as its numbers, its numbering wins (:mod:`.course_players`).
* **Checks**: a ``result`` that changes the state it was given is one :class:`GameBug` line at any call
  (the state's key, taken again after it, must be the same), never a wrong search.
* **The end**: ``utility(state, first player)`` read by its sign: > 0 player 1 won, < 0 player 2, 0 a draw;
  the second player's must be its opposite (a GameBug line else: :func:`~.course_bugs.zero_sum`).
* **States** are :class:`CourseState` values: ``state.value`` is your own state, and they are hashable for
  tables: two are equal when their keys are, the key being ``state_key(state)`` when the game has one
  (easyAI's ``ttentry()``), else the state itself when it hashes and compares by value, else a key
  derived from its contents (:func:`~.course_rules.freeze`: lists as tuples, dicts and sets by content,
  objects by their fields).
* **Moves** are your own actions (a list among them becomes a tuple, a dict a dict that hashes), each equal
  to itself (NaN is one :class:`GameBug` line) and listed once (a repeat is another).  A person types a move
  as ``str(action)`` with the spaces left out (``(1,1)``, ``2,3``) or, when no action reads like that, as its
  number in ``actions(state)`` (1 for the first).
* **Pictures**: the text ``display``/``print_state``/``render`` prints or returns (``repr`` without one),
  drawn as SVG in notebooks; evaluations: ``evaluate(state, player)`` or easyAI's ``scoring()`` when the game
  has one, else zerosum's ``mobility``.

A game that lacks a method is refused in one line naming every method to add and what it must return; one
whose methods fail on the start position is refused naming the call (each is tried once, on the start).
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Callable

from ..errors import AgentError, GameError, IllegalMoveError, InvalidPositionError, InvalidSpecError
from ..game import BoardView, Game, Outcome, safe_repr
from .course_players import fixed_side, label_name, marked, player_number
from .course_bugs import (ZERO_SUM_CHECKS, GameBug, MethodFailed, copy_hint, describe_call_error, first_repeat,
                          not_itself, over_answer, repeated, utility_sign, zero_sum)
from .course_rules import NEEDS, CourseRules, EasyRules, rules_for
from .course_state import CourseState, first_unequal, hashable_action, plain_action

__all__ = ["CourseGame", "CourseState", "plain_action", "MAX_PLIES", "GameBug"]

#: the most plies a game from a file or a class may last, counted from its start (in play and in a search):
#: past it, the game never ends (its terminal test never holds), one :class:`GameBug` line.  zerosum's own
#: games end by their rules (Connect-X within its cells, Othello within its squares and two passes).
MAX_PLIES = 10_000


class CourseGame(Game[CourseState, Any]):
    """A course game object as a zerosum Game (see the module doc); ``obj`` is the object itself."""

    COURSE = True
    MOVES_HELP = ("the move as printed (str(action)), without spaces, or its number among the legal moves, 1 for "
                  "the first")

    def __init__(self, obj: Any, spec: str) -> None:
        self.obj = obj
        self.rules: CourseRules | EasyRules = rules_for(obj)
        self.name_ = type(obj).__name__
        missing = self.rules.missing
        if missing:
            adds = "; ".join(NEEDS[m] for m in missing)
            raise InvalidSpecError(f"{self.name_} cannot be played yet ({self.rules.style} style): add {adds}")
        self.spec = spec
        self.watch = self.rules.style != "easyAI"  # easyAI's make_move plays on a copy: nothing to watch
        self.view_checked = False  # whether your evaluate was checked for reading player (evaluations())
        # finished states still to have both utilities compared in outcome() (easyAI's score is opposite by its rule)
        self.zero_sum_left = ZERO_SUM_CHECKS if self.watch else 0
        self.first, self.second = self._probe()
        named = (self.player_label(1), self.player_label(2))
        if all(isinstance(v, str) for v in (self.first, self.second)) and named[0] != named[1]:
            self.MARKS = named  # type: ignore[misc]  # the game's own names (MAX, MIN): "MAX (random) plays two"

    # ---- the probe: each method once, on the start position ---------------------------------------

    def _probe(self) -> tuple[Any, Any]:
        def tried(what: str, call: Callable[[], Any]) -> Any:
            try:
                return call()
            except MethodFailed as exc:  # named for the start position, as the probe's own lines are
                raise InvalidSpecError(describe_call_error(self.name_, what, exc.original or exc)) from None
            except (GameError, KeyboardInterrupt):
                raise
            except BaseException as exc:  # noqa: BLE001 - a student's method that fails (or calls sys.exit)
                raise InvalidSpecError(describe_call_error(self.name_, what, exc)) from None

        value = tried("initial_state", self.rules.initial)
        if value is None:
            raise InvalidSpecError(f"{self.name_}'s initial state is None: {self.rules.needs('initial_state')}")
        self._start = CourseState(self, value)
        on_start = self.rules.on_start  # each method as the probe names it: is_terminal(initial state)
        tried(on_start("key"), lambda: self._start.key)
        first = tried(on_start("to_move"), lambda: self.rules.mover(value))
        if tried(on_start("is_terminal"), lambda: self._over(value)):
            return first, None
        acts = tried("actions(initial state)", lambda: self._own_actions(self._start))
        if not acts:
            raise InvalidSpecError(f"{self.name_}: the initial state has no actions but is not over: "
                                   f"{self.rules.needs('is_terminal')}")
        after = tried("result(initial state, first action)", lambda: self.result(self._start, acts[0]))
        mover = tried("to_move(state after the first action)", lambda: self.rules.mover(after.value))
        tried(on_start("display"), lambda: self.rules.show(value))
        return first, (mover if mover != first else None)

    # ---- the rules ----------------------------------------------------------------------------------

    @property
    def initial_state(self) -> CourseState:
        return self._start

    def wrap(self, value: Any, ply: int = 0) -> CourseState:
        """Your state ``value`` as a position of this game, ``ply`` plies from the start."""
        return CourseState(self, value, ply)

    def check_state(self, state: Any) -> CourseState:
        """``state`` as a :class:`CourseState`: one of this game's, or your own state of the start's type."""
        if type(state) is CourseState:
            if state._game is not self and state._game != self:
                raise self.state_error(state)
            return state
        if type(state) is not type(self._start.value):
            raise self.state_error(state)
        return self.wrap(state)

    def position(self, state: Any) -> CourseState:
        """A position as a person has it: a state (yours or this game's), a move string, a list of your
        actions from the start, or None (the start)."""
        if state is None:
            return self._start
        kind = type(self._start.value)
        if type(state) is CourseState or type(state) is kind:
            return self.check_state(state)
        if isinstance(state, str):
            return self.parse_position(state)[1]
        if isinstance(state, (list, tuple)):
            return self.states_of(list(state))[-1]
        return self.check_state(state)

    def state_error(self, state: Any) -> Exception:
        kind = type(self._start.value).__name__
        return InvalidPositionError(f"{safe_repr(state)} is not a position of {self.name_}: expected a {kind} "
                                    f"(game.initial_state, game.result(...)) or a zerosum state of this game")

    def player(self, state: CourseState) -> int:
        mover = self.rules.mover(self.check_state(state).value)
        if mover == self.first:
            return 1
        if self.second is None:
            self.second = mover
        if mover != self.second:
            raise GameBug(f"{self.name_}: the player to move is {safe_repr(mover)}, a third player after "
                            f"{safe_repr(self.first)} and {safe_repr(self.second)}: a zerosum game has two")
        return 2

    def _own_actions(self, state: CourseState) -> list[Any]:
        found = self.rules.moves(state.value)
        if found is None or isinstance(found, (str, bytes)):
            raise GameBug(f"{self.name_}: actions returned {safe_repr(found)}: it must return the legal moves, "
                            "a list")
        return list(found)

    def actions(self, state: CourseState) -> list[Any]:
        return list(self._legal(self.check_state(state)))

    def _legal(self, state: CourseState) -> list[Any]:
        """The legal actions of ``state`` (one of this game's), kept on it: the list itself, not a copy."""
        if state._moves is None:
            if self.outcome(state) is not None:
                state._moves = []
            else:
                raw = self._own_actions(state)
                if not raw:
                    terminal = getattr(self.rules, "found", {}).get("is_terminal") or "is_over"
                    said = self.rules.over(state.value)  # what it answered, said as it is (None is no False)
                    raise GameBug(f"{self.name_}: actions returned no moves at state {safe_repr(state.value, 80)}, "
                                  f"but {terminal}(state) returned {safe_repr(said, 40)}: a position without moves "
                                  "must be over")
                odd = first_unequal(raw)  # NaN: never found, not even its own copy
                if odd >= 0:
                    raise not_itself(self.name_, raw[odd], state.value)
                try:  # each move listed once: one set per call where the moves hash, as most games' do
                    moves, once = raw, len(set(raw)) == len(raw)
                except TypeError:  # a list of yours becomes a tuple: equal lists, equal keys (course_state.py)
                    moves = [hashable_action(a) for a in raw]
                    once = first_repeat(moves) < 0
                if not once:
                    raise repeated(self.name_, raw[first_repeat(moves)], state.value)
                state._moves, state._raw = moves, (None if moves is raw else raw)
        return state._moves

    def result(self, state: CourseState, action: Any) -> CourseState:
        state = self.check_state(state)
        legal = self._legal(state)
        try:
            index = state.index_of(action)  # a scan at the first look-up, a dict's after (course_state.py)
        except Exception:  # noqa: BLE001 - no legal action, or one whose __eq__ / __hash__ fails
            raise self._illegal(state, action, legal) from None
        raw = (state._raw or legal)[index]
        if state._ply >= MAX_PLIES:
            raise GameBug(f"{self.name_}: the game did not end after {MAX_PLIES:,} plies: its terminal test never "
                          f"holds (a game from a file or a class may last at most {MAX_PLIES:,} plies)")
        value = state.value
        # a result that changes the state it was given breaks every search: its key, taken before, must hold
        # after (a key that is the state itself is of an immutable state, or one whose change cannot be seen)
        before = state.key if self.watch else value
        after = self.rules.play(value, raw)
        if after is None:
            raise GameBug(f"{self.name_}: result(state, {safe_repr(raw)}) returned None: it must return the "
                            "next state")
        if after is value:
            raise GameBug(f"{self.name_}: result(state, {safe_repr(raw)}) changed the state it was given: "
                            f"it must return a new state ({copy_hint(value)})")
        if before is not value and self.key_changed(value, before):  # result, or a call before it (evaluate)
            raise GameBug(f"{self.name_}: result(state, {safe_repr(raw)}) changed the state it was given, or a "
                          "call before it did (your evaluate or evaluation): it must return a new state, and no "
                          f"method may change a state it is given ({copy_hint(value)})")
        return self.wrap(after, state._ply + 1)

    def key_changed(self, value: Any, before: Any) -> bool:
        """Whether your state ``value`` no longer has the key ``before`` taken of it (``result``'s check, and the
        referee's of a player: :func:`.course_bugs.handed`)."""
        try:
            return bool(self.rules.key(value) != before)
        except Exception:  # noqa: BLE001 - a key that could be taken before and not after: changed
            return True

    def _illegal(self, state: CourseState, action: Any, legal: list[Any]) -> IllegalMoveError:
        if not legal:
            return IllegalMoveError(f"the game is over: {self.describe_win(state)}")
        names = " ".join(self.format_action(a) for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
        return IllegalMoveError(f"{safe_repr(action)} is not a legal move here: the legal moves are {names}")

    def outcome(self, state: CourseState) -> Outcome | None:
        state = self.check_state(state)
        if state._end is not state:
            return state._end  # type: ignore[no-any-return]
        end = None
        if self._over(state.value):
            one = self.rules.score(state.value, self.first)
            winner = utility_sign(self.name_, one, state.value) or None
            if self.zero_sum_left and self.second is not None:  # the second player's utility: the opposite?
                self.zero_sum_left -= 1
                two = self.rules.score(state.value, self.second)
                if type(two) not in (int, float) or one != -two:  # opposite ints and floats pass at once
                    zero_sum(self, state, one, two)
            end = Outcome(winner, "a draw" if winner is None else f"{self.player_label(winner)} wins")
        state._end = end
        return end

    def _over(self, value: Any) -> bool:
        """Whether your state ``value`` is over, by your terminal test: True or False, else one GameBug line."""
        terminal = getattr(self.rules, "found", {}).get("is_terminal") or "is_over"
        return over_answer(self.name_, f"{terminal}(state)", self.rules.over(value), value)

    def render(self, state: CourseState) -> str:
        return self.rules.show(self.check_state(state).value)

    def utility(self, state: CourseState, player: Any) -> int:
        """+1 / 0 / -1 for ``player``: zerosum's 1 (the first player) or 2, or as your game names them ('X',
        'O', 0, what ``game.to_move(state)`` returns): a Python int 1 or 2 is zerosum's number
        (:mod:`.course_players`)."""
        return super().utility(state, player_number(player, self.first, self.second))

    def payoff(self, state: CourseState, player: int) -> Any:
        """Your ``utility`` as it is, for player 1 or 2 at a finished state: the textbook agents
        (``minimax:discount=0``, ``alphabeta:plain=1``) score a finished game with it, so AIMA's Figure 5.2
        is worth 3, not a win.  The other agents read its sign only (:meth:`outcome`)."""
        state = self.check_state(state)
        self.outcome(state)  # a utility that is no number is one line
        player = player_number(player, self.first, self.second)
        u = self.rules.score(state.value, self.first if player == 1 else self.second)
        utility_sign(self.name_, u, state.value)  # the other player's utility too: a number
        if isinstance(u, float) and math.isinf(u):  # a sign is enough for a winner, not for a textbook score
            raise GameBug(f"{self.name_}: utility returned {u} at the end, and the textbook agents (minimax:discount=0, "
                          "alphabeta:plain=1) score a finished game with it: return a finite number (1 or -1)")
        if isinstance(u, numbers.Integral):
            return int(u)
        return float(u) if not isinstance(u, numbers.Rational) else u

    def __getattr__(self, name: str) -> Any:
        """Your game's other methods (``to_move``, ``terminal_test``, ``display``...), taking this game's
        states, so a player function written for your game runs on it."""
        found = None if name.startswith("_") or "obj" not in self.__dict__ else getattr(self.obj, name, None)
        if not callable(found):  # only methods: zerosum asks games for optional data (cells), never yours
            raise AttributeError(name)

        def forwarded(*args: Any, **kwargs: Any) -> Any:
            args = tuple(a.value if type(a) is CourseState else a for a in args)
            return found(*args, **kwargs)

        if name == getattr(self.rules, "found", {}).get("to_move"):  # your label, marked where it is an int
            def to_move(*args: Any, **kwargs: Any) -> Any:  # that zerosum would read as the other player
                return marked(forwarded(*args, **kwargs), self.first, self.second)

            return to_move

        return forwarded

    # ---- names, notation, picture, evaluation -------------------------------------------------------

    @property
    def title(self) -> str:
        return self.name_

    def player_label(self, player: int) -> str:
        return label_name(player, self.first if player == 1 else self.second)

    def format_action(self, action: Any) -> str:
        return "".join(str(action).split())

    def parse_action(self, text: str, state: CourseState | None = None) -> Any:
        """A move as a person types it: ``str(action)`` without spaces, or its number among the legal moves."""
        return super().parse_action(text, self.initial_state if state is None else state)

    def svg(self, state: CourseState, last: Any = None, *, cell: int = 40) -> str:
        """The text picture (:meth:`render`) as SVG, for notebooks (a course game has no board description)."""
        from html import escape

        lines = self.render(state).splitlines() or [""]
        size = max(8, min(int(cell) if isinstance(cell, int) else 40, 200)) * 0.45
        width = max(len(line) for line in lines) * size * 0.62 + 2 * size
        height = len(lines) * size * 1.25 + 1.5 * size
        rows = "".join(f'<tspan x="{size:g}" dy="{size * 1.25:g}">{escape(line) or " "}</tspan>' for line in lines)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
                f'role="img" aria-label="{escape(self.title)}"><rect width="100%" height="100%" fill="#f8fafc"/>'
                f'<text font-family="monospace" font-size="{size:g}" xml:space="preserve" fill="#111827">'
                f"{rows}</text></svg>")

    def board_view(self, state: CourseState, last: Any = None) -> BoardView:
        """No board: a course game describes none (0 rows), so the faces draw its text (:meth:`render`)."""
        self.check_state(state)
        return BoardView(0, 0, ())

    def evaluations(self) -> dict[str, Callable[..., float]]:
        """Your ``evaluate(state, player)`` (easyAI's ``scoring()``), marked ``student``: the agents that use
        it check every answer as an ``eval=file.py:fn`` evaluation's (:func:`zerosum.agents.heuristics.own`,
        :func:`zerosum.agents.student.checked`): None, NaN, an infinity, a bool or no number is one AgentError
        line naming ``Class.evaluate``, the position and the player.  zerosum's own games' evaluations are
        not marked: they pay nothing."""
        if self.rules.evaluation is None:
            return {}
        name = "scoring" if self.rules.style == "easyAI" else "evaluate"

        def named(player: Any) -> str:
            who = self.first if player == 1 else self.second
            return f"player {player}" if who is None else f"player {player} ({safe_repr(who, 20)})"

        side = {"first": 1, "second": 2}.get(getattr(self.rules.evaluation, "view", None))  # type: ignore[arg-type]
        # scoring() is the mover's by its rule, and a declared side is read from that side: nothing to check
        skip = self.rules.style == "easyAI" or hasattr(self.rules.evaluation, "view")

        def own_evaluation(game: Any, state: Any, player: int) -> float:
            if not self.view_checked:  # once per game: one that ignores player is refused (course_players.py)
                refused = None if skip else fixed_side(self, self.rules.evaluate, f"{self.name_}.{name}",
                                                       self.player_label)
                if refused is not None:
                    raise AgentError(refused)
                self.view_checked = True
            value = self.check_state(state).value
            if side is not None:  # declared @evaluation(view="first"/"second"): read from that side
                own = self.rules.evaluate(value, self.first if side == 1 else self.second)
                plain = isinstance(own, numbers.Real) and not isinstance(own, bool)  # else named as it is
                return -own if plain and player != side else own  # type: ignore[no-any-return]
            return self.rules.evaluate(value, self.first if player == 1 else self.second)  # type: ignore[no-any-return]

        own_evaluation.__name__ = name
        # (its name in messages, how they name the players, its call, the errors that are the game's own)
        own_evaluation.student = (f"{self.name_}.{name}", named,  # type: ignore[attr-defined]
                                  "scoring()" if name == "scoring" else "evaluate(state, player)", (GameError,))
        return {name: own_evaluation}

    @property
    def portable(self) -> bool:
        """True when another process can build this game from its spec (a file's game, not an object)."""
        return not self.spec.startswith("<")

    def __eq__(self, other: Any) -> bool:
        return type(other) is CourseGame and (other.obj is self.obj or (self.portable and other.spec == self.spec))

    def __hash__(self) -> int:
        return hash(self.spec)

    def __repr__(self) -> str:
        return f"get_game({self.spec!r})" if self.portable else f"get_game(<{self.name_} object>)"

