"""What the PettingZoo adapter is handed, checked: action numbers, observations and action masks.

Each check is one :class:`~zerosum.errors.GameError` line naming what was expected: a wrong type is refused,
never truncated or guessed (``step(1.5)`` and ``step(True)`` are not column 1).  PettingZoo's own conventions
hold: an action is a Python ``int`` or a numpy integer (``np.int64(3)``, what ``action_space.sample()``
gives, or a 0-d integer array); an observation is the dict ``{"observation": planes, "action_mask": mask}``
of PettingZoo's classic games (or the planes alone).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import AgentError, InvalidMoveError, InvalidPositionError
from ..spec import quoted

__all__ = ["OWN_LAYOUTS", "action_number", "observation_arrays", "check_fits", "guess_layout", "agent_index"]

#: the observation layouts a policy recognises without ``game=``: PettingZoo's own classic games
OWN_LAYOUTS = {(6, 7, 2): "connect_four_v3", (3, 3, 2): "tictactoe_v3"}


def _shown(value: Any) -> str:
    return quoted(value)


def action_number(action: Any) -> int:
    """``action`` as an ``int`` when it is a whole number of an integer type (``int``, a numpy integer, a 0-d
    integer array); anything else (``None``, ``True``, ``1.5``, ``"3"``) is one :class:`InvalidMoveError`."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    raise InvalidMoveError(f"an action is a whole number (an int or a numpy integer), not {_shown(action)} "
                           f"of type {type(action).__name__}")


def _numeric(value: Any, what: str) -> np.ndarray:
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError):
        arr = np.asarray(None)
    if arr.dtype.kind not in "biuf":
        raise InvalidPositionError(f"{what} is an array of numbers, not {_shown(value)}")
    return arr


def observation_arrays(observation: Any) -> tuple[np.ndarray, np.ndarray | None]:
    """The planes and the action mask (None when there is none) of a PettingZoo observation: the dict
    ``{"observation": ..., "action_mask": ...}``, or the planes alone."""
    if isinstance(observation, dict):
        if "observation" not in observation:
            keys = ", ".join(quoted(key) for key in list(observation)[:5]) or "no keys"
            raise InvalidPositionError(f"an observation dict has the keys 'observation' (the planes) and "
                                       f"'action_mask'; this one has {keys}")
        planes = _numeric(observation["observation"], "an observation's 'observation'")
        mask = observation.get("action_mask")
        return planes, None if mask is None else _numeric(mask, "an observation's 'action_mask'")
    if observation is None or isinstance(observation, str):
        raise InvalidPositionError("an observation is PettingZoo's dict {'observation': planes, 'action_mask': "
                                   f"mask}} or the planes alone, not {_shown(observation)}")
    return _numeric(observation, "an observation"), None


def check_fits(name: str, shape: tuple[int, ...], num_actions: int, planes: np.ndarray,
               mask: np.ndarray | None) -> None:
    """One :class:`InvalidPositionError` unless the planes have ``shape`` and the mask ``num_actions`` entries:
    an observation of another game than the one the policy was made for (``name``)."""
    if planes.shape != shape:
        raise InvalidPositionError(f"an observation of shape {planes.shape} is not one of {name} (planes of shape "
                                   f"{shape}): make the policy for this environment (game=)")
    if mask is not None and mask.shape != (num_actions,):
        raise InvalidPositionError(f"an action mask of shape {mask.shape} is not one of {name} "
                                   f"({num_actions} actions): make the policy for this environment (game=)")


def guess_layout(shape: tuple[int, ...]) -> str:
    """PettingZoo's own game with observations of ``shape``, else one :class:`AgentError`."""
    if shape in OWN_LAYOUTS:
        return OWN_LAYOUTS[shape]
    own = ", ".join(f"{layout} for {name}" for layout, name in OWN_LAYOUTS.items())
    raise AgentError(f"cannot tell the game from an observation of shape {shape}: without game= a policy knows "
                     f"only PettingZoo's own layouts ({own}); pass game= (a zerosum spec or the environment)")


def agent_index(agents: tuple[str, ...], agent: Any) -> int:
    """The index of ``agent`` among ``agents``, else one :class:`AgentError`."""
    if isinstance(agent, str) and agent in agents:
        return agents.index(agent)
    raise AgentError(f"{_shown(agent)} is not an agent of this environment: {' or '.join(agents)}")
