"""OpenSpiel: states both ways, zerosum agents as OpenSpiel bots, OpenSpiel bots as zerosum agents.

Games.  :data:`GAMES` is the one table of counterparts: a zerosum game name, OpenSpiel's short name, and
how the options translate (Connect-X's ``rows``/``cols``/``k`` are ``connect_four``'s ``rows``/``columns``/
``x_in_row``).  For every game in it, the game's action numbers (:meth:`~zerosum.game.Game.action_index`)
are OpenSpiel's, and OpenSpiel's player 0 is zerosum's player 1; no other code here knows a game.

A zerosum game is a :class:`~zerosum.game.Game` or its spec (``"connect4"``); an OpenSpiel game a
``pyspiel.Game`` or, for :func:`from_pyspiel_game`, OpenSpiel's game string (``"connect_four(rows=5)"``).

States.  An OpenSpiel state is made by playing moves, so :func:`to_pyspiel_state` replays the zerosum
state's move history (:meth:`~zerosum.game.Game.moves_played`).  A position without one (built from a grid
or from cells) of a game where every move adds one piece (``TURN_FROM_PIECES``) gets a move order that
reaches it, found by taking pieces back one at a time (:mod:`.openspiel_moves`); any other position without
a history is refused in one :class:`InvalidPositionError`.  :func:`from_pyspiel_state` replays OpenSpiel's
history.  A zerosum game given with an OpenSpiel state (``from_pyspiel_state(state, game)``,
``bot(game=...)``) must be the state's counterpart: another is refused in one :class:`InvalidPositionError`.

Bots.  :func:`bot` makes a ``pyspiel.Bot`` that plays a zerosum agent spec (for ``pyspiel.evaluate_bots``
and OpenSpiel's tools); :class:`BotAgent` makes any OpenSpiel bot a zerosum agent; the agent spec
``openspiel-mcts`` is OpenSpiel's C++ ``MCTSBot`` with random rollouts (options ``sims``, ``time``,
``c`` (UCT constant, default 2, OpenSpiel's usual), ``rollouts`` (per leaf, default 1), ``solve``
(propagate proven results, default 1) and ``memory`` (MB, default 1000)), so the arena can pit zerosum's
``mcts`` against it at equal simulations or equal time.  A game without an OpenSpiel counterpart is refused
by :meth:`BotAgent.check_game`, which :meth:`BotAgent.warm_up` calls before a game starts.  A person
(``human``) cannot answer a bot's call: ``bot("human")`` is refused.

pyspiel is imported only when one of these is used: importing this module, or naming ``openspiel-mcts``
in the registry, costs nothing when OpenSpiel is not installed.
"""

from __future__ import annotations

import importlib.util
import inspect
import random
from dataclasses import dataclass
from typing import Any, Callable

from ..agents.base import Agent, Limits, Option, check_search
from ..agents.traits import AgentTraits
from ..agents.registry import make_agent
from ..agents.simple import HumanAgent
from ..errors import AgentError, InvalidPositionError, InvalidSpecError
from ..game import Game
from ..games import get_game
from ..spec import parse_spec, quoted
from .openspiel_moves import move_sequence
from .openspiel_strings import load

__all__ = [
    "GAMES",
    "pyspiel_module",
    "to_pyspiel_game",
    "from_pyspiel_game",
    "to_pyspiel_state",
    "from_pyspiel_state",
    "move_sequence",
    "bot",
    "BotAgent",
    "OpenSpielMCTSAgent",
]


def pyspiel_module() -> Any:
    """``pyspiel``, or an :class:`AgentError` saying how to install it."""
    try:
        import pyspiel  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise AgentError("OpenSpiel is not installed: pip install 'zerosum[openspiel]'") from None
    return pyspiel


# ---- games: the name mapping ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Counterpart:
    """A zerosum game name and OpenSpiel's, with their options translated both ways.

    ``params(options)``: OpenSpiel's parameters for zerosum's options (raises :class:`AgentError` for
    options OpenSpiel's game cannot take); ``options(params)``: zerosum's options for OpenSpiel's parameters.
    """

    ours: str
    theirs: str
    params: Callable[[dict[str, int]], dict[str, int]]
    options: Callable[[dict[str, Any]], dict[str, int]]


def _fixed_size(option: str, value: int) -> Callable[[dict[str, int]], dict[str, int]]:
    def params(options: dict[str, int]) -> dict[str, int]:
        if options[option] != value:
            raise AgentError(f"OpenSpiel's game has {option}={value} only, not {option}={options[option]}")
        return {}

    return params


#: zerosum name -> its OpenSpiel counterpart (action numbers coincide in every one)
GAMES: dict[str, Counterpart] = {c.ours: c for c in (
    Counterpart("connectx", "connect_four",
                lambda o: {"rows": o["rows"], "columns": o["cols"], "x_in_row": o["k"]},
                lambda p: {"rows": int(p["rows"]), "cols": int(p["columns"]), "k": int(p["x_in_row"])}),
    Counterpart("tictactoe", "tic_tac_toe", lambda o: {}, lambda p: {}),
    Counterpart("othello", "othello", _fixed_size("n", 8), lambda p: {"n": 8}),
)}


def _known() -> str:
    return ", ".join(f"{c.ours} <-> {c.theirs}" for c in GAMES.values())


def to_pyspiel_game(game: "Game[Any, Any] | str") -> Any:
    """The ``pyspiel.Game`` of a zerosum game (or spec: ``"connect4"``) that has a counterpart in :data:`GAMES`."""
    pyspiel = pyspiel_module()
    game = get_game(game)  # a Game passes; a spec is read; anything else: one InvalidSpecError
    pair = GAMES.get(game.name)
    if pair is None:
        raise AgentError(f"OpenSpiel has no counterpart of {game!r}: {_known()}")
    _, raw = parse_spec(game.spec, AgentError)
    return pyspiel.load_game(pair.theirs, pair.params({key: int(value) for key, value in raw.items()}))


def from_pyspiel_game(ps_game: Any) -> "Game[Any, Any]":
    """The zerosum game of a ``pyspiel.Game`` (or OpenSpiel's game string: ``"connect_four(rows=5)"``) that
    has a counterpart in :data:`GAMES`."""
    pyspiel = pyspiel_module()
    if isinstance(ps_game, str):
        ps_game = load(ps_game, pyspiel, {pair.theirs for pair in GAMES.values()}, _known())
    if not isinstance(ps_game, pyspiel.Game):
        raise InvalidSpecError(f"an OpenSpiel game is a pyspiel.Game such as pyspiel.load_game('connect_four') "
                               f"or its string 'connect_four', not {quoted(ps_game)}")
    name = ps_game.get_type().short_name
    for pair in GAMES.values():
        if pair.theirs == name:
            options = ",".join(f"{key}={value}" for key, value in pair.options(ps_game.get_parameters()).items())
            return get_game(f"{pair.ours}:{options}" if options else pair.ours)
    raise AgentError(f"zerosum has no counterpart of OpenSpiel's {name!r}: {_known()}")


# ---- states -----------------------------------------------------------------------------------------------


def to_pyspiel_state(game: "Game[Any, Any] | str", state: Any, ps_game: Any = None) -> Any:
    """The ``pyspiel.State`` of a zerosum state (``ps_game``, the counterpart of ``game``, defaults to
    :func:`to_pyspiel_game`; another game is one :class:`InvalidPositionError`)."""
    game = get_game(game)
    if ps_game is None:
        return _play(game, state, to_pyspiel_game(game))
    _check_counterpart(game, from_pyspiel_game(ps_game), ps_game)
    return _play(game, state, ps_game)


def _play(game: "Game[Any, Any]", state: Any, ps_game: Any) -> Any:
    ps_state = ps_game.new_initial_state()
    for number in move_sequence(game, state):
        ps_state.apply_action(number)
    return ps_state


def _state_game(ps_state: Any) -> Any:
    """The ``pyspiel.Game`` of a ``pyspiel.State``; anything else is one :class:`InvalidPositionError`."""
    if not isinstance(ps_state, pyspiel_module().State):
        raise InvalidPositionError(f"an OpenSpiel state is a pyspiel.State such as "
                                   f"pyspiel.load_game('connect_four').new_initial_state(), not {quoted(ps_state)}")
    return ps_state.get_game()


def _check_counterpart(game: "Game[Any, Any]", counterpart: "Game[Any, Any]", ps_game: Any) -> None:
    """One :class:`InvalidPositionError` unless ``game`` is ``counterpart``, the zerosum game of ``ps_game``."""
    if game.spec != counterpart.spec:
        raise InvalidPositionError(f"OpenSpiel's {ps_game} (zerosum's {counterpart.spec}) is not {game.spec}: give "
                                   "the zerosum game of this OpenSpiel game, or none")


def from_pyspiel_state(ps_state: Any, game: "Game[Any, Any] | str | None" = None) -> Any:
    """The zerosum state of a ``pyspiel.State``, replaying its history in its counterpart; ``game`` (a zerosum
    game or spec), when given, must be that counterpart (another is one :class:`InvalidPositionError`)."""
    ps_game = _state_game(ps_state)
    counterpart = from_pyspiel_game(ps_game)
    if game is not None:
        _check_counterpart(get_game(game), counterpart, ps_game)
    return _replay(counterpart if game is None else get_game(game), ps_state)


def _replay(game: "Game[Any, Any]", ps_state: Any) -> Any:
    """The zerosum state of OpenSpiel's history of ``ps_state`` played in ``game`` (its counterpart)."""
    state = game.initial_state
    for number in ps_state.history():
        state = game.result(state, game.index_action(int(number), state))
    return state


# ---- zerosum agents as OpenSpiel bots ------------------------------------------------------------------


def bot(spec: "str | Agent" = "alphabeta", game: Any = None, *, seed: int | None = None,
        limits: Limits | None = None) -> Any:
    """A ``pyspiel.Bot`` playing zerosum's ``spec``; ``game`` (a zerosum game or spec, or a ``pyspiel.Game``)
    defaults to each state's, and when given is the only game it plays (a state of another is one
    :class:`InvalidPositionError`).  A person (``human``) cannot answer a bot's call: refused.

    >>> import pyspiel  # doctest: +SKIP
    >>> pyspiel.evaluate_bots(state, [bot("alphabeta:depth=4"), bot("random")], 0)  # doctest: +SKIP
    """
    pyspiel = pyspiel_module()
    agent = make_agent(spec, seed=seed, limits=limits)
    if isinstance(agent, HumanAgent):
        raise AgentError(f"agent {agent.spec!r}: a person cannot answer an OpenSpiel bot's call: pick another agent")
    fixed = None
    if game is not None:
        fixed = get_game(game) if isinstance(game, (Game, str)) else from_pyspiel_game(game)
        to_pyspiel_game(fixed)  # a game without an OpenSpiel counterpart: one AgentError now

    class ZerosumBot(pyspiel.Bot):  # type: ignore[misc,name-defined]
        """A zerosum agent behind OpenSpiel's Bot interface (it never changes the state it is given)."""

        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)
            self.agent = agent
            self._games: dict[str, Game[Any, Any]] = {}

        def _game(self, ps_state: Any) -> "Game[Any, Any]":
            ps_game = _state_game(ps_state)
            key = str(ps_game)
            if key not in self._games:
                self._games[key] = from_pyspiel_game(ps_game)
            if fixed is not None:
                _check_counterpart(fixed, self._games[key], ps_game)
            return self._games[key]

        def step(self, ps_state: Any) -> int:
            game_ = self._game(ps_state)
            action = self.agent(game_, _replay(game_, ps_state))
            return game_.action_index(action)

        def restart_at(self, ps_state: Any) -> None:
            self.agent.reset()

        def restart(self) -> None:
            self.agent.reset()

        def inform_action(self, ps_state: Any, player_id: int, action: int) -> None:
            pass

        def provides_policy(self) -> bool:
            return False

        def __repr__(self) -> str:
            return f"bot({self.agent.spec!r})"

    return ZerosumBot()


# ---- OpenSpiel bots as zerosum agents ------------------------------------------------------------------


def _takes_seat(make_bot: Callable[..., Any]) -> bool:
    """Whether ``make_bot`` takes a second positional argument (the seat)."""
    try:
        params = inspect.signature(make_bot).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: one argument, as documented
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in params)


class BotAgent(Agent):
    """Any OpenSpiel bot as a zerosum agent.

    ``make_bot(pyspiel_game) -> pyspiel.Bot`` makes one bot a game, asked to move in either seat.  Bots that
    play one seat only (``pyspiel.make_uniform_random_bot(player_id, seed)`` crashes the interpreter when
    asked to move for the other player) are made with ``make_bot(pyspiel_game, player_id)``: a factory that
    takes two arguments is given OpenSpiel's player id (0 moves first) and makes one bot a seat.
    """

    name = "openspiel-bot"
    description = "an OpenSpiel bot"

    def __init__(self, make_bot: Callable[..., Any], *, limits: Limits | None = None,
                 seed: int | None = None, spec: str = "openspiel-bot") -> None:
        super().__init__(limits=limits, seed=seed)
        if not callable(make_bot):
            raise AgentError(f"BotAgent takes make_bot(pyspiel_game) -> pyspiel.Bot (a function or class), "
                             f"not {quoted(make_bot)}")
        self.make_bot = make_bot
        self.spec = spec
        self._per_seat = _takes_seat(make_bot)
        self._bots: dict[Any, tuple[Any, Any]] = {}
        self._checked: set[Any] = set()

    def check_game(self, game: "Game[Any, Any]") -> None:
        """One :class:`AgentError` unless ``game`` has an OpenSpiel counterpart this bot can play."""
        if game not in self._checked:
            to_pyspiel_game(game)
            self._checked.add(game)

    def warm_up(self, game: "Game[Any, Any]") -> None:
        self.check_game(game)  # before a game starts: a game OpenSpiel lacks is refused, not forfeited

    def _bot(self, game: "Game[Any, Any]", seat: int) -> tuple[Any, Any]:
        key = (game, seat if self._per_seat else None)
        if key not in self._bots:
            ps_game = to_pyspiel_game(game)
            bot = self.make_bot(ps_game, seat) if self._per_seat else self.make_bot(ps_game)
            self._bots[key] = (ps_game, bot)
        return self._bots[key]

    def __call__(self, game: "Game[Any, Any]", state: Any) -> Any:
        check_search(self.spec, game, state)
        if game.is_terminal(state):
            raise AgentError("no legal action: the game is over")
        ps_game, ps_bot = self._bot(game, game.player(state) - 1)
        ps_state = _play(game, state, ps_game)
        if ps_state.is_terminal():
            raise AgentError("no legal action: the game is over")
        number = int(ps_bot.step(ps_state))
        legal = game.actions(state)
        action = game.index_action(number, state)
        if action not in legal:
            raise AgentError(f"the OpenSpiel bot chose {number}, not a legal action of {legal}")
        return action

    def reset(self) -> None:
        for _, ps_bot in self._bots.values():
            ps_bot.restart()


class _OpenSpielMCTSAgent(BotAgent):
    """OpenSpiel's C++ ``MCTSBot`` with a random-rollout evaluator (spec ``openspiel-mcts``).

    ``sims`` caps simulations per move (default 1000 when neither ``sims`` nor ``time`` is given); ``time`` caps
    seconds per move (OpenSpiel's ``max_wall_clock_time``); ``c`` is the UCT constant (default 2, OpenSpiel's
    usual), ``rollouts`` the random playouts per leaf, ``solve`` whether proven results are propagated.
    """

    name = "openspiel-mcts"
    description = "OpenSpiel's C++ MCTS bot with random rollouts (sims=, time=, c=, rollouts=, solve=)"
    TRAITS = AgentTraits(label="OpenSpiel's MCTS", short="os-mcts")
    LIMITS = ("simulations", "time")
    OPTIONS = {
        "c": Option(float, "UCT exploration constant", lambda v: v >= 0, "a number >= 0"),
        "rollouts": Option(int, "random rollouts per leaf", lambda v: v > 0, "a whole number > 0"),
        "solve": Option(int, "propagate proven wins and losses (1) or not (0)", lambda v: v in (0, 1), "0 or 1"),
        "memory": Option(int, "tree memory cap in MB", lambda v: v > 0, "a whole number > 0"),
    }
    DEFAULT_SIMULATIONS = 1000

    def __init__(self, *, limits: Limits | None = None, seed: int | None = None, c: float = 2.0,
                 rollouts: int = 1, solve: int = 1, memory: int = 1000) -> None:
        pyspiel_module()  # fail at construction, with the install hint, when OpenSpiel is missing
        self.c, self.rollouts, self.solve, self.memory = c, rollouts, solve, memory
        super().__init__(self._make, limits=limits, seed=seed, spec=self.name)
        self._rng = random.Random(seed)

    def _make(self, ps_game: Any) -> Any:
        pyspiel = pyspiel_module()
        limits = self.limits
        sims = limits.simulations
        if sims is None:
            sims = self.DEFAULT_SIMULATIONS if limits.time is None else 10**9
        seed = self._rng.randrange(2**31)
        evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, seed)
        return pyspiel.MCTSBot(
            ps_game, evaluator, self.c, sims, self.memory, bool(self.solve), seed, False,
            pyspiel.ChildSelectionPolicy.UCT, float(limits.time) if limits.time is not None else -1.0,
        )


# Listed among the agents (``openspiel-mcts``) only where OpenSpiel is installed; finding it imports nothing.
OpenSpielMCTSAgent = _OpenSpielMCTSAgent if importlib.util.find_spec("pyspiel") is not None else None
