"""A run's agents, game and results file, checked: the specs as a run stores them, every agent built once
before any game, and a stored run opened.

A run names its agent and game files by their absolute paths (:func:`canonical_spec`, :func:`canonical_game`),
so it can be resumed and reported from any folder.  :func:`check_agents` builds every agent (and starts every
external engine) before the first move, and keeps the SHA-256 of every file a run depends on, so a resumed run
refuses a file that has changed; :func:`open_run` opens a stored run and checks its configuration, plan and
games (:mod:`zerosum.arena.match` runs it; everything here but :func:`engine_steps` is re-exported there).
:func:`engine_steps` lists the compiled code the run's own agents need, for a face that prepares it before the
workers do (:mod:`zerosum.commands.arena`, without a terminal).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import AgentError, GameError, InvalidFileError
from ..spec import quoted, unshowable
from .plan import ArenaConfig, labels_for, pairings
from .store import Store

__all__ = ["canonical_spec", "canonical_game", "game_file", "check_agents", "engine_steps", "open_run"]


def _file_part(spec: str) -> tuple[str, str] | None:
    """``(path, name)`` of a file agent's spec, else None."""
    from ..agents.registry import file_agent_parts

    return file_agent_parts(spec)  # minimax:eval=f.py:fn is not a file agent


def canonical_spec(spec: str) -> str:
    """The spec as a run stores it: a file agent by its absolute path and its function's name
    (``hw.py`` -> ``/abs/hw.py:player``), so a run can resume from any folder."""
    from ..agents.registry import named_file_spec

    try:
        spec = named_file_spec(spec)
    except AgentError:  # the file has no function to play with: building the agent says so, in one line
        pass
    part = _file_part(spec)
    if part is None:
        return spec
    return f"{os.path.abspath(part[0])}:{part[1]}"


def canonical_game(spec: str) -> str:
    """The game as a run stores it: a game file by its absolute path (``nim.py:Nim`` -> ``/abs/nim.py:Nim``), so
    the run can be resumed and reported from any folder; any other spec as it is."""
    from ..games.course_files import course_file

    if not course_file(spec):
        return spec
    path, sep, rest = spec.strip().partition(":")
    return f"{os.path.abspath(path)}{sep}{rest}"


def game_file(spec: str) -> str | None:
    """The file of a game spec that names one (``/abs/nim.py:Nim`` -> ``/abs/nim.py``), else None."""
    from ..games.course_files import course_file

    return spec.strip().partition(":")[0] if course_file(spec) else None


def check_agents(specs: list[str], limits: dict[str, Any], digests: dict[str, str] | None = None,
                 game: str | None = None, engines: dict[str, Any] | None = None, searched: Any = None,
                 warned: list[str] | None = None, unchecked: list[str] | None = None) -> dict[str, str]:
    """Build every agent once, before any game; returns the SHA-256 of every agent file (and of ``game``'s file).

    Raises :class:`~zerosum.errors.AgentError` (one line) for an unknown or broken agent, a person (the
    ``human`` agent cannot play in the arena), or an agent file that is missing or, when ``digests`` are
    given (a resumed run), not the file the run began with.  An external engine (:mod:`zerosum.external`)
    is started here (a command that does not start or fails its handshake fails here), checked to play
    ``game`` when given, and ended; so is any agent with a ``check_game`` (OpenSpiel's MCTS plays the games
    OpenSpiel has); ``engines`` (a dict), when given, gets what each said of itself and its latency
    (:meth:`~zerosum.external.Engine.probe`).  ``warned`` (a list), when given, gets the line of each agent
    that would search to the end of the game ``searched`` (:func:`zerosum.agents.unbounded.unbounded`) or
    takes no node limit where ``limits`` has one (:func:`~zerosum.agents.unbounded.ignored_nodes`).
    ``unchecked`` (a list), when given with ``digests``, gets a line for each agent file, and each engine, whose
    files the run recorded no digest of (an older zerosum began it), so a change to them cannot be detected.
    """
    from ..agents.base import Limits
    from ..agents.registry import make_agent
    from ..agents.simple import HumanAgent
    from ..agents.unbounded import ignored_nodes, unbounded
    from ..core.files import check_utf8, file_digest
    from ..external import Engine
    from ..games import get_game

    for text, what in ((game or "", "game"), *((spec, "agent") for spec in specs)):
        check_utf8(text, what)  # stored in SQLite and written in records
    for spec in specs:
        _check_shown(spec)  # shown in every table: refused now, not once every game is stored
    if game:
        _check_shown(game, "game")  # its spec heads every report
    lim = Limits(**limits)
    found: dict[str, str] = {}
    gfile = None if game is None else game_file(game)
    if gfile is not None and os.path.isfile(gfile):  # a game file is kept like an agent file (open_run checks it)
        found[gfile] = file_digest(gfile)
    for spec in dict.fromkeys(specs):
        part = _file_part(spec)
        if part is not None:
            path = part[0]
            if not os.path.isfile(path):
                raise AgentError(f"agent file {path!r} not found (agent {spec!r})")
            found[path] = file_digest(path)
            if digests is not None and path in digests and digests[path] != found[path]:
                raise AgentError(f"agent file {path!r} has changed since the run began (its SHA-256 differs): "
                                 "restore it, or start a new run")
            if digests is not None and path not in digests and unchecked is not None:
                unchecked.append(f"agent file {path!r}: this run recorded no digest of it (an older zerosum began "
                                 "it), so a change to the file since the run began cannot be detected")
        agent = make_agent(spec, seed=0, limits=lim)
        if isinstance(agent, HumanAgent):
            raise AgentError(f"agent {spec!r}: a human cannot play in the arena: use zerosum play")
        if warned is not None and searched is not None and (text := unbounded(searched, agent)):
            warned.append(text)
        if warned is not None and (text := ignored_nodes(agent, lim.nodes)):
            warned.append(text)
        if isinstance(agent, Engine):
            files = agent.definition.files()
            for path in files:  # a rebuilt engine is another engine: kept as agent files are
                found[path] = file_digest(path)
                if digests is not None and path in digests and digests[path] != found[path]:
                    raise AgentError(f"engine {agent.definition.name}: {path!r} has changed since the run began "
                                     "(its SHA-256 differs): restore it, or start a new run")
            if digests is not None and unchecked is not None and (missing := [f for f in files if f not in digests]):
                unchecked.append(f"engine {agent.definition.name}: this run recorded no engine digests "
                                 f"({', '.join(map(repr, missing))}: an older zerosum began it), so changes to the "
                                 "engine since the run began cannot be detected")
            try:
                if game is not None:
                    agent.check_game(get_game(game))
                if engines is not None:
                    engines[agent.definition.name] = agent.probe()
            finally:
                agent.close()  # the workers start their own
        elif game is not None and callable(check := getattr(agent, "check_game", None)):  # an agent of some games
            check(get_game(game))  # (openspiel-mcts): the others refused now, not forfeited later
    return found


def _check_shown(spec: str, what: str = "agent") -> None:
    """One AgentError line when the agent ``spec`` (``what`` "game": the game spec) as a run stores it holds a
    character no table may show (:func:`~zerosum.spec.unshowable`: an ESC, a line break, a right-to-left
    override, a zero-width space), naming the agent by its label (a game by its file's name) and saying what to
    rename; a results file refuses such an agent's name (:meth:`.Store.agents`)."""
    why = unshowable(spec)
    if why is None:
        return
    path = game_file(spec) if what == "game" else (_file_part(spec) or (None,))[0]
    label = labels_for([spec])[0] if what == "agent" else spec
    if path is not None and what == "game" and unshowable(spec[len(path):]) is None:
        label = os.path.basename(path) + spec[len(path):]  # its file's name: the folder is named apart
    if path is not None and unshowable(label) is None:  # in the folder's name
        folder = os.path.dirname(path)
        raise AgentError(f"{what} {quoted(label, 200)}: its folder {quoted(folder, 200)} holds {why}, which no table "
                         "may show: move the file, or rename the folder")
    rename = ": rename the file" if path is not None and unshowable(os.path.basename(path)) else ""
    raise AgentError(f"{what} {quoted(label, 200)} holds {why}, which no table may show{rename}")


def engine_steps(specs: list[str], game: str, limits: dict[str, Any]) -> list[Any]:
    """The steps of compiled code (:mod:`zerosum.agents.prepare`) the agents ``specs`` need to play ``game`` (a
    spec) under ``limits``, each once, numba's start first; none for an agent file (its code is the student's)
    or an external engine (it prepares in its own process, at its ``newgame``).  An agent that cannot be built
    adds none: the run says why (:func:`check_agents` built them all before)."""
    from ..agents.base import Limits
    from ..agents.prepare import steps_of
    from ..agents.registry import make_agent
    from ..external.names import engine_of
    from ..games import get_game

    steps: list[Any] = []
    try:
        board = get_game(game)
    except GameError:  # the run says why
        return []
    for spec in dict.fromkeys(specs):
        if _file_part(spec) is not None or engine_of(spec) is not None:
            continue
        try:
            needs = steps_of(make_agent(spec, seed=0, limits=Limits(**limits)), board)
        except GameError:
            continue
        steps += [s for s in needs if s not in steps]
    return steps


def open_run(path: str | Path, *, lock: bool = False) -> tuple[Store, ArenaConfig]:
    """The store and configuration of the run in ``path``, checked: a configuration of the right shape, a
    playable game, a plan that matches the configuration and its agents, stored games that were planned.
    Anything else is one :class:`~zerosum.errors.InvalidFileError` line (the file is not changed)."""
    from ..core.files import file_digest
    from ..games import get_game
    from ..records.trust import stored_game
    from .openings import parse_opening

    name = str(path)
    store = Store(path, lock=lock)
    try:
        if store.is_empty():
            raise InvalidFileError(f"results file {name!r} holds no run")
        where = f"results file {name!r}"
        config = ArenaConfig.from_json(store.meta("config"), where)
        gfile = game_file(config.game)
        if gfile is not None and gfile in config.digests and os.path.isfile(gfile) \
                and file_digest(gfile) != config.digests[gfile]:
            raise InvalidFileError(f"{where}: its game file {gfile!r} has changed since the run began (its SHA-256 "
                                   "differs): restore it, or start a new run")
        try:  # a run resumed (lock) plays its game; a reader (report, export) never runs a game file: None
            game = get_game(config.game) if lock else stored_game(config.game)
        except GameError as exc:
            raise InvalidFileError(f"{where}: its game cannot be played: {exc}") from None
        agents = store.agents()
        if [s for _, s in agents] != config.agents:
            raise InvalidFileError(f"{where}: its agents table does not match its configuration")
        plan = store.plan()
        n_pairs = len(pairings(config.mode, len(config.agents)))
        if not plan or [g.idx for g in plan] != list(range(len(plan))) or any(
            not (0 <= g.pairing < n_pairs and 0 <= g.first < len(agents) and 0 <= g.second < len(agents))
            for g in plan
        ):
            raise InvalidFileError(f"{where}: its plan of games is missing or malformed")
        for opening in {g.opening for g in plan} if game is not None else ():  # a game file's: not made
            try:
                parse_opening(game, opening)  # type: ignore[arg-type]  # (not None here)
            except GameError as exc:
                raise InvalidFileError(f"{where}: a planned opening cannot be played: {exc}") from None
        stray = store.done() - set(range(len(plan)))
        if stray:
            raise InvalidFileError(f"{where}: it stores game {min(stray)}, which is not in its plan")
    except BaseException:
        store.close()
        raise
    return store, config
