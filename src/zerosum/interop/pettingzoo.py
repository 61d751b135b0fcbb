"""PettingZoo: zerosum agents acting in PettingZoo's classic games, and zerosum games as AEC environments.

Agents.  :func:`agent` wraps any zerosum agent spec as a policy ``policy(observation) -> action`` for the
usual loop (``obs, reward, term, trunc, info = env.last(); env.step(policy(obs))``).  It reads the
observation dict (``observation`` planes from the *acting* player's view, and ``action_mask``) of

* ``connect_four_v3``: planes ``(6, 7, 2)``, row 0 the top row; actions are columns;
* ``tictactoe_v3``: planes ``(3, 3, 2)`` indexed ``[column][row]``; action ``i`` is the cell in column
  ``i // 3``, row ``i % 3`` (PettingZoo numbers cells down the columns, zerosum along the rows);
* the environments of :func:`env` (any Connect-X board, Tic-Tac-Toe, Migration).

Which player acts is not in PettingZoo's observation, so it is read from the stone counts (the first
player has as many stones as the second when it is to move).  The policy always answers an action that
the mask allows (an agent that fails or answers an illegal action is replaced by the first allowed one).

Environments.  ``env("connect4")`` (any zerosum game spec) is an AEC environment wrapped the way
PettingZoo's classic games are: an illegal action ends the game with -1 for the player who made it
(``TerminateIllegalWrapper``), out-of-range actions raise (``AssertOutOfBoundsWrapper``), and calls out of
order raise (``OrderEnforcingWrapper``).  ``raw_env(spec)`` is the bare environment.  Agents are
``player_0`` (moves first) and ``player_1``; rewards are +1 / -1 / 0 at the end.  Observations:

* Connect-X ``(rows, cols, 2)``, row 0 the top row, like ``connect_four_v3``; actions are columns;
* Tic-Tac-Toe ``(3, 3, 2)`` indexed ``[row][column]``; actions are zerosum's row-major cells 0..8;
* Migration(n) ``(n, n, 3)``: the acting player's stones, the opponent's, and a plane of ones when the
  acting player is player 1 (who moves right; player 2 moves up); action ``x * n + y`` moves the stone at
  ``(x, y)`` one step in its direction.

Plane 0 is always the acting player's stones (for the observing agent: its own), plane 1 the opponent's.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..agents.base import Agent
from ..agents.registry import make_agent
from ..errors import AgentError, InvalidPositionError
from ..game import Game
from ..games import ConnectX, Migration, TicTacToe, get_game
from ..games.migration import MigrationState
from ..games.tictactoe import TicTacToeState

try:  # the environment classes need pettingzoo; the conversions and the agent adapter do not
    import gymnasium
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import AgentSelector, wrappers  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - exercised when the extra is not installed
    AECEnv = object
    _HAVE_PETTINGZOO = False
else:
    _HAVE_PETTINGZOO = True

__all__ = ["env", "raw_env", "ZerosumEnv", "agent", "PettingZooAgent", "play_episode", "Codec", "codec",
           "register_envs"]

AGENTS = ("player_0", "player_1")
RENDER_MODES = ("human", "ansi")


def _pz_ttt_to_ours(i: int) -> int:
    """PettingZoo's Tic-Tac-Toe cell (down the columns) to zerosum's (along the rows); its own inverse."""
    return (i % 3) * 3 + i // 3


# ---- observations <-> states, per game -----------------------------------------------------------------


class Codec:
    """How one game looks in PettingZoo: action numbers, observation planes and back to a state."""

    def __init__(self, game: Game[Any, Any], pettingzoo_tictactoe: bool = False) -> None:
        self.game = game
        self.pz_ttt = pettingzoo_tictactoe
        if isinstance(game, ConnectX):
            self.shape: tuple[int, ...] = (game.rows, game.cols, 2)
            self.num_actions = game.cols
        elif isinstance(game, TicTacToe):
            self.shape = (3, 3, 2)
            self.num_actions = 9
        elif isinstance(game, Migration):
            self.shape = (game.n, game.n, 3)
            self.num_actions = game.n * game.n
        else:
            raise AgentError(f"no PettingZoo encoding for {game!r}: Connect-X, Tic-Tac-Toe and Migration have one")

    # actions
    def encode_action(self, action: Any) -> int:
        """The discrete action number of a zerosum action."""
        if isinstance(self.game, Migration):
            x, y = action[0], action[1]
            return int(x * self.game.n + y)
        if self.pz_ttt:
            return _pz_ttt_to_ours(int(action))
        return int(action)

    def decode_action(self, state: Any, number: int) -> Any:
        """The zerosum action of an action number (not checked for legality)."""
        number = int(number)
        if isinstance(self.game, Migration):
            x, y = divmod(number, self.game.n)
            dx, dy = self.game.STEP[state.to_move]
            return (x, y, x + dx, y + dy)
        if self.pz_ttt:
            return _pz_ttt_to_ours(number)
        return number

    def mask(self, state: Any) -> np.ndarray:
        out = np.zeros(self.num_actions, dtype=np.int8)
        for action in self.game.actions(state):
            out[self.encode_action(action)] = 1
        return out

    # observations
    def planes(self, state: Any, player: int) -> np.ndarray:
        """The observation planes of ``state`` as ``player`` sees it (plane 0: that player's stones)."""
        game = self.game
        obs = np.zeros(self.shape, dtype=np.int8)
        if isinstance(game, ConnectX):
            for r in range(game.rows):
                for c in range(game.cols):
                    v = game.cell(state, game.rows - 1 - r, c)
                    if v:
                        obs[r, c, 0 if v == player else 1] = 1
        elif isinstance(game, TicTacToe):
            for i, v in enumerate(state.cells):
                if v:
                    r, c = divmod(i, 3)
                    if self.pz_ttt:
                        r, c = c, r
                    obs[r, c, 0 if v == player else 1] = 1
        else:
            for x, row in enumerate(state.board):
                for y, v in enumerate(row):
                    if v:
                        obs[x, y, 0 if v == player else 1] = 1
            if player == 1:
                obs[:, :, 2] = 1
        return obs

    def state(self, planes: Any) -> Any:
        """The zerosum state of an observation (planes from the acting player's view)."""
        arr = np.asarray(planes)
        if arr.shape != self.shape:
            raise InvalidPositionError(f"expected observation planes of shape {self.shape}, not {arr.shape}")
        own, opp = arr[..., 0] != 0, arr[..., 1] != 0
        if (own & opp).any():
            raise InvalidPositionError("a cell holds stones of both players")
        game = self.game
        if isinstance(game, Migration):
            acting = 1 if arr[..., 2].any() else 2
        else:
            n_own, n_opp = int(own.sum()), int(opp.sum())
            if n_own == n_opp:
                acting = 1
            elif n_own + 1 == n_opp:
                acting = 2
            else:
                raise InvalidPositionError(f"impossible stone counts for the player to move: {n_own} and {n_opp}")
        first, second = (own, opp) if acting == 1 else (opp, own)
        grid = np.where(first, 1, np.where(second, 2, 0))
        if isinstance(game, ConnectX):
            chars = {0: ".", 1: "X", 2: "O"}
            text = "\n".join("".join(chars[int(v)] for v in row) for row in grid)
            return game.from_grid(text, strict=False, to_move=acting)
        if isinstance(game, TicTacToe):
            if self.pz_ttt:
                grid = grid.T
            return TicTacToeState(tuple(int(v) for v in grid.reshape(9)))
        return MigrationState(tuple(tuple(int(v) for v in row) for row in grid), acting)


def codec(game: "str | Game[Any, Any]") -> Codec:
    """The codec of a zerosum game spec or game, or of ``"connect_four_v3"`` / ``"tictactoe_v3"``."""
    if game == "connect_four_v3":
        return Codec(ConnectX(6, 7, 4))
    if game == "tictactoe_v3":
        return Codec(TicTacToe(), pettingzoo_tictactoe=True)
    return Codec(get_game(game))


# ---- agents acting in PettingZoo -----------------------------------------------------------------------


class PettingZooAgent:
    """A zerosum agent as a PettingZoo policy: ``policy(observation) -> int`` (see the module docstring).

    ``game`` names the environment: ``"connect_four_v3"``, ``"tictactoe_v3"``, a zerosum game spec, or an
    environment made by :func:`env` (its game is used).  Left out, it is guessed from the observation's
    shape: ``(3, 3, 2)`` is PettingZoo's ``tictactoe_v3``, ``(rows, cols, 2)`` a Connect-X board with four in
    a row (pass ``game=`` for another line length), ``(n, n, 3)`` Migration.
    """

    def __init__(self, spec: "str | Agent | Callable[..., Any]" = "alphabeta", game: Any = None,
                 *, seed: int | None = None) -> None:
        self.inner = make_agent(spec, seed=seed)
        self.codec: Codec | None = None
        if game is not None:
            unwrapped = getattr(game, "unwrapped", None)
            if isinstance(unwrapped, ZerosumEnv):
                self.codec = unwrapped.codec
            else:
                self.codec = codec(game)
        #: what the last call did: the action and whether the fallback was used, and why
        self.last: dict[str, Any] = {}

    def _codec_for(self, planes: np.ndarray) -> Codec:
        if self.codec is None:
            shape = planes.shape
            if shape == (3, 3, 2):
                self.codec = codec("tictactoe_v3")
            elif len(shape) == 3 and shape[2] == 2:
                self.codec = Codec(ConnectX(shape[0], shape[1], 4))
            elif len(shape) == 3 and shape[2] == 3 and shape[0] == shape[1]:
                self.codec = Codec(Migration(shape[0]))
            else:
                raise AgentError(f"cannot tell the game from an observation of shape {shape}: pass game=")
        return self.codec

    def __call__(self, observation: Any, agent_id: Any = None) -> int:
        if isinstance(observation, dict):
            planes = np.asarray(observation["observation"])
            mask = np.asarray(observation.get("action_mask", np.ones(0)))
        else:
            planes, mask = np.asarray(observation), np.ones(0)
        cdc = self._codec_for(planes)
        if mask.size != cdc.num_actions:
            mask = np.ones(cdc.num_actions, dtype=np.int8)
        allowed = [int(i) for i in np.flatnonzero(mask)]
        if not allowed:
            raise AgentError("the action mask allows no action: this agent is not the one to move")
        fallback, reason = True, ""
        number = allowed[0]
        try:
            state = cdc.state(planes)
            choice = cdc.encode_action(self.inner(cdc.game, state))
            if choice in allowed:
                number, fallback = choice, False
            else:
                reason = f"the agent chose action {choice}, which the mask does not allow"
        except Exception as exc:  # a policy must act: fall back to an allowed action
            reason = f"{type(exc).__name__}: {exc}"
        self.last = {"action": number, "fallback": fallback, "reason": reason}
        return number


def agent(spec: "str | Agent | Callable[..., Any]" = "alphabeta", game: Any = None,
          *, seed: int | None = None) -> PettingZooAgent:
    """A PettingZoo policy playing zerosum's ``spec`` (see :class:`PettingZooAgent`)."""
    return PettingZooAgent(spec, game, seed=seed)


def play_episode(environment: Any, policies: dict[str, Callable[[Any], Any]], seed: int | None = None) -> dict[str, float]:
    """Play one game in an AEC environment with a policy per agent; returns the total reward per agent."""
    environment.reset(seed=seed)
    totals = {a: 0.0 for a in environment.possible_agents}
    for name in environment.agent_iter():
        obs, reward, termination, truncation, _ = environment.last()
        totals[name] += float(reward)
        action = None if termination or truncation else policies[name](obs)
        environment.step(action)
    return totals


# ---- zerosum games as AEC environments ------------------------------------------------------------------


class ZerosumEnv(AECEnv):  # type: ignore[misc]
    """A zerosum game as a PettingZoo AEC environment (the bare one: use :func:`env` for the wrapped one)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "zerosum_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, spec: "str | Game[Any, Any]" = "connect4", render_mode: str | None = None) -> None:
        if not _HAVE_PETTINGZOO:
            raise AgentError("PettingZoo is not installed: pip install 'zerosum[pettingzoo]'")
        super().__init__()
        self.game = get_game(spec)
        self.codec = Codec(self.game)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise AgentError(f"render_mode {render_mode!r}: choose one of {', '.join(RENDER_MODES)}")
        self.render_mode = render_mode
        name = self.game.spec.replace(":", "_").replace(",", "_").replace("=", "")
        self.metadata = {**self.metadata, "name": f"zerosum_{name}_v0"}
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.codec.num_actions) for a in AGENTS}
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({
                "observation": gymnasium.spaces.Box(low=0, high=1, shape=self.codec.shape, dtype=np.int8),
                "action_mask": gymnasium.spaces.Box(low=0, high=1, shape=(self.codec.num_actions,), dtype=np.int8),
            })
            for a in AGENTS
        }
        self.state_ = self.game.initial_state

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = AGENTS.index(agent) + 1
        mask = (self.codec.mask(self.state_) if agent == self.agent_selection
                else np.zeros(self.codec.num_actions, dtype=np.int8))
        return {"observation": self.codec.planes(self.state_, player), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.state_ = self.game.initial_state
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        move = self.codec.decode_action(self.state_, action)
        self.state_ = self.game.result(self.state_, move)  # IllegalMoveError for an illegal action
        self.rewards = dict.fromkeys(self.agents, 0)
        if self.game.is_terminal(self.state_):
            for i, a in enumerate(self.agents):
                self.rewards[a] = self.game.utility(self.state_, i + 1)
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        return self.game.render(self.state_)

    def close(self) -> None:
        pass


def raw_env(spec: "str | Game[Any, Any]" = "connect4", render_mode: str | None = None) -> ZerosumEnv:
    """The bare AEC environment of a zerosum game (an illegal action raises ``IllegalMoveError``)."""
    return ZerosumEnv(spec, render_mode=render_mode)


def env(spec: "str | Game[Any, Any]" = "connect4", render_mode: str | None = None) -> Any:
    """A zerosum game as a PettingZoo AEC environment, wrapped like PettingZoo's classic games."""
    e: Any = raw_env(spec, render_mode=render_mode)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


def register_envs() -> list[str]:
    """Add zerosum's games to PettingZoo's registry (1.27+): ``pettingzoo.make("aec", "zerosum/connectx-v0",
    spec="connectx:rows=5,cols=9,k=4")``.  Returns the ids; calling it again changes nothing."""
    import pettingzoo

    ids = {"zerosum/connectx-v0": "connect4", "zerosum/tictactoe-v0": "tictactoe", "zerosum/migration-v0": "migration"}
    if not hasattr(pettingzoo, "register"):
        raise AgentError("this PettingZoo has no registry (1.27 or newer has): use zerosum.interop.pettingzoo.env")
    for env_id, default in ids.items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point="zerosum.interop.pettingzoo:env", kwargs={"spec": default})
    return list(ids)
