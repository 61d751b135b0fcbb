"""``zerosum.cli.main(["engine", ...])`` called from Python (a test harness, a notebook) hands standard output
back as it found it: file descriptor 1 and ``sys.stdout`` (audit: after the engine they pointed at standard
error, so a second engine's replies and every later print went there, and each run kept a file descriptor
open).  Each check runs in a process of its own, which calls ``main`` and then prints, as a caller would.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

WAIT = 120.0  # seconds a process may take on a loaded machine: a safety net, never a measure
HANDSHAKE = ["id name zerosum random", "game tictactoe", "zspok"]

PRELUDE = """\
import json, os, sys
from zerosum.cli import main

def feed(text):  # standard input: these lines, then its end
    r, w = os.pipe()
    os.write(w, text)
    os.close(w)
    os.dup2(r, 0)
    os.close(r)

def fds():
    return len(os.listdir("/proc/self/fd"))

def file_of(fd):
    info = os.fstat(fd)
    return [info.st_dev, info.st_ino]

def check(statuses):  # what main left: sys.stdout, fd 1 and the open file descriptors as they were?
    return dict(statuses=statuses, restored=sys.stdout is real, same_fd1=file_of(1) == fd1,
                open_more=fds() - open_before)

real, fd1, open_before = sys.stdout, file_of(1), fds()
"""
AS_IT_WAS = dict(restored=True, same_fd1=True, open_more=0)


def run_script(tmp_path: Path, body: str) -> tuple[str, str, dict]:
    """Run ``body`` (which sets ``result = check(statuses)``) after the prelude in a process of its own, then
    print twice on its stdout; what it wrote on stdout and stderr, and ``result``."""
    script = tmp_path / "caller.py"
    report = tmp_path / "report.json"
    script.write_text(PRELUDE + textwrap.dedent(body) + textwrap.dedent(f"""\
        with open({str(report)!r}, "w") as f:
            json.dump(result, f)
        print("AFTER: a print")
        sys.stdout.flush()
        os.write(1, b"AFTER: a write to fd 1\\n")
        """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=WAIT)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    return done.stdout.decode(), done.stderr.decode(), json.loads(report.read_text())


def replies(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith("id author")]


def test_two_engine_sessions_in_one_process_answer_on_stdout_and_leave_it_as_it_was(tmp_path):
    out, err, result = run_script(tmp_path, """\
        statuses = []
        for _ in range(2):
            feed(b"zsp 1\\nquit\\n")
            statuses.append(main(["engine", "random", "--game", "tictactoe"]))
        result = check(statuses)
        """)
    assert result == dict(statuses=[0, 0], **AS_IT_WAS)
    assert replies(out) == HANDSHAKE * 2 + ["AFTER: a print", "AFTER: a write to fd 1"]
    assert "zspok" not in err and "AFTER" not in err


def test_an_engine_whose_reader_went_away_leaves_stdout_as_it_was(tmp_path):
    # standard output a pipe nobody reads: the engine's first reply meets a broken pipe (BrokenPipeError)
    out, err, result = run_script(tmp_path, """\
        sys.stdout.flush()
        kept = os.dup(1)
        r, w = os.pipe()
        os.dup2(w, 1)
        os.close(w)
        os.close(r)
        fd1, open_before = file_of(1), fds()
        feed(b"zsp 1\\nquit\\n")
        result = check([main(["engine", "random", "--game", "tictactoe"])])
        os.dup2(kept, 1)
        os.close(kept)
        """)
    assert result == dict(statuses=[0], **AS_IT_WAS)
    assert replies(out) == ["AFTER: a print", "AFTER: a write to fd 1"]
    assert "AFTER" not in err


def _interrupted(tmp_path: Path, argv: list[str], lines: bytes, until: str, after: str = "") -> tuple[dict, str]:
    """Run ``main(argv)`` in a caller of its own, send ``lines``, wait for a reply starting ``until``, then
    Ctrl-C (SIGINT to the caller alone, as a harness would); the caller's report (``check``, and what
    ``after`` adds to it) and its standard error."""
    script = tmp_path / "caller.py"
    script.write_text(PRELUDE + textwrap.dedent(f"""\
        result = check([main({argv!r})])  # main runs until Ctrl-C
        """) + textwrap.dedent(after) + "print(json.dumps(result))\n")
    proc = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, bufsize=0)  # select sees each line
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(lines)
        proc.stdin.flush()
        seen: list[str] = []
        while not any(line.startswith(until) for line in seen):  # the engine is where the test wants it
            assert select.select([proc.stdout], [], [], WAIT)[0], f"no {until!r} in time: {seen}"
            line = proc.stdout.readline().decode()
            assert line, proc.stderr.read().decode()[-2000:]  # type: ignore[union-attr]
            seen.append(line.rstrip("\n"))
        os.kill(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=WAIT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    printed = out.decode().strip().splitlines()
    assert printed, f"the print after main did not reach stdout: {err.decode()[-500:]}"
    return json.loads(printed[-1]), err.decode()


def test_an_engine_stopped_by_ctrl_c_leaves_stdout_as_it_was(tmp_path):
    report, err = _interrupted(tmp_path, ["engine", "random", "--game", "tictactoe"], b"zsp 1\n", "zspok")
    assert report == dict(statuses=[130], **AS_IT_WAS)
    assert "interrupted" in err and "statuses" not in err


CHILDREN = """\
import glob
kids = [pid for f in glob.glob("/proc/self/task/*/children") for pid in open(f).read().split()]
result["children"] = kids  # the processes main left behind, running or not yet reaped
"""


def test_an_engine_stopped_by_ctrl_c_mid_search_leaves_no_process(tmp_path):
    # a search without limits (it runs until stop) under way when Ctrl-C comes: main ends it and its spare,
    # rather than leave it searching beside the caller (audit: it ran on until the caller's exit)
    report, err = _interrupted(tmp_path, ["engine", "alphabeta", "--game", "connect4"],
                               b"zsp 1\nposition connect4\ngo\n", "info depth", after=CHILDREN)
    assert report == dict(statuses=[130], children=[], **AS_IT_WAS)
    assert "interrupted" in err
