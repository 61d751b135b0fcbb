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
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ..errors import GameError
from .play import GameTask
from .stats import Sprt, fmt_elo, pair_counts, trinomial
from .store import GameRecord, PlannedGame, Store

__all__ = ["ArenaConfig", "plan_games", "pairings", "labels_for", "run_arena", "Tally"]

MODES = ("match", "round-robin", "gauntlet")


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
    deadline: float | None = None  # hard seconds per move (None: from the time limit, else 60)
    grace: float = 30.0
    sprt: list[float] | None = None  # elo0, elo1, alpha, beta

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ArenaConfig":
        return cls(**data)


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
        if ".py:" in s:  # a file agent: its file name and attribute, not the whole path
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


def plan_games(config: ArenaConfig) -> list[PlannedGame]:
    """Every game of the run, rounds outermost so that all pairings progress together."""
    pairs = pairings(config.mode, len(config.agents))
    rounds = math.ceil(config.games / 2)
    order = opening_order(config, rounds)
    plan: list[PlannedGame] = []
    for r in range(rounds):
        opening = config.openings[order[r]]
        for p, (a, b) in enumerate(pairs):
            for k in range(2):
                if 2 * r + k >= config.games:
                    break
                first, second = (a, b) if k == 0 else (b, a)
                plan.append(PlannedGame(len(plan), r, p, first, second, opening, _game_seed(config.seed, p, r, k)))
    return plan


def deadline_for(config: ArenaConfig, spec: str) -> float:
    """The hard per-move deadline of an agent: ``--deadline``, else twice its time limit plus a second,
    else 60 seconds."""
    if config.deadline is not None:
        return config.deadline
    t = config.limits.get("time")
    try:
        from ..agents.base import Limits, make_agent

        agent = make_agent(spec, seed=0, limits=Limits(**config.limits))
        t = agent.limits.time if agent.limits.time is not None else t
    except GameError:
        pass
    return 2.0 * t + 1.0 if t else 60.0


def tasks_for(config: ArenaConfig, plan: list[PlannedGame], skip: set[int]) -> list[GameTask]:
    deadlines = {s: deadline_for(config, s) for s in set(config.agents)}
    limits = tuple(sorted((k, v) for k, v in config.limits.items() if v is not None))
    out = []
    for g in plan:
        if g.idx in skip:
            continue
        a, b = config.agents[g.first], config.agents[g.second]
        out.append(GameTask(g.idx, config.game, a, b, g.opening, g.seed, limits, (deadlines[a], deadlines[b])))
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
) -> Tally:
    """Play every planned game not yet in ``store`` (writing each as it ends); stop early when the SPRT
    decides.  ``progress(done, total, text)`` is called after each game."""
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

