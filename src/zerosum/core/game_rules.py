"""What every game is before it is shown: :class:`GameRules`, the base of :class:`zerosum.game.Game`, holds
the game's spec and traits, its registration (spec name, presets, options and their ranges, the board's
sides), the rules each game implements (``initial_state``, ``player``, ``actions``, ``result``, ``outcome``,
``render``), the check of a state handed in, and what follows from ``outcome()``: ``is_terminal``,
``winner`` and ``utility``.  :class:`~zerosum.game.Game` adds the names, the notation, the picture and
numbered actions on top; every game subclasses it, never this class.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar, Generic, Hashable, TypeVar

from ..spec import quoted
from .checks import check_flag, check_player, safe_repr
from .game_types import GameOption, GameTraits, Outcome

__all__ = ["GameRules", "S", "A"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A")


class GameRules(ABC, Generic[S, A]):
    """A game's spec, options and rules (see :class:`zerosum.game.Game`, its one subclass here)."""

    #: the spec string that :func:`zerosum.get_game` turns back into an equal game
    spec: str = ""
    #: what the game declares about itself for the engines and the faces (whether the exact solver takes
    #: it, how its states are laid out for compiled code); a game whose traits depend on its size sets its own
    traits: GameTraits = GameTraits()

    # ---- registration (see :mod:`zerosum.games.registry`) ----------------------------------------
    #: the spec name (``connectx``); extra spec names with their options; the spec's options
    name: ClassVar[str] = ""
    presets: ClassVar[dict[str, dict[str, int]]] = {}
    OPTIONS: ClassVar[dict[str, GameOption]] = {}
    #: the sides of the board: option names (or fixed numbers) whose product is the number of cells
    SIDES: ClassVar[tuple[str | int, ...]] = ()

    @classmethod
    def cells_for(cls, options: dict[str, int]) -> int:
        """How many cells the game of ``options`` has (checked before anything is built): the product of
        :attr:`SIDES` (an option left out counts at its default)."""
        if not cls.SIDES:
            raise NotImplementedError(f"{cls.__name__} does not say how many cells its boards have")
        options = cls.option_values("", options, partial=True)
        cells = 1
        for side in cls.SIDES:
            cells *= side if isinstance(side, int) else options.get(side, cls.OPTIONS[side].default)
        return cells

    @classmethod
    def check_options(cls, spec: str, options: dict[str, int]) -> None:
        """Raise :class:`~zerosum.errors.InvalidSpecError` unless every option is within its range."""
        from ..errors import InvalidSpecError

        options = cls.option_values(spec, options)
        for key, opt in cls.OPTIONS.items():
            if not opt.lo <= options[key] <= opt.hi:
                raise InvalidSpecError(
                    f"{key}={options[key]} in {quoted(spec)} is out of range: expected {opt.lo}..{opt.hi}"
                )

    @classmethod
    def option_values(cls, spec: str, options: Any, partial: bool = False) -> dict[str, int]:
        """``options`` checked to be a dict of whole numbers by option name (every option, unless ``partial``):
        :class:`~zerosum.errors.InvalidSpecError` naming what is wrong (for :meth:`check_options` and
        :meth:`cells_for`, which check the ranges after)."""
        from ..errors import InvalidSpecError

        where = f" in {quoted(spec)}" if isinstance(spec, str) and spec else ""
        partial = check_flag(partial, "partial", InvalidSpecError)
        if not isinstance(options, dict):
            raise InvalidSpecError(f"options{where} are a dict such as {{'n': 8}}, not {safe_repr(options)}")
        for key in cls.OPTIONS if not partial else options:
            value = options.get(key) if isinstance(key, str) else None
            if key not in cls.OPTIONS or type(value) is not int:
                raise InvalidSpecError(f"{safe_repr(key)}={safe_repr(value)}{where}: {cls.__name__}'s options "
                                       f"are whole numbers named {', '.join(cls.OPTIONS) or '(none)'}")
        return options

    @property
    @abstractmethod
    def initial_state(self) -> S:
        """The start state."""

    @abstractmethod
    def player(self, state: S) -> int:
        """Whose turn it is: 1 or 2."""

    @abstractmethod
    def actions(self, state: S) -> list[A]:
        """The legal actions, in a fixed documented order; empty exactly when the game is over."""

    @abstractmethod
    def result(self, state: S, action: A) -> S:
        """The state after ``action``; raises :class:`~zerosum.errors.IllegalMoveError` if not legal."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """None while the game goes on, else how it ended."""

    @abstractmethod
    def render(self, state: S) -> str:
        """A human-readable board."""

    def check_state(self, state: Any) -> S:
        """``state`` when it is a position of this game (its class, holding what fits the board); else
        :class:`~zerosum.errors.InvalidPositionError` (:meth:`state_error`).  Every method that takes a state
        checks it, once, except the rules (``player``, ``actions``, ``result``, ``outcome`` and what follows
        from it), which searches call at every node: they check only when what they were given fails them,
        so a state costs them nothing until it breaks.  Games override it to check what a state holds."""
        if not isinstance(state, type(self.initial_state)):
            raise self.state_error(state)
        return state

    def state_error(self, state: Any) -> Exception:
        """The :class:`~zerosum.errors.InvalidPositionError` for what is not a position of this game."""
        from ..errors import InvalidPositionError

        kind = type(self.initial_state).__name__
        return InvalidPositionError(f"{safe_repr(state)} is not a position of {self.spec}: expected a {kind} "
                                    f"of this game (game.initial_state, game.from_moves(...), game.result(...))")

    # ---- derived from outcome(): one answer for the end of a game -------------------------------

    def is_terminal(self, state: S) -> bool:
        return self.outcome(state) is not None

    def winner(self, state: S) -> int | None:
        out = self.outcome(state)
        return None if out is None else out.winner

    def utility(self, state: S, player: int) -> int:
        """+1 / 0 / -1 for ``player`` (1 or 2) at a terminal state (0 while the game goes on)."""
        out = self.outcome(state)
        if out is None:
            check_player(player)  # a bad player is refused whether or not the game is over
            return 0
        return out.utility(player)
