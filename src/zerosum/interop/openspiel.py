"""OpenSpiel: states both ways, zerosum agents as OpenSpiel bots, OpenSpiel bots as zerosum agents.

Games.  ``connect_four`` (with its ``rows``, ``columns`` and ``x_in_row`` parameters) is
``ConnectX(rows, columns, x_in_row)``; ``tic_tac_toe`` is ``TicTacToe()``.  Actions mean the same in both
(a 0-based column; a row-major cell 0..8), and OpenSpiel's player 0 is zerosum's player 1.

States.  An OpenSpiel state is made by playing moves, so :func:`to_pyspiel_state` replays the zerosum
state's move history, or, for a position built from a grid (no history), a move order that reaches it
(found by taking stones back one at a time).  :func:`from_pyspiel_state` replays OpenSpiel's history.

Bots.  :func:`bot` makes a ``pyspiel.Bot`` that plays a zerosum agent spec (for ``pyspiel.evaluate_bots``
and OpenSpiel's tools); :class:`BotAgent` makes any OpenSpiel bot a zerosum agent; the agent spec
``openspiel-mcts`` is OpenSpiel's C++ ``MCTSBot`` with random rollouts (options ``sims``, ``time``,
``c`` (UCT constant, default 2, OpenSpiel's usual), ``rollouts`` (per leaf, default 1), ``solve``
(propagate proven results, default 1) and ``memory`` (MB, default 1000)), so the arena can pit zerosum's
``mcts`` against it at equal simulations or equal time.

pyspiel is imported only when one of these is used: importing this module, or naming ``openspiel-mcts``
in the registry, costs nothing when OpenSpiel is not installed.
"""

from __future__ import annotations

import importlib.util
import random
from typing import Any, Callable

from ..agents.base import Agent, Limits, Option
from ..agents.registry import make_agent
from ..errors import AgentError, InvalidPositionError
from ..game import Game
from ..games import ConnectX, TicTacToe
from ..games.tictactoe import LINES, TicTacToeState

__all__ = [
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


# ---- games ------------------------------------------------------------------------------------------------


def to_pyspiel_game(game: "Game[Any, Any]") -> Any:
    """The ``pyspiel.Game`` of a zerosum Connect-X or Tic-Tac-Toe game."""
    pyspiel = pyspiel_module()
    if isinstance(game, ConnectX):
        return pyspiel.load_game("connect_four", {"rows": game.rows, "columns": game.cols, "x_in_row": game.k})
    if isinstance(game, TicTacToe):
        return pyspiel.load_game("tic_tac_toe")
    raise AgentError(f"OpenSpiel has no counterpart of {game!r}: Connect-X and Tic-Tac-Toe have one")


def from_pyspiel_game(ps_game: Any) -> "Game[Any, Any]":
    """The zerosum game of a ``connect_four`` or ``tic_tac_toe`` ``pyspiel.Game``."""
    name = ps_game.get_type().short_name
    if name == "connect_four":
        params = ps_game.get_parameters()
        return ConnectX(int(params["rows"]), int(params["columns"]), int(params["x_in_row"]))
    if name == "tic_tac_toe":
        return TicTacToe()
    raise AgentError(f"zerosum has no counterpart of OpenSpiel's {name!r}: connect_four and tic_tac_toe have one")


# ---- states -----------------------------------------------------------------------------------------------


def _connectx_unplay(game: ConnectX, state: Any) -> list[tuple[int, Any]]:
    """(column, previous state) for each stone the player who just moved could have played last."""
    mover = 3 - state.to_move
    out = []
    for col in range(game.cols):
        height = game.column_height(state, col)
        if not height or game.cell(state, height - 1, col) != mover:
            continue
        bit = 1 << (col * game.height + height - 1)
        mask = state.mask ^ bit
        mover_stones = state.stones(mover) ^ bit
        if game._has_line_bits(mover_stones) or game._has_line_bits(mover_stones ^ mask):
            continue  # the game would already have ended before this stone
        prev = type(state)(mover_stones, mask, mover, state.ply - 1, 0, False)
        out.append((col, prev))
    return out


def _tictactoe_unplay(state: TicTacToeState) -> list[tuple[int, TicTacToeState]]:
    cells = state.cells
    nx, no = cells.count(1), cells.count(2)
    if nx not in (no, no + 1):
        return []
    mover = 1 if nx > no else 2
    out = []
    for i, v in enumerate(cells):
        if v != mover:
            continue
        prev = cells[:i] + (0,) + cells[i + 1 :]
        if any(prev[a] and prev[a] == prev[b] == prev[c] for a, b, c in LINES):
            continue
        out.append((i, TicTacToeState(prev)))
    return out


def move_sequence(game: "Game[Any, Any]", state: Any) -> list[int]:
    """Moves from the start that reach ``state``: its history when known, else one found by taking stones back.

    Raises :class:`InvalidPositionError` when no order of play reaches the position.
    """
    if isinstance(game, ConnectX):
        if state.history is not None:
            return list(state.history)
        cx = game

        def unplay(s: Any) -> list[tuple[int, Any]]:
            return _connectx_unplay(cx, s)

        def empty(s: Any) -> bool:
            return bool(s.mask == 0 and s.to_move == 1)

    elif isinstance(game, TicTacToe):

        def unplay(s: Any) -> list[tuple[int, Any]]:
            return _tictactoe_unplay(s)

        def empty(s: Any) -> bool:
            return not any(s.cells)


    else:
        raise AgentError(f"OpenSpiel has no counterpart of {game!r}")
    dead: set[Any] = set()

    def back(s: Any) -> list[int] | None:  # depth-first, remembering positions that lead nowhere
        if empty(s):
            return []
        if s in dead:
            return None
        for action, prev in unplay(s):
            path = back(prev)
            if path is not None:
                return path + [action]
        dead.add(s)
        return None

    path = back(state)
    if path is None:
        raise InvalidPositionError("no order of play reaches this position")
    return path


def to_pyspiel_state(game: "Game[Any, Any]", state: Any, ps_game: Any = None) -> Any:
    """The ``pyspiel.State`` of a zerosum state (``ps_game`` defaults to :func:`to_pyspiel_game`)."""
    ps_game = ps_game if ps_game is not None else to_pyspiel_game(game)
    ps_state = ps_game.new_initial_state()
    for action in move_sequence(game, state):
        ps_state.apply_action(int(action))
    return ps_state


def from_pyspiel_state(ps_state: Any, game: "Game[Any, Any] | None" = None) -> Any:
    """The zerosum state of a ``pyspiel.State`` (replaying its history in ``game``, default its counterpart)."""
    game = game if game is not None else from_pyspiel_game(ps_state.get_game())
    state = game.initial_state
    for action in ps_state.history():
        state = game.result(state, int(action))
    return state


# ---- zerosum agents as OpenSpiel bots ------------------------------------------------------------------


def bot(spec: "str | Agent" = "alphabeta", game: Any = None, *, seed: int | None = None,
        limits: Limits | None = None) -> Any:
    """A ``pyspiel.Bot`` playing zerosum's ``spec``; ``game`` (zerosum or pyspiel) defaults to each state's.

    >>> import pyspiel  # doctest: +SKIP
    >>> pyspiel.evaluate_bots(state, [bot("alphabeta:depth=4"), bot("random")], 0)  # doctest: +SKIP
    """
    pyspiel = pyspiel_module()
    agent = make_agent(spec, seed=seed, limits=limits)
    fixed = None
    if game is not None:
        fixed = game if isinstance(game, Game) else from_pyspiel_game(game)

    class ZerosumBot(pyspiel.Bot):  # type: ignore[misc,name-defined]
        """A zerosum agent behind OpenSpiel's Bot interface (it never changes the state it is given)."""

        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)
            self.agent = agent
            self._games: dict[str, Game[Any, Any]] = {}

        def _game(self, ps_state: Any) -> "Game[Any, Any]":
            if fixed is not None:
                return fixed
            key = str(ps_state.get_game())
            if key not in self._games:
                self._games[key] = from_pyspiel_game(ps_state.get_game())
            return self._games[key]

        def step(self, ps_state: Any) -> int:
            game_ = self._game(ps_state)
            action = self.agent(game_, from_pyspiel_state(ps_state, game_))
            return int(action)

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


class BotAgent(Agent):
    """Any OpenSpiel bot as a zerosum agent: ``make_bot(pyspiel_game) -> pyspiel.Bot``, one bot per game."""

    name = "openspiel-bot"
    description = "an OpenSpiel bot"

    def __init__(self, make_bot: Callable[[Any], Any], *, limits: Limits | None = None,
                 seed: int | None = None, spec: str = "openspiel-bot") -> None:
        super().__init__(limits=limits, seed=seed)
        self.make_bot = make_bot
        self.spec = spec
        self._bots: dict[Any, tuple[Any, Any]] = {}

    def _bot(self, game: "Game[Any, Any]") -> tuple[Any, Any]:
        if game not in self._bots:
            ps_game = to_pyspiel_game(game)
            self._bots[game] = (ps_game, self.make_bot(ps_game))
        return self._bots[game]

    def __call__(self, game: "Game[Any, Any]", state: Any) -> Any:
        ps_game, ps_bot = self._bot(game)
        ps_state = to_pyspiel_state(game, state, ps_game)
        if ps_state.is_terminal():
            raise AgentError("no legal action: the game is over")
        action = int(ps_bot.step(ps_state))
        if action not in game.actions(state):
            raise AgentError(f"the OpenSpiel bot chose {action}, not a legal action of {game.actions(state)}")
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
