"""The agent behind ``zerosum engine`` (:mod:`.engine`), loaded before the handshake is answered.

* :func:`load_agent`: the agent of a spec, and the games of ``--game``, each checked now: a game the agent
  cannot play (the homework's one-argument ``player(board)`` offered Tic-Tac-Toe) is refused at load, in the
  agent's own words, as any other load failure is (one error line, exit status 2, before the handshake);
* :func:`answers_checked`: a player function ``f(game, state)`` from an agent file has each answer checked
  before it is played, as the homework's ``player(board)`` has: anything but a legal action is a
  :class:`~zerosum.agents.homework.BadAnswer` in the arena's words (:func:`zerosum.pool.moves.refusal`: ``gs.py:player
  returned 99 (int) at the position after '1254': column 100 is outside 1..7 (action 99 is outside 0..6)``), which
  the search reports as ``info string error the agent failed: illegal move: ...`` (``malformed move: ...`` for an
  answer that is no action of the game: a string, None, a float), never as a ``bestmove`` it did not return;
* :func:`position_game`: the game a ``position`` line names, one the handshake listed; a game file is the same
  file however its path is written, and one that no ``--game`` named is never imported;
* :func:`left_threads`: the threads the agent started and left running (a file whose import starts a thread and
  then fails) never hold the program's end: the console script ends at once with its status, its last line said
  (:func:`zerosum.agents.prepare.leave`), rather than wait for them.  A Python caller of ``zerosum.cli.main`` is
  left as it is: its own end waits for them, as for any module it imports.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Any, Iterator

__all__ = ["load_agent", "answers_checked", "left_threads", "position_game"]


def load_agent(spec: str, game_specs: list[str]) -> tuple[Any, list[Any]]:
    """The agent of ``spec`` (its answers checked: :func:`answers_checked`) and the games of ``game_specs``;
    AgentError (one line) for a bad spec, a file that fails to load, or a game the agent cannot play."""
    from ..agents.registry import make_agent
    from ..games import get_game

    agent = make_agent(spec)
    games = [get_game(text) for text in game_specs]
    check: Any = getattr(agent, "check_game", None)  # an agent that plays some games only says which (cheaply)
    for game in games if callable(check) else []:
        check(game)
    answers_checked(agent)
    return agent, games


def position_game(spec: str, games: list[Any]) -> Any:
    """The game of a ``position SPEC``: one of the handshake's ``games`` (``--game``; none given: every zerosum
    game), else one GameError line.  A game file is one of them when it is the same file, class and arguments,
    however the path is written (the arena sends ``/abs/nim.py:Nim`` to an engine started with ``--game
    nim.py:Nim``): that game, loaded at the start; one no ``--game`` named is refused before anything of it runs
    (a position line never makes the engine import code)."""
    from ..errors import GameError
    from ..games import get_game
    from ..games.course_files import course_file, same_course_file

    if course_file(spec):
        found = next((g for g in games if same_course_file(spec, g.spec)), None)
        if found is None:
            raise GameError(f"{spec} is not one of this engine's games: it runs no game file a position names "
                            f"(start it with --game {spec.strip()})")
        return found
    game = get_game(spec)
    if games and game.spec not in {g.spec for g in games}:
        raise GameError(f"{spec} is not one of this engine's games: {', '.join(g.spec for g in games)}")
    return game


def answers_checked(agent: Any) -> None:
    """Make ``agent``, when it is a player function ``f(game, state)`` (not the homework's ``player(board)``,
    whose answers are checked already), raise BadAnswer for an answer that is no legal action (see the module
    doc); a legal one is played as the game numbers it (a numpy integer as its int)."""
    from ..agents.registry import FunctionAgent

    if not isinstance(agent, FunctionAgent) or agent.board is not None:
        return
    from ..agents.homework import BadAnswer
    from ..arena.play import check_action
    from ..pool.moves import refusal

    func, label = agent.func, os.path.basename(agent.spec)

    def checked(game: Any, state: Any) -> Any:
        action = func(game, state)
        legal, why = check_action(game, state, action)
        if why is None:
            return legal
        raise BadAnswer(refusal(game, state, action, label) or why, why.partition(":")[0])

    agent.func = checked


class _Left(threading.Thread):
    """The non-daemon threads an agent left running, as one thread that :func:`zerosum.agents.prepare.leave`
    ends the program for at once: alive while any of them is, and nothing of the engine's to wait for in them
    (:meth:`join` returns at once).  Never started."""

    def __init__(self, threads: list[threading.Thread]) -> None:
        super().__init__(name="zerosum-engine-agent-threads", daemon=True)
        self.left = threads

    def is_alive(self) -> bool:
        return any(t.is_alive() for t in self.left)

    def join(self, timeout: float | None = None) -> None:
        return None


@contextlib.contextmanager
def left_threads() -> Iterator[None]:
    """Within: the engine loads and runs its agent; after, however it ended (a failed load too), the
    non-daemon threads started within and still running are held (:func:`zerosum.agents.prepare.hold`), so
    that the console script does not wait for them."""
    from ..agents.prepare import hold

    before = set(threading.enumerate())
    try:
        yield
    finally:
        left = [t for t in threading.enumerate()
                if t not in before and not t.daemon and t is not threading.current_thread() and t.is_alive()]
        if left:
            hold(_Left(left))
