"""The contest's standings: who is in the field, and the leaderboard's rows with ratings and 95% intervals.

**The field.**  An entry is ``sub:ID`` (a student's submission) or ``ref:NAME`` (a reference player of the
contest's ``references``).  The ladder's field is every reference and every student's *active* submission:
their latest one whose validation said ``ok`` (:func:`field`; an upload that fails its check leaves the
earlier one in place); a student's replaced submissions keep their finished games in the
history, but the leaderboard counts only games between two entries of the field, so a new submission starts
afresh and the others' ratings no longer lean on games against code that is gone.

**The leaderboard** (:func:`leaderboard`): Elo by maximum likelihood over those games (mean 0 over the
entries that played; :func:`zerosum.arena.stats.ratings`, one virtual draw per pairing as BayesElo's prior),
with the 95% half-width of :func:`zerosum.arena.stats.rating_errors`.  One row an entry, best first (by
rating, then score; entries without a finished game last; entries of the same rating and score share a rank,
standard competition ranking 1, 2, 3, 3, 5, listed by name), each a dict::

    rank, entry, name, kind ("student" | "reference"), submission (id or None), rating, rating_low,
    rating_high, score (points per game), points, games, wins, draws, losses, forfeits (games lost by
    forfeit), forfeit_reasons ([{"reason", "count"}], most frequent first), pending (games still to play)

Ratings are rounded to 0.1 Elo, scores to 0.0001; a rating is None before the entry's first finished game.
Forfeit reasons are whole, and counted on their whole text (results.csv and results.json are read for grading:
two reasons differing only past their first words are two entries); the pages show them shortened as the arena's
Forfeits table does (:func:`shortened`: :func:`zerosum.arena.forfeits.short_reason`, the counts of reasons that
read alike there added up).

The database is read through its own SQLite connection (:func:`connect`), so the server's threads and the
ladder's never share one; every read here is one snapshot.
"""

from __future__ import annotations

import contextlib
import copy
import json
import math
import sqlite3
import threading
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ..arena.forfeits import short_reason, whole_reason
from ..arena.stats import competition_ranks, rating_errors, ratings
from .store import ENTRY_IDS

__all__ = ["Entry", "connect", "written", "db_path", "read_config", "field", "entry_names", "player_of", "absent_rows",
           "leaderboard", "standing_rows", "shortened", "told_apart", "tied", "SCORES", "BUSY_SECONDS"]

#: the first player's score of each result
SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
#: how long a write waits for another writer of the database (the server, the ladder, the final)
BUSY_SECONDS = 60.0


@dataclass(frozen=True)
class Entry:
    """One player of the contest: ``key`` (``sub:ID`` or ``ref:NAME``), the name shown, and for a submission
    its id, path (relative to the contest's folder) and kind (``python``, ``notebook``, ``program``)."""

    key: str
    name: str
    submission: int | None = None
    path: str | None = None
    kind: str | None = None

    @property
    def is_reference(self) -> bool:
        return self.submission is None


def db_path(store: Any) -> Path:
    """The database file of ``store``: the contest's store object (its ``path``, or ``db_path``), the contest's
    folder, or the file itself."""
    for attr in ("db_path", "path", "file"):
        value = getattr(store, attr, None)
        if isinstance(value, (str, Path)):
            store = value
            break
    path = Path(store)
    return path / "contest.db" if path.is_dir() else path


def connect(store: Any) -> sqlite3.Connection:
    """A connection of this thread's own to the contest's database (WAL; waits for other writers)."""
    conn = sqlite3.connect(str(db_path(store)), timeout=BUSY_SECONDS, isolation_level=None,
                           check_same_thread=False)
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    conn.row_factory = sqlite3.Row
    _ensure_columns(conn)
    return conn


def _ensure_columns(conn: sqlite3.Connection) -> None:
    """The games table's ``forfeit`` column (1 when the loser forfeited), added to a database without it."""
    cols = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
    if cols and "forfeit" not in cols:
        try:
            conn.execute("ALTER TABLE games ADD COLUMN forfeit INTEGER NOT NULL DEFAULT 0")
        except sqlite3.OperationalError as exc:  # another connection added it first
            if "duplicate column" not in str(exc):
                raise


@contextlib.contextmanager
def written(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction (``BEGIN IMMEDIATE``: one writer at a time), committed when the block ends
    (a ``return`` inside it included) and rolled back when it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def read_config(conn: sqlite3.Connection) -> dict[str, Any]:
    """Every ``config`` value, decoded from JSON (a value that is not JSON is kept as text)."""
    out: dict[str, Any] = {}
    for row in conn.execute("SELECT key, value FROM config"):
        try:
            out[row[0]] = json.loads(row[1])
        except (TypeError, ValueError):
            out[row[0]] = row[1]
    return out


def game_mark(conn: sqlite3.Connection) -> int:
    """The highest id a game of the contest ever had, kept in the config's ``last_game`` (call it in the transaction
    before deleting games, and take ``game_mark(conn) + 1`` as a new game's id): a game's id is never given again
    after pending games were dropped (SQLite's next id is the largest one left, plus one)."""
    kept = conn.execute("SELECT value FROM config WHERE key = 'last_game'").fetchone()
    top = conn.execute("SELECT MAX(id) FROM games").fetchone()[0]
    mark = max(int(top or 0), int(kept[0]) if kept is not None and str(kept[0]).isdigit() else 0)
    conn.execute("INSERT OR REPLACE INTO config(key, value) VALUES ('last_game', ?)", (json.dumps(mark),))
    return mark


def references(config: dict[str, Any]) -> list[Entry]:
    """The contest's reference players, as entries."""
    out = []
    for ref in config.get("references") or []:
        if isinstance(ref, dict) and isinstance(ref.get("name"), str):
            out.append(Entry(f"ref:{ref['name']}", ref["name"]))
    return out


def player_of(ref: dict[str, Any]) -> tuple[str, ...]:
    """What the reference ``ref`` of the config plays as, so that two names for one player are told from two players:
    a copied file by its SHA-256 and function, an external engine by its definition (its name aside), any other by
    its spec's name and options in any order; a ``seed`` option aside (the same agent with another seed is as
    strong)."""
    from ..spec import parse_spec

    if isinstance(ref.get("sha256"), str) and not isinstance(ref.get("engine"), dict):
        return ("file", ref["sha256"], str(ref.get("entry") or ""))
    spec = str(ref.get("spec", "")).strip()
    try:
        name, options = parse_spec(spec, ValueError)
    except ValueError:  # an older contest's file reference: its path as given
        return ("spec", spec)
    kept = ",".join(f"{k}={v}" for k, v in sorted(options.items()) if k != "seed")
    engine = ref.get("engine")
    if isinstance(engine, dict):
        return ("engine", json.dumps({k: v for k, v in engine.items() if k != "name"}, sort_keys=True), kept)
    return ("spec", name, kept)


def absent_rows(conn: sqlite3.Connection, entries: Sequence[Entry]) -> list[dict[str, Any]]:
    """A row (no rank, no games, 0 points) for every student of the roster without an entry among ``entries``."""
    playing = {e.name for e in entries if not e.is_reference}
    return [{"rank": None, "entry": None, "name": row[0], "kind": "student", "submission": None, "rating": None,
             "rating_low": None, "rating_high": None, "score": None, "points": 0, "games": 0, "wins": 0, "draws": 0,
             "losses": 0, "forfeits": 0, "forfeit_reasons": []}
            for row in conn.execute("SELECT name FROM people WHERE role = 'student' ORDER BY name")
            if row[0] not in playing]


def field(conn: sqlite3.Connection, config: dict[str, Any] | None = None) -> list[Entry]:
    """The field now: the references, then each student's entry (their latest submission validated ``ok``:
    :data:`~.store.ENTRY_IDS`, the one marked active), oldest first."""
    config = read_config(conn) if config is None else config
    subs = [Entry(f"sub:{row['id']}", row["name"], row["id"], row["path"], row["kind"]) for row in conn.execute(
        f"SELECT id, name, path, kind FROM submissions WHERE id IN ({ENTRY_IDS}) ORDER BY id")]
    return references(config) + subs


def entry_names(conn: sqlite3.Connection, config: dict[str, Any] | None = None) -> dict[str, str]:
    """The name of every entry that ever played or was submitted (submissions by their student's name)."""
    config = read_config(conn) if config is None else config
    out = {e.key: e.name for e in references(config)}
    out.update((f"sub:{row[0]}", row[1]) for row in conn.execute("SELECT id, name FROM submissions"))
    return out


def _reasons(reasons: Iterable[str]) -> list[dict[str, Any]]:
    """Each distinct reason whole (one line, every character printing: as stored) and its count, most frequent
    first."""
    counts = Counter(whole_reason(x) for x in reasons)
    return [{"reason": r, "count": n} for r, n in counts.most_common()]


def shortened(reasons: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A row's ``forfeit_reasons`` as a page's table shows them: each reason short (the arena's Forfeits
    table's :func:`~zerosum.arena.forfeits.short_reason`), the counts of those that read alike there added up."""
    counts: Counter[str] = Counter()
    for item in reasons:
        counts[short_reason(item["reason"])] += item["count"]
    return [{"reason": r, "count": n} for r, n in counts.most_common()]


def told_apart(low: dict[str, Any], high: dict[str, Any]) -> dict[str, str]:
    """``{}`` when the games told the rows ``low`` and ``high`` (the grading bands' two references) apart -- their
    95% intervals do not overlap -- else ``{"warning": ...}`` saying the bands grade chance as much as play (a
    Tic-Tac-Toe final ranked ``random`` above a perfect player by chance, and its bands gave 10 points for 7 draws
    in 8 games)."""
    spans: list[tuple[float, float]] = []
    for r in (low, high):
        if r.get("rating_low") is None or r.get("rating_high") is None:
            return {}
        spans.append((float(r["rating_low"]), float(r["rating_high"])))
    if spans[0][1] < spans[1][0]:
        return {}
    said = [f"{r['name']} ({r['rating']:+.1f}, 95% {lo:+.1f} to {hi:+.1f})" for r, (lo, hi) in zip((low, high), spans)]
    return {"warning": f"the games did not tell the bands' references apart: {said[0]} and {said[1]} overlap, so the "
                       "points grade chance as much as play; play more rounds (--rounds N), or grade between "
                       "references farther apart (--grade LOW,HIGH) or by a table (--grade-table FILE.csv)"}


def standing_rows(entries: Sequence[Entry], games: Iterable[sqlite3.Row | dict[str, Any]],
                  pending: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """The leaderboard's rows (module docstring) of ``entries`` from finished ``games`` (rows with ``first``,
    ``second``, ``result``, ``reason``, ``forfeit``); games with an entry outside ``entries`` are left out."""
    index = {e.key: i for i, e in enumerate(entries)}
    n = len(entries)
    wins, draws, losses = [0] * n, [0] * n, [0] * n
    lost: list[list[str]] = [[] for _ in range(n)]
    results: list[tuple[int, int, float]] = []
    for g in games:
        i, j = index.get(g["first"]), index.get(g["second"])
        score = SCORES.get(g["result"] or "")
        if i is None or j is None or score is None:
            continue
        results.append((i, j, score))
        for me, s in ((i, score), (j, 1.0 - score)):
            if s == 1.0:
                wins[me] += 1
            elif s == 0.5:
                draws[me] += 1
            else:
                losses[me] += 1
                if g["forfeit"]:
                    lost[me].append(g["reason"] or "")
    played = [k for k in range(n) if wins[k] + draws[k] + losses[k]]
    elo: dict[int, float] = {}
    half: dict[int, float] = {}
    if played:
        local = {k: x for x, k in enumerate(played)}
        sub = [(local[i], local[j], s) for i, j, s in results]
        found = ratings(len(played), sub)
        errors = rating_errors(len(played), sub, found)
        elo = {k: found[local[k]] for k in played}
        half = {k: errors[local[k]] for k in played}
    rows = []
    for k, e in enumerate(entries):
        games_k = wins[k] + draws[k] + losses[k]
        points = wins[k] + 0.5 * draws[k]
        r, h = elo.get(k), half.get(k)
        rows.append({
            "entry": e.key, "name": e.name, "kind": "reference" if e.is_reference else "student",
            "submission": e.submission, "rating": _round(r, 1),
            "rating_low": _round(None if r is None or h is None else r - h, 1),
            "rating_high": _round(None if r is None or h is None else r + h, 1),
            "score": round(points / games_k, 4) if games_k else None, "points": points, "games": games_k,
            "wins": wins[k], "draws": draws[k], "losses": losses[k], "forfeits": len(lost[k]),
            "forfeit_reasons": _reasons(lost[k]), "pending": (pending or {}).get(e.key, 0),
        })
    rows.sort(key=_order)
    for row, rank in zip(rows, competition_ranks(rows, tied)):  # standard competition ranking: 1, 2, 3, 3, 5
        row["rank"] = rank
    return [{"rank": row.pop("rank"), **row} for row in rows]


def _order(row: dict[str, Any]) -> tuple[bool, float, float, str]:
    """Best first: by rating, then score, then name; entries without a rating last."""
    return row["rating"] is None, -float(row["rating"] or 0.0), -float(row["score"] or 0.0), str(row["name"])


def tied(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two rows stand level: the same rating and score (the name only orders them), so they share a
    rank (and, in the final, a table's points)."""
    return _order(a)[:3] == _order(b)[:3]


def _round(x: float | None, places: int) -> float | None:
    return None if x is None or not math.isfinite(x) else round(x, places)


_cache: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
_cache_lock = threading.Lock()


def leaderboard(store: Any, stage: str = "ladder", entries: Sequence[Entry] | None = None) -> list[dict[str, Any]]:
    """The leaderboard rows (module docstring) of ``stage`` (``ladder`` or ``final``) for ``entries``
    (default: the field now), read from ``store`` (the contest's store, its folder or its database file).
    The rows are computed again only when a game or the field changed since the last call (a page polling it
    costs one small query)."""
    conn = connect(store)
    try:
        conn.execute("BEGIN")  # one snapshot
        try:
            if entries is None:
                entries = field(conn)
            mark = (str(db_path(store)), stage, tuple(entries), *conn.execute(
                "SELECT COUNT(*), MAX(id), MAX(finished), SUM(status = 'done'), SUM(status = 'running') FROM games "
                "WHERE stage = ?", (stage,)).fetchone())
            with _cache_lock:
                if mark in _cache:
                    return copy.deepcopy(_cache[mark])
            games = conn.execute("SELECT first, second, result, reason, forfeit FROM games "
                                 "WHERE stage = ? AND status = 'done' AND result IS NOT NULL", (stage,)).fetchall()
            pending: Counter[str] = Counter()
            for row in conn.execute("SELECT first, second FROM games WHERE stage = ? AND status != 'done'", (stage,)):
                pending[row[0]] += 1
                pending[row[1]] += 1
        finally:
            conn.execute("COMMIT")
        rows = standing_rows(entries, games, dict(pending))
        with _cache_lock:
            _cache.clear()  # the latest board only
            _cache[mark] = copy.deepcopy(rows)
        return rows
    finally:
        conn.close()
