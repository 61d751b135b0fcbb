"""Ctrl-C stops alpha-beta's compiled search at once, with or without a time limit (audit: an untimed
``alphabeta:depth=22`` search, and ``play_game`` with ``alphabeta:depth=20``, went on for 39 s and 25 s after the
notebook's stop button: the kernel ran each deepening iteration in one piece unless it had a deadline, and Python
hears a signal only between calls into it).  An untimed search now runs in slices of
:data:`~zerosum.agents.alphabeta_fast.UNTIMED_SLICE` nodes too, with the same nodes and the same answer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import zerosum
from zerosum.agents import alphabeta_fast
from zerosum.agents.base import kernels

pytestmark = pytest.mark.skipif(kernels() is None, reason="needs numba")


def test_an_untimed_search_runs_in_slices_and_finds_what_one_piece_found(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = kernels()
    assert fast is not None
    game = zerosum.get_game("connect4")
    state = game.parse_position("4453")[1]
    found = zerosum.make_agent("alphabeta:depth=14").search(game, state)
    calls: list[int] = []
    real = fast.ab_run

    def counted(*args: object) -> int:
        calls.append(int(args[-1]))  # pause_at
        return real(*args)

    monkeypatch.setattr(fast, "ab_run", counted)
    again = zerosum.make_agent("alphabeta:depth=14").search(game, state)
    assert (again.action, again.value, again.nodes, again.depth, again.pv) == \
        (found.action, found.value, found.nodes, found.depth, found.pv)
    assert found.nodes > 4 * alphabeta_fast.UNTIMED_SLICE  # a search worth slicing
    assert 0 not in calls  # never "no pause": every call returns within a slice
    assert len(calls) >= found.nodes // alphabeta_fast.UNTIMED_SLICE  # the old code: one call a depth (14)


SEARCH = """\
import time, zerosum
game = zerosum.get_game("connect4")
zerosum.make_agent("alphabeta:depth=2").search(game, game.parse_position("4")[1])  # the kernel loaded
agent = zerosum.make_agent("alphabeta:depth=40")
print("searching", flush=True)
try:
    agent.search(game, game.parse_position("4453")[1])
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.slow  # 20 s of search before the interrupt, to be deep in a long iteration
def test_ctrl_c_stops_a_deep_untimed_search_at_once(tmp_path: object) -> None:
    proc = subprocess.Popen([sys.executable, "-c", SEARCH], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "searching"
        time.sleep(20)  # iterations double in length: the one under way has seconds to tens of seconds to go
        os.kill(proc.pid, signal.SIGINT)
        sent = time.monotonic()
        line = proc.stdout.readline().strip()
        back = time.monotonic() - sent
    finally:
        proc.kill()
        proc.wait()
    assert line == "interrupted"
    assert back < 5.0, f"{back:.1f} s from Ctrl-C to the interrupt"  # a slice: hundredths of a second
