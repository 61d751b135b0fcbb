"""The engine client at the system's limits and around an engine's edges, with real processes: a start the system
refuses (no thread, no process: a full process limit, ``ulimit -u`` or ``-v``) is one line saying so, never a
traceback nor the engine's fault; an engine that closes its input is said to have closed its input; an engine
that kills its reaper and runs on is ended, and the reason says what happened, as it does for one that tells its
reaper to stop.

The system's refusal (``EAGAIN``, which root never meets under ``RLIMIT_NPROC``) is brought about inside a real
process by a few lines run before the client (as tests/external/test_engine_resources.py does)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

import zerosum
from zerosum import Limits
from zerosum.external import Engine

from process_helpers import wait_gone, write_script  # noqa: E402 (tests/process_helpers.py)

linux = pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads /proc (Linux)")

#: Connect Four, the lowest legal column from the left; it writes its process id to its first argument, and
#: its second says how it misbehaves at its first bestmove (one that killed its reaper stays to the end of time)
ENGINE = r'''
import os, signal, subprocess, sys, time

PIDS, MODE = sys.argv[1], sys.argv[2]
STAY = MODE == "kill_reaper"
with open(PIDS, "a") as f:
    f.write(f"{os.getpid()}\n")
moves = ""
for words in map(str.split, sys.stdin):
    command = words[0] if words else ""
    if command == "zsp":
        print("id name edgy", "game connectx:rows=6,cols=7,k=4", "zspok", sep="\n", flush=True)
    elif command == "isready":
        if MODE == "close_stdin_unready":  # after its first answer, with the next position's isready unanswered
            os.close(0)
            time.sleep(3600)
        print("readyok", flush=True)
    elif command == "position":
        moves = words[3] if len(words) > 3 else ""
    elif command == "go":
        column = next(c for c in "1234567" if moves.count(c) < 6)
        if MODE == "close_stdin":  # before its answer: every later line to it finds nobody reading
            os.close(0)
        elif MODE == "kill_reaper":  # a helper started (in its group), its parent, the reaper, killed; it plays on
            helper = subprocess.Popen(["sleep", "3600"])
            with open(PIDS, "a") as f:
                f.write(f"{helper.pid}\n")
            parent = os.getppid()
            os.kill(parent, signal.SIGKILL)
            while os.getppid() == parent:
                time.sleep(0.01)
        elif MODE == "term_reaper":  # it asks its parent, the reaper, to stop (which ends it), and waits for that
            os.kill(os.getppid(), signal.SIGTERM)
            time.sleep(3600)
        print(f"bestmove {column}", flush=True)
        if MODE == "close_stdin":
            time.sleep(3600)
        MODE = "close_stdin_unready" if MODE == "close_stdin_later" else "good"
    elif command == "quit" and not STAY:
        break
if STAY:
    time.sleep(3600)
'''

#: run before the client in a process of its own: the thread named by $REFUSE_THREAD gets none, and with
#: $REFUSE_FORK the engine's reaper (a wrapper of the real one) gets no process for the engine, as a full process
#: limit refuses them; then it starts Engine(sys.argv[1:]) and prints what came of it, in one line
PRELUDE = r'''
import errno, os, sys, threading
start = threading.Thread.start
def refuse(self):
    if self.name == os.environ.get("REFUSE_THREAD"):
        raise RuntimeError("can't start new thread")
    return start(self)
threading.Thread.start = refuse
import zerosum.external.process as process
if os.environ.get("REFUSE_FORK"):
    process._REAPER = os.environ["REFUSE_FORK"]
from zerosum.errors import AgentError
from zerosum.external import Engine
try:
    with Engine(sys.argv[1:]) as engine:
        print("started", engine.handshake.name)
except AgentError as exc:
    print(type(exc).__name__, "|", exc)
'''

#: the reaper, its fork refused as a full process limit refuses it (EAGAIN)
REAPER = r'''
import errno, os, runpy, sys
def fork():
    raise BlockingIOError(errno.EAGAIN, os.strerror(errno.EAGAIN))
os.fork = fork
sys.argv = [REAL, *sys.argv[1:]]
runpy.run_path(REAL, run_name="__main__")
'''


@pytest.fixture
def engine_file(tmp_path: Path) -> Iterator[Path]:
    path = write_script(tmp_path / "edgy.py", f"#!{sys.executable}\n" + ENGINE)
    path.chmod(0o755)
    yield path
    for pid in wait_gone(_pids(tmp_path), 0.0):  # a test that failed leaves nothing running
        os.kill(pid, signal.SIGKILL)


def _pids(tmp_path: Path) -> list[int]:
    path = tmp_path / "pids"
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def _client(tmp_path: Path, engine_file: Path, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", PRELUDE, str(engine_file), str(tmp_path / "pids"), "good"],
                          capture_output=True, text=True, timeout=120, env={**os.environ, **env})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    return lines[0]


def test_no_thread_for_the_engine_is_one_line_saying_the_system_refused(tmp_path: Path, engine_file: Path) -> None:
    # it was RuntimeError: can't start new thread, uncaught, from EngineProcess.__init__
    said = _client(tmp_path, engine_file, REFUSE_THREAD="zerosum-engine-stderr")
    assert said.startswith("SystemRefused | engine edgy.py") and "cannot start: the system refused a new thread " \
        "(can't start new thread)" in said and "run fewer at once, or raise the limit" in said, said
    assert wait_gone(_pids(tmp_path), 30.0) == []  # the engine it had started is not left running


def test_no_process_for_the_engine_under_its_reaper_is_the_system_refusing_not_the_engine(
        tmp_path: Path, engine_file: Path) -> None:
    # it was "failed its handshake: crash: the engine exited (exit code 1): BlockingIOError: [Errno 11] ..."
    import zerosum.external.reaper as reaper

    wrapper = write_script(tmp_path / "reaper.py", f"REAL = {reaper.__file__!r}\n" + REAPER)
    said = _client(tmp_path, engine_file, REFUSE_FORK=str(wrapper))
    assert said.startswith("SystemRefused | engine edgy.py cannot start: the system refused a new process "
                           f"({os.strerror(11)})"), said
    assert "handshake" not in said and "crash" not in said, said
    assert _pids(tmp_path) == []  # no engine ever ran


@pytest.mark.parametrize("mode", ["close_stdin", "close_stdin_later"])
def test_an_engine_that_closes_its_input_is_said_to_have_closed_its_input(engine_file: Path, tmp_path: Path,
                                                                          mode: str) -> None:
    # it was "crash: the engine closed its output"; or, when the lines written to it were lost in the closing,
    # "timeout: no readyok (to the isready before go) within 0.45 s"
    with Engine([str(engine_file), str(tmp_path / "pids"), mode], limits=Limits(time=0.2)) as engine:
        record = zerosum.play_game("connect4", engine, "random", seed=0)
    assert record.reason.endswith("crash: the engine closed its input"), record.reason
    assert wait_gone(_pids(tmp_path), 30.0) == []


@linux
def test_an_engine_that_kills_its_reaper_is_ended_and_the_reason_says_so(engine_file: Path, tmp_path: Path) -> None:
    # it ran on after the game (its parent init), and the reason read "the engine was killed by signal 9"; its
    # helper (in its group) is ended too
    with Engine([str(engine_file), str(tmp_path / "pids"), "kill_reaper"],
                limits=Limits(time=0.2)) as engine:
        record = zerosum.play_game("connect4", engine, "random", seed=0)
        assert wait_gone(_pids(tmp_path), 30.0) == []  # ended as the fault was found, not only at close
    assert record.reason.endswith("crash: the engine's reaper (its parent process) was killed by signal 9 (SIGKILL), "
                                  "and the engine with it"), record.reason


@linux
def test_an_engine_that_tells_its_reaper_to_stop_is_said_to_have(engine_file: Path, tmp_path: Path) -> None:
    # the reason read "the engine exited (exit code 1)": the reaper's own exit code, not the engine's
    with Engine([str(engine_file), str(tmp_path / "pids"), "term_reaper"], limits=Limits(time=0.2)) as engine:
        record = zerosum.play_game("connect4", engine, "random", seed=0)
        assert wait_gone(_pids(tmp_path), 30.0) == []
    assert record.reason.endswith("crash: the engine's reaper (its parent process) was stopped by signal 15 "
                                  "(SIGTERM) from the engine, and the engine with it"), record.reason
