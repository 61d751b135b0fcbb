"""Results in SQLite: the run's configuration, its plan of games, and every finished game.

Tables:

- ``meta(key, value)``: ``config`` (JSON: game, agents, games, seed, limits, ...), ``schema``, ``sprt``
  (the decision, once made);
- ``agents(id, label, spec)``;
- ``plan(idx, round, pairing, first, second, opening, seed)``: every game the run will play, fixed from
  the seed before the first move, so a resumed run plays exactly the games still missing;
- ``games(idx, ...)``: one row per finished game, written (and committed) the moment it ends.  ``idx`` is
  the primary key, so no game can be stored twice.

The file is opened in WAL mode: a process killed at any moment leaves every committed game intact.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ..errors import GameError

__all__ = ["Store", "PlannedGame", "GameRecord", "SCHEMA_VERSION"]

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agents (id INTEGER PRIMARY KEY, label TEXT NOT NULL, spec TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS plan (
    idx INTEGER PRIMARY KEY,
    round INTEGER NOT NULL,      -- the pair number within the pairing (same opening, colours swapped)
    pairing INTEGER NOT NULL,
    first INTEGER NOT NULL REFERENCES agents(id),   -- moves first
    second INTEGER NOT NULL REFERENCES agents(id),
    opening TEXT NOT NULL,
    seed INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    idx INTEGER PRIMARY KEY REFERENCES plan(idx),
    result TEXT NOT NULL,        -- '1-0', '0-1' or '1/2-1/2' (first player's view)
    winner INTEGER,              -- agent id, NULL for a draw
    reason TEXT NOT NULL,
    forfeit INTEGER NOT NULL,    -- 1 when the loser forfeited (error, timeout, illegal or malformed move)
    moves TEXT NOT NULL,         -- the moves after the opening, in the game's notation (JSON list)
    times TEXT NOT NULL,         -- seconds per move (JSON list)
    nodes TEXT NOT NULL,         -- nodes per move, null for agents that do not search
    vals TEXT NOT NULL,          -- value per move (mover's view), null for agents that do not search
    depths TEXT NOT NULL,
    duration REAL NOT NULL,
    finished REAL NOT NULL       -- unix time
);
"""


@dataclass(frozen=True)
class PlannedGame:
    idx: int
    round: int
    pairing: int
    first: int
    second: int
    opening: str
    seed: int


@dataclass
class GameRecord:
    """A finished game."""

    idx: int
    result: str
    winner: int | None
    reason: str
    forfeit: bool
    moves: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    nodes: list[int | None] = field(default_factory=list)
    vals: list[float | None] = field(default_factory=list)
    depths: list[int | None] = field(default_factory=list)
    duration: float = 0.0
    finished: float = 0.0


class Store:
    """One results file."""

    def __init__(self, path: str | Path, create: bool = False) -> None:
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise GameError(f"no results file {str(path)!r}")
        try:
            self.db = sqlite3.connect(str(self.path), timeout=30.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            if create:
                self.db.executescript(_SCHEMA)
            elif self.meta("schema") is None:
                raise GameError(f"{str(path)!r} is not a zerosum results file")
        except sqlite3.DatabaseError as exc:
            raise GameError(f"{str(path)!r} is not a zerosum results file ({exc})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- meta, agents, plan -------------------------------------------------------------------------

    def meta(self, key: str) -> Any:
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        except sqlite3.OperationalError:
            return None
        return None if row is None else json.loads(row[0])

    def set_meta(self, key: str, value: Any) -> None:
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, json.dumps(value)))

    def is_empty(self) -> bool:
        return self.meta("config") is None

    def initialise(self, config: dict[str, Any], labels: list[tuple[str, str]], plan: list[PlannedGame]) -> None:
        """Write the configuration, the agents and the plan of a new run, all in one transaction."""
        with self.db:
            for table in ("games", "plan", "agents", "meta"):
                self.db.execute(f"DELETE FROM {table}")
            self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (json.dumps(SCHEMA_VERSION),))
            self.db.execute("INSERT INTO meta VALUES ('config', ?)", (json.dumps(config),))
            self.db.execute("INSERT INTO meta VALUES ('created', ?)", (json.dumps(time.time()),))
            self.db.executemany("INSERT INTO agents VALUES (?, ?, ?)", [(i, l, s) for i, (l, s) in enumerate(labels)])
            self.db.executemany(
                "INSERT INTO plan VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(g.idx, g.round, g.pairing, g.first, g.second, g.opening, g.seed) for g in plan],
            )

    def agents(self) -> list[tuple[str, str]]:
        return [(l, s) for l, s in self.db.execute("SELECT label, spec FROM agents ORDER BY id")]

    def plan(self) -> list[PlannedGame]:
        rows = self.db.execute("SELECT idx, round, pairing, first, second, opening, seed FROM plan ORDER BY idx")
        return [PlannedGame(*row) for row in rows]

    # ---- games ------------------------------------------------------------------------------------

    def add_game(self, rec: GameRecord) -> None:
        """Store one finished game and commit at once (a second copy of a game is refused)."""
        with self.db:
            self.db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    rec.idx, rec.result, rec.winner, rec.reason, int(rec.forfeit), json.dumps(rec.moves),
                    json.dumps(rec.times), json.dumps(rec.nodes), json.dumps(rec.vals), json.dumps(rec.depths),
                    rec.duration, rec.finished or time.time(),
                ),
            )

    def done(self) -> set[int]:
        return {row[0] for row in self.db.execute("SELECT idx FROM games")}

    def games(self) -> Iterator[GameRecord]:
        rows = self.db.execute(
            "SELECT idx, result, winner, reason, forfeit, moves, times, nodes, vals, depths, duration, finished "
            "FROM games ORDER BY idx"
        )
        for r in rows:
            yield GameRecord(
                r[0], r[1], r[2], r[3], bool(r[4]), json.loads(r[5]), json.loads(r[6]), json.loads(r[7]),
                json.loads(r[8]), json.loads(r[9]), r[10], r[11],
            )

    def count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
