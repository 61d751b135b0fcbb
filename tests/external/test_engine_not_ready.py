"""An engine that passes its handshake but never answers ``readyok`` after ``newgame``: without a terminal the run
begins each engine on its game once before the first game (``commands.arena._engine_first``), and an engine that
fails there stops the run in one line, exit status 2, before any game, as a game that cannot start does.  Before,
the run said "engine ... is getting ready" for 101 s, nothing of the failure, then each game waited the same
110 s in silence before forfeiting ``protocol error: no readyok within 110 s of isready``.  Under a terminal (a
progress bar) and under ``--quiet`` the run did not begin the engine first, and each game still waited its 110 s:
it now does in every mode.

A real engine process (test_check_parity.ENGINE, mode ``noready``), the run in this process
(process_helpers.zerosum_run) so that the wait for ``readyok`` after ``newgame`` (``session.PREPARE``, 110 s) is
2 s here; the games' workers, processes of their own, would wait the whole 110 s."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from process_helpers import rows, write_script, zerosum_run  # noqa: E402 (tests/process_helpers.py)
from test_check_parity import ENGINE  # noqa: E402


@pytest.mark.parametrize("mode", ["pipe", "quiet", "terminal"])
def test_an_engine_never_ready_stops_the_run_before_any_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             mode: str) -> None:
    from rich.console import Console

    from zerosum.commands import arena
    from zerosum.external import session

    monkeypatch.setattr(session, "PREPARE", 2.0)
    if mode == "terminal":  # the run's console is a terminal's: a progress bar, not the words on stderr
        monkeypatch.setattr(arena, "_console", lambda: Console(force_terminal=True, width=120))
    engine = write_script(tmp_path / "parity.py", ENGINE)
    db = tmp_path / "nr.db"
    began = time.monotonic()
    done = zerosum_run(["match", "nr", "first", "--engine", f"nr={sys.executable} {engine} noready", "--game",
                        "tictactoe", "--time", "0.1", "--games", "2", "--jobs", "1", "--out", str(db)]
                       + (["--quiet"] if mode == "quiet" else []))
    took = time.monotonic() - began
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.splitlines()[-1] == ("zerosum match: error: engine nr failed as it was begun on tictactoe: "
                                            "protocol error: no readyok within 2 s of isready (no game was played)")
    assert rows(db, "SELECT COUNT(*) FROM games") == [(0,)]
    assert took < 60, took  # no game waited its own 110 s for a readyok
