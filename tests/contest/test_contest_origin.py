"""A real ``zerosum contest serve``: requests a page of another site makes (a form posted to ``/api/submit``,
``/api/freeze``; the browser says so in ``Sec-Fetch-Site``) are refused, 403, with the contest's headers, while
curl (no such header) and the contest's own pages are served; and the address it prints for an IPv6 host is
one a browser opens (``http://[::1]:PORT/``)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from contest_serving import GOOD, START_WAIT, curl, free_port, make_contest

from zerosum.contest.sandbox import sandbox_problem


@contextlib.contextmanager
def serving(folder: Path, host: str, port: int, err: Path):
    """``zerosum contest serve FOLDER --host HOST --port PORT`` (standard error to ``err``): its address."""
    command = [sys.executable, "-m", "zerosum", "contest", "serve", str(folder), "--host", host, "--port", str(port)]
    if sandbox_problem() is not None:
        command.append("--unconfined")
    with open(err, "wb") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True)
    url = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    try:
        deadline = time.monotonic() + START_WAIT
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/leaderboard", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            assert process.poll() is None, err.read_text()
            assert time.monotonic() < deadline, "the contest server did not start"
            time.sleep(0.2)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def test_another_sites_form_posts_are_refused_and_an_ipv6_address_is_printed_in_brackets(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    tokens = make_contest(folder, ["Ann"])
    player = tmp_path / "good.py"
    player.write_text(GOOD)
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        host, port = "::1", free_port_v6()
    except OSError:  # no IPv6 here: the refusals on IPv4
        host, port = "127.0.0.1", free_port()
    err = tmp_path / "stderr.txt"
    with serving(folder, host, port, err) as url:
        other = ["-H", "Sec-Fetch-Site: cross-site", "-H", "Sec-Fetch-Mode: no-cors"]
        status, body, headers = curl(*other, "-F", f"file=@{player}", f"{url}/api/submit")  # a form, no token
        assert status == 403 and body["error"].startswith("refused: a page of another site"), body
        assert headers["x-frame-options"] == "DENY"  # the contest's headers on the refusal too
        status, body, _ = curl(*other, "-F", f"file=@{player}", f"{url}/api/submit", token=tokens["Ann"])
        assert status == 403, body
        status, body, _ = curl(*other, "-X", "POST", f"{url}/api/freeze", token=tokens["teacher"])
        assert status == 403, body
        status, body, _ = curl("-H", "Sec-Fetch-Site: cross-site", "-H", "Sec-Fetch-Mode: navigate", f"{url}/")
        assert status == 200  # a link to the leaderboard from another site opens it
        status, body, _ = curl("-F", f"file=@{player}", f"{url}/api/submit", token=tokens["Ann"])
        assert status == 201 and body["status"] == "ok", body  # curl, as students use it
        status, body, _ = curl("-H", "Sec-Fetch-Site: same-origin", f"{url}/api/me", token=tokens["Ann"])
        assert status == 200 and body["name"] == "Ann", body  # the student's page's own requests
    if host == "::1":
        assert f"on http://[::1]:{port}/ (Ctrl-C stops)" in err.read_text(), err.read_text()


def free_port_v6() -> int:
    with socket.socket(socket.AF_INET6) as s:
        s.bind(("::1", 0))
        return int(s.getsockname()[1])
