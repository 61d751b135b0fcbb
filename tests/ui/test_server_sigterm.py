"""SIGTERM (``kill``, systemd, ``docker stop``) to a real `zerosum serve` with engine requests in flight goes through
the same orderly stop as Ctrl-C: the requests answered 503 in JSON, the one line (naming SIGTERM), its engine
workers gone; then the process ends as killed by SIGTERM (143 in a shell), where Ctrl-C exits with 130 as before.

Before the fix, uvicorn raised SIGTERM again with its default action as soon as it had stopped: the process was
killed before the command's ``finally`` blocks and without its line.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

pytest.importorskip("uvicorn")

from test_server_abandon import LONG  # noqa: E402
from test_server_load import children, gone  # noqa: E402
from test_server_stop import free_port, get, wait_until_serving  # noqa: E402

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="finds the engine workers in /proc (Linux)")

#: Ctrl-C's line, as before; SIGTERM's names it
LINES = {signal.SIGINT: "interrupted: stopped with 2 requests in progress (answered 503: the server is stopping)",
         signal.SIGTERM: "interrupted: stopped by SIGTERM with 2 requests in progress (answered 503: the server "
                         "is stopping)"}
#: how each ends: Ctrl-C's exit status 130, as before; killed by SIGTERM (a shell's 143)
ENDS = {signal.SIGINT: 130, signal.SIGTERM: -signal.SIGTERM}


def engine_requests(base: str) -> int:
    with urllib.request.urlopen(base + "/api/health", timeout=10) as reply:
        return int(json.load(reply)["engine_requests"])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_sigterm_stops_serve_as_ctrl_c_does_then_ends_as_killed_by_it(tmp_path, sig: signal.Signals) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    err = tmp_path / "stderr.txt"
    with open(err, "w") as stderr:
        server = subprocess.Popen([sys.executable, "-m", "zerosum", "serve", "--port", str(port), "--workers", "1",
                                   "--engine-time", "30"], stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        wait_until_serving(base, server)
        answers: list = []
        # 25 s of engine work each, with one engine process: one runs (or waits for its worker), one waits
        clients = [threading.Thread(target=get, args=(base + LONG.format(moves=f"4{i}", seconds=25), answers))
                   for i in (1, 2)]
        for client in clients:
            client.start()
        deadline = time.monotonic() + 60
        while engine_requests(base) < 2:  # both in flight
            assert time.monotonic() < deadline and not answers, answers
            time.sleep(0.1)
        workers = children(server.pid)
        server.send_signal(sig)
        status = server.wait(60)
        for client in clients:
            client.join(60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert err.read_text().splitlines() == [LINES[sig]]
    assert status == ENDS[sig]
    stopping = {"error": "the server is stopping"}
    assert len(answers) == 2 and all(s == 503 and json.loads(body) == stopping for s, body in answers), answers
    assert workers and gone(workers, 30) == []


def test_the_end_by_sigterm_passes_over_another_thread_s_database(tmp_path) -> None:
    # a connection opened in another thread cannot be closed from this one (check_same_thread): before, the
    # exit handler stopped there with a traceback and exit status 1, the streams unflushed, no SIGTERM
    script = f"""
import signal, sqlite3, sys, threading, time
from zerosum.ui.connections import _raise_at_exit
held, opened = [], threading.Event()
def opener():
    held.append(sqlite3.connect({str(tmp_path / 'other.db')!r}))
    opened.set()
    time.sleep(60)
threading.Thread(target=opener, daemon=True).start()
opened.wait(30)
mine = sqlite3.connect({str(tmp_path / 'mine.db')!r})
mine.execute("PRAGMA journal_mode=WAL")
mine.execute("CREATE TABLE t (x)")
mine.commit()
print("flushed at the end", end="")
_raise_at_exit(signal.SIGTERM, signal.SIG_DFL)
print("still alive")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGTERM, (done.returncode, done.stderr)
    assert done.stdout == "flushed at the end" and done.stderr == ""
    assert not (tmp_path / "mine.db-wal").exists()  # this thread's connection closed
