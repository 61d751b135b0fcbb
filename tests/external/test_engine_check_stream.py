"""`zerosum engine-check` says each check as it ends, and a hang or a flood costs one check, not every check after
it: the engine is killed and started again for the next (docs/protocol.md, engine-check).  A flood fails with the
reason the arena forfeits the game for, never quoted as a line the engine wrote.  Real engine processes: the test
engine of test_engine_check.py, which hangs on its first go ever (a marker file says it has), and the auditor's
misbehaving engine (audit 5), copied here."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from process_helpers import rows  # noqa: E402
from test_engine_check import GOOD, WAIT  # noqa: E402

#: GOOD, with a marker file (its second argument): its first go ever never ends (it writes the marker, then
#: sleeps); ``die-on-restart``: a start after that exits at once.  Each start is logged in MARKER.starts.
ONCE = GOOD.replace('FAULT = sys.argv[1] if len(sys.argv) > 1 else ""\n', '''FAULT = sys.argv[1] if len(sys.argv) > 1 else ""
MARK = sys.argv[2]
open(MARK + ".starts", "a").write("start\\n")
if FAULT == "die-on-restart" and os.path.exists(MARK): sys.stderr.write("no second start\\n"); sys.exit(4)
''').replace('    elif cmd == "go":\n', '''    elif cmd == "go":
        if not os.path.exists(MARK): open(MARK, "w").close(); time.sleep(3600)
''')

assert "MARK = sys.argv[2]" in ONCE and "time.sleep(3600)" in ONCE  # both hooks in GOOD's text

#: the auditor's engine: its third go of a process hangs (``hang``) or writes 12.5 MiB without a newline (``flood``)
BAD = r'''
import sys, time
MODE = sys.argv[1]
def out(s): sys.stdout.write(s + "\n"); sys.stdout.flush()
moves, gos = "", 0
for raw in sys.stdin:
    w = raw.split()
    if not w: continue
    if w[0] == "zsp": out("id name bad-" + MODE); out("id author auditor"); out("game connectx:rows=6,cols=7,k=4"); out("zspok")
    elif w[0] == "isready": out("readyok")
    elif w[0] == "position": moves = raw.split(" moves ", 1)[1].strip() if " moves " in raw else ""
    elif w[0] == "quit": break
    elif w[0] == "go":
        gos += 1
        h = [0] * 7
        for ch in moves: h[int(ch) - 1] += 1
        mv = [c + 1 for c in range(7) if h[c] < 6][0]
        if gos < 3: out("bestmove %d" % mv); continue
        if MODE == "hang": time.sleep(3600)
        if MODE == "flood":
            for _ in range(200): sys.stdout.buffer.write(b"x" * 65536)
            sys.stdout.flush(); time.sleep(3600)
'''


def timed_check(*command: str, timeout: float) -> tuple[int, list[tuple[float, str]]]:
    """engine-check's exit status and its lines, each with the time it was read (seconds from the start)."""
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "engine-check", "--timeout", f"{timeout:g}",
                             "--stop-limit", "2000", *command], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    start, lines = time.monotonic(), list[tuple[float, str]]()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append((time.monotonic() - start, line.rstrip("\n")))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        status = proc.wait(WAIT)
    finally:
        proc.kill()
        proc.wait()
    reader.join(10)
    return status, lines


def line_of(lines: list[tuple[float, str]], check: str) -> tuple[float, str]:
    found = [(when, line) for when, line in lines if re.match(rf"  (ok|FAIL|skip) +{re.escape(check)}: ", line)]
    assert len(found) == 1, (check, lines)
    return found[0]


def test_each_check_is_said_as_it_ends_and_a_hang_costs_one_check(tmp_path: Path) -> None:
    """The first go hangs: its check fails after the timeout, the engine is started again, and every check after it
    passes (the old check printed nothing for 25 s, then blamed the hung engine for 7 checks, each 3 s more)."""
    engine, mark = tmp_path / "once.py", tmp_path / "hung"
    engine.write_text(textwrap.dedent(ONCE))
    status, lines = timed_check(sys.executable, str(engine), "hang-once", str(mark), timeout=3)
    out = "\n".join(line for _, line in lines)
    handshake, _ = line_of(lines, "handshake")
    hung, legal = line_of(lines, "legal moves")
    assert hung - handshake >= 2.5, lines  # the handshake's line came at once, not after the hang's 3 s
    assert legal == ("  FAIL  legal moves: tictactoe at the start: no bestmove within 3.1 s; the engine is killed "
                     "and started again for the checks after this one"), out
    assert "10 of 11 checks pass; 1 fail" in out and status == 1, out
    assert (tmp_path / "hung.starts").read_text() == "start\nstart\n"  # started once more, not for every check


def test_an_engine_that_cannot_start_again_leaves_the_checks_after_it_not_run(tmp_path: Path) -> None:
    engine, mark = tmp_path / "once.py", tmp_path / "hung"
    engine.write_text(textwrap.dedent(ONCE))
    status, lines = timed_check(sys.executable, str(engine), "die-on-restart", str(mark), timeout=2)
    out = "\n".join(line for _, line in lines)
    why = ("not run: the engine stopped answering at check 3 (legal moves), and started again it failed: crash: the "
           "engine exited (exit code 4): no second start")
    assert f"  FAIL  finished games: {why}" in out and f"  FAIL  quit: {why}" in out, out
    assert f"  FAIL  only protocol lines: {why}" in out and "2 of 11 checks pass; 9 fail" in out and status == 1, out


def test_the_auditors_hanging_engine_is_blamed_only_where_it_hangs(tmp_path: Path) -> None:
    """bad.py hang: its third go of each process never ends (in legal moves, and in bad input's malformed go): the
    unknown command, quit and the lines watched are its own to pass (they failed, 10 s each, after the hang)."""
    engine = tmp_path / "bad.py"
    engine.write_text(textwrap.dedent(BAD))
    status, lines = timed_check(sys.executable, str(engine), "hang", timeout=2)
    out = "\n".join(line for _, line in lines)
    assert "no bestmove within 2.1 s; the engine is killed and started again" in line_of(lines, "legal moves")[1]
    for check in ("unknown command", "quit", "info lines", "only protocol lines"):
        assert line_of(lines, check)[1].startswith(f"  ok    {check}: "), out
    assert "6 of 11 checks pass; 4 fail; 1 not measured" in out and status == 1, out
    assert lines[-1][0] < 15, lines  # two hangs of 2 s, not one for every check after the first


def test_a_flood_fails_with_the_arenas_reason_never_quoted_as_a_line(tmp_path: Path) -> None:
    """bad.py flood: 12.5 MiB without a newline.  The arena forfeits it 'garbage output: a line longer than
    1,048,576 bytes'; engine-check said 'more than 20,000 lines or 4 MiB in one move ...; no bestmove within 10.1 s'
    and quoted its own reason as if the engine had printed it ('garbage: 'garbage output: a line longer...')."""
    engine, db = tmp_path / "bad.py", tmp_path / "arena.db"
    engine.write_text(textwrap.dedent(BAD))
    played = subprocess.run([sys.executable, "-m", "zerosum", "match", "flood", "first", "--engine",
                             f"flood={sys.executable} {engine} flood", "--games", "2", "--jobs", "1", "--out", str(db),
                             "--quiet"], capture_output=True, text=True, timeout=WAIT, cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    reasons = {reason for (reason,) in rows(db, "SELECT reason FROM games WHERE forfeit = 1")}
    assert len(reasons) == 1, reasons
    arena = reasons.pop()
    assert arena.startswith("garbage output: ")
    status, lines = timed_check(sys.executable, str(engine), "flood", timeout=2)
    out = "\n".join(line for _, line in lines)
    legal = line_of(lines, "legal moves")[1]
    assert legal.endswith(f"'257771314744647': {arena} (the arena forfeits the game); the engine is killed and "
                          "started again for the checks after this one"), out
    assert line_of(lines, "only protocol lines")[1] == f"  FAIL  only protocol lines: {arena}", out
    assert line_of(lines, "unknown command")[1].startswith("  ok    ") and status == 1, out
    assert lines[-1][0] < 10, lines  # no wait for a bestmove after the flood
