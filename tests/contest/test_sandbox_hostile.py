"""The hostile submissions of #24, each played as a sandboxed seat in a real game against ``random``.

Each must be contained (the test process alive; no process of the seat left anywhere on the machine, found by
a token in every one of its command lines; the test's own descendants back to what they were; every file of
the contest folder unchanged and nothing new in the zerosum package; a well-behaved seat's game beside it unharmed) and
end with a reason its author can read: the engine client's forfeit reason, or the one-line error of a seat that
never started.  Skipped, saying why, where bubblewrap cannot make a sandbox.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

import zerosum
from zerosum.agents.base import Limits as MoveLimits
from zerosum.contest.sandbox import Limits, sandbox_problem
from zerosum.contest.seats import seat_definition, seat_engine
from zerosum.errors import AgentError

PROBLEM = sandbox_problem()
pytestmark = pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox on this machine: {PROBLEM}")

HOSTILE = Path(__file__).with_name("hostile")
PACKAGE = Path(zerosum.__file__).parent
#: tight limits, so that every bomb goes off quickly
TIGHT = Limits(memory_mb=256, processes=16, cpu_seconds=20, scratch_mb=8, file_mb=4)
#: a move's time: short for the submissions that never answer (they use all of it), roomy for the others (they
#: fail at once, and must not be taken for slow on a busy machine); the start: short for the endless import
HANG, MOVE, HANG_START, START = MoveLimits(time=0.5), MoveLimits(time=5.0), 3.0, 30.0
KINDS = ("crash", "timeout", "protocol error", "garbage output", "illegal move")
GOOD = ("import random\n\ndef player(board):\n"
        "    return random.choice([c for c in range(board.shape[1]) if board[0][c] == 0])\n")


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _carrying(token: str) -> list[int]:
    """The processes anywhere on the machine whose command line holds ``token``."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    if token.encode() in f.read():
                        out.append(int(name))
            except OSError:
                continue
    return out


def _snapshot(*folders: Path) -> dict[str, str]:
    """Every file below ``folders`` and its sha256 (caches left out)."""
    seen = {}
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                seen[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return seen


@pytest.fixture()
def contest(tmp_path: Path) -> dict[str, Any]:
    """A contest folder: another student's file and a database, each holding a secret."""
    secret = "SECRET-" + uuid.uuid4().hex
    folder = tmp_path / "contest"
    (folder / "submissions" / "bob").mkdir(parents=True)
    other = folder / "submissions" / "bob" / "1.py"
    other.write_text(f"# {secret}\ndef player(board):\n    return 0\n")
    database = folder / "contest.db"
    database.write_text(secret)
    return {"folder": folder, "secret": secret, "other": str(other), "database": str(database)}


def _submit(contest: dict[str, Any], name: str, targets: dict[str, Any] | None = None) -> tuple[str, str]:
    """The hostile file ``name`` copied into the contest (its TARGETS filled in), and its unique token."""
    token = "h" + uuid.uuid4().hex[:12]
    text = (HOSTILE / name).read_text()
    if targets is not None:
        text = text.replace("TARGETS = {}", f"TARGETS = {targets!r}", 1)
    path = contest["folder"] / "submissions" / f"{token}_{name}"
    path.write_text(text)
    shutil.copymode(HOSTILE / name, path)
    return str(path), token


def _play(contest: dict[str, Any], path: str, kind: str = "python", hangs: bool = False) -> tuple[Any, str]:
    """A game of the submission (first) against random: (the record or None, the reason it ended with)."""
    definition = seat_definition(str(contest["folder"]), path, kind, TIGHT, "hostile")
    try:
        with seat_engine(definition, limits=HANG if hangs else MOVE,
                         startup=HANG_START if "loop_import" in path else START) as engine:
            record = zerosum.play_game("connect4", engine, "random", seed=1)
    except AgentError as exc:  # a seat that never started: the error line the student is shown
        return None, str(exc)
    return record, record.reason


def _good_game(contest: dict[str, Any], out: list[Any]) -> None:
    path = contest["folder"] / "submissions" / "good.py"
    path.write_text(GOOD)
    definition = seat_definition(str(contest["folder"]), str(path), "python", TIGHT, "good")
    with seat_engine(definition, limits=MoveLimits(time=2.0), startup=20) as engine:
        out.append(zerosum.play_game("connect4", engine, "random", seed=2))


def _contained(contest: dict[str, Any], token: str, before: set[int], files: dict[str, str]) -> None:
    """Nothing of the seat is left, the test's own processes are as they were, no file was touched."""
    deadline = time.monotonic() + 10
    while (_carrying(token) or _descendants(os.getpid()) - before) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _carrying(token) == []
    assert _descendants(os.getpid()) - before == set()
    assert list(PACKAGE.rglob("pwned*")) == []  # the package is read-only (others edit it meanwhile: not hashed)
    now = _snapshot(contest["folder"])
    assert {k: v for k, v in now.items() if files.get(k) != v and token not in k and "good.py" not in k} == {}
    assert {k for k in files if k not in now} == set()


#: stopped, or not even that: a timeout either way (the stopped one was labelled a crash)
LATE = ("timeout: the agent did not answer within the move's time", "timeout: no bestmove within")
#: the submissions that use all of a move's time (or flood for all of it)
HANGING = {"fork_bomb.py", "memory_fork_bomb.py", "loop_move.py", "stdout_flood.py", "flood_program.py"}
CASES = [  # (file, kind, words the reason must hold (any of each tuple), alongside a good game)
    ("fork_bomb.py", "python", [LATE], True),
    ("memory_bomb.py", "python", [("MemoryError",), ("memory limit",)], True),
    ("memory_fork_bomb.py", "python", [("MemoryError", "ended in a move", "signal 9", *LATE)], True),
    ("loop_import.py", "python", [("no zspok within",)], False),
    ("loop_move.py", "python", [LATE], False),
    ("sys_exit.py", "python", [("SystemExit: 3",)], False),
    ("exit_at_import.py", "python", [("sys.exit('goodbye from import')",)], False),
    ("os_exit.py", "python", [("ended in a move",)], False),
    ("os_exit_import.py", "python", [("exited (exit code 7)",)], False),
    ("disk_bomb.py", "python", [("big=4MB:File too large",), ("No space left on device",)], False),
    ("segfault.py", "python", [("ended in a move",)], False),
    # the flood goes to the seat's standard error (zerosum engine sends a search's prints there); the seat's
    # reason still comes last, on a line of its own (the search is stopped before the bestmove)
    ("stdout_flood.py", "python", [LATE], False),
    ("flood_program.py", "program", [("garbage output",), ("MiB", "bytes")], False),
    ("signal_parent.py", "python", [("the program was killed by signal 9 (SIGKILL): by itself",)], True),
]


@pytest.mark.parametrize("name,kind,words,beside", CASES, ids=[c[0][:-3] for c in CASES])
def test_hostile_submission_is_contained_with_a_reason(contest: dict[str, Any], name: str, kind: str,
                                                       words: list[tuple[str, ...]], beside: bool) -> None:
    path, token = _submit(contest, name, {"pid": os.getpid()} if name == "signal_parent.py" else None)
    files = _snapshot(contest["folder"])
    before = _descendants(os.getpid())
    good: list[Any] = []
    neighbour = threading.Thread(target=_good_game, args=(contest, good)) if beside else None
    if neighbour is not None:
        neighbour.start()
    record, reason = _play(contest, path, kind, hangs=name in HANGING)
    if neighbour is not None:
        neighbour.join(120)
        assert len(good) == 1 and not good[0].forfeit, good  # the other student's game was not harmed
    if record is not None:  # a game: the submission forfeited it, first move or later
        assert record.forfeit and record.result == "0-1", record
        assert reason.split(":")[0] in KINDS, reason
    for alternatives in words:
        assert any(w in reason for w in alternatives), (alternatives, reason)
    _contained(contest, token, before, files)


def test_reading_the_system_the_others_and_the_database_finds_nothing(contest: dict[str, Any]) -> None:
    path, token = _submit(contest, "read_files.py", {"other": contest["other"], "database": contest["database"]})
    files, before = _snapshot(contest["folder"]), _descendants(os.getpid())
    record, reason = _play(contest, path)
    assert "the agent failed: RuntimeError: read passwd='FileNotFound'" in reason, reason
    assert contest["secret"] not in reason and "root:" not in reason
    assert "1.py='FileNotFound'" in reason and "contest.db='FileNotFound'" in reason, reason
    assert "/home='FileNotFound'" in reason, reason
    _contained(contest, token, before, files)


def test_no_network_not_even_the_hosts_loopback(contest: dict[str, Any]) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(4)
        server.settimeout(0.2)
        path, token = _submit(contest, "network.py", {"port": server.getsockname()[1]})
        files, before = _snapshot(contest["folder"]), _descendants(os.getpid())
        record, reason = _play(contest, path)
        with pytest.raises(socket.timeout):
            server.accept()  # nobody came
    assert "network loopback=" in reason and "CONNECTED" not in reason, reason
    assert "dns=gaierror" in reason, reason  # no name server either
    _contained(contest, token, before, files)


def test_writing_outside_the_scratch_folder_changes_nothing(contest: dict[str, Any]) -> None:
    targets = {"other": contest["other"], "database": contest["database"], "folder": str(contest["folder"])}
    path, token = _submit(contest, "write_outside.py", targets)
    files, before = _snapshot(contest["folder"]), _descendants(os.getpid())
    own = Path(path).read_bytes()
    record, reason = _play(contest, path)
    assert "the agent failed: RuntimeError: write self=" in reason, reason
    assert "scratch=WROTE" in reason and reason.count("WROTE") == 1 and "DELETED" not in reason, reason
    assert Path(path).read_bytes() == own
    assert not Path("/usr/lib/pwned").exists() and not Path("/pwned").exists()
    _contained(contest, token, before, files)
