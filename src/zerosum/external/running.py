"""The running programs of external engines (:class:`~zerosum.external.Engine`): a private one per ``Engine``
object, or, for an engine named with ``--engine NAME=COMMAND``, shared per definition in a process: a program
that no live agent holds is leased to the next agent of that engine (a worker of the arena keeps it from game
to game), and one that has ended is started again.  Every program still running when the process exits is
closed (``quit``, then its whole process group killed).
"""

from __future__ import annotations

import atexit
import weakref
from typing import Any

from ..agents.base import SearchAgent
from .definitions import EngineDefinition
from .session import Session


_SHARED: dict[EngineDefinition, list[tuple[Session, Any]]] = {}  # definition -> (session, weakref to its agent)


def _start(definition: EngineDefinition, startup: float) -> Session:
    return Session(definition.command, definition.folder, definition.name, definition.options, startup)


def _lease(definition: EngineDefinition, owner: SearchAgent, startup: float) -> Session:
    """A running program of ``definition`` that no live agent holds (started when none is free)."""
    held = _SHARED.setdefault(definition, [])
    for i, (session, ref) in enumerate(held):
        if ref() is None and session.alive():
            held[i] = (session, weakref.ref(owner))
            return session
    held[:] = [(s, r) for s, r in held if s.alive()]
    session = _start(definition, startup)
    held.append((session, weakref.ref(owner)))
    return session


def _release(session: Session) -> None:
    for held in _SHARED.values():
        held[:] = [(s, r) for s, r in held if s is not session]


def _close_quietly(session: Session) -> None:
    try:
        session.close()
    except Exception:  # noqa: BLE001 - at exit, nothing is left to tell
        pass


@atexit.register
def _close_all() -> None:
    for held in list(_SHARED.values()):
        for session, _ in held:
            _close_quietly(session)
    _SHARED.clear()
