"""What a results file (:mod:`zerosum.arena.store`) holds: its SQLite schema and version, and the rows it
stores and hands back, as records: :class:`PlannedGame` (one game of a run's plan) and :class:`GameRecord`
(one finished game).  :data:`_TABLES` names each table's columns, which opening a file checks; a file of
schema 1 lacks ``games.exacts`` (:data:`_EXACTS` adds it).  :mod:`.store` re-exports the records and
:data:`SCHEMA_VERSION`.

What an older file leaves to be worked out: which zerosum wrote it (:func:`read_versions`,
:func:`describe_versions`: the meta ``versions`` this one keeps), and which of its 0 nodes were counted
(:func:`older_reader`): a zerosum of schema 1 stored 0 where this one stores None, not counted.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = ["PlannedGame", "GameRecord", "SCHEMA_VERSION", "read_versions", "describe_versions", "older_notes",
           "older_reader"]

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
    #: the moves (indices into ``nodes``) whose nodes an older zerosum stored as 0 and are read as None: True
    #: where nothing was counted, False where a count of 0 cannot be told from none (:func:`older_reader`)
    zeros: dict[int, bool] = field(default_factory=dict)


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


# ---- what an older file leaves to be worked out -------------------------------------------------------

#: the meta key of the zerosums that wrote a file: ``[[version, games stored before it], ...]``, the first
#: the one that began the run, then each that resumed it with another version (None: one that kept no version)
VERSIONS = "versions"


def read_versions(stored: Any) -> list[tuple[str | None, int]] | None:
    """The meta ``versions`` as stored: None when there is none (a zerosum that kept none wrote the file), or
    it is not a list of ``[version, games before]`` pairs (versions printable, counts rising)."""
    if not isinstance(stored, list) or not stored:
        return None
    out: list[tuple[str | None, int]] = []
    for entry in stored:
        if not isinstance(entry, list) or len(entry) != 2:
            return None
        version, before = entry
        if version is not None and not (isinstance(version, str) and 0 < len(version) <= 40 and version.isprintable()):
            return None
        if type(before) is not int or before < (out[-1][1] if out else 0):
            return None
        out.append((version, before))
    return out


def describe_versions(versions: list[tuple[str | None, int]] | None, stored: int) -> str:
    """Which zerosum wrote the run, for the report's header: ``written by zerosum 0.1.0``; ``written by a
    zerosum that kept no version (40 games), then resumed by zerosum 0.2.0 (60 games)`` (in the order the
    games were stored; ``stored``: how many the file holds); ``zerosum version not recorded``."""
    if not versions:
        return "zerosum version not recorded"
    parts = []
    for i, (version, before) in enumerate(versions):
        after = versions[i + 1][1] if i + 1 < len(versions) else max(stored, before)
        who = f"zerosum {version}" if version else "a zerosum that kept no version"
        games = f" ({after - before} game{'s' * (after - before != 1)})" if len(versions) > 1 else ""
        parts.append(f"{'resumed' if i else 'written'} by {who}{games}")
    return ", then ".join(parts)


def older_notes(zeros: dict[str, list[int]]) -> list[str]:
    """The report's lines on the 0 nodes an older zerosum stored (``zeros``: agent -> [moves read as not
    counted, moves whose 0 cannot be told from none], as :class:`~zerosum.arena.report.Report` counts them)."""
    def moves(n: int) -> str:
        return f"{n} move{'s' * (n != 1)}"

    return [*(f"nodes: not counted for {moves(n)} of {label} (no zerosum state expanded and no NODES_COUNTED_BY): "
              "an older zerosum stored 0 for them and held them to no CPU time"
              for label, (n, _) in zeros.items() if n),
            *(f"nodes: unknown for {moves(n)} of {label}: an older zerosum stored 0 for them, which cannot be told "
              "from nodes not counted (left out of nodes/move)" for label, (_, n) in zeros.items() if n)]


def older_reader(config: Any, specs: list[str], plan: dict[int, PlannedGame],
                 engines: Any) -> Callable[[GameRecord], None]:
    """What reads a game an older zerosum stored (schema 1: before None meant not counted, it stored 0): each
    0 of a move whose nodes nothing counted becomes None, noted in ``zeros`` (True); so does each 0 that may
    or may not be a count (False).  Which is which comes from the run (``config``, the agents' ``specs``,
    ``plan``, the meta ``engines``), as :func:`_zero_reading` says; every other 0 is a count, kept.  An
    external engine's value and depth of 0 become None as well: the 0 stored for a figure it never reported
    (before commit 0275a84) cannot be told from a score of 0 or a depth of 0, and no older file marks a proof."""
    limits = config.get("limits") if isinstance(config, dict) else None
    limited = isinstance(limits, dict) and limits.get("nodes") is not None
    digests = config.get("digests") if isinstance(config, dict) else None
    names = {str(k).lower() for k in engines} if isinstance(engines, dict) else set()
    readings = [_zero_reading(spec, limited, digests if isinstance(digests, dict) else {}, names) for spec in specs]
    engine = [_engine(spec, names) for spec in specs]
    game = config.get("game") if isinstance(config, dict) else None
    parity: dict[str, int | None] = {}

    def reading(agent: int) -> bool | None:
        return readings[agent] if 0 <= agent < len(readings) else None

    def read(rec: GameRecord) -> None:
        g = plan.get(rec.idx)
        if g is None:
            return
        if g.opening not in parity:
            parity[g.opening] = _opening_parity(game, g.opening)
        moved = parity[g.opening]
        seats = (reading(g.first), reading(g.second))
        engines = tuple(0 <= a < len(engine) and engine[a] for a in (g.first, g.second))
        for i, n in enumerate(rec.nodes):
            # moves alternate, the first after the opening the first agent's when even; the mover unknown: as
            # both seats would read it, else a 0 that cannot be told (nodes), a figure kept (value, depth)
            seat = None if moved is None else (i + moved) % 2
            if engines[seat] if seat is not None else all(engines):
                for figures in (rec.vals, rec.depths):
                    if i < len(figures) and figures[i] == 0:
                        figures[i] = None
            if n != 0:
                continue
            said = seats[seat] if seat is not None else seats[0] if seats[0] == seats[1] else False
            if said is not None:
                rec.nodes[i], rec.zeros[i] = None, said

    return read


def _opening_parity(game: Any, opening: str) -> int | None:
    """The plies of ``opening`` modulo 2 (the first move after it is the first agent's when 0), or None when
    this zerosum cannot read it."""
    from ..records.trust import opening_plies

    try:
        return opening_plies(game, opening) % 2
    except Exception:  # noqa: BLE001 - a game this zerosum does not know, or moves it does not take
        return None


def _zero_reading(spec: str, limited: bool, digests: dict[str, Any], engines: set[str]) -> bool | None:
    """How a 0 an older zerosum stored for a move of the agent ``spec`` reads: True, nothing counted; False,
    a count of 0 cannot be told from none; None, a count.  Before the stored None, a plain function under a
    node limit (``--nodes``: ``limited``) had the states it expanded through the game handed to it counted, 0
    where it expanded none, which this zerosum calls not counted; a function whose file declares
    ``NODES_COUNTED_BY`` has its calls counted (0: a count) since, and had states counted before (0: not
    counted), and the file cannot tell when; an external engine's figure it never reported was 0, now None.
    Without a node limit a function's nodes were None; any other agent's 0 is what its search said."""
    from ..agents.homework import DECLARATION
    from ..agents.registry import file_agent_parts

    if _engine(spec, engines):
        return False
    parts = file_agent_parts(spec)
    if parts is None or not limited:
        return None
    bound = _bindings(parts[0], digests.get(parts[0]))
    if bound is None:  # gone, changed since the run, or never kept: what it was cannot be read
        return False
    kind = bound.get(parts[1])
    if kind == "class":  # an Agent class: its search's own figures
        return None
    return kind == "function" and DECLARATION not in bound


def _engine(spec: str, engines: set[str]) -> bool:
    """Whether the agent ``spec`` is one of the run's external engines (``engines``: their names, lowercase)."""
    return spec.strip().partition(":")[0].strip().lower() in engines


def _bindings(path: str, digest: Any) -> dict[str, str] | None:
    """What each name at the top of the agent file ``path`` is bound to last (``function``, ``class`` or
    ``other``), read from its syntax (nothing runs); None unless it is the file the run played (``digest``)."""
    import hashlib

    from ..core.files import read_bytes

    try:
        data = read_bytes(path, "agent file")
        tree = ast.parse(data) if hashlib.sha256(data).hexdigest() == digest else None
    except Exception:  # noqa: BLE001 - missing, unreadable or not Python: nothing to say of it
        return None
    if tree is None:
        return None
    kinds: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            kinds[node.name] = "class" if isinstance(node, ast.ClassDef) else "function"
            continue
        for sub in ast.walk(node):  # any other binding, under a condition too
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                kinds[sub.id] = "other"
            elif isinstance(sub, ast.alias):
                kinds[(sub.asname or sub.name).partition(".")[0]] = "other"
            elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                kinds[sub.name] = "other"
    return kinds
