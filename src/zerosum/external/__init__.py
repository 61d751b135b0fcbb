"""External engines: programs in any language that speak zerosum's engine protocol (docs/protocol.md).

Work in progress (issue #23): the protocol's lines (:mod:`.protocol`), an external program as an agent, and
the arena's ``--engine NAME=COMMAND``.
"""

from __future__ import annotations

__all__: list[str] = []
