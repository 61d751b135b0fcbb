"""`quit` ends `zerosum engine` at once, whatever waits (docs/protocol.md): a running search is stopped and
answered, and what was queued behind it (a ``go``, a ``readyok`` still to come) is dropped (audit: ``quit``
waited in the queue behind a ``go`` that waited for the running search, or for the preparation, and the
engine played that ``go`` to its end first).  Each sends its lines in one write, so the engine reads ``quit``
before anything it waits for can be done."""

from __future__ import annotations

import os
import select
import subprocess
import sys

import pytest

WAIT = 120.0  # seconds the engine may take to end on a loaded machine: a safety net, never a measure


def _run(first: list[str], then: tuple[str, ...] = ()) -> list[str]:
    """The output of ``zerosum engine alphabeta`` given the lines ``first`` at once, then (after its ``readyok``)
    ``then`` at once, its input left open (no end of input to end it), once it has exited with status 0."""
    proc = subprocess.Popen([sys.executable, "-m", "zerosum", "engine", "alphabeta"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, bufsize=0)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("".join(line + "\n" for line in first).encode())
        out: list[str] = []
        while then and out[-1:] != ["readyok"]:
            assert select.select([proc.stdout], [], [], WAIT)[0], f"no readyok in time: {out}"
            out.append(proc.stdout.readline().decode().rstrip("\n"))
        proc.stdin.write("".join(line + "\n" for line in then).encode())
        try:
            assert proc.wait(WAIT) == 0
        except subprocess.TimeoutExpired:
            pytest.fail("quit waited behind what was queued")
        return out + proc.stdout.read().decode().splitlines()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, 9)
        proc.wait()


def test_quit_behind_a_go_that_waits_for_a_running_search_ends_it_at_once() -> None:
    # the go queued behind the running search is dropped, not played (as it was before quit was seen)
    out = _run(["zsp 1", "position connect4 moves 4453", "isready"], ("go", "go depth 2", "quit"))
    bestmoves = [line for line in out if line.startswith("bestmove")]
    assert bestmoves == [out[-1]] and out[-1] != "bestmove (none)", out  # the running search's answer only


def test_quit_behind_a_go_that_waits_for_the_preparation_ends_it_at_once() -> None:
    # the go (no time limit) waits for the preparation (numba's start: a second at least), the next go behind it
    out = _run(["zsp 1", "position connect4 moves 4453", "go", "go depth 2", "quit"])
    assert out[-2:] == ["info string stopped before the search began, the engine still preparing: its first legal "
                        "move", "bestmove 1"], out


def test_quit_behind_a_go_that_waits_for_a_readyok_ends_it_at_once() -> None:
    # isready waits for the preparation, and go depth 1 waits behind it
    out = _run(["zsp 1", "position connectx:rows=8,cols=8,k=4 moves 4,5", "isready", "go depth 1", "quit"])
    assert not [line for line in out if line.split()[0] in ("readyok", "bestmove")], out  # quit came first
    assert out[-1].startswith("info string preparing the engine"), out  # what the isready waited for, said
