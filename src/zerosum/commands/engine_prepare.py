"""The preparation behind ``zerosum engine`` (:mod:`.engine`): the agent's compiled code for a game, loaded or
compiled in the background (:mod:`zerosum.agents.prepare`) from the moment the game is known (``--game``: at
start-up; else at the game's first ``position``), so that the engine goes on reading its commands meanwhile.

* :class:`Preparations` starts each game's steps, then the agent's own warm-up for the game (the solver maps
  its table there) in a thread of its own; a game is :meth:`~Preparations.done` after both.  The engine forks
  its search process only while :meth:`~Preparations.quiet` (nothing is being prepared and no thread of the
  engine's runs), so that a fork copies no lock held midway (numba's compiler's, a solver's);
* :meth:`Preparations.words` says what a wait is for, in the prepare module's own words (``preparing the
  engine (the solver's 128-bit search), first run only: compiling for 12 s, about 8 s more``), and
  :class:`Wait` when to say it again: at once and every :data:`SAY_EVERY` seconds.  The engine says it in
  ``info string`` lines only, never on standard error, which a contest reads as the engine's crash report
  (the command is one of ``zerosum.cli.OWN_WAITS``).
"""

from __future__ import annotations

import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field
from typing import Any

from ..agents.prepare import Step, pending, ready, seconds, start, status, steps_of

__all__ = ["Preparations", "Wait", "SAY_EVERY", "POLL"]

#: seconds between two ``info string`` lines while a wait for the preparation goes on
SAY_EVERY = 5.0
#: seconds between two looks at a preparation under way (the engine's input is read all the while)
POLL = 0.05


@dataclass
class _Game:
    game: Any
    steps: list[Step]
    warm_up: threading.Thread | None = None  # the agent's own warm-up, once the steps are done
    done: bool = False
    error: str | None = None


@dataclass
class Wait:
    """A wait for the preparation of ``game`` (an ``isready``'s or a ``go``'s), and what the engine then does
    (``then``, said after the preparation's words)."""

    game: Any
    then: str
    since: float = field(default_factory=time.perf_counter)
    said: float | None = None  # when it was said last

    def due(self, now: float) -> bool:
        return self.said is None or now - self.said >= SAY_EVERY

    def next(self) -> float:
        """When it is to be said next (``time.perf_counter``)."""
        return self.since if self.said is None else self.said + SAY_EVERY


class Preparations:
    """The compiled code ``agent`` needs for each game it is asked to play, prepared in the background (``games``:
    from the start)."""

    def __init__(self, agent: Any, games: list[Any]) -> None:
        self.agent = agent
        self.games: dict[str, _Game] = {}
        self.threads: list[Any] = []  # the searches in threads of the engine (``alive()``) that may still run
        self.refused: set[str] = set()  # the games whose preparation could not start, said so
        for game in games:  # begun now; a game the agent cannot play (or that cannot begin) says so at its position
            with suppress(Exception):
                self.begin(game, tell=False)

    def begin(self, game: Any, tell: bool = True) -> str | None:
        """Start preparing ``game`` (nothing when begun before); raises what the agent says of a game it cannot
        play.  An agent without compiled code is warmed up here and now (a file's player checks the game).

        None, or why its preparation cannot start, the first time a call that may ``tell`` meets it: no thread to
        be had (a full process limit, which counts threads).  The game is then not begun, so it counts as
        prepared (each search prepares what it needs), and the next call tries again."""
        if game.spec in self.games:
            return None
        steps = steps_of(self.agent, game)
        if not steps:
            self.agent.warm_up(game)
            self.games[game.spec] = _Game(game, steps, done=True)
            return None
        try:
            start(steps)
        except RuntimeError as exc:
            if not tell or game.spec in self.refused:
                return None
            self.refused.add(game.spec)
            return f"cannot prepare {game.spec} in the background ({exc}): each search prepares what it needs"
        self.games[game.spec] = _Game(game, steps)
        return None

    def done(self, game: Any) -> bool:
        """Whether ``game``'s code is loaded and the agent warmed up for it (True for a game not begun)."""
        prepared = self.games.get(game.spec)
        return prepared is None or prepared.done

    def add(self, search: Any) -> None:
        """A search in a thread of the engine (``alive()`` while it runs)."""
        self.threads.append(search)

    def quiet(self) -> bool:
        """Whether a search process may be forked now: no step under way, no warm-up nor search thread running."""
        self.threads = [t for t in self.threads if t.alive()]
        return not self.threads and all(g.done for g in self.games.values()) and not pending()

    def poll(self) -> tuple[bool, list[str]]:
        """Move the preparations on: each game whose steps are done gets the agent's own warm-up, in a thread,
        when no search thread runs (its agent is another, but a solver's table is shared).  Whether a game got
        done now, and the errors of the warm-ups that failed (the search meets them again and says so)."""
        finished, errors = False, []
        self.threads = [t for t in self.threads if t.alive()]
        for prepared in self.games.values():
            if prepared.done:
                continue
            if prepared.warm_up is None and ready(prepared.steps) and not self.threads:
                prepared.warm_up = _warm_up(self.agent, prepared)
            elif prepared.warm_up is not None and not prepared.warm_up.is_alive():
                prepared.done = finished = True
                if prepared.error is not None:
                    errors.append(prepared.error)
        return finished, errors

    def busy(self) -> bool:
        """Whether something is still to come: a preparation not done, or a thread of the engine's running."""
        return not self.quiet()

    def words(self, wait: Wait, now: float) -> str:
        """What ``wait`` waits for, then what the engine does after it (``wait.then``)."""
        prepared = self.games.get(wait.game.spec)
        needs = [s for s in prepared.steps if not s.ready] if prepared is not None else []
        said = (status(wait.since, now, needs) if needs else None) or status(wait.since, now)
        if said is None:  # nothing under way yet (its step is next), or the agent's own warm-up
            what = f"preparing the engine ({needs[0].label if needs else 'warming the agent up'})" \
                if not self.done(wait.game) else "waiting for the search before to end"
            said = f"{what}: {seconds(now - wait.since)}"
        return f"{said}; {wait.then}"


def _warm_up(agent: Any, prepared: _Game) -> threading.Thread:
    """``agent.warm_up`` for ``prepared``'s game in a daemon thread (started, unless no thread can be had), its
    failure kept in ``prepared``."""

    def work() -> None:
        try:
            agent.warm_up(prepared.game)
        except Exception as exc:  # noqa: BLE001 - said as an error line; the search meets it again
            prepared.error = f"preparing {prepared.game.spec} failed: {type(exc).__name__}: {exc}"

    thread = threading.Thread(target=work, name="zerosum-engine-warm-up", daemon=True)
    try:
        thread.start()
    except RuntimeError as exc:  # no thread to be had (a full process limit): not alive, so done at once
        prepared.error = f"cannot warm the agent up for {prepared.game.spec} ({exc}): its search does it"
    return thread
