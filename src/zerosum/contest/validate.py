"""A new submission's first answer: does it load and play legal moves within the limits?

:func:`validate` starts the submission as the ladder will play it -- a protocol engine in the sandbox
(:func:`zerosum.contest.seats.seat_definition`) -- and plays the random player from the contest's first
openings, once as each colour: up to :data:`GAMES` games, within :data:`BUDGET` seconds of wall time, its start
included (a submission that does not finish loading, or is not ready for its first game, within the budget
fails, saying so).  The seat itself ends with the budget (:mod:`.cgroups`' ``--until``, outside the sandbox), so
nothing it does (sleeping at ``newgame``, say) holds the check longer.  From inside, the check's seat is the
ladder's: the same command, engine name (:func:`~zerosum.contest.playing.engine_name`), game spec and sandbox
limits, so a submission cannot behave for the check alone.  The answer is
``(status, message, ply)``:

* ``ok`` and what it played (``4 games against the random player: 2 won, ... ; 61 moves, the longest 0.21 s``);
  when the budget ends first, ``ok`` too with how far it got (every move so far legal and in time);
* ``failed`` and the one-line reason -- the engine client's forfeit reason (``crash: exit code 1: NameError:
  ...``, ``timeout: ...``, ``illegal move: bestmove '9': ...``, ``protocol error``, ``garbage output``), or why it
  could not start (a file that does not parse, no ``player`` function, a failed handshake) -- and ``ply``: the
  ply of the game (counted from the empty board, the opening's moves included) at which it happened, None
  when it never reached a move.

Limits are the contest's: ``nodes`` and ``move_time`` are sent with each ``go``; under a clock (``tc``) the
submission's own clock runs, the random player's moves taking no time.  A move's hard deadline is the
arena's rule (its time plus the larger of 0.25 s and 10%), never more than what is left of the budget; a
move cut only by the budget (the engine client's ``stop`` at the budget, then its deadline) is not held against
the submission: the answer is ``ok`` with how far it got.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any, Callable

from ..agents.base import Limits
from ..errors import AgentError, GameError, UsageError
from ..external import EngineFault
from ..external.session import LAST_WORDS, STOP_WAIT
from ..games import get_game
from .game_file import check_game_file
from .cgroups import OUT_OF_TIME
from .playing import engine_name
from .sandbox import Limits as SeatLimits
from .seats import seat_definition, seat_engine

__all__ = ["validate", "validate_submission", "validate_pending", "GAMES", "BUDGET", "MIN_BUDGET", "VALIDATORS"]

#: games played at most (the first openings, each from both sides)
GAMES = 4
#: seconds of wall time the games may take (start-up included); the answer comes within about this
BUDGET = 7.0
#: the least seconds a move is given once the budget runs short
MIN_MOVE = 0.5
#: validations run at once (the server's, and the final's checks of uploads left ``validating``)
VALIDATORS = 4
#: the least budget of a validation that waited its turn (:func:`validate_submission`)
MIN_BUDGET = 2.0
#: seconds the seat of a check lives past the check's budget (a move cut by the budget ends by its own deadline)
LIFETIME_MARGIN = 0.1


def _limits(config: dict[str, Any]) -> tuple[Limits, float | None, list[float] | None]:
    """The submission's Limits, its move time (None: untimed) and the clock ``[base, inc]`` (or None)."""
    lim = config.get("limits") or {}
    nodes, move_time, tc = lim.get("nodes"), lim.get("move_time"), lim.get("tc")
    return Limits(nodes=nodes or None, time=move_time or None), move_time or None, tc or None


def _starts(game: Any, config: dict[str, Any]) -> list[tuple[Any, ...]]:
    from ..arena.openings import parse_opening

    texts = list(config.get("openings") or [])[: (GAMES + 1) // 2] or ["-"]
    return [parse_opening(game, text) for text in texts]


def validate(contest_dir: str, path: str, kind: str, config: dict[str, Any], *, name: str = "validation",
             unconfined: bool = False, budget: float = BUDGET, seed: int = 0) -> tuple[str, str, int | None]:
    """``(status, message, ply)`` of the submission at ``path`` (relative to ``contest_dir``) of ``kind``, in
    the contest of ``config`` (see the module docstring)."""
    started = time.monotonic()
    check_game_file(config, contest_dir)  # a game in a file: its copy as `contest new` made it, or one line
    game = get_game(str(config["game"]))
    limits, move_time, tc = _limits(config)
    startup = round(max(MIN_MOVE, budget - (time.monotonic() - started)), 1)
    try:
        # the seat ends with the check's time, whatever it waits for (its start, 'newgame'): the engine client's
        # own waits (110 s for 'newgame') never hold a validator past the budget
        # the contest's seat limits and game spec, as the ladder gives them
        definition = seat_definition(contest_dir, path, kind, SeatLimits.of_contest(config), name,
                                     game=str(config["game"]), unconfined=unconfined,
                                     until=started + budget + LIFETIME_MARGIN)
        # its start (the handshake) within the budget too: a file that hangs at import is answered in time
        engine = seat_engine(definition, limits=limits, startup=startup)
    except UsageError:
        raise  # no sandbox: the server's problem, not the student's
    except (AgentError, GameError) as exc:
        if "no zspok within" in str(exc) or OUT_OF_TIME in str(exc):  # its start took the check's whole time
            said = str(exc).partition("; " + LAST_WORDS)[2]  # what it printed last, if anything: a clue to where
            also = f"; {LAST_WORDS}{said}" if said and OUT_OF_TIME not in said else ""
            return "failed", (f"it does not start: it did not finish loading within the check's {startup:g} s "
                              f"(no answer to 'zsp 1': something at its start, an import, hangs or is too slow){also}"), None
        return "failed", f"it does not start: {exc}", None
    rng = random.Random(seed)
    played = won = drawn = lost = 0
    moves, longest = 0, 0.0
    try:
        for opening in _starts(game, config):
            for seat in (1, 2):
                if played >= GAMES:
                    break
                state = game.states_of(list(opening))[-1] if opening else game.initial_state
                ply = len(opening)
                left = tc[0] if tc else None
                try:
                    engine.warm_up(game)
                except (AgentError, GameError) as exc:
                    if OUT_OF_TIME not in str(exc) and time.monotonic() - started < budget:
                        return "failed", f"it does not start a game: {exc}", ply + 1
                    if played:  # a later game's 'newgame' (each game of the contest starts a fresh program)
                        return "ok", _summary(played, won, drawn, lost, moves, longest, stopped=True), None
                    return "failed", (f"it does not start a game: it was not ready to play within the check's "
                                      f"{startup:g} s (no 'readyok' after 'newgame': something there hangs or is too "
                                      "slow)"), ply + 1
                while not game.is_terminal(state):
                    ply += 1
                    if game.player(state) != seat:
                        state = game.result(state, rng.choice(game.actions(state)))
                        continue
                    remaining = budget - (time.monotonic() - started)
                    own = (move_time + max(0.25, 0.1 * move_time)) if move_time else None
                    if left is not None:
                        own = left if own is None else min(own, left)
                    cut = own is None or remaining < own
                    if remaining < MIN_MOVE:
                        return "ok", _summary(played, won, drawn, lost, moves, longest, stopped=True), None
                    given = max(MIN_MOVE, remaining) if cut or own is None else own
                    engine.tell(deadline=given, clock=(left, left, tc[1]) if tc and left is not None else None)
                    t0 = time.monotonic()
                    try:
                        action = engine(game, state)
                    except EngineFault as fault:
                        # stopped by the budget (its stop, then its deadline), not by the contest's limit
                        if cut and time.monotonic() - t0 >= given - min(STOP_WAIT + 0.05, given / 2) - 0.05:
                            return "ok", _summary(played, won, drawn, lost, moves, longest, stopped=True), None
                        return "failed", fault.reason, ply
                    except (AgentError, GameError) as exc:
                        return "failed", str(exc), ply
                    took = time.monotonic() - t0
                    if tc and left is not None:
                        left = left - took + tc[1]
                    moves, longest = moves + 1, max(longest, took)
                    state = game.result(state, action)
                played += 1
                winner = game.winner(state)
                won, drawn, lost = won + (winner == seat), drawn + (winner is None), lost + (winner == 3 - seat)
    finally:
        engine.close()
    return "ok", _summary(played, won, drawn, lost, moves, longest, stopped=False), None


def _summary(played: int, won: int, drawn: int, lost: int, moves: int, longest: float, stopped: bool) -> str:
    if not moves:
        return "loads and answers the engine protocol, but no move was checked within the check's time (a busy " \
               "server, or a slow first move): its first games will show more"
    games = f"{played} game{'s' if played != 1 else ''} against the random player ({won} won, {drawn} drawn, " \
            f"{lost} lost)" if played else "no whole game yet"
    text = f"loads and plays legal moves: {games}; {moves} move{'s' if moves != 1 else ''} within the limits" \
           + (f", the longest {longest:.2f} s" if moves else "")
    return text + ("; the check stopped there, at its time budget" if stopped else "")


def validate_submission(store: Any, submission: int, *, unconfined: bool = False, budget: float = BUDGET,
                        whole: bool = False, stopping: Callable[[], bool] | None = None) -> tuple[str, str, int | None]:
    """Validate the store's submission ``submission`` and record the answer (status, message, ply) in it.  The
    budget counts from the upload: a validation that waited its turn (a class uploading at once) gets what is
    left of it, at least :data:`MIN_BUDGET` seconds, so the answers keep coming within seconds; ``whole``: the
    whole budget, however long ago the upload was (the final's checks of uploads left ``validating``);
    ``stopping``: once it says True (the server stops, and its end may have cut the check short), the answer
    is not recorded: the upload stays ``validating``, to be validated again at the next start."""
    row = store.submission(submission)
    if row is None:
        raise UsageError(f"no submission {submission}")
    waited = 0.0 if whole else min(max(0.0, time.time() - float(row["created"])), budget)
    budget = max(MIN_BUDGET, budget - waited)
    try:
        status, message, ply = validate(str(store.directory), row["path"], row["kind"], store.config(),
                                        name=engine_name(f"sub:{submission}"), unconfined=unconfined, budget=budget,
                                        seed=submission)
    except UsageError:
        raise
    except Exception as exc:  # noqa: BLE001 - a fault of ours is still one line for the student
        status, message, ply = "failed", f"the check itself failed: {type(exc).__name__}: {exc}", None
    if stopping is not None and stopping():
        return "validating", "the server stopped during the check: it runs again at the next start", None
    store.set_status(submission, status, message, ply)
    return status, message, ply


def validate_pending(folder: str | Path, unconfined: bool) -> list[dict[str, Any]]:
    """Validate, as the server would (in the sandbox, :data:`VALIDATORS` at once, each with the whole budget), the
    uploads of the contest in ``folder`` left ``validating`` (accepted, then the server stopped before it checked
    them), so that the entries the final freezes next are each student's latest submission answered ``ok``; what
    each was answered (id, name, filename, status, message).  A missing sandbox: one UsageError line."""
    import concurrent.futures

    from .store import Store

    store = Store(folder)
    try:
        pending = [int(r["id"]) for r in store.rows("SELECT id FROM submissions WHERE status = 'validating' ORDER BY id")]
        with concurrent.futures.ThreadPoolExecutor(VALIDATORS, thread_name_prefix="zerosum-final-check") as pool:
            for job in [pool.submit(validate_submission, store, sid, unconfined=unconfined, whole=True)
                        for sid in pending]:
                job.result()
        return [{k: row[k] for k in ("id", "name", "filename", "status", "message")}
                for sid in pending if (row := store.submission(sid)) is not None]
    finally:
        store.close()
