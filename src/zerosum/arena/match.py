"""Matches and tournaments: the plan of games, running it, and the running score.

A run is fixed by its :class:`ArenaConfig` before the first move.  :func:`plan_games` turns it into a list
of games, deterministically from the seed: for every round ``r`` (a pair of games) one opening, and for
every pairing two games from that opening with the colours swapped; each game gets its own seed, from
which both agents' seeds follow.  The plan is stored with the configuration, so ``--resume`` plays exactly
the games still missing, and the same seed always gives the same games.

The configuration and the plan live in :mod:`zerosum.arena.plan` (re-exported here); this module checks a
run's agents, opens stored runs, sets each move's hard deadline and plays the plan.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

from ..core.processes import MAX_JOBS
from ..errors import AgentError, GameError, InvalidFileError
from .plan import MAX_GAMES, MAX_PLANNED, ArenaConfig, iter_plan, labels_for, pairings, plan_games, planned_count
from .play import GameTask
from .stats import Sprt, fmt_summary, pair_counts, trinomial
from .store import GameRecord, PlannedGame, Store

__all__ = ["ArenaConfig", "plan_games", "iter_plan", "pairings", "labels_for", "run_arena", "Tally",
           "open_run", "check_agents", "describe_rules", "canonical_spec", "canonical_game", "game_file",
           "planned_count", "MAX_GAMES", "MAX_PLANNED", "MAX_JOBS",
           "deadline_for", "default_deadline", "describe_deadline", "DEADLINE_RULE", "MAX_DEADLINE"]

# ---- agents and stored runs -------------------------------------------------------------------------


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
                 warned: list[str] | None = None) -> dict[str, str]:
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
        agent = make_agent(spec, seed=0, limits=lim)
        if isinstance(agent, HumanAgent):
            raise AgentError(f"agent {spec!r}: a human cannot play in the arena: use zerosum play")
        if warned is not None and searched is not None and (text := unbounded(searched, agent)):
            warned.append(text)
        if warned is not None and (text := ignored_nodes(agent, lim.nodes)):
            warned.append(text)
        if isinstance(agent, Engine):
            for path in agent.definition.files():  # a rebuilt engine is another engine: kept as agent files are
                found[path] = file_digest(path)
                if digests is not None and path in digests and digests[path] != found[path]:
                    raise AgentError(f"engine {agent.definition.name}: {path!r} has changed since the run began "
                                     "(its SHA-256 differs): restore it, or start a new run")
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


#: the hard deadline of a move under a time limit T is T plus the larger of DEADLINE_MARGIN seconds and
#: DEADLINE_SHARE x T (engine testers: cutechess-cli and fastchess forfeit a move over its time, less an optional
#: ``timemargin``; a Python agent needs a little for its last check of the clock and the message home)
DEADLINE_MARGIN = 0.25
DEADLINE_SHARE = 0.10
#: the hard deadline of a move without a time limit (and without ``--deadline``)
UNTIMED_DEADLINE = 60.0
#: the longest hard deadline a run may set (``--deadline``, ``zerosum.match(deadline=)``): two hours
MAX_DEADLINE = 7200.0
#: how the default deadline is stated (help texts, docs, the run's header)
DEADLINE_RULE = (f"the time limit + max({DEADLINE_MARGIN:g} s, {100 * DEADLINE_SHARE:g}%), "
                 f"else {UNTIMED_DEADLINE:g} s")


def default_deadline(time_limit: float | None) -> float:
    """The hard deadline of a move under ``time_limit`` seconds (None: no time limit), by :data:`DEADLINE_RULE`."""
    if not time_limit:
        return UNTIMED_DEADLINE
    return round(time_limit + max(DEADLINE_MARGIN, DEADLINE_SHARE * time_limit), 6)


def _time_of(spec: str, limits: dict[str, Any]) -> float | None:
    """An agent's time limit: its spec's ``time=`` option, else the run's ``--time`` (nothing is built or run:
    a file agent has the run's)."""
    from ..spec import parse_spec

    t = limits.get("time")
    if _file_part(spec) is not None:
        return t
    try:
        _, raw = parse_spec(spec, AgentError)
        return float(raw["time"]) if "time" in raw else t
    except (GameError, ValueError):
        return t


def deadline_for(config: ArenaConfig, spec: str) -> float:
    """The hard per-move deadline of an agent: ``--deadline``, else :func:`default_deadline` of its time limit
    (its spec's ``time=``, else the run's ``--time``)."""
    if config.deadline is not None:
        return config.deadline
    return default_deadline(_time_of(spec, config.limits))


def describe_deadline(config: ArenaConfig, rule: bool = True) -> str:
    """The run's hard deadline in words: ``deadline per move: 1.25 s`` (with ``rule``, followed by how it
    follows from the time limit, or ``(--deadline)``)."""
    if config.deadline is not None:
        return f"deadline per move: {config.deadline:g} s" + (" (--deadline)" if rule else "")
    per = {label: deadline_for(config, spec) for label, spec in zip(labels_for(config.agents), config.agents)}
    untimed = all(_time_of(spec, config.limits) is None for spec in config.agents)
    if len(set(per.values())) == 1:
        text = f"{next(iter(per.values())):g} s"
    else:
        text = ", ".join(f"{label} {d:g} s" for label, d in per.items())
    how = "no time limit" if untimed else DEADLINE_RULE
    if config.tc:  # the clock's time left bounds a move first; this deadline is the most any move gets
        how = "or the clock's time left, when less" if untimed else f"{how}; or the clock's time left, when less"
    return f"deadline per move: {text}" + (f" ({how})" if rule else "")


def describe_rules(config: ArenaConfig, rule: bool = True) -> list[str]:
    """The run's clock and adjudication in words (nothing when it has neither): the live header's lines, and
    without ``rule`` (the report's header) the time control without what it means."""
    from .adjudicate import describe_adjudication
    from .clock import format_tc

    lines = []
    if config.tc:
        lines.append(f"time control {format_tc(config.tc)}" + (": a player whose clock runs out loses on time"
                                                                 if rule else ""))
    if config.adjudicate:
        lines.append(describe_adjudication(config.adjudicate))
    return lines


def tasks_for(config: ArenaConfig, plan: list[PlannedGame], skip: set[int], move_cpu: Any = None) -> list[GameTask]:
    """The games of ``plan`` still to play; ``move_cpu``: the run's ``--move-cpu`` (stored with the run)."""
    from ..external.names import definitions_for

    deadlines = {s: deadline_for(config, s) for s in set(config.agents)}
    engines = definitions_for(config.agents)  # the run's named engines, registered in each worker
    cpu = float(move_cpu) if isinstance(move_cpu, (int, float)) and not isinstance(move_cpu, bool) and move_cpu > 0 else None
    limits = tuple(sorted((k, v) for k, v in config.limits.items() if v is not None))
    out = []
    for g in plan:
        if g.idx in skip:
            continue
        a, b = config.agents[g.first], config.agents[g.second]
        out.append(GameTask(g.idx, config.game, a, b, g.opening, g.seed, limits, (deadlines[a], deadlines[b]),
                            (config.tc[0], config.tc[1]) if config.tc else None, tuple(sorted((config.adjudicate or {}).items())),
                            cpu, engines))
    return out


class Tally:
    """The running score of a run, kept as games finish (for the progress display and the SPRT)."""

    def __init__(self, config: ArenaConfig, plan: list[PlannedGame]) -> None:
        self.config = config
        self.plan = {g.idx: g for g in plan}
        n = len(config.agents)
        self.points = [0.0] * n
        self.played = [0] * n
        self.wdl = [0, 0, 0]  # pairing 0, from its first agent's view
        self.forfeits = 0
        self.pair_scores: dict[tuple[int, int], list[float]] = {}  # (pairing, round) -> scores of agent a

    def add(self, rec: GameRecord) -> None:
        g = self.plan[rec.idx]
        score_first = {"1-0": 1.0, "0-1": 0.0}.get(rec.result, 0.5)
        self.points[g.first] += score_first
        self.points[g.second] += 1.0 - score_first
        self.played[g.first] += 1
        self.played[g.second] += 1
        self.forfeits += rec.forfeit
        a = pairings(self.config.mode, len(self.config.agents))[g.pairing][0]
        score_a = score_first if g.first == a else 1.0 - score_first
        if g.pairing == 0:
            self.wdl[0 if score_a == 1.0 else 1 if score_a == 0.5 else 2] += 1
        self.pair_scores.setdefault((g.pairing, g.round), []).append(score_a)

    def pentanomial(self, pairing: int = 0) -> list[int]:
        return pair_counts(sum(v) for (p, _), v in self.pair_scores.items() if p == pairing and len(v) == 2)

    def sprt_state(self) -> tuple[float, str | None] | None:
        if not self.config.sprt:
            return None
        sprt = Sprt(*self.config.sprt)
        llr = sprt.llr((0.0, 0.25, 0.5, 0.75, 1.0), self.pentanomial())
        return llr, sprt.decide(llr)

    def describe(self) -> str:
        """One line: the running score (match) or the leader (tournament)."""
        names = labels_for(self.config.agents)
        if self.config.mode == "match":
            w, d, l = self.wdl
            s = trinomial(w, d, l)
            text = f"{names[0]} {self.points[0]:g} - {self.points[1]:g} {names[1]}  (+{w} ={d} -{l})"
            if s.n:
                text += f"  Elo {fmt_summary(s)}"
            st = self.sprt_state()
            if st is not None:
                text += f"  LLR {st[0]:+.2f}"
            return text
        best = max(range(len(names)), key=lambda i: (self.points[i] / self.played[i]) if self.played[i] else -1)
        if not self.played[best]:
            return "starting"
        return f"leader {names[best]} {self.points[best]:g}/{self.played[best]}"


def run_arena(
    store: Store,
    config: ArenaConfig,
    runner: Any,
    progress: Callable[[int, int, str], None] | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
) -> Tally:
    """Play every planned game not yet in ``store`` (writing each as it ends); stop early when the SPRT
    decides.  ``progress(done, total, text)`` is called after each game; ``on_game(rec)`` with each game
    once it is stored (``--pgnout``: :meth:`zerosum.records.Writer.game_hook`)."""
    plan = store.plan()
    tally = Tally(config, plan)
    for rec in store.games():
        tally.add(rec)
    done = store.done()
    todo = tasks_for(config, plan, done, store.meta("move_cpu"))
    total = len(plan)
    count = [len(done)]
    decided = [False]
    st = tally.sprt_state()
    if st is not None and st[1] is not None:
        decided[0] = True
    if progress is not None:
        progress(count[0], total, tally.describe())

    def on_record(task: GameTask, rec: GameRecord) -> None:
        if decided[0]:
            return  # the test already decided: games still finishing are not counted
        g = tally.plan[rec.idx]
        if rec.winner is not None:  # the runner speaks of seats; the file of agents
            rec.winner = g.first if rec.winner == 1 else g.second
        store.add_game(rec)
        if on_game is not None:
            on_game(rec)
        tally.add(rec)
        count[0] += 1
        st = tally.sprt_state()
        if st is not None and st[1] is not None:
            decided[0] = True
            store.set_meta("sprt", {"llr": st[0], "decision": st[1], "games": count[0]})
        if progress is not None:
            progress(count[0], total, tally.describe())

    def watch(task: GameTask, plies: int) -> None:  # no silent hours: a game that has not ended says so
        if progress is not None and not decided[0]:
            progress(count[0], total, f"{tally.describe()} · {long_game(config.game, task.idx, plies)}")

    if todo and not decided[0]:
        runner.run(todo, on_record, stop=lambda: decided[0], watch=watch)
    return tally


def long_game(game: str, idx: int, plies: int) -> str:
    """What the progress line says of game ``idx`` (from 0) still in flight after ``plies`` moves."""
    from ..games.course import MAX_PLIES
    from ..games.course_files import course_file

    limit = (f"a game from a file or a class that never ends stops the run at {MAX_PLIES:,} plies; "
             if course_file(game) else "")
    return f"game {idx + 1} has lasted {plies:,} plies ({limit}--adjudicate draw=N scores a draw after N moves)"
