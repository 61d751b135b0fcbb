"""When the arena stops an external engine, and how much time it gives it (docs/protocol.md, docs/arena.md):
``stop`` never comes before the time ``go`` gave the move (its movetime; under a clock, the mover's clock), so an
engine that honours stop loses no search time that one ignoring it keeps; with no room left after that time
before the deadline, no early stop at all; and what ``go`` tells is never more than the arena allows, measured
as the arena measures, so an engine answering a little before its told time never loses on time.  Real engine
processes throughout: the small program below, which logs when it hears ``go`` and ``stop``."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import zerosum
from zerosum.agents.base import Limits
from zerosum.arena.play import GameTask, play_game
from zerosum.external import Engine, EngineFault
from zerosum.external.definitions import EngineDefinition
from zerosum.external.session import Session

from process_helpers import write_script  # noqa: E402

#: a Connect Four engine that plays the first column with room.  ``MODE MARGIN LOG``: ``told`` answers MARGIN ms
#: before the time go gives it (movetime, else its own clock), or at once on stop; ``deaf`` the same, but stop
#: changes nothing; ``stop`` answers on stop alone; ``mute`` never answers.  Each go, stop and bestmove is logged
#: to LOG as a JSON line as it happens, timed from the engine's reading of the go line.
STOPWATCH = r'''
import json, queue, sys, threading, time

MODE, MARGIN, LOG = sys.argv[1], float(sys.argv[2]) / 1000, sys.argv[3]
heard = queue.Queue()


def reader():
    for line in sys.stdin:
        heard.put((time.monotonic(), line.split()))
    heard.put((time.monotonic(), ["quit"]))


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def log(**event):
    with open(LOG, "a") as f:
        f.write(json.dumps(event) + "\n")


threading.Thread(target=reader, daemon=True).start()
moves = ""
while True:
    at, words = heard.get()
    if not words:
        continue
    if words[0] == "zsp":
        for said in ("id name stopwatch", "id author the tests", "game connectx", "zspok"):
            out(said)
    elif words[0] == "isready":
        out("readyok")
    elif words[0] == "position":
        moves = words[3] if len(words) > 3 else ""
    elif words[0] == "go":
        fields = dict(zip(words[1::2], map(int, words[2::2])))
        told = fields.get("movetime", fields.get("ftime" if len(moves) % 2 == 0 else "stime"))
        log(event="go", line=" ".join(words), told=told)
        until = at + told / 1000 - MARGIN if told is not None and MODE in ("told", "deaf") else float("inf")
        while time.monotonic() < until:
            try:
                when, got = heard.get(timeout=min(until - time.monotonic(), 1.0))
            except (queue.Empty, ValueError):
                continue
            if got[:1] == ["stop"]:
                log(event="stop", after=1000 * (when - at))
                if MODE in ("told", "stop"):
                    break
            elif got[:1] == ["isready"]:
                out("readyok")
            elif got[:1] == ["quit"]:
                sys.exit(0)
        log(event="bestmove", after=1000 * (time.monotonic() - at))
        out("bestmove %d" % next(c for c in range(1, 8) if moves.count(str(c)) < 6))
    elif words[0] == "quit":
        break
'''

@pytest.fixture(scope="module")
def stopwatch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_script(tmp_path_factory.mktemp("engines") / "stopwatch.py", STOPWATCH)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, str]]:
    """Every line the arena writes to an engine, with the time just before it is written (the real write follows)."""
    lines: list[tuple[float, str]] = []
    write = Session.send

    def send(self: Session, command: Any) -> None:
        lines.append((time.monotonic(), command.line()))
        write(self, command)

    monkeypatch.setattr(Session, "send", send)
    return lines


def command(script: Path, mode: str, margin: float, log: Path) -> list[str]:
    return [sys.executable, str(script), mode, str(margin), str(log)]


def events(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def one_move(engine: Engine, deadline: float | None = None, clock: tuple[float, float, float] | None = None) -> float:
    """One move of ``engine`` from the start of Connect Four, told ``deadline`` and ``clock``: its time."""
    engine.tell(deadline, clock)
    game = zerosum.get_game("connect4")
    engine.search(game, game.initial_state)
    assert engine.used is not None
    return engine.used


def gap(sent: list[tuple[float, str]], first: str, then: str) -> float | None:
    """Seconds from the arena writing the last line starting with ``first`` to its writing ``then`` after it."""
    starts = [i for i, (_, line) in enumerate(sent) if line.startswith(first)]
    later = [at for at, line in sent[starts[-1]:] if line == then] if starts else []
    return later[0] - sent[starts[-1]][0] if later else None


# ---- stop never comes before the movetime told ---------------------------------------------------------------

def test_stop_comes_at_the_movetime_when_the_deadline_is_close_not_before(stopwatch, tmp_path, sent):
    """--time 0.3 --deadline 0.46: the rule (170 ms before the deadline) alone sent stop after 0.29 s, inside the
    engine's 300 ms (at --deadline 0.4, after 0.23 s).  An engine that answers on stop alone now hears it at 300 ms,
    and answers in the 160 ms left (100 ms, with --deadline 0.4, was too short for a full run at load 4.5)."""
    log = tmp_path / "heard.jsonl"
    with Engine(command(stopwatch, "stop", 0, log), limits=Limits(time=0.3), deadline=0.46) as engine:
        used = one_move(engine)
    written = gap(sent, "go ", "stop")
    assert written is not None and written >= 0.3, written  # the arena's own guarantee, exactly
    stop = [e for e in events(log) if e["event"] == "stop"]
    assert [e["line"] for e in events(log) if e["event"] == "go"] == ["go movetime 300"]
    assert len(stop) == 1, stop  # heard (when: the engine's clock, late by its reading of go on a loaded machine)
    assert 0.3 <= used < 0.46


def test_the_audits_tight_deadline_stops_at_the_movetime(stopwatch, tmp_path, sent):
    """--time 0.2 --deadline 0.21 sent stop after 0.105 s.  Whether the answer to the stop is read within the
    10 ms left is the machine's affair (and when the round trip before go took those 10 ms, no stop is sent at
    all); the stop's time is the arena's, and the reason says it."""
    log = tmp_path / "heard.jsonl"
    with Engine(command(stopwatch, "stop", 0, log), limits=Limits(time=0.2), deadline=0.21) as engine:
        try:
            one_move(engine)
        except EngineFault as fault:
            assert fault.reason in ("timeout: no bestmove within 0.21 s (stop sent after 0.20 s)",
                                    "timeout: no bestmove within 0.21 s"), fault.reason
    written = gap(sent, "go ", "stop")
    stop = [e for e in events(log) if e["event"] == "stop"]
    assert written is not None or not stop
    assert written is None or written >= 0.2, written


def test_with_no_room_after_the_movetime_no_early_stop_is_sent(stopwatch, tmp_path, sent):
    """--time 0.3 --deadline 0.3: the movetime is the deadline, so no stop before it (it was sent after 0.15 s)."""
    log = tmp_path / "heard.jsonl"
    with Engine(command(stopwatch, "stop", 0, log), limits=Limits(time=0.3), deadline=0.3) as engine:
        with pytest.raises(EngineFault) as caught:
            one_move(engine)
    assert caught.value.reason == "timeout: no bestmove within 0.3 s"
    assert "stop" not in [line for _, line in sent]
    assert [e["event"] for e in events(log)] == ["go"]


def test_under_a_clock_stop_never_cuts_into_the_clock_told(stopwatch, tmp_path):
    """Told 500 ms on its clock, an engine that honours stop plans 400 ms: it was sent stop 170 ms before its
    clock ran out (after 0.33 s), and answered then; now it searches what it planned, as one ignoring stop does."""
    for mode in ("told", "deaf"):
        log = tmp_path / f"{mode}.jsonl"
        with Engine(command(stopwatch, mode, 100, log)) as engine:
            used = one_move(engine, 5.0, (0.5, 9.0, 0.0))
        assert 0.4 <= used < 0.5, (mode, used)
        assert [e["event"] for e in events(log)] == ["go", "bestmove"], (mode, events(log))


@pytest.mark.parametrize("seat", [1, 2])
def test_in_the_arena_an_engine_honouring_stop_keeps_its_movetime(stopwatch, tmp_path, sent, seat):
    """The audit's run, shorter: --time 0.3 --deadline 0.45, an engine answering 10 ms before its movetime or on
    stop, in each seat of an arena game (played here, in this process, so that what the arena writes is seen).
    The old rule sent stop 0.17 s before the deadline, after 0.28 s, inside the movetime; now no stop is written
    before 0.3 s after its go, each move takes its 290 ms, and none is late (0.45, not 0.35: room for a loaded
    machine's pipes, at load 5 a move was read after 0.35 s).  The engine's own clock is not asked when it heard
    stop: on a loaded machine it reads go late, and a stop written at 0.3 s reaches it before its 290 ms."""
    log = tmp_path / "heard.jsonl"
    definition = EngineDefinition("stopwatch_sa", tuple(command(stopwatch, "told", 10, log)))
    engines = ((definition.name, json.dumps(definition.to_json())),)
    task = GameTask(0, "connect4", *(("stopwatch_sa", "first") if seat == 1 else ("first", "stopwatch_sa")), "",
                    seed=1, limits=(("time", 0.3),), deadlines=(0.45, 0.45), engines=engines)
    said: list[tuple[Any, ...]] = []
    play_game(task, said.append)
    assert said[-1][0] == "end" and said[-1][3] is False, said[-1]  # no forfeit
    spent = [msg[3] for msg in said if msg[0] == "move" and msg[1] == seat]
    assert spent and all(took >= 0.29 for took in spent), spent
    goes = [(at, line) for at, line in sent if line.startswith("go ")]
    assert {line for _, line in goes} == {"go movetime 300"} and len(goes) == len(spent)
    for i, (at, line) in enumerate(sent):
        if line == "stop":  # the arena's own guarantee, exactly: never inside the movetime
            assert at - max(when for when, was in sent[:i] if was.startswith("go ")) >= 0.3, sent


# ---- what go tells is never more than the arena allows ----------------------------------------------------------

@pytest.mark.parametrize("limits, deadline, clock, told", [
    (Limits(time=0.5), 0.3, None, "go movetime 300"),  # a deadline shorter than the time limit
    (Limits(time=1.0), 5.0, (0.3, 9.0, 0.0), "go movetime 300 ftime 300 stime 9000 finc 0 sinc 0"),  # the clock
])
def test_the_movetime_told_is_never_more_than_the_move_may_take(stopwatch, tmp_path, limits, deadline, clock, told):
    """Told movetime 500 with a deadline of 0.3 s (or 1000 with 0.3 s on its clock), an engine that spends what
    it is told, less 100 ms, and never reads stop lost on time; told what it has, it is in time (30 ms less was
    lost on a loaded machine: the engine's start of its clock, and its answer, came late)."""
    log = tmp_path / "heard.jsonl"
    with Engine(command(stopwatch, "deaf", 100, log), limits=limits) as engine:
        used = one_move(engine, deadline, clock)
    assert [e["line"] for e in events(log) if e["event"] == "go"] == [told]
    assert 0.17 <= used < 0.3


def test_the_clock_told_is_never_more_than_the_deadline_the_engine_gets(stopwatch, tmp_path, monkeypatch):
    """The engine was killed 1 ms before its clock's end while go told it the clock's whole milliseconds: with
    0.5 s left, told 500 ms and allowed 499.  Each clock below: what go gives the mover is within its deadline."""
    seen: list[tuple[Any, float]] = []
    think = Session.think

    def watched(self: Session, position: Any, go: Any, stop_at: float, deadline: float, *rest: Any) -> Any:
        seen.append((go, deadline))
        return think(self, position, go, stop_at, deadline, *rest)

    monkeypatch.setattr(Session, "think", watched)
    clocks = [(0.5, 9.0, 0.05), (0.2009, 1.9996, 0.01), (0.998999, 9.0, 0.0), (0.3001, 0.3, 0.0)]  # room to answer under load
    with Engine(command(stopwatch, "told", 10_000, tmp_path / "heard.jsonl")) as engine:  # answers at once
        for clock in clocks:
            one_move(engine, 5.0, clock)
    assert len(seen) == len(clocks)
    for (go, deadline), clock in zip(seen, clocks):
        assert go.ftime / 1000 <= deadline == clock[0], (go.line(), deadline)


@pytest.mark.parametrize("clock, told, reason", [
    ((0.05, 9.0, 0.0), 50, "time forfeit: no bestmove within the 50 ms left on its clock"),
    ((0.2009, 9.0, 0.0), 200, "time forfeit: no bestmove within the 200 ms left on its clock"),  # not 20.9 ms: its readyok must come in time under load
])
def test_a_time_forfeit_under_a_second_says_the_milliseconds_go_told(stopwatch, tmp_path, clock, told, reason):
    """It said 'within the 0.50 s left' of an engine answering 499.5 ms after its position, and 0.20 s of 200.9 ms."""
    log = tmp_path / "heard.jsonl"
    with Engine(command(stopwatch, "mute", 0, log)) as engine:
        with pytest.raises(EngineFault) as caught:
            one_move(engine, 5.0, clock)
    assert caught.value.reason == reason
    assert [e["line"] for e in events(log) if e["event"] == "go"] == [f"go ftime {told} stime 9000 finc 0 sinc 0"]
