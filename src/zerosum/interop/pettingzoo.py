"""PettingZoo: zerosum agents acting in PettingZoo's classic games, and zerosum games as AEC environments.

Agents.  :func:`agent` wraps any zerosum agent spec as a policy ``policy(observation) -> action`` for the
usual loop (``obs, reward, term, trunc, info = env.last(); env.step(policy(obs))``).  It reads the
observation dict (``observation`` planes from the *acting* player's view, and ``action_mask``) of

* ``connect_four_v3``: planes ``(6, 7, 2)``, row 0 the top row; actions are columns;
* ``tictactoe_v3``: planes ``(3, 3, 2)`` indexed ``[column][row]``; action ``i`` is the cell in column
  ``i // 3``, row ``i % 3`` (PettingZoo numbers cells down the columns, zerosum along the rows);
* the environments of :func:`env` (every registered game).

The policy always answers an action that the mask allows (an agent that fails or answers an illegal
action is replaced by the first allowed one).  What it cannot read is refused in one
:class:`~zerosum.errors.GameError` line, never played from: an observation of another game than the
policy's (planes of another shape, a mask of another length), planes that are no position of the game,
and, without ``game=``, a layout other than PettingZoo's own ``(6, 7, 2)`` and ``(3, 3, 2)``.  A person
(``human``) cannot answer a policy's call and is refused too.

Environments.  ``env("connect4")`` (any zerosum game spec) is an AEC environment wrapped the way
PettingZoo's classic games are: an illegal action ends the game with -1 for the player who made it
(``TerminateIllegalWrapper``), out-of-range actions raise (``AssertOutOfBoundsWrapper``), and calls out of
order raise (``OrderEnforcingWrapper``); an action that is not a whole number (``None`` while the game goes
on, ``True``, ``1.5``, ``"3"``) raises :class:`~zerosum.errors.InvalidMoveError` (a numpy integer is a
whole number).  ``raw_env(spec)`` is the bare environment.  ``render_mode="human"`` prints the board after
every move, and ``render()`` prints it and returns None; with ``"ansi"``, ``render()`` returns its text.  Agents are
``player_0`` (moves first) and ``player_1``; rewards are +1 / -1 / 0 at the end.  Everything comes from
the game's own description (:meth:`~zerosum.game.Game.board_view`, the action numbering):

* observation planes ``(rows, cols, 2)`` of the game's board (row 0 the top row, as drawn): plane 0 the
  observing player's pieces, plane 1 the opponent's.  When whose turn it is cannot be told from the pieces
  (a game without ``TURN_FROM_PIECES``: pieces that move, flip or pass) a third plane is added, all ones
  when the observing player is player 1 (who moves first) and all zeros for player 2: the shape is then
  ``(rows, cols, 3)``.  (Connect-X is ``(rows, cols, 2)`` like ``connect_four_v3``.)
* actions are the game's fixed numbering ``0 .. game.action_space_size - 1``
  (:meth:`~zerosum.game.Game.action_index`): Connect-X columns, Tic-Tac-Toe's row-major cells 0..8,
  Migration's moving stone ``x * n + y``, a placement ``row * n + col`` with the pass ``n * n``.

When the observing player is the one to move (the only time the mask allows anything), the planes are
the position: :meth:`Codec.state` turns them back into a zerosum state.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..agents.base import Agent
from ..agents.registry import make_agent
from ..agents.simple import HumanAgent
from ..errors import AgentError, InvalidPositionError, InvalidSpecError
from ..game import Game, other, safe_repr
from ..games import get_game, registered_games
from ..spec import quoted
from .pettingzoo_checks import action_number, agent_index, check_fits, guess_layout, observation_arrays

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

#: PettingZoo's own classic environments that zerosum plays: name -> (zerosum game spec, cells transposed)
CLASSIC = {"connect_four_v3": ("connect4", False), "tictactoe_v3": ("tictactoe", True)}


def _pz_ttt_to_ours(i: int) -> int:
    """PettingZoo's Tic-Tac-Toe cell (down the columns) to zerosum's (along the rows); its own inverse."""
    return (i % 3) * 3 + i // 3


# ---- observations <-> states ---------------------------------------------------------------------------


class Codec:
    """How one game looks in PettingZoo: action numbers, observation planes and back to a state.

    ``transposed``: the planes are indexed ``[column][row]`` and cell actions numbered down the columns
    (PettingZoo's ``tictactoe_v3``); ``name``: the environment's, for messages (default the game's spec).
    """

    def __init__(self, game: Game[Any, Any], transposed: bool = False, name: str = "") -> None:
        self.game = game
        self.transposed = transposed
        self.name = name or game.spec
        try:
            view = game.board_view(game.initial_state)
            self.num_actions = int(game.action_space_size)
        except NotImplementedError as exc:
            raise AgentError(f"no PettingZoo encoding for {game!r}: {exc}") from None
        #: a third plane says whose turn it is, when the pieces do not
        self.turn_plane = not game.TURN_FROM_PIECES
        rows, cols = (view.cols, view.rows) if transposed else (view.rows, view.cols)
        self.shape: tuple[int, ...] = (rows, cols, 3 if self.turn_plane else 2)

    # actions
    def encode_action(self, action: Any) -> int:
        """The discrete action number of a zerosum action."""
        number = self.game.action_index(action)
        return _pz_ttt_to_ours(number) if self.transposed else number

    def decode_action(self, state: Any, number: int) -> Any:
        """The zerosum action of an action number (a whole number, else :class:`InvalidMoveError`; its
        legality is not checked)."""
        number = action_number(number)
        return self.game.index_action(_pz_ttt_to_ours(number) if self.transposed else number, state)

    def mask(self, state: Any) -> np.ndarray:
        out = np.zeros(self.num_actions, dtype=np.int8)
        for action in self.game.actions(state):
            out[self.encode_action(action)] = 1
        return out

    # observations
    def planes(self, state: Any, player: int) -> np.ndarray:
        """The observation planes of ``state`` as ``player`` sees it (plane 0: that player's pieces)."""
        cells = np.asarray(self.game.board_view(state).cells, dtype=np.int8)
        if self.transposed:
            cells = cells.T
        obs = np.zeros(self.shape, dtype=np.int8)
        obs[..., 0] = cells == player
        obs[..., 1] = cells == other(player)
        if self.turn_plane and player == 1:
            obs[..., 2] = 1
        return obs

    def state(self, planes: Any) -> Any:
        """The zerosum state of an observation (planes from the acting player's view)."""
        arr = np.asarray(planes)
        if arr.shape != self.shape:
            raise InvalidPositionError(f"expected observation planes of shape {self.shape}, not {arr.shape}")
        odd = arr[(arr != 0) & (arr != 1)]
        if odd.size:  # planes of 0 and 1 only: a 2 or a 0.5 is no stone (nor a None of an object array)
            value = odd.flat[0]
            raise InvalidPositionError(f"observation planes hold 0 and 1 only, not "
                                       f"{safe_repr(value.item() if isinstance(value, np.generic) else value)}")
        own, opp = arr[..., 0] != 0, arr[..., 1] != 0
        if (own & opp).any():
            raise InvalidPositionError("a cell holds stones of both players")
        if self.turn_plane:
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
        if self.transposed:
            grid = grid.T
        return self.game.from_board(grid.tolist(), acting)


def codec(game: "str | Game[Any, Any]") -> Codec:
    """The codec of a zerosum game spec or game, or of ``"connect_four_v3"`` / ``"tictactoe_v3"``."""
    if isinstance(game, str) and game in CLASSIC:
        spec, transposed = CLASSIC[game]
        return Codec(get_game(spec), transposed=transposed, name=game)
    return Codec(get_game(game))


# ---- agents acting in PettingZoo -----------------------------------------------------------------------


class PettingZooAgent:
    """A zerosum agent as a PettingZoo policy: ``policy(observation) -> int`` (see the module docstring).

    ``game`` names the environment: ``"connect_four_v3"``, ``"tictactoe_v3"``, a zerosum game spec, or an
    environment made by :func:`env` (its game is used).  Left out, it is guessed from the observation's
    shape for PettingZoo's own games only: ``(6, 7, 2)`` is ``connect_four_v3``, ``(3, 3, 2)``
    ``tictactoe_v3``; any other shape is one :class:`AgentError` (pass ``game=``: always, in the
    environments of :func:`env`).  An observation that does not fit the game is refused in one
    :class:`InvalidPositionError`, never answered by the fallback.
    """

    def __init__(self, spec: "str | Agent | Callable[..., Any]" = "alphabeta", game: Any = None,
                 *, seed: int | None = None) -> None:
        self.inner = make_agent(spec, seed=seed)
        if isinstance(self.inner, HumanAgent):
            raise AgentError(f"agent {self.inner.spec!r}: a person cannot answer a PettingZoo policy's call: "
                             "play against the policy with zerosum play, or pick another agent")
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
        if self.codec is None:  # PettingZoo's own layouts only (6 x 7 is zerosum's connect4 too)
            self.codec = codec(guess_layout(tuple(planes.shape)))
        return self.codec

    def __call__(self, observation: Any, agent_id: Any = None) -> int:
        planes, mask = observation_arrays(observation)  # GameError: not an observation
        cdc = self._codec_for(planes)
        check_fits(cdc.name, cdc.shape, cdc.num_actions, planes, mask)  # another game's: refused, not played
        if mask is None:
            mask = np.ones(cdc.num_actions, dtype=np.int8)
        allowed = [int(i) for i in np.flatnonzero(mask)]
        if not allowed:
            raise AgentError("the action mask allows no action: this agent is not the one to move")
        state = cdc.state(planes)  # InvalidPositionError: no position of this game
        fallback, reason = True, ""
        number = allowed[0]
        try:
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
        return self.observation_spaces[AGENTS[agent_index(AGENTS, agent)]]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[AGENTS[agent_index(AGENTS, agent)]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = agent_index(AGENTS, agent) + 1
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
        move = self.codec.decode_action(self.state_, action)  # InvalidMoveError: not a whole number
        self.state_ = self.game.result(self.state_, move)  # IllegalMoveError for an illegal action
        self.rewards = dict.fromkeys(self.agents, 0)
        if self.game.is_terminal(self.state_):
            for i, a in enumerate(self.agents):
                self.rewards[a] = self.game.utility(self.state_, i + 1)
            self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """PettingZoo's contract: ``"human"`` prints the board (as every move does) and returns None;
        ``"ansi"`` returns the board's text; no render mode warns and returns None."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = self.game.render(self.state_)
        if self.render_mode == "ansi":
            return text
        print(text, flush=True)
        return None

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
    e = _WholeActions(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


if _HAVE_PETTINGZOO:
    class _WholeActions(wrappers.BaseWrapper):  # type: ignore[misc]
        """A live step's action that is not a whole number (``True``, ``1.5``, ``"3"``, ``None``) raises
        :class:`InvalidMoveError` before PettingZoo's wrappers read it (they would take ``True`` for 1)."""

        def step(self, action: Any) -> None:
            agent_ = self.agent_selection
            if not (action is None and (self.terminations[agent_] or self.truncations[agent_])):
                action_number(action)
            super().step(action)

        def __str__(self) -> str:
            return str(self.env)


def register_envs() -> list[str]:
    """Add zerosum's games to PettingZoo's registry (1.27+): ``pettingzoo.make("aec", "zerosum/connectx-v0",
    spec="connectx:rows=5,cols=9,k=4")``, one id ``zerosum/NAME-v0`` per registered game (its default spec
    ``NAME`` unless ``spec=`` says otherwise).  Returns the ids; calling it again changes nothing."""
    import pettingzoo

    ids = {f"zerosum/{cls.name}-v0": cls.name for cls in registered_games()}
    if not hasattr(pettingzoo, "register"):
        raise AgentError("this PettingZoo has no registry (1.27 or newer has): use zerosum.interop.pettingzoo.env")
    for env_id, default in ids.items():
        if env_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", env_id, entry_point="zerosum.interop.pettingzoo:_registered_env",
                                kwargs={"spec": default, "plays": default})
    return list(ids)


def _registered_env(spec: "str | Game[Any, Any]", plays: str, render_mode: str | None = None) -> Any:
    """The environment ``zerosum/{plays}-v0`` makes: :func:`env` of ``spec``, a spec of that game only (``spec=
    "tictactoe"`` under ``zerosum/connectx-v0`` was a Tic-Tac-Toe environment under Connect-X's name)."""
    game = get_game(spec)
    name, shown = type(game).name, quoted(str(game.spec))
    if name != plays:
        raise InvalidSpecError(f"zerosum/{plays}-v0 plays {plays}, not {name} ({shown}): make zerosum/{name}-v0, "
                               f"or zerosum.interop.pettingzoo.env({shown})")
    return env(game, render_mode=render_mode)
