"""Searches that will not go as asked, said before they start.

* A search that cannot end (:func:`unbounded`): a depth search with no depth, node or time limit of its own
  (minimax; alpha-beta's ``plain=1``) on a game too large to search to its end.  ``zerosum play``, ``match``
  and ``tournament`` print the line, ``zerosum.play_game`` and ``zerosum.match`` warn with
  :class:`SearchLimitWarning`, rather than think in silence for ever; so does the search itself, called
  directly (``agent.search(game, state)``, ``agent(game, state)``: :func:`warn_search`), once per agent
  and line.  Where an entry has said it (:func:`warn_unbounded`, :func:`said`), the agent's searches do not
  say it again; the pool's workers (:mod:`zerosum.pool`) say nothing, their owner having said it.
* A node limit an agent takes none of (:func:`ignored_nodes`): under ``--nodes N`` (``limits={"nodes": N}``)
  the solver and MCTS search by time or simulations; ``match`` and ``tournament`` say so at the start
  rather than let a table read as if every agent kept to N.
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any, Iterable

__all__ = ["SEARCHABLE_CELLS", "SearchLimitWarning", "unbounded", "ignored_nodes", "warn_unbounded", "warn_search",
           "said"]

#: the most cells a game may have for a search with no depth, node or time limit to reach its end while a
#: person waits, whatever the game (Tic-Tac-Toe's 9 take plain minimax a second, Othello's 16 about a second,
#: Connect Four's 42 far longer than anyone waits): past it the warning says it may take very long
SEARCHABLE_CELLS = 12


class SearchLimitWarning(UserWarning):
    """An agent that would search to the end of a game too large for that (:func:`unbounded`), or that takes
    none of the node limit it is given (:func:`ignored_nodes`)."""


def _cells(game: Any) -> int | None:
    """The game's number of cells (its board's rows x columns; None for a game that draws no board)."""
    try:
        view = game.board_view(game.initial_state)
    except Exception:  # noqa: BLE001 - a game without a board view
        return None
    return view.rows * view.cols if view.rows and view.cols else None


def unbounded(game: Any, agent: Any, seat: str = "") -> str:
    """A one-line warning when ``agent`` searches to the end of the game -- a depth search with no depth or
    node budget and no clock of its own (minimax; alpha-beta's ``plain=1``: ``needs_budget``) -- and the game
    is too large for that (more than :data:`SEARCHABLE_CELLS` cells); else "".  ``seat``: the command-line
    option that names the agent (``--second``), for the fix; without one the fix is a spec."""
    limits = getattr(agent, "limits", None)
    if agent is None or limits is None or "depth" not in getattr(agent, "LIMITS", ()):
        return ""
    clock = "time" in agent.LIMITS and not agent.needs_budget()
    if clock or limits.depth is not None or limits.nodes is not None:
        return ""
    cells = _cells(game)
    if cells is None or cells <= SEARCHABLE_CELLS:
        return ""
    fix = f"{agent.spec}{',' if ':' in agent.spec else ':'}depth=4"
    fix = f"{seat} {fix}" if seat else repr(fix)
    return (f"Warning: {agent.spec} has no depth or node limit, so it searches to the end of the game, which "
            f"may take very long on {cells} cells (give it one, e.g. {fix})")


def ignored_nodes(agent: Any, nodes: int | None) -> str:
    """A one-line note when ``agent``, a search given a node limit of ``nodes``, takes none (its ``LIMITS``
    name other budgets but not ``nodes``: the solver, MCTS); else ""."""
    own = getattr(agent, "LIMITS", ())
    if nodes is None or not own or "nodes" in own:
        return ""
    by = " and ".join({"simulations": "sims=", "time": "time="}.get(x, f"{x}=") for x in own)
    return (f"Note: {agent.spec} takes no node limit: --nodes {nodes:,} does not bound its search (its own "
            f"{by} do{'es' if ' and ' not in by else ''}), so its nodes a move are not held to {nodes:,}")


def warn_unbounded(game: Any, agents: Any, stacklevel: int = 3) -> None:
    """:class:`SearchLimitWarning` for each of ``agents`` that :func:`unbounded` warns of (then :func:`said`:
    their searches do not say it again)."""
    for agent in agents:
        text = unbounded(game, agent)
        if text:
            warnings.warn(text.removeprefix("Warning: "), SearchLimitWarning, stacklevel=stacklevel)
            _first_time(agent, text)


def warn_search(agent: Any, game: Any) -> None:
    """Where a search starts: :class:`SearchLimitWarning` with :func:`unbounded`'s line, the first time it is
    due for this agent (not on every move, nor when an entry already :func:`said` it), pointing at the
    caller's own line (the first frame outside zerosum)."""
    text = unbounded(game, agent)
    if text and _first_time(agent, text):
        warnings.warn(text.removeprefix("Warning: "), SearchLimitWarning, stacklevel=_outside_level())


def said(game: Any, agents: Iterable[Any]) -> None:
    """Remember on each of ``agents`` (None: no agent) that its :func:`unbounded` line for ``game`` has been
    said -- printed by a face, or warned by ``match`` -- so that its searches do not say it again."""
    for agent in agents:
        text = unbounded(game, agent)
        if text:
            _first_time(agent, text)


#: the attribute on an agent holding the lines already said of it
_SAID = "_unbounded_said"
#: this package's folder: frames in it are zerosum's own, not the caller's
_HOME = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _first_time(agent: Any, text: str) -> bool:
    """True the first time ``text`` is said of ``agent`` (remembered on it), False after."""
    lines = getattr(agent, _SAID, None)
    if lines is None:
        lines = set()
        try:
            setattr(agent, _SAID, lines)
        except AttributeError:  # an object that keeps no attributes: said every time
            return True
    if text in lines:
        return False
    lines.add(text)
    return True


def _outside_level() -> int:
    """The ``stacklevel``, for a ``warnings.warn`` made by this function's caller, of the first frame outside
    zerosum (a search is entered through the wrappers of :mod:`.positions`, ``__call__`` or a trace)."""
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(_HOME):
        frame, level = frame.f_back, level + 1
    return level
