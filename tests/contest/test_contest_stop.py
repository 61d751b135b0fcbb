"""Ctrl-C (SIGINT) and SIGTERM on a real ``zerosum contest serve`` while a student's upload waits for its
validation: the server stops at once and quietly, as ``zerosum serve`` does -- the student gets ``503 {"error":
"the server is stopping"}`` (not a plain-text 500), standard error holds one line (not a traceback), and the
upload is kept, ``validating``, to be validated again at the next start.

The upload is slow on purpose (each move sleeps), so its validation is still running when the signal comes.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from contest_serving import START_WAIT, curl, free_port, make_contest

from zerosum.contest.sandbox import sandbox_problem
from zerosum.contest.store import Store

#: a player whose every move takes 0.4 s: its validation runs for seconds
SLOW = ("import time\n\n\ndef player(board):\n    time.sleep(0.4)\n"
        "    return [c for c in range(board.shape[1]) if board[0][c] == 0][0]\n")


def start(folder: Path, err: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [sys.executable, "-m", "zerosum", "contest", "serve", str(folder), "--port", str(port)]
    if sandbox_problem() is not None:
        command.append("--unconfined")
    with open(err, "wb") as stderr:  # its own group: what it leaves behind is killed at the end
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_WAIT
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/leaderboard", timeout=5) as answer:
                if answer.status == 200:
                    return process, url
        except OSError:
            pass
        assert process.poll() is None, err.read_text()
        assert time.monotonic() < deadline, "the contest server did not start"
        time.sleep(0.2)


def validating(url: str, token: str) -> bool:
    request = urllib.request.Request(f"{url}/api/me", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return any(s["status"] == "validating" for s in json.load(answer)["submissions"])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_a_validation_answers_503_at_once_in_one_line(tmp_path: Path, sig: signal.Signals) -> None:
    folder = tmp_path / "class"
    tokens = make_contest(folder, ["Ann"])
    (tmp_path / "slow.py").write_text(SLOW)
    err = tmp_path / "stderr.txt"
    process, url = start(folder, err)
    try:
        answers: list = []
        upload = threading.Thread(target=lambda: answers.append(
            curl("-F", f"file=@{tmp_path / 'slow.py'}", f"{url}/api/submit", token=tokens["Ann"], timeout=60)))
        upload.start()
        deadline = time.monotonic() + 30
        while not validating(url, tokens["Ann"]):  # the upload is saved, its validation running
            assert time.monotonic() < deadline and upload.is_alive(), answers
            time.sleep(0.1)
        began = time.monotonic()
        process.send_signal(sig)  # to the server alone: its validation's seat is not told
        process.wait(60)
        took = time.monotonic() - began
        upload.join(60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
    text = err.read_text()
    assert "Traceback" not in text and "Cancel" not in text and "ERROR" not in text, text
    assert len(text.strip().splitlines()) <= 3, text  # "serving the contest ...", "seats: ...", "interrupted: ..."
    assert answers and answers[0][0] == 503 and answers[0][1] == {"error": "the server is stopping"}, answers
    assert took < 5, f"took {took:.1f} s to stop"  # at once, not after uvicorn's graceful wait and a cancel
    store = Store(folder)  # the upload is kept, to be validated again at the next start
    try:
        assert [row["status"] for row in store.rows("SELECT status FROM submissions")] == ["validating"]
    finally:
        store.close()
