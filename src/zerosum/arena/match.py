"""Matches and tournaments: the plan of games, running it, and the running score.

A run is fixed by its :class:`ArenaConfig` before the first move.  :func:`plan_games` turns it into a list
of games, deterministically from the seed: for every round ``r`` (a pair of games) one opening, and for
every pairing two games from that opening with the colours swapped; each game gets its own seed, from
which both agents' seeds follow.  The plan is stored with the configuration, so ``--resume`` plays exactly
the games still missing, and the same seed always gives the same games.

The configuration and the plan live in :mod:`zerosum.arena.plan`, the checks of a run's agents and the
opening of stored runs in :mod:`zerosum.arena.runs` (both re-exported here); this module sets each move's hard
deadline and plays the plan.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.processes import MAX_JOBS
from ..errors import AgentError, GameError
from .plan import MAX_GAMES, MAX_PLANNED, ArenaConfig, iter_plan, labels_for, pairings, plan_games, planned_count
from .play import GameTask
from .runs import _file_part, canonical_game, canonical_spec, check_agents, game_file, open_run
from .stats import Sprt, fmt_summary, pair_counts, trinomial
from .store import GameRecord, PlannedGame, Store

__all__ = ["ArenaConfig", "plan_games", "iter_plan", "pairings", "labels_for", "run_arena", "Tally",
           "open_run", "check_agents", "describe_rules", "canonical_spec", "canonical_game", "game_file",
           "planned_count", "MAX_GAMES", "MAX_PLANNED", "MAX_JOBS",
           "agent_time", "deadline_for", "default_deadline", "describe_deadline", "DEADLINE_RULE", "MAX_DEADLINE"]


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


def agent_time(spec: str, limits: dict[str, Any]) -> float | None:
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
    return default_deadline(agent_time(spec, config.limits))


def describe_deadline(config: ArenaConfig, rule: bool = True) -> str:
    """The run's hard deadline in words: ``deadline per move: 1.25 s`` (with ``rule``, followed by how it
    follows from the time limit, or ``(--deadline)``)."""
    if config.deadline is not None:
        return f"deadline per move: {config.deadline:g} s" + (" (--deadline)" if rule else "")
    per = {label: deadline_for(config, spec) for label, spec in zip(labels_for(config.agents), config.agents)}
    untimed = all(agent_time(spec, config.limits) is None for spec in config.agents)
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
