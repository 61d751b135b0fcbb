"""Your own game: any object that speaks the course's protocol, as a zerosum :class:`~zerosum.game.Game`.

``zerosum.get_game(obj)`` adapts an object written the way the courses write games -- AIMA's and the
game-API course's names, or easyAI's ``TwoPlayerGame`` (:mod:`.course_rules` lists both) -- or a file of one
(``"path/to/file.py:ClassName"``, optionally with constructor arguments as Python literals:
``"nim.py:Nim(piles=(1, 2, 3))"``).  Every agent, ``zerosum.trace``, ``play_game``, ``match``, ``zerosum play``
and the arena then play it; agents also take the object and its own states directly
(``make_agent("alphabeta:plain=1").search(game, game.initial)``).

What the adapter adds, and how:

* **Players** are 1 (whoever is to move at the start) and 2 (the other value ``to_move`` returns).
* **The end**: ``utility(state, first player)`` read by its sign: > 0 player 1 won, < 0 player 2, 0 a draw.
* **States** are :class:`CourseState` values: ``state.value`` is your own state, and they are hashable for
  tables: two are equal when their keys are, the key being ``state_key(state)`` when the game has one
  (easyAI's ``ttentry()``), else the state itself when it hashes and compares by value, else a key
  derived from its contents (:func:`~.course_rules.freeze`: lists as tuples, dicts and sets by content,
  objects by their fields).
* **Moves** are your own actions (a list among them becomes a tuple).  A person types a move as
  ``str(action)`` with the spaces left out (``(1,1)``, ``2,3``) or, when no action reads like that, as its
  number in ``actions(state)`` (1 for the first).
* **Pictures**: the text ``display``/``print_state``/``render`` prints or returns (``repr`` without one),
  drawn as SVG in notebooks; evaluations: ``evaluate(state, player)`` or easyAI's ``scoring()`` when the game
  has one, else zerosum's ``mobility``.

A game that lacks a method is refused in one line naming every method to add and what it must return; one
whose methods fail on the start position is refused naming the call (each is tried once, on the start).
"""

from __future__ import annotations

import numbers
from typing import Any, Callable

from ..errors import GameError, IllegalMoveError, InvalidPositionError, InvalidSpecError
from ..game import BoardView, Game, Outcome, safe_repr
from .course_rules import (NEEDS, CourseRules, EasyRules, GameBug, MethodFailed, describe_call_error, freeze,
                           rules_for)

__all__ = ["CourseGame", "CourseState", "plain_action", "MAX_PLIES", "GameBug"]

#: how many of a new game's first results are checked for changing the state they were given
WATCHED_RESULTS = 64

#: the most plies a game from a file or a class may last, counted from its start (in play and in a search):
#: past it, the game never ends (its terminal test never holds), one :class:`GameBug` line.  zerosum's own
#: games end by their rules (Connect-X within its cells, Othello within its squares and two passes).
MAX_PLIES = 10_000


class CourseState:
    """A position of a course game: your state (``value``) with the key it is compared and hashed by."""

    __slots__ = ("value", "_key", "_game", "_moves", "_raw", "_end", "_ply")

    def __init__(self, game: "CourseGame", value: Any, ply: int = 0) -> None:
        self.value, self._game, self._key = value, game, self
        self._ply = ply  # plies played from the start (0 for a state handed in as it is)
        self._moves: list[Any] | None = None  # the legal actions, once asked (a state never changes)
        self._raw: list[Any] | None = None  # your own actions, where some had to be made hashable
        self._end: Any = self  # the outcome once asked (self: not asked yet)

    @property
    def key(self) -> Any:
        """The hashable key this state is compared by (derived when first asked: see the module doc)."""
        if self._key is self:
            self._key = self._game.rules.key(self.value)
        return self._key

    def __eq__(self, other: object) -> bool:
        return type(other) is CourseState and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        if type(self.value).__repr__ is not object.__repr__:  # type: ignore[comparison-overlap]
            return f"CourseState({safe_repr(self.value, 200)})"
        try:  # an object without a repr of its own (easyAI's game): what it shows, on one line
            shown = " / ".join(line.strip() for line in self._game.render(self).splitlines() if line.strip())
        except Exception:  # noqa: BLE001 - a show() that fails still leaves a repr
            shown = object.__repr__(self.value)
        return f"CourseState({type(self.value).__name__}: {shown[:200]})"

    def __getattr__(self, name: str) -> Any:
        """Your state's own fields (``state.board``), so a player function written for your game reads them."""
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(object.__getattribute__(self, "value"), name)

    def _repr_svg_(self) -> str:
        return self._game.svg(self)


def plain_action(action: Any) -> bool:
    """True for an action the arena passes as it is: a whole number, or a tuple of whole numbers."""
    return type(action) is int or (type(action) is tuple and all(type(v) is int for v in action))


def _hashable(action: Any) -> Any:
    try:
        hash(action)
        return action
    except TypeError:
        return freeze(action)


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
        self.watched = WATCHED_RESULTS
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
            except GameError:
                raise
            except Exception as exc:  # noqa: BLE001 - a student's method that fails, named in one line
                raise InvalidSpecError(describe_call_error(self.name_, what, exc)) from None

        value = tried("initial_state", self.rules.initial)
        if value is None:
            raise InvalidSpecError(f"{self.name_}'s initial state is None: {self.rules.needs('initial_state')}")
        self._start = CourseState(self, value)
        tried("state key of the initial state", lambda: self._start.key)
        first = tried(f"{getattr(self.rules, 'found', {}).get('to_move', 'to_move')}(initial state)",
                      lambda: self.rules.mover(value))
        if tried("the terminal test of the initial state", lambda: self.rules.over(value)):
            return first, None
        acts = tried("actions(initial state)", lambda: self._own_actions(self._start))
        if not acts:
            raise InvalidSpecError(f"{self.name_}: the initial state has no actions but is not over: "
                                   f"{self.rules.needs('is_terminal')}")
        after = tried("result(initial state, first action)", lambda: self.result(self._start, acts[0]))
        mover = tried("to_move(state after the first action)", lambda: self.rules.mover(after.value))
        tried("display(initial state)", lambda: self.rules.show(value))
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
        state = self.check_state(state)
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
                try:
                    hash(tuple(raw))
                    state._moves = raw
                except TypeError:
                    state._moves, state._raw = [_hashable(a) for a in raw], raw
        return list(state._moves)

    def result(self, state: CourseState, action: Any) -> CourseState:
        state = self.check_state(state)
        legal = self.actions(state)
        try:
            index = legal.index(action)
        except ValueError:
            raise self._illegal(state, action, legal) from None
        except Exception:  # noqa: BLE001 - an action whose __eq__ fails is no action of this game
            raise self._illegal(state, action, legal) from None
        raw = (state._raw or legal)[index]
        watched = self.watched > 0  # a result that changes the state it was given breaks every search
        if watched:
            self.watched -= 1
            before = state.key
        if state._ply >= MAX_PLIES:
            raise GameBug(f"{self.name_}: the game did not end after {MAX_PLIES:,} plies: its terminal test never "
                          f"holds (a game from a file or a class may last at most {MAX_PLIES:,} plies)")
        after = self.rules.play(state.value, raw)
        if after is None:
            raise GameBug(f"{self.name_}: result(state, {safe_repr(raw)}) returned None: it must return the "
                            "next state")
        if watched and (after is state.value or self.rules.key(state.value) != before):
            raise GameBug(f"{self.name_}: result(state, {safe_repr(raw)}) changed the state it was given: "
                            "it must return a new state (copy the board first, e.g. dict(state.board))")
        return self.wrap(after, state._ply + 1)

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
        if self.rules.over(state.value):
            u = self.rules.score(state.value, self.first)
            if isinstance(u, bool) or not isinstance(u, numbers.Real) or u != u:
                raise GameBug(f"{self.name_}: utility returned {safe_repr(u)} at the end: it must return a "
                                "number (> 0 the player won, < 0 lost, 0 a draw)")
            u = float(u)
            winner = 1 if u > 0 else 2 if u < 0 else None
            end = Outcome(winner, "a draw" if winner is None else f"{self.player_label(winner)} wins")
        state._end = end
        return end

    def render(self, state: CourseState) -> str:
        return self.rules.show(self.check_state(state).value)

    def utility(self, state: CourseState, player: Any) -> int:
        """+1 / 0 / -1 for ``player``: 1 or 2, or as your game names them ('X', 'O')."""
        if player is not self.first and player is not self.second and type(player) is int:
            return super().utility(state, player)
        return super().utility(state, 1 if player == self.first else 2 if player == self.second else player)

    def payoff(self, state: CourseState, player: int) -> Any:
        """Your ``utility`` as it is, for player 1 or 2 at a finished state: the textbook agents
        (``minimax:discount=0``, ``alphabeta:plain=1``) score a finished game with it, so AIMA's Figure 5.2
        is worth 3, not a win.  The other agents read its sign only (:meth:`outcome`)."""
        state = self.check_state(state)
        self.outcome(state)  # a utility that is no number is one line
        u = self.rules.score(state.value, self.first if player == 1 else self.second)
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

        return forwarded

    # ---- names, notation, picture, evaluation -------------------------------------------------------

    @property
    def title(self) -> str:
        return self.name_

    def player_label(self, player: int) -> str:
        value = self.first if player == 1 else self.second
        if isinstance(value, str) and 0 < len(value) <= 12:
            return value
        return f"player {player}" if value is None else f"player {safe_repr(value, 12)}"

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

        def own_evaluation(game: Any, state: Any, player: int) -> float:
            who = self.first if player == 1 else self.second
            return self.rules.evaluate(self.check_state(state).value, who)  # type: ignore[no-any-return]

        def named(player: Any) -> str:
            who = self.first if player == 1 else self.second
            return f"player {player}" if who is None else f"player {player} ({safe_repr(who, 20)})"

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
