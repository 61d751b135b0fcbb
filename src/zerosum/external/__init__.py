"""External engines: programs in any language that speak zerosum's engine protocol (docs/protocol.md).

- :mod:`.protocol`: every line of the protocol, parsed and formatted;
- :class:`Engine` (:mod:`.agent`): an external program as a zerosum agent, for ``play_game``, ``match`` and
  every face, its faults forfeits with a reason (:class:`EngineFault`: crash, timeout, protocol error,
  garbage output, illegal move);
- :mod:`.definitions`: ``--engine NAME=COMMAND`` on the command line, a name as an agent spec
  (:func:`register_engine`);
- :mod:`.session` (the conversation, and its latency figures), :mod:`.process` (the process, read under
  deadlines and bounds) and :mod:`.reaper` (nothing an engine starts outlives it).
"""

from __future__ import annotations

from .agent import Engine
from .definitions import EngineDefinition, parse_engines
from .names import register_engine, registered
from .process import EngineFault
from .session import Latency

__all__ = ["Engine", "EngineFault", "EngineDefinition", "Latency", "parse_engines", "register_engine", "registered"]
