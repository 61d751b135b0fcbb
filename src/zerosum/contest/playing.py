"""One contest game on the engine pool, from its row in the store's ``games`` table to its result there
(used by the ladder, :mod:`.ladder`, and the final, :mod:`.final`).

An entry becomes an agent spec (:meth:`GameRunner.spec_of`): a reference its zerosum spec (a reference marked
``"sandbox": true`` in the config runs as a sandboxed program too), a submission the name of an external
engine whose command is the sandboxed seat (:func:`zerosum.contest.seats.seat_definition`), handed to the
worker with the game.  The arena's supervisor (:func:`zerosum.arena.runner.play_supervised`) keeps each
move's deadline; the worker runs :func:`play_seat_game`, which turns a seat that cannot start into a forfeit
(``could not start: ...``) and ends the game's engine programs when the game ends.

The contest's limits (``config["limits"]``): ``nodes`` (sent to every agent), ``move_time`` (seconds a move:
the agents' time limit, the hard deadline being the arena's rule, :func:`zerosum.arena.match.default_deadline`)
and ``tc`` (a game clock ``[base, increment]``).
"""

from __future__ import annotations

import os
import random
import re
import socket
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from ..arena.play import GameTask
from ..arena.store import GameRecord
from ..core.checks import clip
from .checks import reference_spec
from .standings import connect, read_config, written

__all__ = ["GameRunner", "play_seat_game", "reset_running", "run_claims", "dealt_openings", "engine_name",
           "record_text", "ATTEMPTS", "SEAT_READY"]

#: how often a game whose try failed (the pool could not play it, or its record could not be made: never an
#: agent's fault) is tried before it is set aside (:meth:`GameRunner.failed`)
ATTEMPTS = 3
#: seconds a submission's seat has to get ready for its game, off the clock: to start in its sandbox, answer the
#: handshake, then ``newgame`` (the ``isready`` after it); past them it loses by forfeit (``could not start: ...``)
SEAT_READY = 10.0
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def engine_name(entry: str) -> str:
    """The external engine name of an entry's seat: ``contest-sub-12``, ``contest-ref-instructor``."""
    kind, _, rest = entry.partition(":")
    clean = re.sub(r"[^A-Za-z0-9_-]", "-", rest)[:40]
    return f"contest-{kind}-{clean}"


def play_seat_game(task: GameTask) -> tuple[Any, ...]:
    """:func:`zerosum.arena.play.run_game` in a worker, for the contest: a seat that cannot be built loses by
    forfeit (``("end", other seat, "could not start: ...", True)``), and the game's engine programs are ended
    afterwards (each game starts its own: nothing is kept from one game to the next)."""
    from ..arena.play import run_game
    from ..external.running import _close_all

    try:
        final = run_game(task)
    finally:
        _close_all()
    if final[0] == "unstarted":
        return ("end", 3 - final[1], _one_line(f"could not start: {final[2]}", 300), True)
    return final


class _SeatFault(Exception):
    """A seat whose engine could not even be defined (its submission's file is gone, say)."""

    def __init__(self, seat: int, why: str) -> None:
        super().__init__(why)
        self.seat, self.why = seat, why


class _Seats:
    """The pool as :func:`~zerosum.arena.runner.play_supervised` sees it, each game run by :func:`play_seat_game`;
    a sandboxed seat (one of ``seats``) gets :data:`SEAT_READY` seconds to be set up (its start, its handshake,
    ``newgame`` and its ``isready``), not the supervisor's: past them the worker is killed, and :attr:`late`
    names the seat."""

    def __init__(self, pool: Any, seats: set[int]) -> None:
        self.pool = pool
        self.seats = seats
        self.late: int | None = None  # the sandboxed seat whose setup the bound cut

    def run(self, fn: Callable[..., Any], args: tuple[Any, ...] = (), timeout: float | None = None,
            on_event: Any = None) -> Any:
        def event(msg: tuple[Any, ...]) -> Any:
            limit = on_event(msg)
            self.late = msg[1] if msg[0] == "setup" and msg[1] in self.seats else None
            return min(limit, SEAT_READY) if self.late is not None and limit is not None else limit

        return self.pool.run(play_seat_game, args, timeout, event if on_event is not None else None)


def _sandboxed(config: dict[str, Any], entry: str) -> bool:
    """Whether ``entry`` plays in the sandbox: a submission, or a reference marked ``"sandbox": true``."""
    kind, _, name = entry.partition(":")
    return kind == "sub" or any(isinstance(ref, dict) and ref.get("sandbox") and ref.get("name") == name
                                and not isinstance(ref.get("engine"), dict) for ref in config.get("references") or [])


def _one_line(text: str, width: int) -> str:
    return clip(" ".join(_CONTROL.sub(" ", str(text)).split()), width)


def dealt_openings(openings: Sequence[str], key: str, count: int) -> list[str]:
    """``count`` openings dealt from the list shuffled by ``random.Random(key)``, a new shuffle each time the
    list runs out (so each is used once before any is used twice); the start position without openings."""
    pool = list(openings) or ["-"]
    rng = random.Random(key)
    out: list[str] = []
    while len(out) < count:
        deck = pool[:]
        rng.shuffle(deck)
        out.extend(deck)
    return out[:count]


def reset_running(conn: sqlite3.Connection, stage: str) -> int:
    """Games of ``stage`` left ``running`` by a process that ended go back to ``pending``; how many."""
    with written(conn):
        cur = conn.execute("UPDATE games SET status = 'pending', started = NULL WHERE stage = ? AND status = 'running'",
                           (stage,))
    return cur.rowcount


def record_text(row: Any, rec: GameRecord, names: dict[str, str], config: dict[str, Any], stage: str) -> str:
    """The game in zerosum's record format (:mod:`zerosum.records`)."""
    from ..records import MoveNote, Record, termination
    from ..records import format as format_record

    limits = config.get("limits") or {}
    tc, per_move = limits.get("tc"), limits.get("move_time")
    control = f"{tc[0]:g}+{tc[1]:g}" if tc else (f"1/{per_move:g}" if per_move else "-")
    tags = {"Event": f"zerosum contest {stage}", "Site": _one_line(socket.gethostname() or "?", 100),
            "Date": time.strftime("%Y.%m.%d", time.localtime(rec.finished or time.time())), "Round": str(row["id"]),
            "First": _one_line(f"{names.get(row['first'], row['first'])} ({row['first']})", 200),
            "Second": _one_line(f"{names.get(row['second'], row['second'])} ({row['second']})", 200),
            "Game": str(config.get("game")), "Opening": row["opening"] or "-",
            "Termination": termination(_one_line(rec.reason, 300), rec.forfeit), "TimeControl": control}
    notes: list[MoveNote | None] = [MoveNote(None if t is None else float(t), None if n is None else int(n), None)
             for t, n in zip(rec.times, rec.nodes)]
    from ..games import get_game

    # the contest's own game (the teacher's file, checked by check_game_file): a record never makes it from its tag
    return format_record(Record(tags, list(rec.moves), notes, rec.result, game=get_game(str(config.get("game")))))


class GameRunner:
    """Plays contest games (rows of ``games``) in ``jobs`` workers of the engine pool, started at the first
    game (``backend`` ``local`` or ``ray``; ``address`` a Ray cluster); ``unconfined`` runs the submissions
    without the sandbox (the teacher's ``--unconfined``)."""

    def __init__(self, folder: str | Path, *, backend: str = "local", jobs: int | None = None,
                 address: str | None = None, unconfined: bool = False, grace: float = 30.0,
                 setup: float = 120.0) -> None:
        from ..errors import UsageError
        from ..pool import BACKENDS

        if backend not in BACKENDS:
            raise UsageError(f"unknown backend {backend!r}: choose {' or '.join(BACKENDS)}")
        if backend == "ray":  # a missing Ray or an unreachable cluster is one line now, before any game
            from ..pool.actors import connect as ray_connect

            ray_connect(address)
        self.folder = Path(folder).resolve()
        self.backend, self.address, self.unconfined = backend, address, unconfined
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.grace, self.setup = grace, setup
        self._pool: Any = None
        self._lock = threading.Lock()
        self._failures: dict[int, int] = {}
        self.failures: list[tuple[int, str]] = []  # (game, why) of every failed try (:meth:`failed`)
        self.log: Callable[[str], None] | None = None  # told a line for each failed try (the ladder prints it)
        self.closed = False

    def pool(self) -> Any:
        from ..pool import make_pool

        with self._lock:
            if self.closed:
                from ..pool import EngineBusy

                raise EngineBusy("the pool is stopping")
            if self._pool is None:
                self._pool = make_pool(self.backend, self.jobs, address=self.address, wait=None, memory_limit=None,
                                       rss_limit=None, quiet=True)
            return self._pool

    def close(self) -> None:
        with self._lock:
            self.closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    def spec_of(self, conn: sqlite3.Connection, entry: str, config: dict[str, Any],
                engines: dict[str, str]) -> str:
        """The agent spec of ``entry`` in a worker; a sandboxed seat's definition goes into ``engines``."""
        import json

        from ..errors import GameError

        kind, _, rest = entry.partition(":")
        if kind == "ref":
            for ref in config.get("references") or []:
                if isinstance(ref, dict) and ref.get("name") == rest:
                    if isinstance(ref.get("engine"), dict):  # an external program (contest new --engine)
                        engines[str(ref["engine"]["name"])] = json.dumps(ref["engine"], sort_keys=True)
                        return str(ref["spec"])
                    spec = reference_spec(ref, self.folder)  # a copied file: from the contest's folder
                    if not ref.get("sandbox"):
                        return spec
                    path, sep, function = spec.rpartition(".py:")  # FILE.py:FUNCTION, or FILE.py
                    path, kind_of = (path + ".py", "python") if sep else (spec, "python")
                    entry_function = function if sep else None
                    break
            else:
                raise GameError(f"entry {entry!r}: the contest has no such reference")
        else:
            row = conn.execute("SELECT path, kind FROM submissions WHERE id = ?", (int(rest),)).fetchone()
            if row is None:
                raise GameError(f"entry {entry!r}: no such submission")
            path, kind_of, entry_function = str(self.folder / row["path"]), row["kind"], None
        from .sandbox import Limits
        from .seats import seat_definition

        name = engine_name(entry)
        definition = seat_definition(str(self.folder), path, kind_of, Limits.of_contest(config), name,
                                     entry=entry_function, game=str(config["game"]), unconfined=self.unconfined)
        engines[name] = json.dumps(definition.to_json(), sort_keys=True)
        return name

    def task_for(self, conn: sqlite3.Connection, row: Any, config: dict[str, Any]) -> GameTask:
        from ..arena.match import default_deadline

        from ..errors import AgentError

        from .game_file import check_game_file

        check_game_file(config, self.folder)  # a changed or missing game file plays no game (one line)
        engines: dict[str, str] = {}
        specs = []
        for seat, entry in ((1, row["first"]), (2, row["second"])):
            try:
                specs.append(self.spec_of(conn, entry, config, engines))
            except AgentError as exc:  # the entry's own fault (its file is gone, it is no longer a seat)
                raise _SeatFault(seat, str(exc)) from None
        first, second = specs
        limits = config.get("limits") or {}
        own = tuple(sorted((k, v) for k, v in (("nodes", limits.get("nodes")), ("time", limits.get("move_time")))
                           if v is not None))
        deadline = default_deadline(limits.get("move_time"))
        tc = limits.get("tc")
        return GameTask(int(row["id"]), str(config["game"]), first, second, row["opening"] or "-", int(row["seed"] or 0),
                        own, (deadline, deadline), (float(tc[0]), float(tc[1])) if tc else None, (), None,
                        tuple(sorted(engines.items())))

    def play(self, conn: sqlite3.Connection, row: Any, stopping: Callable[[], bool] = lambda: False) -> bool:
        """Play the claimed (``running``) game ``row`` and write its result; False when it was not finished
        (the pool stopped: it stays for the next start; or this try failed).  Whatever goes wrong in a try (the
        pool cannot play the game, its record cannot be made, its row cannot be written) is that try's failure,
        :meth:`failed`: counted toward :data:`ATTEMPTS` with its reason, never an exception out of here."""
        game_id = int(row["id"])
        try:
            return self._play(conn, row, stopping)
        except Exception as exc:  # noqa: BLE001 - any fault of a try is the game's failed try, never a replay loop
            if stopping() or self.closed:
                return False
            return self.failed(conn, game_id, f"{type(exc).__name__}: {exc}")

    def _play(self, conn: sqlite3.Connection, row: Any, stopping: Callable[[], bool]) -> bool:
        from ..arena.runner import play_supervised
        from ..pool import EngineBusy
        from .standings import entry_names

        config = read_config(conn)
        game_id = int(row["id"])
        try:
            pool = self.pool()
        except EngineBusy:  # stopping
            return False
        seats: _Seats | None = None
        try:
            task = self.task_for(conn, row, config)
            seats = _Seats(pool, {seat for seat, entry in ((1, row["first"]), (2, row["second"]))
                                  if _sandboxed(config, entry)})
            rec = play_supervised(seats, task, self.grace, self.setup)
        except _SeatFault as fault:  # a seat that cannot even be made loses by forfeit
            rec = GameRecord(game_id, "0-1" if fault.seat == 1 else "1-0", 3 - fault.seat,
                             _one_line(f"could not start: {fault.why}", 300), True, finished=time.time())
        except Exception as exc:  # noqa: BLE001 - the pool stopping, or a game that cannot be played
            if stopping() or self.closed:
                return False
            late = seats.late if seats is not None and "could not start" in str(exc) else None
            lost = self._unstarted(exc, task if "task" in locals() else None, late)
            if lost is None:
                return self.failed(conn, game_id, f"{type(exc).__name__}: {exc}")
            rec = lost
        if stopping() or self.closed:  # a game cut short by the stop is no result
            return False
        try:
            text = record_text(row, rec, entry_names(conn, config), config, str(row["stage"]))
        except Exception as exc:  # noqa: BLE001 - a game its record cannot hold is no result: a failed try
            return self.failed(conn, game_id, f"its record could not be made: {type(exc).__name__}: {exc}")
        with written(conn):  # only while it is ours: a game is never written twice
            cur = conn.execute("UPDATE games SET status = 'done', result = ?, reason = ?, forfeit = ?, moves = ?, "
                               "record = ?, finished = ? WHERE id = ? AND status = 'running'",
                               (rec.result, _one_line(rec.reason, 500), int(rec.forfeit), " ".join(rec.moves), text,
                                time.time(), game_id))
        return cur.rowcount == 1

    def _unstarted(self, exc: Exception, task: GameTask | None, late: int | None = None) -> GameRecord | None:
        """The forfeit of a seat whose agent could not be built in time (the supervisor's GameError names it;
        ``late``: the sandboxed seat cut by :data:`SEAT_READY`)."""
        text = str(exc)
        if task is None or "could not start" not in text:
            return None
        for seat, spec in ((1, task.first), (2, task.second)):
            if f"agent {spec!r}:" in text:
                why = text.partition(f"agent {spec!r}: ")[2].partition(" (nothing was stored")[0]
                if seat == late:
                    why = (f"it was not ready to play within {SEAT_READY:g} s of its start (its handshake, then "
                           "'newgame' and 'isready': something there hangs or is too slow)")
                result = "0-1" if seat == 1 else "1-0"
                return GameRecord(task.idx, result, 3 - seat, _one_line(f"could not start: {why}", 300), True,
                                  [], [], [], [], [], 0.0, time.time())
        return None

    def failed(self, conn: sqlite3.Connection, game_id: int, why: str) -> bool:
        """A try of the claimed game ``game_id`` that failed (never an entry's fault: the pool could not play it,
        or its record could not be made or written): back to ``pending`` for another try, and after
        :data:`ATTEMPTS` tries set aside (``done`` without a result, ``reason`` ``not played: ...``); kept in
        :attr:`failures` and said to :attr:`log`.  False (no game finished); a database that refuses the write
        leaves the game ``running`` (the next start of the ladder or the final tries it again), said too."""
        with self._lock:
            n = self._failures[game_id] = self._failures.get(game_id, 0) + 1
            self.failures.append((game_id, why))
        aside = n >= ATTEMPTS
        try:
            with written(conn):
                if not aside:
                    conn.execute("UPDATE games SET status = 'pending', started = NULL WHERE id = ? AND status = "
                                 "'running'", (game_id,))
                else:
                    conn.execute("UPDATE games SET status = 'done', result = NULL, reason = ?, finished = ? "
                                 "WHERE id = ? AND status = 'running'", (_one_line(f"not played: {why}", 500),
                                                                         time.time(), game_id))
            then = "set aside, not played" if aside else "to be tried again"
        except sqlite3.Error as exc:
            then = f"left running, its row not written ({type(exc).__name__}: {exc})"
            self.failures.append((game_id, then))
        if self.log is not None:
            self.log(_one_line(f"game {game_id}: try {n} of {ATTEMPTS} failed, {then}: {why}", 500))
        return False


def run_claims(store: Any, claim: Callable[[sqlite3.Connection], Any], budget: int, runner: GameRunner,
               played_one: Callable[[sqlite3.Connection], None] | None = None) -> int:
    """Play the games ``claim(conn)`` hands out (each claimed ``running``; None: no more) in ``runner.jobs``
    threads, at most ``budget`` tries; how many games were finished and written.  ``played_one(conn)`` is called
    after each try (one call at a time).  A failed try is the game's (:meth:`GameRunner.failed`); a claim the
    database refuses ends its thread, the reason kept in ``runner.failures`` (game 0), never a traceback."""
    lock = threading.Lock()
    claimed, played = [0], [0]

    def work() -> None:
        own = connect(store)
        try:
            while True:
                with lock:
                    if claimed[0] >= budget:
                        return
                    row = claim(own)
                    if row is None:
                        return
                    claimed[0] += 1
                finished = runner.play(own, row)
                with lock:
                    played[0] += finished
                    if played_one is not None:
                        played_one(own)
        except Exception as exc:  # noqa: BLE001 - the database refused a claim or a count: said, not raised
            runner.failures.append((0, f"{type(exc).__name__}: {exc}"))
        finally:
            own.close()

    threads = [threading.Thread(target=work, name=f"zerosum-contest-{i}", daemon=True)
               for i in range(min(runner.jobs, max(budget, 0)))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return played[0]
