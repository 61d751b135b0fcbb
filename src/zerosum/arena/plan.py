"""What a match or tournament plays: its :class:`ArenaConfig` (fixed before the first move, stored in the
results file as JSON) and the plan of games drawn from it, deterministically from the seed (see
:mod:`zerosum.arena.match`, which runs the plan; everything here is re-exported there)."""

from __future__ import annotations

import math
import os
import random
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Iterator

from ..errors import InvalidFileError
from .store import PlannedGame

__all__ = ["ArenaConfig", "MODES", "MAX_GAMES", "MAX_PLANNED", "pairings", "labels_for", "opening_order",
           "planned_count", "iter_plan", "plan_games"]

MODES = ("match", "round-robin", "gauntlet")
#: games per pairing in one run (``--games``)
MAX_GAMES = 100_000
#: games in the whole plan of one run (pairings x games)
MAX_PLANNED = 200_000
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
    from ..agents.registry import file_agent_parts

    seen: dict[str, int] = {}
    out = []
    for s in specs:
        if file_agent_parts(s) is not None:  # a file agent: its file name and attribute, not the whole path
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
