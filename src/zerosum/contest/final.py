"""The final: the entries frozen, a round robin reproducible from its seed, the grades, DIR/results.csv and
DIR/results.json (``zerosum contest final DIR``; :func:`run_final` from Python).

**One at a time.**  The final takes the contest's lock (:mod:`.lock`) before it changes anything: while a
server is serving the contest (its ladder plays the games) or another final runs, it is refused in one line
naming that process's pid, and nothing is changed; stop the server first (the final freezes the entries).

**Not before the deadline** (refused in one line, nothing changed) unless ``before_deadline``: :func:`check_deadline`.

**Pending checks first.**  Uploads accepted but left ``validating`` (the server was stopped before it checked
them) are validated first, in the sandbox as the server would (:func:`~.validate.validate_pending`; ``results.json``'s
``validated`` lists their answers), so the entries frozen are what the server would have made them.

**Freezing.**  The first run of the final sets the config's ``frozen`` (the ladder stops scheduling, uploads
are refused) and stores ``final``: the entries (the references and each student's active submission: their
latest one validated ``ok`` at that moment, however many uploads failed after it), the seed (``seed``, else
the contest's) and ``rounds``.  A later run (after a crash, a kill -9, or to grade again) goes on with what
was stored: the same entries, the same games; only the games not finished are played (``running`` ones again
from the start).

**The round robin.**  Every pair of entries meets in ``rounds`` colour-swapped pairs of games (default
:data:`ROUNDS`).  Round ``r`` of every pairing starts from the same opening, the ``r``-th of the contest's
openings shuffled from the seed (a new shuffle once they are used up); in each pair the entry listed first
moves first in the first game.  Each game's seed (which seeds both agents) comes from the final's seed, the
pairing and the game's place, so the same seed gives the same pairings, openings, colours and seeds, and with
deterministic players the same results.

**Grades** (only students get points; :data:`FULL_POINTS` at most).  One rule:

- bands between two references (``grade="LOW,HIGH"``, reference names; default: the config's ``grade``, else
  the lowest- and the highest-rated reference): :func:`zerosum.arena.grading.grade_points`, 0 at or below
  LOW's rating, full points at or above HIGH's, ten equal bands between;
- a custom table (``table=FILE.csv``): a header ``rank,points`` -- a student placed ``k``-th among the
  students gets the points of the first row whose rank is ``k`` or more (beyond the last row: 0); students of
  the same rating and score share their place (1, 2, 3, 3, 5) and so their points; or a header
  ``elo,points`` -- a student gets the points of the highest threshold its rating *above the contest's first
  reference* reaches (below every threshold: 0).  Points are numbers from 0 to 1000.

The rule is checked before anything is frozen or played: bands need two references (a contest with one, the
default ``random``, is refused in one line unless a table is given, or ``grading=False``: no grades at all), and
two that are not one player under two names (:func:`~.standings.player_of`: the same spec, file or engine, a seed
aside), whose ratings would differ by chance alone.  Where the games leave no bands (LOW and HIGH tie, at the 0.1
Elo the results show; LOW ends above HIGH; one of them finished no game), nobody gets points rather than points from
bands of no width: the results are written, every ``points`` empty and ``grade["ungraded"]`` saying why, then one
UsageError line says so (run again with another rule, the final grades them and plays nothing).  Of references tied
at the bottom or the top, the default bands name the first by name (the bands are the same).

**The files** (written whole, replacing earlier ones): ``results.csv``, one row an entry, best first, with
the columns of :data:`FIELDS` (``forfeit_reasons`` as ``reason (count); ...``, ``points`` empty for a
reference), then a row without rank and with 0 points for every student of the roster who has no entry (no
submission passed validation); ``results.json``: ``{"game", "seed", "rounds", "games", "unplayed" (games set
aside after :data:`~.playing.ATTEMPTS` failed tries, with their reason: never an entry's fault, they count for nobody),
"validated" (the uploads this run validated before freezing: id, name, filename, status, message), "frozen"
(when, ISO 8601 UTC), "grade", "results": [rows]}``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import random
import shlex
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from ..arena.stats import competition_ranks
from ..errors import UsageError
from ..spec import quoted
from .playing import ATTEMPTS, GameRunner, dealt_openings, reset_running, run_claims
from .standings import Entry, absent_rows, connect, field, game_mark, player_of, read_config, standing_rows, tied, \
    told_apart, written
from .store import settle_active
from .submissions import deadline_time

__all__ = ["run_final", "plan_final", "grade_rows", "read_table", "check_deadline", "ROUNDS", "FIELDS",
           "FULL_POINTS"]

#: colour-swapped pairs every pairing plays by default
ROUNDS = 1
#: the most rounds a final may have
MAX_ROUNDS = 100
FULL_POINTS = 10
FIELDS = ("rank", "name", "entry", "kind", "submission", "rating", "rating_low", "rating_high", "score", "games",
          "wins", "draws", "losses", "forfeits", "forfeit_reasons", "points")


def plan_final(entries: Sequence[str], openings: Sequence[str], seed: int, rounds: int) -> list[tuple[str, str, str, str, int]]:
    """The final's games, ``(pairing, first, second, opening, seed)`` in playing order (rounds outermost, so
    every pairing progresses together)."""
    out = []
    starts = dealt_openings(openings, f"zerosum-contest-final/{seed}", rounds)
    for r in range(rounds):
        for i, a in enumerate(entries):
            for b in entries[i + 1:]:
                pairing = f"{a} vs {b}"
                for k, (x, y) in enumerate(((a, b), (b, a))):
                    game_seed = random.Random(f"zerosum-contest-game/{seed}/final/{pairing}/{2 * r + k}").getrandbits(31)
                    out.append((pairing, x, y, starts[r], game_seed))
    return out


def _freeze(conn: sqlite3.Connection, seed: int | None, rounds: int | None) -> dict[str, Any]:
    """The stored final (made now, with the config frozen, on the first run)."""
    with written(conn):
        config = read_config(conn)
        final = config.get("final")
        if isinstance(final, dict):
            for name, given in (("seed", seed), ("rounds", rounds)):
                if given is not None and given != final.get(name):
                    raise UsageError(f"the final began with {name} {final.get(name)}, not {given}: it goes on as it "
                                     "began (start a new contest folder for another final)")
            return final
        rounds = ROUNDS if rounds is None else rounds
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise UsageError(f"--rounds is a whole number 1..{MAX_ROUNDS}, not {quoted(str(rounds))}")
        settle_active(conn)  # the marks of an older zerosum's database, where a failed upload was made active
        entries = field(conn, config)
        if len(entries) < 2:
            raise UsageError("the final needs two entries at least: no student has a submission that passed "
                             "validation, and the contest has fewer than two references")
        seed = int(config.get("seed") or 0) if seed is None else int(seed)
        final = {"entries": [e.__dict__ for e in entries], "seed": seed, "rounds": rounds, "started": time.time()}
        conn.executemany("INSERT OR REPLACE INTO config(key, value) VALUES (?, ?)",
                         [("frozen", "true"), ("final", json.dumps(final))])
        game_mark(conn)  # the final's games take ids no ladder game ever had
        conn.execute("DELETE FROM games WHERE stage = 'ladder' AND status = 'pending'")
        for pairing, a, b, opening, game_seed in plan_final([e.key for e in entries], config.get("openings") or [],
                                                             seed, rounds):
            conn.execute("INSERT INTO games(id, stage, pairing, first, second, opening, seed, status) "
                         "VALUES (?, 'final', ?, ?, ?, ?, ?, 'pending')",
                         (game_mark(conn) + 1, pairing, a, b, opening, game_seed))
        return final


def check_deadline(config: dict[str, Any], folder: str | Path, now: float | None = None) -> None:
    """One UsageError line when the final would freeze the entries (not frozen yet) before the contest's deadline,
    stated as the contest shows it (and in UTC when stored otherwise); compared in UTC with ``now``."""
    when, now = deadline_time(config), time.time() if now is None else now
    if when is None or config.get("frozen") or now >= when.timestamp():
        return
    utc = _iso(when.timestamp())
    raise UsageError(f"the contest's deadline, {config['deadline']}{'' if utc == config['deadline'] else f' ({utc})'}"
                     f", has not passed (now {_iso(now)}): the final would freeze the entries, and no student could "
                     "submit after it; nothing was frozen or played (to play it before the deadline on purpose, add "
                     f"--before-deadline: zerosum contest final {shlex.quote(str(folder))} --before-deadline)")


def _claim_final(conn: sqlite3.Connection) -> Any:
    with written(conn):
        row = conn.execute("SELECT * FROM games WHERE stage = 'final' AND status = 'pending' ORDER BY id LIMIT 1"
                           ).fetchone()
        if row is not None:
            conn.execute("UPDATE games SET status = 'running', started = ? WHERE id = ?", (time.time(), row["id"]))
        return row


def read_table(path: str | Path) -> tuple[str, list[tuple[float, float]]]:
    """A custom grading table: ``("rank" | "elo", [(threshold, points), ...])``; one UsageError line for a
    file that is not one (module docstring)."""
    from ..core.files import read_text

    text = read_text(path, "grading table")
    where = f"grading table {quoted(str(path))}"
    try:
        rows = [r for r in csv.reader(io.StringIO(text, newline="")) if r and any(c.strip() for c in r)]
    except csv.Error as exc:
        raise UsageError(f"{where}: not a CSV file ({exc})") from None
    if not rows or [c.strip().lower() for c in rows[0]] not in (["rank", "points"], ["elo", "points"]):
        raise UsageError(f"{where}: its first line is the header rank,points or elo,points")
    kind = rows[0][0].strip().lower()
    out = []
    for n, row in enumerate(rows[1:], 2):
        try:
            if len(row) != 2:
                raise ValueError
            key, points = float(row[0]), float(row[1])
            if not (math.isfinite(key) and 0 <= points <= 1000) or (kind == "rank" and (key < 1 or key != int(key))):
                raise ValueError
        except ValueError:
            raise UsageError(f"{where}, line {n}: expected {kind},points ({'a whole rank >= 1' if kind == 'rank' else 'an Elo'}"
                             ", points 0..1000), not {quoted(','.join(row))}") from None
        out.append((key, points))
    if not out:
        raise UsageError(f"{where}: it has no rows under its header")
    return kind, sorted(out)


def grade_rows(rows: list[dict[str, Any]], grade: str | None = None, table: tuple[str, list[tuple[float, float]]] | None = None,
               anchor: str | None = None) -> dict[str, Any]:
    """Set every row's ``points`` (students; None for references) by the rule (module docstring); what the
    rule was, for results.json.  ``anchor``: the entry of the contest's first reference (an Elo table's zero;
    default: the best-placed reference)."""
    from ..arena.grading import BANDS, grade_points

    refs = [r for r in rows if r["kind"] == "reference"]
    students = [r for r in rows if r["kind"] == "student" and r["rank"] is not None]
    for r in rows:
        r["points"] = 0 if r["kind"] == "student" else None
    if table is not None:
        kind, steps = table
        zero = next((r for r in refs if r["entry"] == anchor), refs[0] if refs else None)
        base = zero["rating"] if zero is not None and zero["rating"] is not None else 0.0
        for place, r in zip(competition_ranks(students, tied), students):  # tied students share a place (1, 2, 3, 3, 5)
            if kind == "rank":
                r["points"] = next((p for k, p in steps if k >= place), 0.0)
            else:
                above = (r["rating"] if r["rating"] is not None else -math.inf) - base
                r["points"] = max([(k, p) for k, p in steps if above >= k], default=(0, 0.0))[1]  # the highest reached
        return {"rule": "table", "by": kind, "table": [list(s) for s in steps],
                "anchor": zero["name"] if zero is not None and kind == "elo" else None}
    names = {r["name"]: r for r in refs}
    if grade is not None:
        low, comma, high = grade.partition(",")
        low, high = low.strip(), high.strip()
        for name in (low, high):
            if not comma or name not in names:
                raise UsageError(f"--grade {quoted(grade)}: give LOW,HIGH, two references of the contest "
                                 f"({', '.join(sorted(names)) or 'none'})")
    else:  # of references tied at the bottom (or the top), the first by name is named: the bands are the same
        rated = sorted((r for r in refs if r["rating"] is not None), key=lambda r: (r["rating"], r["name"]))
        low, high = (rated[0]["name"], rated[-1]["name"]) if len(rated) > 1 else ("", "")
    about = {"rule": "bands", "low": low or None, "high": high or None, "full": FULL_POINTS, "bands": BANDS}
    why = _no_bands(refs, names.get(low), names.get(high))
    if why is not None:  # no grades rather than grades from bands of no width (module docstring)
        for r in rows:
            r["points"] = None
        return {**about, "ungraded": why}
    elos = {r["entry"]: (r["rating"] if r["rating"] is not None else -math.inf) for r in rows if r["rank"] is not None}
    points = grade_points(elos, names[low]["entry"], names[high]["entry"],
                          "--grade" if grade is not None else "the bands between the references")
    for r in students:
        r["points"] = points[r["entry"]]
    return about | told_apart(names[low], names[high])  # a warning when the games did not tell them apart


def _no_bands(refs: list[dict[str, Any]], low: dict[str, Any] | None, high: dict[str, Any] | None) -> str | None:
    """Why the final's games left no bands between the rows ``low`` and ``high`` (None: the default rule found fewer
    than two rated references), or None when LOW's rating is below HIGH's."""
    if low is None or high is None:
        rated = [r["name"] for r in refs if r["rating"] is not None]
        return (f"its bands need two rated references, and {len(rated)} of the {len(refs)} has a rating "
                f"({', '.join(rated) or 'none'}; the others finished no game)")
    for r in (low, high):
        if r["rating"] is None:
            return f"{r['name']} finished no game, so it has no rating to grade by"
    if low["rating"] == high["rating"]:
        return f"{low['name']} and {high['name']} tie at {low['rating']:+.1f} Elo, so there are no bands between them"
    if low["rating"] > high["rating"]:
        return (f"{low['name']} (LOW, {low['rating']:+.1f} Elo) ranks above {high['name']} (HIGH, "
                f"{high['rating']:+.1f} Elo), so there are no bands from LOW up to HIGH")
    return None


def _gradable(config: dict[str, Any], grade: str | None, other_rule: bool) -> None:
    """One UsageError line when the final's bands cannot grade: ``grade`` (else the config's) not two of the
    contest's references, or, by default, fewer than two references to grade between; or the references to grade
    between one player under two names (:func:`~.standings.player_of`: the same spec, file or engine, a seed
    aside), whose ratings would differ by chance alone.  ``other_rule``: a table, or no grading, which need no
    reference."""
    if other_rule:
        return
    refs = {str(r.get("name")): r for r in config.get("references") or [] if isinstance(r, dict)}
    known = list(refs)
    pair, what = known, "the final's bands (from the lowest- to the highest-rated reference)"
    given = grade if grade is not None else config.get("grade")
    if given is not None:
        low, comma, high = str(given).partition(",")
        what = "--grade" if grade is not None else "the config's grade"
        if not comma or not {low.strip(), high.strip()} <= set(known):
            raise UsageError(f"{what} {quoted(str(given))}: give LOW,HIGH, two references of the contest "
                             f"({', '.join(sorted(known)) or 'none'})")
        if low.strip() == high.strip():  # as the tournament's --grade says it
            raise UsageError(f"{what} {quoted(str(given))}: LOW and HIGH are the same reference, {low.strip()}: "
                             "give two references, the weaker first")
        pair, what = [low.strip(), high.strip()], f"{what} {quoted(str(given))}"
    elif len(known) < 2:
        raise UsageError(f"the final cannot grade: its bands need two references and the contest has "
                         f"{len(known)} ({', '.join(known) or 'none'}): give --grade-table FILE.csv, or --no-grade "
                         "to play it without grades; nothing was frozen or played")
    if len({player_of(refs[name]) for name in pair}) < 2:
        raise UsageError(f"{what}: {', '.join(pair[:-1])} and {pair[-1]} are one player "
                         f"({quoted(str(refs[pair[0]].get('spec')))}) under {len(pair)} names: their ratings would "
                         "differ by chance alone, and bands between them would grade nothing: grade between two "
                         "references of different strength (--grade LOW,HIGH), or give --grade-table FILE.csv, or "
                         "--no-grade; nothing was frozen or played")


def _iso(when: Any) -> str | None:
    """A time stamp as ISO 8601 UTC (``2026-11-26T18:05:00Z``)."""
    from datetime import datetime, timezone

    if not isinstance(when, (int, float)):
        return None
    return datetime.fromtimestamp(when, timezone.utc).isoformat(timespec="seconds").replace("+00:00", "Z")


def _csv(rows: list[dict[str, Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(FIELDS), lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    for row in rows:
        out = {k: "" if row.get(k) is None else f"{row[k]:g}" if k == "points" else row[k] for k in FIELDS}
        out["forfeit_reasons"] = "; ".join(f"{x['reason']} ({x['count']})" for x in row["forfeit_reasons"])
        writer.writerow(out)
    return buffer.getvalue()


def run_final(contest_dir: str | Path, *, seed: int | None = None, rounds: int | None = None, grade: str | None = None,
              table: str | Path | None = None, backend: str = "local", jobs: int | None = None,
              address: str | None = None, unconfined: bool = False, progress: Callable[[int, int], None] | None = None,
              grading: bool = True, before_deadline: bool = False) -> dict[str, Any]:
    """Freeze the contest in ``contest_dir``, play (the rest of) its final, grade it and write ``results.csv``
    and ``results.json`` there; what results.json holds.  ``grade``: ``"LOW,HIGH"`` (reference names); ``table``:
    a custom grading table (module docstring); ``progress(done, total)`` after each game; ``grading=False``: no
    grades (every ``points`` empty, ``grade`` null); ``before_deadline=True``: freeze and play before the
    contest's deadline (else refused, :func:`check_deadline`).  One UsageError line for bad input, a grading rule
    that cannot grade included (nothing is changed then)."""
    from .store import Store

    folder = Path(contest_dir)
    with contextlib.closing(Store(folder)) as store:  # a UsageError line when it is not a contest folder
        if not before_deadline:  # before the lock: a final refused for its deadline leaves no file behind
            check_deadline(store.config(), contest_dir)
    rule = read_table(table) if table is not None else None
    conn = connect(folder)
    from .lock import FolderBusy, claim

    try:  # before any change: a server's ladder (or another final) plays this contest's games
        held = claim(folder, "final")
    except FolderBusy as exc:
        conn.close()
        raise FolderBusy(f"{exc}: stop it (Ctrl-C) before the final, which freezes the entries itself") from None
    try:  # the rule is checked before anything is frozen or played: a final that cannot grade is refused now
        _gradable(read_config(conn), grade if grading else None, rule is not None or not grading)
        runner = GameRunner(folder, backend=backend, jobs=jobs, address=address, unconfined=unconfined)
    except BaseException:
        held.release()
        conn.close()
        raise
    try:
        from .validate import validate_pending

        checked = [] if isinstance(read_config(conn).get("final"), dict) else validate_pending(folder, unconfined)
        final = _freeze(conn, seed, rounds)
        reset_running(conn, "final")
        with written(conn):  # games set aside by an earlier run are tried again
            conn.execute("UPDATE games SET status = 'pending', reason = NULL, finished = NULL "
                         "WHERE stage = 'final' AND status = 'done' AND result IS NULL")
        total = conn.execute("SELECT COUNT(*) FROM games WHERE stage = 'final'").fetchone()[0]

        def played(own: sqlite3.Connection) -> None:  # after each game: the count reaches the total
            if progress is not None:
                progress(own.execute("SELECT COUNT(*) FROM games WHERE stage = 'final' AND status = 'done'")
                         .fetchone()[0], total)

        played(conn)
        run_claims(folder, _claim_final, total * ATTEMPTS, runner, played)  # a game the pool could not play: again
        left = conn.execute("SELECT COUNT(*) FROM games WHERE stage = 'final' AND status != 'done'").fetchone()[0]
        if left:  # the database refused a try's write (a game set aside has its reason stored, in unplayed)
            why = "; ".join(f"game {g}: {w}" if g else w for g, w in runner.failures[-3:])[:600] or "no reason kept"
            raise UsageError(f"{left} games of the final could not be played ({why}): run the final again to try them")
        entries = [Entry(**e) for e in final["entries"]]
        games = conn.execute("SELECT first, second, result, reason, forfeit FROM games WHERE stage = 'final' "
                             "AND status = 'done' AND result IS NOT NULL").fetchall()
        rows = standing_rows(entries, games)
        for r in rows:
            r.pop("pending", None)
        rows += absent_rows(conn, entries)
        config = read_config(conn)
        first_ref = next((e.key for e in entries if e.is_reference), None)
        about = grade_rows(rows, grade if grade is not None else config.get("grade"), rule, first_ref) if grading \
            else None
        for r in rows if about is None else ():  # no grades: every points empty
            r["points"] = None
        unplayed = [dict(r) for r in conn.execute("SELECT id, first, second, reason FROM games WHERE stage = 'final' "
                                                  "AND status = 'done' AND result IS NULL ORDER BY id")]
        result = {"game": config.get("game"), "seed": final["seed"], "rounds": final["rounds"], "games": len(games),
                  "unplayed": unplayed, "validated": checked,
                  "frozen": _iso(final.get("started")), "grade": about, "results": rows}
        from ..core.files import atomic_output

        for name, text in (("results.json", json.dumps(result, indent=2) + "\n"), ("results.csv", _csv(rows))):
            with atomic_output(folder / name, overwrite=True, what="results file") as fh:  # each written whole
                fh.write(text)
        if about is not None and about.get("ungraded"):  # the games are kept: grading again plays none of them
            raise UsageError(f"the final's {len(games)} games are played and its results written without points "
                             f"(results.csv, results.json in {folder}): its bands cannot grade: {about['ungraded']}; "
                             "to grade them, run the final again, which plays no game again, with --grade-table "
                             "FILE.csv, or --grade LOW,HIGH naming two references the games told apart, the weaker "
                             "first")
        return result
    finally:
        runner.close()
        conn.close()
        held.release()
