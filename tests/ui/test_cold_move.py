"""The server's moves on a cold numba cache (a first run), as an audit found them: the first solver move on
8 x 8 waited well (``/api/health`` said preparing, nothing was killed) but came back after 71 s as "win
(distance not yet proven)", not exact, ``elapsed`` 28 s, ``note`` null -- warm, the same request is "win in 1
move", exact, in 0.01 s.  The solver's 128-bit code compiled inside the move's job, within the solver's own
second: its time went to the compile, and nothing said so.

Now a job with an agent (a move, a "why?") has the agent's compiled code for its position prepared in its
worker before it starts (:func:`zerosum.ui.warmup.prepare_job`), each step told to the server as the solver's
are, so the server gives a compile the warm-up's limit rather than kill it, and the agent's time is spent
searching; the answer's note says what the compile did.  The quick tests run the server's engines (real worker
processes) on stand-ins whose code "compiles" for twice the hard limit (cold_move_agents.py) and on a real
alpha-beta in a new worker; the slow one is a real ``zerosum serve`` on an empty numba cache (minutes).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from zerosum import get_game
from zerosum.pool.moves import Job, choose_move
from zerosum.solver.steps import PREPARED, PREPARING
from zerosum.ui.engines import Engines, tracked_job
from zerosum.ui.service import MoveRequest, check_move, move_reply

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cold_move_agents import COMPILE, LateAgent, PreparedAgent  # noqa: E402

#: the quick tests' engine time and margin: a hard limit of 3 s, which the stand-in's compile outlasts
ENGINE_TIME, MARGIN = 0.5, 2.5
#: seconds a test waits for anything at most: a safety net far past a cold compile on two busy cores
PATIENCE = 900.0
#: 8 x 8, ply 24: the side to move wins at once with 5 (the audit's position)
WIN_IN_1 = "183741713783566681826722"


def _engines() -> Engines:
    engines = Engines(engine_time=ENGINE_TIME, workers=1, mode="process", busy_wait=120.0, margin=MARGIN,
                      max_engine_requests=4, max_record_requests=1)
    engines.start()
    return engines


def _move(engines: Engines, agent: Any, moves: str = "44") -> dict[str, Any]:
    """``agent``'s move on 7 x 6 through the server's engines, answered as ``/api/move`` answers it."""
    import anyio

    game = get_game("connect4")
    actions = game.parse_moves(moves)
    state = game.parse_position(moves)[1]
    report = anyio.run(engines.run, choose_move, (Job.of(game, actions, state, agent),))
    return move_reply(MoveRequest(game, list(actions), state, agent), report)


def test_a_moves_engine_has_its_code_ready_before_its_time_starts_and_the_note_says_so() -> None:
    engines = _engines()
    said: list[str] = []
    asked = threading.Event()

    def watch() -> None:  # what /api/health says while the move's code "compiles"
        while not asked.is_set():
            health = engines.health()
            if health["engines_ready"] and health["preparing"]:
                said.append(str(health["preparing"]))
            time.sleep(0.05)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    began = time.monotonic()
    try:
        reply = _move(engines, PreparedAgent())  # the old server: searched at once, without its code
        took = time.monotonic() - began
        health = engines.health()
    finally:
        asked.set()
        engines.close()
    watcher.join(10)
    assert reply["value"] == 1, reply  # its code was ready when its search (and its time) began
    # the compile and the engines' start it came during (the workers' warm-up): what it waited in all
    waited = re.fullmatch(r"after (\d+\.\d) s preparing the engine, first run only", reply["note"] or "")
    assert waited and COMPILE <= float(waited[1]) <= took + 0.05, (reply["note"], took)
    # never killed at the hard limit (3 s) while it compiled, and the server said what it prepared
    assert said and said[0].startswith("preparing the engine (a stand-in's code)"), said
    assert health["ready"] is True and health["preparing"] is None


def test_code_compiled_during_a_search_all_the_same_is_said_in_the_answers_note() -> None:
    engines = _engines()
    try:
        reply = _move(engines, LateAgent())  # the old server: "note": null
    finally:
        engines.close()
    # on a loaded machine the engines' own start may still be said first ("after 3.1 s preparing the engine; ")
    assert reply["note"] is not None and reply["note"].endswith(
        "a late stand-in's code compiled during this search, first run only: it had less time to search"), reply["note"]


def _events_of(job: Any, args: tuple[Any, ...]) -> tuple[Any, list[Any]]:
    """``tracked_job(job, args)`` in a new worker process (nothing loaded): its reply and what it reported."""
    from zerosum.pool.worker import Worker

    events: list[Any] = []
    worker = Worker()
    try:
        reply = worker.call(tracked_job, (job, args), PATIENCE, lambda message: events.append(message))
    finally:
        worker.kill()
    assert reply[0] == "ok", reply
    return reply[1], events


def test_a_real_engine_in_a_new_worker_prepares_its_code_before_its_search_and_says_so() -> None:
    request = check_move("connect4", "44", "alphabeta:time=0.5")
    report, events = _events_of(choose_move, (Job.of(request.game, request.actions, request.state,
                                                     request.agent),))
    told = [m for m in events if isinstance(m, tuple) and m[0] in (PREPARING, PREPARED)]
    # the old worker told nothing: alpha-beta waited for its kernel within its own time, then searched without
    assert (PREPARING, "alpha-beta's kernel") in told and (PREPARED, "alpha-beta's kernel") in told, events
    ended = next(i for i, m in enumerate(events) if isinstance(m, tuple) and m[1] is None)  # the job's end
    assert events.index((PREPARED, "alpha-beta's kernel")) < ended, events
    assert report.text in "1234567" and report.fallback == report.note == ""  # loaded from the cache: nothing to say


@pytest.mark.parametrize("agent", ["mcts:time=0.5", "solver"])
def test_a_why_in_a_new_worker_prepares_its_agents_code_first(agent: str) -> None:
    from zerosum.ui.explain import check_explain, explain_job

    request = check_explain("connect4-8x8", WIN_IN_1, agent)
    reply, events = _events_of(explain_job, (request,))
    told = [m[1] for m in events if isinstance(m, tuple) and m[0] == PREPARING]
    assert told and told[0] == "starting numba", events
    assert reply["move"] == "5", reply


def _answering(httpx: Any, url: str, server: Any) -> None:
    """Wait until the server at ``url`` answers (not ready yet: the audit asked at once)."""
    start = time.monotonic()
    while True:
        try:
            httpx.get(url + "/api/health", timeout=10)
            return
        except httpx.TransportError:
            assert server.poll() is None and time.monotonic() - start < 60, "the server did not start"
            time.sleep(0.2)


@pytest.mark.slow  # compiles the engines' 64-bit and 128-bit code from nothing: minutes
def test_a_fresh_servers_first_moves_search_for_their_whole_time(tmp_path: Any) -> None:
    httpx = pytest.importorskip("httpx")
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}"
    server = subprocess.Popen([sys.executable, "-m", "zerosum", "serve", "--port", url.rpartition(":")[2]],
                              env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _answering(httpx, url, server)

        def move(game: str, moves: str, agent: str) -> dict[str, Any]:
            reply = httpx.post(url + "/api/move", json={"game": game, "moves": moves, "agent": agent},
                               timeout=PATIENCE)
            assert reply.status_code == 200, reply.text
            return reply.json()  # type: ignore[no-any-return]

        first = move("connect4-8x8", WIN_IN_1, "solver")  # the old server: "win (distance not yet proven)"
        assert (first["move"], first["words"], first["exact"]) == ("5", "win in 1 move", True), first
        assert first["note"] is None or "preparing the engine, first run only" in first["note"], first
        for game, moves, agent in (("connectx:rows=7,cols=9,k=4", "5", "alphabeta:time=1"),
                                   ("connect4-8x8", "45", "mcts:time=1"), ("connect4", "44", "mcts:time=1"),
                                   ("connect4", "4453", "alphabeta:time=1")):
            reply = move(game, moves, agent)
            assert reply["note"] is None or "compiled during this search" not in reply["note"], (agent, reply)
        for path, params in (("/api/analyze", {"game": "connect4-8x8", "moves": WIN_IN_1, "budget": "1"}),
                             ("/api/explain", {"game": "connect4-8x8", "moves": WIN_IN_1, "agent": "solver"}),
                             ("/api/explain", {"game": "connect4", "moves": "4444443332221", "agent": "solver"}),
                             ("/api/explain", {"game": "connect4-8x8", "moves": "45", "agent": "mcts:sims=500"})):
            reply = httpx.get(url + path, params=params, timeout=PATIENCE)
            assert reply.status_code == 200, (path, params, reply.text)
            assert "compiled during this search" not in str(reply.json().get("note")), reply.json()
    finally:
        server.terminate()
        server.wait(30)
