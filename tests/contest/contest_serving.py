"""A contest folder made by the real command, and served by a real ``zerosum contest serve`` process on a free
port; ``curl`` as students and teachers use it.  Shared by test_contest_api.py and test_contest_page.py.

Where no sandbox can be had (no bubblewrap), the server runs with ``--unconfined``: the submissions here are
the tests' own."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

from zerosum.cli import main
from zerosum.contest.sandbox import sandbox_problem

#: how long a server may take to start on a loaded machine (its board viewer's engine worker included)
START_WAIT = 120.0

GOOD = "import random\n\n\ndef player(board):\n    return random.choice([c for c in range(board.shape[1]) if board[0][c] == 0])\n"
#: a protocol program that always answers column 9, outside the board's 1..7: illegal at its first move
COLUMN_NINE = """#!/bin/sh
while read -r line; do
  case "$line" in
    zsp*) echo "id name column-nine"; echo "game connect4"; echo "zspok" ;;
    isready) echo "readyok" ;;
    go*) echo "bestmove 9" ;;
    quit) exit 0 ;;
  esac
done
"""


def make_contest(folder: Path, names: list[str], *options: str) -> dict[str, str]:
    """``zerosum contest new`` (connect4, quick openings): the tokens by name (``teacher`` for the teacher)."""
    roster = folder.parent / f"{folder.name}-roster.csv"
    roster.write_text("name\n" + "".join(f"{n}\n" for n in names), encoding="utf-8")
    assert main(["contest", "new", str(folder), "--game", "connect4", "--roster", str(roster), "--move-time", "0.5",
                 "--openings", str(_openings(folder)), *options]) == 0
    with open(folder / "tokens.csv", newline="", encoding="utf-8") as f:
        return {("teacher" if row["name"] == "#teacher" else row["name"]): row["token"] for row in csv.DictReader(f)}


def _openings(folder: Path) -> Path:
    path = folder.parent / f"{folder.name}-openings.txt"
    path.write_text("# two plies of evaluation 0\n44\n43\n")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serving(folder: Path, started: list[subprocess.Popen[bytes]] | None = None) -> Iterator[str]:
    """``zerosum contest serve FOLDER`` in its own process group on a free port: its address (the process is
    appended to ``started``)."""
    port = free_port()
    command = [sys.executable, "-m", "zerosum", "contest", "serve", str(folder), "--port", str(port)]
    if sandbox_problem() is not None:
        command.append("--unconfined")
    log = open(folder.parent / f"{folder.name}-server.log", "wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    if started is not None:
        started.append(process)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_WAIT
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/leaderboard", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert process.poll() is None, (folder.parent / f"{folder.name}-server.log").read_text()
            assert time.monotonic() < deadline, "the contest server did not start"
            time.sleep(0.2)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # anything the server left in its group
        log.close()


def curl(*args: str, token: str | None = None, timeout: float = 120.0) -> tuple[int, Any, dict[str, str]]:
    """Run ``curl -sS ARGS`` (with the token as ``Authorization: Bearer``): status, JSON body (or the text),
    headers (lower-case names)."""
    words = ["curl", "-sS", "-D", "-", "--max-time", str(int(timeout))]
    if token is not None:
        words += ["-H", f"Authorization: Bearer {token}"]
    done = subprocess.run(words + list(args), capture_output=True, timeout=timeout + 10)
    assert done.returncode == 0, done.stderr.decode()
    head, _, body = done.stdout.partition(b"\r\n\r\n")
    while body.startswith(b"HTTP/"):  # a 100 Continue first
        head, _, body = body.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    try:
        return status, json.loads(body), headers
    except ValueError:
        return status, body.decode("utf-8", "replace"), headers
