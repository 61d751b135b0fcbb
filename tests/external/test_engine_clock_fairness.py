"""An external engine's time, fairly kept (docs/protocol.md, docs/arena.md): an engine that answers within the
clock or the deadline it is told never loses on time, one that does not always does, and its clock is charged
the time it took; the limits it cannot be sent, the proofs it cannot have, engine-check's view of its deadline,
and the run's header about the first move's grace.  Real engine processes throughout: the small program below,
which spends exactly the share of its time that its arguments say."""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

import pytest

import zerosum
from zerosum.agents.base import Limits
from zerosum.cli import main
from zerosum.errors import AgentError
from zerosum.external import Engine, EngineFault

from process_helpers import rows, write_script  # noqa: E402
from test_engine_check import check, failed  # noqa: E402
from test_external_agent import ENGINE  # noqa: E402

#: a Connect-X engine that plays the first column with room and spends what its arguments say: ``frac P`` (P %
#: of its own clock), ``left MS`` (all its clock but MS milliseconds; negative: that much past it), ``sleep MS``
#: (whatever it is told), ``score S`` (answers at once, after ``info depth 1 score exact S``)
TIMED = r'''
import re, sys, time

MODE, ARG = sys.argv[1], float(sys.argv[2])


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


rows, cols, moves = 6, 7, ""
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "zsp":
        for said in ("id name timed " + MODE, "id author the tests", "game connectx", "zspok"):
            out(said)
    elif words[0] == "isready":
        out("readyok")
    elif words[0] == "position":
        size = dict(re.findall(r"(rows|cols)=(\d+)", words[1]))
        rows, cols = int(size.get("rows", 6)), int(size.get("cols", 7))
        moves = words[3] if len(words) > 3 else ""
    elif words[0] == "go":
        fields = dict(zip(words[1::2], words[2::2]))
        clock = fields.get("ftime" if len(moves) % 2 == 0 else "stime")
        wait = {"frac": lambda: int(clock) * ARG / 100, "left": lambda: int(clock) - ARG,
                "sleep": lambda: ARG}.get(MODE, lambda: 0)()
        time.sleep(max(0.0, wait) / 1000)
        if MODE == "score":
            out(f"info depth 1 score exact {int(ARG)}")
        out(f"bestmove {next(c for c in range(1, cols + 1) if moves.count(str(c)) < rows)}")
    elif words[0] == "quit":
        break
'''


@pytest.fixture(scope="module")
def timed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The timing engine's script, written once for the module's tests."""
    return write_script(tmp_path_factory.mktemp("engines") / "timed.py", TIMED)


def timed_engine(path: Path, mode: str, arg: float) -> list[str]:
    return [sys.executable, str(path), mode, str(arg)]


def flag(name: str, path: Path, mode: str, arg: float) -> list[str]:
    return ["--engine", f"{name}={sys.executable} {path} {mode} {arg}"]


def search(engine: Engine, deadline: float, clock: tuple[float, float, float] | None = None) -> float:
    """One move of ``engine`` from the start of Connect Four, told ``deadline`` and ``clock``: its time."""
    engine.tell(deadline, clock)
    game = zerosum.get_game("connect4")
    engine.search(game, game.initial_state)
    assert engine.used is not None
    return engine.used


# ---- the engine's own deadline: the time it is told ---------------------------------------------------------

def test_an_engine_answering_early_in_a_20_ms_clock_is_in_time_and_one_past_it_is_not(timed):
    """Its deadline was 20 ms before its clock's end (now the end itself): 2 ms of 20 ms lost on time.  (2 ms,
    not half the clock: the other 18 ms are the slack a loaded machine needs to pass the answer on.)"""
    with Engine(timed_engine(timed, "frac", 10)) as engine:
        used = search(engine, 5.0, (0.02, 9.0, 0.0))
        assert 0.002 <= used < 0.02  # answered in time, and this is the time it took
    with Engine(timed_engine(timed, "left", -3)) as late:  # 3 ms past its clock
        with pytest.raises(EngineFault) as caught:
            search(late, 5.0, (0.05, 9.0, 0.0))
    assert caught.value.reason == "time forfeit: no bestmove within the 50 ms left on its clock"


def test_an_engine_answering_just_before_its_deadline_is_in_time_and_one_after_it_is_not(timed):
    with Engine(timed_engine(timed, "sleep", 160)) as engine:  # 40 ms before a deadline of 0.2 s
        assert 0.16 <= search(engine, 0.2) < 0.2
    with Engine(timed_engine(timed, "sleep", 215)) as late:
        with pytest.raises(EngineFault) as caught:
            search(late, 0.2)
    assert caught.value.reason == "timeout: no bestmove within 0.2 s (stop sent after 0.10 s)"


def test_the_clock_sent_is_never_more_than_is_left(engine_file_log):
    engine_file, log = engine_file_log
    with Engine([sys.executable, str(engine_file)]) as engine:
        engine.tell(5.0, (0.5209, 1.9996, 0.01))  # rounded, it would say 521 ms and 2000 ms
        game = zerosum.get_game("connect4")
        engine.search(game, game.initial_state)  # 0.52 s to answer (20 ms forfeited it in a full run at load 3)
    assert "go ftime 520 stime 1999 finc 10 sinc 10" in log.read_text().splitlines()


@pytest.fixture
def engine_file_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    log = tmp_path / "heard.txt"
    monkeypatch.setenv("ENGINE_LOG", str(log))
    return write_script(tmp_path / "middle.py", ENGINE), log


# ---- in the arena: the supervisor charges what the engine took ----------------------------------------------

def test_in_the_arena_an_engine_in_time_on_a_short_clock_never_forfeits_and_is_charged_its_own_time(timed, tmp_path):
    """Spending 10 % of its clock, 2.1 ms of the 21 ms it starts with: its deadline was the clock less 20 ms (1 ms
    from 21 ms left), so it lost every game on its first move.  The clock it is told
    each move is what is left after the times stored: the stored times are the times charged, no more."""
    db = tmp_path / "fair.db"
    assert main(["match", "cf", "first", *flag("cf", timed, "frac", 10), "--tc", "0.021+0.05", "--games", "2",
                 "--opening-plies", "0", "--jobs", "1", "--out", str(db), "--quiet"]) == 0
    games = rows(db, "SELECT a.label, g.reason, g.forfeit, g.times FROM games g JOIN plan p USING (idx) "
                     "JOIN agents a ON a.id = p.first ORDER BY g.idx")
    assert len(games) == 2
    beyond = []
    for first, reason, forfeit, times in games:
        assert forfeit == 0, reason
        left, seat = 0.021, 0 if first == "cf" else 1
        spent = json.loads(times)[seat::2]
        assert len(spent) >= 8
        for took in spent:  # each move as its told clock says: 10 % of the whole milliseconds left
            asked = 0.1 * math.floor(left * 1000 + 1e-6) / 1000
            assert asked - 0.001 <= took, (took, left)
            beyond.append(took - asked)
            left = left - took + 0.05
            assert left > 0
    assert statistics.median(beyond) < 0.005, beyond  # the engine's time, not the messages' on a loaded machine
    late = tmp_path / "late.db"  # and past its clock, always lost on time, at its first move
    assert main(["match", "cf", "first", *flag("cf", timed, "left", -3), "--tc", "0.05", "--games", "2",
                 "--opening-plies", "0", "--jobs", "1", "--out", str(late), "--quiet"]) == 0
    assert rows(late, "SELECT reason, forfeit FROM games") == [
        ("time forfeit: no bestmove within the 50 ms left on its clock", 1)] * 2


def test_the_header_gives_the_grace_to_zerosum_agents_only(timed, tmp_path, capsys):
    db = tmp_path / "h.db"
    assert main(["match", "cf", "first", *flag("cf", timed, "sleep", 0), "--games", "2", "--opening-plies", "0",
                 "--jobs", "1", "--out", str(db)]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.endswith("(each zerosum agent's first move in a new worker: +30 s; an external engine's first "
                           "move gets no extra time: it prepares at isready, before its clock starts)"), header
    assert main(["match", "cf", "cg", *flag("cf", timed, "sleep", 0), *flag("cg", timed, "sleep", 1), "--games",
                 "2", "--opening-plies", "0", "--jobs", "1", "--out", str(tmp_path / "h2.db")]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header.endswith("forfeits (an external engine's first move gets no extra time: it prepares at isready, "
                           "before its clock starts)"), header


# ---- what cannot be sent, what cannot be proven ----------------------------------------------------------------

def test_depth_0_is_refused_for_an_engine_before_any_game(engine_file_log, tmp_path, capsys):
    engine_file, log = engine_file_log
    db = tmp_path / "d0.db"
    assert main(["match", "x:depth=0", "first", "--engine", f"x={sys.executable} {engine_file}", "--games", "2",
                 "--out", str(db)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("engine x: depth=0 is out of range: expected a whole number in 1..10000 (an engine is sent "
                        "go depth D, D at least 1)") and "\n" not in err, err
    assert not db.exists() and not log.exists()  # nothing written, the engine never started
    with pytest.raises(AgentError, match=r"^Engine: depth=0 is out of range"):
        Engine([sys.executable, str(engine_file)], limits=Limits(depth=0))


def test_an_exact_score_past_what_is_possible_is_a_protocol_error(timed):
    """After m moves on c cells an exact score is -((c - m) // 2)..(c + 1 - m) // 2 (docs/protocol.md): past
    that it proves nothing, and the engine forfeits as for any protocol error (it was stored as a proven win)."""
    game = zerosum.get_game("connect4")
    cases = [("445566", 18, True), ("445566", -18, True), ("4455661", 18, True), ("", 21, True), ("", 0, True),
             ("445566", 19, False), ("445566", -19, False), ("4455661", -18, False), ("", 999, False),
             ("", -22, False)]
    for moves, score, proof in cases:
        with Engine(timed_engine(timed, "score", score)) as engine:
            if proof:
                assert engine.search(game, game.from_moves(moves)).exact is True
                continue
            with pytest.raises(EngineFault) as caught:
                engine.search(game, game.from_moves(moves))
        assert caught.value.reason.startswith(f"protocol error: impossible score in 'info depth 1 score exact "
                                              f"{score}': an exact score in this position is "), caught.value.reason


def test_in_the_arena_an_impossible_proof_forfeits_and_is_never_stored(timed, tmp_path):
    db, pgn = tmp_path / "s.db", tmp_path / "s.pgn"
    assert main(["match", "q", "first", *flag("q", timed, "score", 999), "--games", "2", "--opening-plies", "0",
                 "--jobs", "1", "--out", str(db), "--pgnout", str(pgn), "--quiet"]) == 0
    assert rows(db, "SELECT reason, forfeit FROM games ORDER BY idx") == [
        ("protocol error: impossible score in 'info depth 1 score exact 999': an exact score in this position is "
         f"-{n}..21 (docs/protocol.md, Scores)", 1) for n in (21, 20)]
    assert "+W" not in pgn.read_text()


# ---- engine-check holds a move to the arena's deadline ------------------------------------------------------------

def test_engine_check_fails_an_engine_that_overruns_movetime_past_the_arenas_deadline(timed):
    status, out = check(sys.executable, str(timed), "sleep", "400", extra=("--game", "connectx:rows=4,cols=5,k=3"))
    assert status == 1 and "legal moves" in failed(out), out
    assert ("FAIL  legal moves: connectx:rows=4,cols=5,k=3 at the start: bestmove 4" in out
            and "ms after 'go movetime 100', past the arena's deadline for --time 0.1, 350 ms (the time limit + "
                "max(0.25 s, 10%)): the arena forfeits such a move" in out), out
    # past its movetime (100 ms), within the deadline with room: sleeping 150 ms it answered in 366 ms once, loaded
    status, out = check(sys.executable, str(timed), "sleep", "110", extra=("--game", "connectx:rows=4,cols=5,k=3"))
    assert "legal moves" not in failed(out) and "the arena's deadline 350 ms)" in out, out
