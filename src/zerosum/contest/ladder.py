"""The ladder: until the entries are frozen, every new submission plays the field, on the engine pool.

**What is played.**  When a submission is validated ``ok`` it becomes its student's active one (an upload that
fails its check never does: the earlier one stays), and it is scheduled against every
other entry of the field (:func:`~zerosum.contest.standings.field`: the references and the other students'
active submissions) that it has not met yet: :data:`PAIRS` colour-swapped pairs an opponent (the config's
``ladder_pairs`` when it is set), each pair from
one of the contest's openings (drawn from the contest's seed and the two entries, so the same contest
schedules the same games).  The references come first in its list, so its first rating comes from games
against known players.  Games are rows of the store's ``games`` table (``stage`` ``ladder``, ``pairing``
``NEWCOMER vs OPPONENT``).

**Which game next.**  The pending game with the lowest place in its newcomer's list, oldest first: every
newcomer's first games come before anybody's later ones, so a submission made while the ladder is busy with
a large backlog still gets its first rating within a few games.

**The freeze** (the config's ``frozen``, set by the teacher or by the final) ends the ladder: its pending
games are deleted and no more are scheduled; games already running finish and are kept.

**Validation first.**  While a submission uploaded in the last :data:`GIVE_WAY` seconds is being validated,
the background ladder starts no new game (games in flight go on), so the answer a student waits for does not
share the cores with the ladder; a validation stuck for longer no longer holds the ladder.  Only a student's
first upload in :data:`GIVE_WAY` seconds holds it: their later uploads within that time are validated while the
ladder plays, so one student uploading again and again (a file that hangs, every few seconds) holds the ladder
for one validation a minute (at most the check's 7 s), not all the time.  Each validation that holds keeps its
whole hold: a normal one takes 2-7 s (docs/contest.md has the figures), so a shorter one would cut them.

**A failed try.**  Whatever stops a game from being played or written (the pool cannot play it, its record
cannot be made) is that game's failed try (:meth:`~.playing.GameRunner.failed`): it goes back to ``pending``,
and after :data:`~.playing.ATTEMPTS` tries is set aside (``done``, no result, ``reason`` ``not played: ...``),
each try said in one line on standard error (``ladder: game 12: try 1 of 3 failed, ...``); the ladder goes on
with the other games.

**A replaced submission** (its student submitted again, or it failed) leaves the field: its pending games
are deleted before the next game is chosen; its finished games stay in the history (the student's page shows
them), but the leaderboard counts only games between entries of the field (:mod:`.standings`).  A game
already running when its submission is replaced is finished and kept in the history the same way.

**How a game is played.**  Each seat is an agent spec in a worker of the engine pool (local processes, or Ray
actors with ``backend="ray"``): a reference is its zerosum spec (random, any agent, the instructor's file); a
submission is an external engine (docs/protocol.md) started through the sandbox
(:func:`zerosum.contest.seats.seat_definition`).  The arena's supervisor keeps each move's deadline, so
crashes, timeouts, illegal moves and garbage are forfeits with their reasons; a seat that cannot even start
loses by forfeit too (``could not start: ...``).  Each game starts fresh engine processes and ends them, so a
game depends on nothing before it and a worker keeps no idle programs.  A finished game is written at once,
in one transaction: ``status`` ``done``, ``result``, ``reason``, ``forfeit``, ``moves`` (the moves after the
opening, in the game's notation, separated by spaces), ``record`` (zerosum's record format,
:mod:`zerosum.records`) and the times.

**Killed at any moment.**  Games are claimed one at a time (``running``); when the process dies, the next
:func:`start` or :func:`run_pending` sets its ``running`` games back to ``pending`` and plays them again.
Finished games are never played twice: a game is written only while it is ``running``, and only the process
that holds the contest's lock (:mod:`.lock`: :meth:`Ladder.start` takes it before any change, ``stop``
lets it go) resets or claims games, so a second server or a final refused the lock changes nothing.

**API.**  ``ladder = start(store, contest_dir=None, backend="local", jobs=None, address=None,
unconfined=False, on_game=None)`` starts ``jobs`` game threads (default: one a core) in this process and
returns the :class:`Ladder`;
``ladder.stop()`` (or the module's :func:`stop`) ends it, games in flight going back to ``pending``.
``run_pending(store, budget)`` plays at most ``budget`` games in the calling thread's time (tests, scripts),
``schedule(store)`` only writes the games a new submission needs.  ``store`` is a
:class:`~zerosum.contest.store.Store`, the contest's folder, or its database.
"""

from __future__ import annotations

import random
import sqlite3
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from .standings import connect, db_path, field, game_mark, read_config, written
from .store import ENTRY_IDS, settle_active
from .playing import GameRunner, dealt_openings, reset_running, run_claims

__all__ = ["Ladder", "start", "stop", "schedule", "run_pending", "PAIRS", "POLL", "GIVE_WAY"]

#: colour-swapped pairs a newcomer plays against each opponent of the field
PAIRS = 1
#: seconds between looks for new submissions when there is nothing to play
POLL = 0.5
#: the ladder starts no game while a submission uploaded less than this many seconds ago is being validated, its
#: student's first upload in as many seconds
GIVE_WAY = 60.0

_current: "Ladder | None" = None
_current_lock = threading.Lock()


def _game_seed(seed: Any, stage: str, pairing: str, k: int) -> int:
    return random.Random(f"zerosum-contest-game/{seed}/{stage}/{pairing}/{k}").getrandbits(31)


def _met(conn: sqlite3.Connection) -> set[frozenset[str]]:
    return {frozenset((r[0], r[1])) for r in conn.execute("SELECT first, second FROM games WHERE stage = 'ladder'")}


def schedule(store: Any, pairs: int | None = None) -> int:
    """Write the ladder games the field needs (module docstring) and delete the pending games of entries that
    left it; how many games were added."""
    conn = connect(store)
    try:
        return _schedule(conn, pairs)
    finally:
        conn.close()


def _schedule(conn: sqlite3.Connection, pairs: int | None = None) -> int:
    with written(conn):  # one writer at a time: two schedulers never add the same pairing twice
        config = read_config(conn)
        settle_active(conn)  # the marks of an older zerosum's database, where a failed upload was made active
        entries = field(conn, config)
        keys = [e.key for e in entries]
        marks = ",".join("?" * len(keys)) or "NULL"
        game_mark(conn)  # the ids of the games dropped now are never given again
        conn.execute(f"DELETE FROM games WHERE stage = 'ladder' AND status = 'pending' AND "
                     f"(first NOT IN ({marks}) OR second NOT IN ({marks}))", keys + keys)
        if config.get("frozen"):  # the ladder ends at the freeze: nothing more starts
            conn.execute("DELETE FROM games WHERE stage = 'ladder' AND status = 'pending'")
            return 0
        n = int(config.get("ladder_pairs") or pairs or PAIRS)
        met = _met(conn)
        added = 0
        for new in (e for e in entries if not e.is_reference):  # oldest first: it lists the later ones
            for opp in (e for e in entries if e.key != new.key and frozenset((new.key, e.key)) not in met):
                pairing = f"{new.key} vs {opp.key}"
                key = f"zerosum-contest/{config.get('seed')}/{min(new.key, opp.key)}/{max(new.key, opp.key)}"
                for r, opening in enumerate(dealt_openings(config.get("openings") or [], key, n)):
                    for k, (a, b) in enumerate(((new.key, opp.key), (opp.key, new.key))):
                        seed = _game_seed(config.get("seed"), "ladder", pairing, 2 * r + k)
                        conn.execute("INSERT INTO games(id, stage, pairing, first, second, opening, seed, status) "
                                     "VALUES (?, 'ladder', ?, ?, ?, ?, ?, 'pending')",
                                     (game_mark(conn) + 1, pairing, a, b, opening, seed))
                        added += 1
                met.add(frozenset((new.key, opp.key)))
        return added


def _validating(conn: sqlite3.Connection) -> bool:
    """Whether a submission uploaded in the last :data:`GIVE_WAY` seconds is being validated that is its
    student's first upload in :data:`GIVE_WAY` seconds (the ones that hold the ladder, module docstring)."""
    row = conn.execute("SELECT 1 FROM submissions s WHERE s.status = 'validating' AND s.created > ? AND NOT EXISTS ("
                       "SELECT 1 FROM submissions e WHERE e.name = s.name AND e.id < s.id AND e.created > s.created - ?"
                       ") LIMIT 1", (time.time() - GIVE_WAY, GIVE_WAY)).fetchone()
    return row is not None


def _field_mark(conn: sqlite3.Connection) -> tuple[Any, ...]:
    """What decides the schedule: the active validated submissions and the freeze (read without a lock)."""
    ids = tuple(r[0] for r in conn.execute(f"SELECT id FROM submissions WHERE id IN ({ENTRY_IDS}) ORDER BY id"))
    frozen = conn.execute("SELECT value FROM config WHERE key = 'frozen'").fetchone()
    return ids, None if frozen is None else frozen[0]


def _claim(conn: sqlite3.Connection) -> sqlite3.Row | None:
    """The next pending ladder game (module docstring), marked ``running``; None when there is none."""
    if conn.execute("SELECT 1 FROM games WHERE stage = 'ladder' AND status = 'pending' LIMIT 1").fetchone() is None:
        return None  # nothing to claim: no write lock taken
    with written(conn):
        rows = conn.execute("SELECT id, pairing, status FROM games WHERE stage = 'ladder' ORDER BY id").fetchall()
        place: dict[str, int] = {}
        best: tuple[int, int] | None = None
        for row in rows:
            newcomer = (row["pairing"] or "").partition(" vs ")[0]
            k = place.get(newcomer, 0)
            place[newcomer] = k + 1
            if row["status"] == "pending" and (best is None or (k, row["id"]) < best):
                best = (k, row["id"])
        if best is None:
            return None
        conn.execute("UPDATE games SET status = 'running', started = ? WHERE id = ?", (time.time(), best[1]))
        return conn.execute("SELECT * FROM games WHERE id = ?", (best[1],)).fetchone()  # type: ignore[no-any-return]


def _folder(store: Any, contest_dir: str | Path | None) -> Path:
    if contest_dir is not None:
        return Path(contest_dir)
    return db_path(store).parent


class Ladder:
    """The ladder of one contest in this process (see the module docstring); made by :func:`start`."""

    def __init__(self, store: Any, contest_dir: str | Path | None = None, *, backend: str = "local",
                 jobs: int | None = None, address: str | None = None, unconfined: bool = False,
                 on_game: Callable[[int], None] | None = None, held: Any = None) -> None:
        self.store = store
        self.folder = _folder(store, contest_dir)
        self.runner = GameRunner(self.folder, backend=backend, jobs=jobs, address=address, unconfined=unconfined)
        self.runner.log = self._say  # each failed try of a game: one line
        self.on_game = on_game
        self.played = 0
        self.error: str | None = None  # the last thing that went wrong outside a game (said once on stderr)
        self._stop = threading.Event()
        self._lock = threading.Lock()  # claims, one at a time
        self._threads: list[threading.Thread] = []
        self._mark: tuple[Any, ...] | None = None  # the field when the ladder last scheduled
        self._held: Any = held  # the contest's lock (:mod:`.lock`), from start to stop (``held``: taken already)

    @property
    def running(self) -> bool:
        return any(t.is_alive() for t in self._threads)

    def start(self) -> "Ladder":
        """Take the contest's lock (:class:`~.lock.FolderBusy`, one line, when another process holds it:
        nothing is changed then), set the games a killed process left ``running`` back to ``pending``, and
        start the game threads."""
        from .lock import claim

        if self._held is None or not self._held.held:  # ``zerosum contest serve`` took it before binding its port
            self._held = claim(self.folder, "serve")
        conn = connect(self.store)
        try:
            reset_running(conn, "ladder")
        except BaseException:
            self._held.release()
            raise
        finally:
            conn.close()
        for i in range(self.runner.jobs):
            t = threading.Thread(target=self._loop, name=f"zerosum-ladder-{i}", daemon=True)
            t.start()
            self._threads.append(t)
        return self

    def _next(self, conn: sqlite3.Connection) -> sqlite3.Row | None:
        with self._lock:
            if _validating(conn):  # an answer a student waits for comes before the ladder's next game
                return None
            mark = _field_mark(conn)
            if mark != self._mark:  # a submission came, went or was validated, or the entries were frozen
                _schedule(conn)
                self._mark = mark
            return _claim(conn)

    def _loop(self) -> None:
        conn = connect(self.store)
        try:
            while not self._stop.is_set():
                try:
                    row = self._next(conn)
                except Exception as exc:  # noqa: BLE001 - the schedule or a claim failed: said once, tried again
                    self._trouble(exc)
                    row = None
                if row is None:
                    self._stop.wait(POLL)
                    continue
                if self.runner.play(conn, row, stopping=self._stop.is_set):  # a failed try: counted in there
                    self.played += 1
                    if self.on_game is not None:
                        try:
                            self.on_game(int(row["id"]))
                        except Exception as exc:  # noqa: BLE001 - the caller's callback: said once, the ladder goes on
                            self._trouble(exc)
        finally:
            conn.close()

    def _trouble(self, exc: Exception) -> None:
        """Something outside a game went wrong: kept in :attr:`error`, said once (not again while it repeats)."""
        error = f"{type(exc).__name__}: {exc}"
        if error != self.error:
            self.error = error
            self._say(error)

    @staticmethod
    def _say(line: str) -> None:
        """One line of the ladder's on standard error (the server's log)."""
        print(f"ladder: {line}", file=sys.stderr, flush=True)

    def stop(self, timeout: float = 30.0) -> None:
        """End the ladder: no new game starts, games in flight are abandoned (back to ``pending``)."""
        self._stop.set()
        self.runner.close()
        for t in self._threads:
            t.join(timeout)
        if self._held is None or not self._held.held:
            return  # never started, or stopped already: the games are not ours to reset
        conn = connect(self.store)
        try:
            reset_running(conn, "ladder")
        finally:
            conn.close()
            self._held.release()


def start(store: Any, contest_dir: str | Path | None = None, **options: Any) -> Ladder:
    """Start the ladder of ``store``'s contest in background threads (one a job of the pool); the
    :class:`Ladder` (its :meth:`~Ladder.stop` ends it).  Options: ``backend`` (``local`` or ``ray``),
    ``jobs``, ``address`` (a Ray cluster), ``unconfined`` (run submissions without the sandbox: only where
    the teacher said so), ``on_game`` (called with each finished game's id, in a ladder thread)."""
    global _current
    with _current_lock:
        if _current is not None and _current.running:
            _current.stop()
        _current = Ladder(store, contest_dir, **options).start()
        return _current


def stop() -> None:
    """Stop the ladder :func:`start` began in this process (nothing when none runs)."""
    global _current
    with _current_lock:
        if _current is not None:
            _current.stop()
            _current = None


def run_pending(store: Any, budget: int, contest_dir: str | Path | None = None, **options: Any) -> int:
    """Schedule, then play pending ladder games here, at most ``budget`` tries (``running`` ones left by a
    killed process first go back to ``pending``); how many games were finished and written.  Options as
    :func:`start`."""
    from .lock import claim

    held = claim(_folder(store, contest_dir), "serve")  # FolderBusy while another process plays the games
    runner = GameRunner(_folder(store, contest_dir), **options)
    try:
        conn = connect(store)
        try:
            reset_running(conn, "ladder")
            _schedule(conn)
        finally:
            conn.close()
        return run_claims(store, _claim, budget, runner)
    finally:
        runner.close()
        held.release()

