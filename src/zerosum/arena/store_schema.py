"""What a results file (:mod:`zerosum.arena.store`) holds: its SQLite schema and version, and the rows it
stores and hands back, as records: :class:`PlannedGame` (one game of a run's plan) and :class:`GameRecord`
(one finished game).  :data:`_TABLES` names each table's columns, which opening a file checks; a file of
schema 1 lacks ``games.exacts`` (:data:`_EXACTS` adds it).  :mod:`.store` re-exports the records and
:data:`SCHEMA_VERSION`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["PlannedGame", "GameRecord", "SCHEMA_VERSION"]

SCHEMA_VERSION = 2  # 2 added games.exacts; a file of schema 1 is read as it is and upgraded when a run writes to it

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
    finished REAL NOT NULL,      -- unix time
    exacts TEXT NOT NULL DEFAULT '[]'  -- whether each move's value is a proof (JSON list; [] when not known)
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
    exacts: list[bool] = field(default_factory=list)  # whether each value is a proof; [] when not known


_TABLES = {
    "meta": ["key", "value"],
    "agents": ["id", "label", "spec"],
    "plan": ["idx", "round", "pairing", "first", "second", "opening", "seed"],
    "games": ["idx", "result", "winner", "reason", "forfeit", "moves", "times", "nodes", "vals", "depths",
              "duration", "finished", "exacts"],
}
_EXACTS = "ALTER TABLE games ADD COLUMN exacts TEXT NOT NULL DEFAULT '[]'"  # schema 1 -> 2
_RESULTS = ("1-0", "0-1", "1/2-1/2")


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)
