"""Matches and tournaments: the plan of games, running it, and the running score.

A run is fixed by its :class:`ArenaConfig` before the first move.  :func:`plan_games` turns it into a list
of games, deterministically from the seed: for every round ``r`` (a pair of games) one opening, and for
every pairing two games from that opening with the colours swapped; each game gets its own seed, from
which both agents' seeds follow.  The plan is stored with the configuration, so ``--resume`` plays exactly
the games still missing, and the same seed always gives the same games.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Iterator

from ..core.processes import MAX_JOBS
from ..errors import AgentError, GameError, InvalidFileError
from .play import GameTask
from .stats import Sprt, fmt_elo, pair_counts, trinomial
from .store import GameRecord, PlannedGame, Store

__all__ = ["ArenaConfig", "plan_games", "iter_plan", "pairings", "labels_for", "run_arena", "Tally",
           "open_run", "check_agents", "canonical_spec", "planned_count", "MAX_GAMES", "MAX_PLANNED", "MAX_JOBS",
           "deadline_for", "default_deadline", "describe_deadline", "DEADLINE_RULE"]

MODES = ("match", "round-robin", "gauntlet")
#: games per pairing in one run (``--games``)
MAX_GAMES = 100_000
#: games in the whole plan of one run (pairings x games)
MAX_PLANNED = 200_000
#: games played at once (``--jobs``): worker processes


@dataclass
class ArenaConfig:
    """Everything that decides which games a run plays (stored in the results file as JSON)."""

    game: str
    agents: list[str]
    games: int  # per pairing
    seed: int = 0
    mode: str = "match"
    openings: list[str] = field(default_factory=lambda: ["-"])  # in the game's notation
    openings_source: str = "start position"
    order: str = "random"  # or "sequential"
    limits: dict[str, Any] = field(default_factory=dict)  # depth / nodes / time handed to every agent
    deadline: float | None = None  # hard seconds per move (None: default_deadline of each agent's time limit)
    grace: float = 30.0
    sprt: list[float] | None = None  # elo0, elo1, alpha, beta
    tc: list[float] | None = None  # game clock: [base, increment] seconds (--tc 10+0.1; clock.py)
    adjudicate: dict[str, Any] | None = None  # {"solver": nodes, "draw": moves} (--adjudicate; adjudicate.py)

    digests: dict[str, str] = field(default_factory=dict)  # agent file (absolute path) -> its sha256

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any, where: str = "the stored configuration") -> "ArenaConfig":
        """The configuration a results file holds; InvalidFileError (naming ``where``) when it is not one."""
        if not isinstance(data, dict):
            raise InvalidFileError(f"{where}: the configuration is not a JSON object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in known)
        missing = [k for k in ("game", "agents", "games") if k not in data]
        if unknown or missing:
            what = f"missing {', '.join(map(repr, missing))}" if missing else f"unknown {', '.join(map(repr, unknown))}"
            raise InvalidFileError(f"{where}: the configuration has {what}")
        config = cls(**data)
        why = config.problem()
        if why is not None:
            raise InvalidFileError(f"{where}: the configuration's {why}")
        return config

    def problem(self) -> str | None:
        """What is wrong with this configuration's values (types, ranges), or None."""

        def num(x: Any) -> bool:
            return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

        def strings(x: Any) -> bool:
            return isinstance(x, list) and bool(x) and all(isinstance(v, str) for v in x)

        checks = [
            ("game", isinstance(self.game, str), "a game spec"),
            ("mode", self.mode in MODES, f"one of {', '.join(MODES)}"),
            ("agents", strings(self.agents) and len(self.agents) >= 2 and (self.mode != "match" or len(self.agents) == 2),
             "a list of agent specs (two for a match)"),
            ("games", type(self.games) is int and 1 <= self.games <= MAX_GAMES, f"a whole number in 1..{MAX_GAMES}"),
            ("seed", type(self.seed) is int and abs(self.seed) < 2**63, "a whole number"),
            ("openings", strings(self.openings), "a list of openings"),
            ("openings_source", isinstance(self.openings_source, str), "text"),
            ("order", self.order in ("random", "sequential"), "random or sequential"),
            ("limits", isinstance(self.limits, dict) and set(self.limits) <= {"depth", "nodes", "time"}
             and all(v is None or num(v) for v in self.limits.values()), "depth, nodes and time"),
            ("deadline", self.deadline is None or (num(self.deadline) and self.deadline > 0), "a number > 0"),
            ("grace", num(self.grace) and self.grace >= 0, "a number >= 0"),
            ("sprt", self.sprt is None or (isinstance(self.sprt, list) and len(self.sprt) == 4 and all(map(num, self.sprt))),
             "four numbers"),
            ("digests", isinstance(self.digests, dict) and all(isinstance(k, str) and isinstance(v, str)
                                                               for k, v in self.digests.items()), "file digests"),
        ]
        for name, ok, expect in checks:
            if not ok:
                return f"{name!r} is not {expect}"
        from .adjudicate import adjudicate_problem
        from .clock import tc_problem

        why = ("tc", self.tc is not None and tc_problem(self.tc)), ("adjudicate", adjudicate_problem(self.adjudicate))
        return next((f"{name!r} is wrong: {text}" for name, text in why if text), None)


def pairings(mode: str, n: int) -> list[tuple[int, int]]:
    """Agent index pairs that meet: one pair for a match, all pairs for a round robin, the first agent
    against every other for a gauntlet."""
    if mode == "match":
        return [(0, 1)]
    if mode == "gauntlet":
        return [(0, j) for j in range(1, n)]
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def labels_for(specs: list[str]) -> list[str]:
    """Unique display names: the spec, with ``#2``, ``#3``... for repeats."""
    seen: dict[str, int] = {}
    out = []
    for s in specs:
        if _file_part(s) is not None:  # a file agent: its file name and attribute, not the whole path
            path, _, attr = s.rpartition(":")
            s = f"{os.path.basename(path)}:{attr}"
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


def _game_seed(seed: int, pairing: int, rnd: int, k: int) -> int:
    return random.Random(f"zerosum-game/{seed}/{pairing}/{rnd}/{k}").getrandbits(31)


def opening_order(config: ArenaConfig, rounds: int) -> list[int]:
    """Which opening each round uses: shuffled from the seed (a new shuffle each pass) or in file order."""
    n = len(config.openings)
    if config.order == "sequential":
        return [r % n for r in range(rounds)]
    rng = random.Random(f"zerosum-order/{config.seed}")
    order: list[int] = []
    while len(order) < rounds:
        deck = list(range(n))
        rng.shuffle(deck)
        order.extend(deck)
    return order[:rounds]


def planned_count(mode: str, agents: int, games: int) -> int:
    """How many games a run plans: games per pairing times pairings."""
    n = {"match": 1, "gauntlet": agents - 1}.get(mode, agents * (agents - 1) // 2)
    return n * games


def iter_plan(config: ArenaConfig) -> Iterator[PlannedGame]:
    """Every game of the run, rounds outermost so that all pairings progress together (one at a time)."""
    pairs = pairings(config.mode, len(config.agents))
    rounds = math.ceil(config.games / 2)
    order = opening_order(config, rounds)
    idx = 0
    for r in range(rounds):
        opening = config.openings[order[r]]
        for p, (a, b) in enumerate(pairs):
            for k in range(2):
                if 2 * r + k >= config.games:
                    break
                first, second = (a, b) if k == 0 else (b, a)
                yield PlannedGame(idx, r, p, first, second, opening, _game_seed(config.seed, p, r, k))
                idx += 1


def plan_games(config: ArenaConfig) -> list[PlannedGame]:
    """Every game of the run (:func:`iter_plan` as a list)."""
    return list(iter_plan(config))


# ---- agents and stored runs -------------------------------------------------------------------------


def _file_part(spec: str) -> tuple[str, str] | None:
    """``(path, name)`` of a file agent's spec, else None."""
    from ..agents.registry import file_agent_parts

    return file_agent_parts(spec)  # minimax:eval=f.py:fn is not a file agent


def canonical_spec(spec: str) -> str:
    """The spec as a run stores it: a file agent by its absolute path, so a run can resume from any folder."""
    part = _file_part(spec)
    if part is None:
        return spec
    return f"{os.path.abspath(part[0])}:{part[1]}"


def check_agents(specs: list[str], limits: dict[str, Any], digests: dict[str, str] | None = None) -> dict[str, str]:
    """Build every agent once, before any game; returns the SHA-256 of every agent file.

    Raises :class:`~zerosum.errors.AgentError` (one line) for an unknown or broken agent, a person (the
    ``human`` agent cannot play in the arena), or an agent file that is missing or, when ``digests`` are
    given (a resumed run), not the file the run began with.
    """
    from ..agents.base import Limits
    from ..agents.registry import make_agent
    from ..agents.simple import HumanAgent
    from ..core.files import file_digest

    lim = Limits(**limits)
    found: dict[str, str] = {}
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
    return found


def open_run(path: str | Path, *, lock: bool = False) -> tuple[Store, ArenaConfig]:
    """The store and configuration of the run in ``path``, checked: a configuration of the right shape, a
    playable game, a plan that matches the configuration and its agents, stored games that were planned.
    Anything else is one :class:`~zerosum.errors.InvalidFileError` line (the file is not changed)."""
    from ..games import get_game
    from .openings import parse_opening

    name = str(path)
    store = Store(path, lock=lock)
    try:
        if store.is_empty():
            raise InvalidFileError(f"results file {name!r} holds no run")
        where = f"results file {name!r}"
        config = ArenaConfig.from_json(store.meta("config"), where)
        try:
            game = get_game(config.game)
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
        for opening in {g.opening for g in plan}:
            try:
                parse_opening(game, opening)
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
    return f"deadline per move: {text}" + (f" ({how})" if rule else "")


def tasks_for(config: ArenaConfig, plan: list[PlannedGame], skip: set[int]) -> list[GameTask]:
    deadlines = {s: deadline_for(config, s) for s in set(config.agents)}
    limits = tuple(sorted((k, v) for k, v in config.limits.items() if v is not None))
    out = []
    for g in plan:
        if g.idx in skip:
            continue
        a, b = config.agents[g.first], config.agents[g.second]
        out.append(GameTask(g.idx, config.game, a, b, g.opening, g.seed, limits, (deadlines[a], deadlines[b]),
                            (config.tc[0], config.tc[1]) if config.tc else None, tuple(sorted((config.adjudicate or {}).items()))))
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
                text += f"  Elo {fmt_elo(s.elo)} ± {fmt_elo(s.error, sign=False)}"
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
    todo = tasks_for(config, plan, done)
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

    if todo and not decided[0]:
        runner.run(todo, on_record, stop=lambda: decided[0])
    return tally
