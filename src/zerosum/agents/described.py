"""What an agent made from its class, not from a spec string, says it is.

``make_agent('alphabeta:depth=2')`` keeps the spec string it was given: the arena's tables, the records and
``repr`` show it.  An agent made from its class (``AlphaBetaAgent(eval=centre, limits=Limits(depth=2))``, as
a course notebook writes it) has no such string; it remembers the keyword arguments it was made with
(:class:`Made`, the agents' metaclass), and its label says them in the spec's form,
``alphabeta:depth=2,eval=centre`` (:func:`label`), and its ``repr`` the call that made it,
``AlphaBetaAgent(eval=centre, limits=Limits(depth=2))`` (:func:`call`): never the name alone, which names the
default agent (``alphabeta``: one second a move, the ``threats`` evaluation), another agent than this one.
"""

from __future__ import annotations

from abc import ABCMeta
from typing import Any

__all__ = ["Made", "label", "call"]

#: the spec's names of :class:`~zerosum.agents.base.Limits`'s fields
_LIMIT_KEYS = {"depth": "depth", "nodes": "nodes", "time": "time", "simulations": "sims"}


class Made(ABCMeta):
    """The agents' metaclass: an agent keeps the keyword arguments of the call that made it (``_made_with``);
    a subclass's ``__init__`` calling its parent's changes nothing (the outermost call's are kept)."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        made = super().__call__(*args, **kwargs)
        try:
            vars(made).setdefault("_made_with", dict(kwargs))
        except TypeError:  # an object without a __dict__ (slots): nothing to keep
            pass
        return made


def _shown(value: Any) -> str:
    """An argument as a spec writes it: a flag 1 or 0, a number or a name as it is, a function by its name."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float, str)):
        return f"{value:g}" if isinstance(value, float) else str(value)
    name = getattr(value, "__name__", None)
    return str(name) if isinstance(name, str) else type(value).__name__


def _pairs(made_with: dict[str, Any]) -> list[tuple[str, str]]:
    """``(key, text)`` of each argument given: the limits' fields first, by their spec names, then the rest."""
    out = []
    limits = made_with.get("limits")
    for name, key in _LIMIT_KEYS.items():
        value = getattr(limits, name, None)
        if value is not None:
            out.append((key, _shown(value)))
    for key, value in made_with.items():
        if key != "limits" and value is not None:
            out.append((key, _shown(value)))
    return out


def label(name: str, made_with: dict[str, Any]) -> str:
    """The spec-like label of an agent ``name`` made with the keyword arguments ``made_with``:
    ``alphabeta:depth=2,eval=centre``; ``name`` alone when it was made with none."""
    pairs = _pairs(made_with)
    return f"{name}:{','.join(f'{k}={v}' for k, v in pairs)}" if pairs else name


def call(cls: type, made_with: dict[str, Any]) -> str:
    """The call that made an agent, for ``repr``: ``AlphaBetaAgent(eval=centre, limits=Limits(depth=2))``."""
    parts = [f"{key}={value!r}" if key == "limits" or isinstance(value, (bool, int, float, str)) or value is None
             else f"{key}={_shown(value)}" for key, value in made_with.items()]
    return f"{cls.__name__}({', '.join(parts)})"
