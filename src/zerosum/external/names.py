"""Named external engines in this process: a name registered as an agent spec (:mod:`.definitions` reads
the flags), and the definitions handed to the arena's worker processes."""

from __future__ import annotations

import json
import shlex
from typing import Any, Iterable

from ..errors import AgentError
from ..spec import printable
from .definitions import EngineDefinition

__all__ = ["register_engine", "registered", "engine_of", "register_definitions", "definitions_for", "from_pairs",
           "stored_engines", "describe_engines"]

_REGISTERED: dict[str, EngineDefinition] = {}


def registered(name: str) -> EngineDefinition | None:
    """The engine registered as ``name`` in this process (any case), or None."""
    return _REGISTERED.get(name.lower())


def engine_of(spec: str) -> EngineDefinition | None:
    """The engine registered in this process that agent spec ``spec`` names (``NAME`` or ``NAME:options``), or
    None (a zerosum agent, a file's)."""
    return registered(spec.strip().partition(":")[0].strip())


def register_engine(definition: EngineDefinition) -> None:
    """Make ``definition.name`` an agent spec in this process (replacing an engine of that name; AgentError
    when the name is a zerosum agent)."""
    from ..agents.registry import agent_class, register_agent
    from .agent import Engine

    key = definition.name.lower()
    if _REGISTERED.get(key) == definition:
        return
    if key not in _REGISTERED and agent_class(key) is not None:
        raise AgentError(f"engine {definition.name!r}: that name is a zerosum agent already")
    cls = type(f"Engine_{key}", (Engine,), {"name": key, "DEFINITION": definition,
                                            "description": f"external engine: {definition.describe()}"})
    register_agent(key, cls)
    _REGISTERED[key] = definition


def register_definitions(definitions: Iterable[EngineDefinition]) -> None:
    """:func:`register_engine` of each (a worker, with the engines of the game it is handed)."""
    for definition in definitions:
        register_engine(definition)


def definitions_for(specs: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """``(name, JSON)`` of every registered engine that ``specs`` name (``NAME`` or ``NAME:options``), for a
    worker process to register (:func:`register_definitions` of :meth:`EngineDefinition.from_json`)."""
    found: dict[str, str] = {}
    for spec in specs:
        definition = engine_of(spec)
        if definition is not None:
            found[definition.name.lower()] = json.dumps(definition.to_json(), sort_keys=True)
    return tuple(sorted(found.items()))


def from_pairs(pairs: Iterable[tuple[str, str]]) -> list[EngineDefinition]:
    """The definitions of :func:`definitions_for`'s pairs."""
    return [EngineDefinition.from_json(json.loads(text)) for _, text in pairs]


def stored_engines(stored: Any) -> dict[str, dict[str, Any]]:
    """A run's external engines as its results file keeps them (``meta`` ``engines``: name ->
    :meth:`~zerosum.external.Engine.probe`), anything else read as none."""
    if not isinstance(stored, dict):
        return {}
    return {str(k): v for k, v in stored.items() if isinstance(v, dict)}


def describe_engines(engines: dict[str, dict[str, Any]]) -> list[str]:
    """One line per external engine of a run: its command, what it calls itself, and its latency: the median
    ``isready`` round trip measured before the first game, apart from any thinking."""
    out = []
    for name, seen in engines.items():
        definition = seen.get("definition")
        words = definition.get("command") if isinstance(definition, dict) else None
        command = shlex.join(str(w) for w in words) if isinstance(words, list) else "?"
        said = " by ".join(printable(str(x)) for x in (seen.get("name"), seen.get("author")) if x)  # its own words
        ping = seen.get("ping_ms")
        latency = (f"latency {ping:.2f} ms (isready round trip, median)" if isinstance(ping, (int, float))
                   and not isinstance(ping, bool) else "latency not measured")
        out.append(f"engine {name} = {command}" + (f" ({said})" if said else "") + f": {latency}")
    return out
