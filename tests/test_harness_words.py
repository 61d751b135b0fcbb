"""The test run says why its first test waits: the controller fills numba's cache first (``tests/warm_kernels.py``),
which on a fresh checkout of a loaded machine took over three minutes with nothing on the screen after pytest's
``bringing up nodes...`` (found by an audit of the README's test command).  ``process_helpers.await_parts`` is the
wait (conftest.py's, not imported here by that name: a folder's own conftest.py may hold it in a full run)."""

from __future__ import annotations

import subprocess
import sys

import process_helpers


def test_a_wait_for_the_cache_is_said_after_its_first_seconds_and_again(monkeypatch) -> None:
    monkeypatch.setattr(process_helpers, "SAY_WARMING", 0.5)
    said: list[str] = []
    parts = [subprocess.Popen([sys.executable, "-c", f"import time; time.sleep({t})"]) for t in (0.1, 1.2)]
    process_helpers.await_parts(parts, said.append)
    assert len(said) == 1, said  # after 0.5 s, not again before 10.5 s
    assert said[0].startswith("zerosum tests: filling numba's cache before the first test (tests/warm_kernels.py; ")
    assert said[0].endswith(": 1 s") or said[0].endswith(": 0 s"), said[0]
    said.clear()
    process_helpers.await_parts([subprocess.Popen([sys.executable, "-c", "pass"])], said.append)
    assert said == []  # a quick fill (a warm cache) says nothing
