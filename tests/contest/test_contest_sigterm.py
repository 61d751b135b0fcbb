"""SIGTERM (``kill``, systemd, ``docker stop``) to a real ``zerosum contest serve`` while a student's upload waits
for its validation goes through the same orderly stop as Ctrl-C: the one line (naming SIGTERM), every ``finally``
run, the contest's database closed (no ``contest.db-wal`` nor ``-shm`` left beside it), no process of the server
left; then the process ends as killed by SIGTERM (143 in a shell), where Ctrl-C exits with 130 as before.

Before the fix, uvicorn raised SIGTERM again with its default action as soon as it had stopped: the process was
killed before the command's ``finally`` blocks, without a line, leaving the database's -wal and -shm files.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from contest_serving import make_contest
from test_contest_stop import SLOW, start, validating

from process_helpers import wait_gone

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds the server's processes in /proc")

#: Ctrl-C's line, as before; SIGTERM's names it
LINES = {signal.SIGINT: "interrupted: stopped with 1 request in progress (answered 503: the server is stopping)",
         signal.SIGTERM: "interrupted: stopped by SIGTERM with 1 request in progress (answered 503: the server is "
                         "stopping)"}
#: how each ends: Ctrl-C's exit status 130, as before; killed by SIGTERM (a shell's 143)
ENDS = {signal.SIGINT: 130, signal.SIGTERM: -signal.SIGTERM}


def descendants(pid: int) -> list[int]:
    """Every live process started by ``pid``, and by those (a validation's seat is in a session of its own)."""
    parents: dict[int, list[int]] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        kids = parents.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_sigterm_stops_the_contest_server_as_ctrl_c_does_then_ends_as_killed_by_it(tmp_path: Path,
                                                                                     sig: signal.Signals) -> None:
    folder = tmp_path / "class"
    token = make_contest(folder, ["Ann"])["Ann"]
    (tmp_path / "slow.py").write_text(SLOW)
    err = tmp_path / "stderr.txt"
    server, url = start(folder, err)
    upload = None
    try:  # the upload waits for its validation's answer: its body, then its status on the last line
        upload = subprocess.Popen(["curl", "-sS", "--max-time", "60", "-H", f"Authorization: Bearer {token}",
                                   "-F", f"file=@{tmp_path / 'slow.py'}", "-w", "\n%{http_code}", f"{url}/api/submit"],
                                  stdout=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while not validating(url, token):  # saved, its validation running
            assert time.monotonic() < deadline and upload.poll() is None, "the upload was not validating"
            time.sleep(0.1)
        time.sleep(0.5)  # the last poll's own request done on the server's side too (under load it was still
        # counted: "2 requests in progress")
        started = descendants(server.pid)  # the engine worker, the validation's seat, ...
        server.send_signal(sig)
        status = server.wait(60)
        body, _, code = upload.communicate(timeout=60)[0].rpartition("\n")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(10)
        if upload is not None and upload.poll() is None:
            upload.kill()
            upload.wait()
    lines = err.read_text().strip().splitlines()
    assert lines[1].startswith("seats: "), lines  # what bounds a seat here (serve says it at its start)
    assert lines[2:] == [LINES[sig]], lines  # after "serving the contest ..." and "seats: ...": the one line
    assert status == ENDS[sig]
    assert code == "503" and json.loads(body) == {"error": "the server is stopping"}, (code, body)
    left = [name for name in os.listdir(folder) if re.search(r"-(wal|shm|journal)$", name)]
    assert left == [], left  # the database was closed: no -wal or -shm beside contest.db
    assert started and wait_gone(started, 30) == []
