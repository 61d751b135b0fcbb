"""An engine answer that waited for the engines' preparation says so in its note, wherever it waited, as an
audit found it did not: on an empty numba cache, ``zerosum serve``'s first ``POST /api/move`` (a solver move
asked as the server started) waited 26-32 s and answered ``"note": null``.  Only ``/api/health`` said that the
engines were being prepared, which the page shows and an API client (curl, a script) never sees: the note
counted the preparation inside the job alone, not the request's wait for a worker still warming up.

Now a move, an analysis and a "why?" say ``after N s preparing the engine, first run only``, N the seconds the
request waited for a preparation in all -- the engines' start, the code of a board past 64 bits, its job's own
code -- and nothing when it did not wait (:mod:`zerosum.ui.engines`).  The quick tests run the server's engines
(real worker processes) whose warm-up takes its time (slow_warmup.py), or whose 8 x 8 code "compiles" in a job
(wide_code_jobs.py); the slow one is a real ``zerosum serve`` on an empty numba cache (``NUMBA_CACHE_DIR``).
"""

from __future__ import annotations

import functools
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
from zerosum.ui.engines import Engines, tracked_job
from zerosum.ui.explain import check_explain, explain_job
from zerosum.ui.service import analyze_job, check_move, move_reply
from zerosum.ui.warmup import COMPILING_AFTER

sys.path.insert(0, str(Path(__file__).resolve().parent))
from slow_warmup import slow_warm_up  # noqa: E402
from wide_code_jobs import COMPILE, compiling_job  # noqa: E402

#: seconds the quick test's warm-up takes: past COMPILING_AFTER (a first run's compile, in short)
WARM_UP = 5.0
#: seconds a test waits for anything at most: a safety net far past a cold compile on two busy cores
PATIENCE = 900.0
_SAID = re.compile(r"after ([0-9.]+) s preparing the engine, first run only")


def _said(note: str | None) -> float | None:
    """The seconds an answer's note says it waited for a preparation; None when it says none."""
    found = _SAID.search(note or "")
    return None if found is None else float(found.group(1))


def _engines(workers: int, warm_up: float | None = None) -> Engines:
    engines = Engines(engine_time=1.0, workers=workers, mode="process", busy_wait=120.0, margin=3.0,
                      max_engine_requests=8, max_record_requests=1)
    if warm_up is not None:  # the workers' warm-up takes its time, as a cold compile does
        engines.pool.warmup = functools.partial(slow_warm_up, warm_up)
    engines.start()
    return engines


async def _asked(engines: Engines, job: Any, args: tuple[Any, ...], answers: dict[str, Any], name: str) -> None:
    """``job(*args)`` through the server's engines: its answer and the seconds it took, in ``answers``."""
    asked = time.monotonic()
    answer = await engines.run(job, args)
    answers[name] = (answer, time.monotonic() - asked)


def test_answers_asked_while_the_engines_start_say_how_long_they_waited_and_later_ones_nothing() -> None:
    import anyio

    game = get_game("tictactoe")
    move = check_move("tictactoe", "5", "alphabeta:depth=2")
    why = check_explain("tictactoe", "5", "alphabeta:depth=2", 1.0)
    explain = functools.partial(explain_job, max_nodes=10_000, max_time=1.0)
    jobs = {"move": (choose_move, (Job.of(move.game, move.actions, move.state, move.agent),)),
            "analysis": (analyze_job, (game, move.actions, move.state, 1.0, True)),
            "why": (explain, (why,))}
    engines = _engines(workers=1, warm_up=WARM_UP)
    answers: dict[str, Any] = {}
    try:
        async def main() -> None:
            async with anyio.create_task_group() as tasks:  # all asked at once, as the engines start
                for name, (job, args) in jobs.items():
                    tasks.start_soon(_asked, engines, job, args, answers, name)
            await _asked(engines, *jobs["move"], answers, "later")  # the engines are warm now

        anyio.run(main)
    finally:
        engines.close()
    notes = {name: move_reply(move, answer)["note"] if name in ("move", "later") else answer["note"]
             for name, (answer, _) in answers.items()}
    for name in jobs:  # the old server: "note": null, every one
        said, took = _said(notes[name]), answers[name][1]
        assert said is not None, (name, notes[name])
        # the whole warm-up came after it was asked (the worker process started first); never more than it took
        assert WARM_UP - 0.5 <= said <= took + 0.05, (name, notes[name], took)
    assert notes["later"] is None, notes["later"]  # it did not wait: nothing said


@pytest.mark.slow  # 7 s; CI keeps tests/ui/test_cold_wide_board.py's wait on a board past 64 bits
def test_an_answer_that_waited_for_the_code_of_a_board_past_64_bits_says_so() -> None:
    import anyio

    eight = get_game("connect4-8x8")
    move = check_move("connect4-8x8", "45", "first")
    engines = _engines(workers=2)
    answers: dict[str, Any] = {}
    try:
        async def main() -> None:
            async with anyio.create_task_group() as tasks:
                tasks.start_soon(_asked, engines, compiling_job, (eight,), answers, "compiled")
                await anyio.to_thread.run_sync(_compiling, engines.wide)  # its 8 x 8 code "compiles" now
                answers["asked"] = time.time()
                # another 8 x 8 request: it waits on the server for that code (the wait the old note left out)
                tasks.start_soon(_asked, engines, choose_move, (Job.of(eight, move.actions, move.state, move.agent),),
                                 answers, "move")

        anyio.run(main)
    finally:
        engines.close()
    waited = answers["compiled"][0] - answers["asked"]  # from when it was asked to the compile's end
    reply, took = move_reply(move, answers["move"][0]), answers["move"][1]
    said = _said(reply["note"])
    if waited >= COMPILING_AFTER + 0.5:  # (a machine too busy to ask in time waited less: then no more than it took)
        assert said is not None, reply["note"]  # the old server: "note": null
        assert waited - 0.5 <= said, (reply["note"], waited)
    assert said is None or said <= took + 0.05, (reply["note"], took)


def test_a_job_without_an_agent_tells_the_server_how_long_its_own_code_compiled() -> None:
    from zerosum.pool.worker import Worker

    events: list[Any] = []
    worker = Worker()  # a new one: nothing loaded
    try:  # an analysis's job, say: its solver code compiles in it (an 8 x 8 job admitted before it was prepared)
        reply = worker.call(tracked_job, (compiling_job, (get_game("connect4-8x8"),)), PATIENCE, events.append)
    finally:
        worker.kill()
    assert reply[0] == "ok", reply
    told = [m[1] for m in events if isinstance(m, tuple) and m[0] == "zerosum.ui.engines waited"]
    # the old worker told nothing of it (a job without an agent returned as it was: "note": null)
    assert len(told) == 1 and told[0][0] >= COMPILE - 0.1 and told[0][1] == [], events


def _compiling(wide: Any) -> None:
    """Wait until a job's code compiles (a safety net of minutes: the workers warm up first)."""
    deadline = time.monotonic() + PATIENCE
    while not wide.jobs_compiling():
        assert time.monotonic() < deadline, "no job's code compiled"
        time.sleep(0.02)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow  # compiles the engines' code from nothing: a minute or two
def test_a_fresh_servers_first_answers_say_they_waited_for_the_engines_start(tmp_path: Any) -> None:
    httpx = pytest.importorskip("httpx")
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "zerosum", "serve", "--port", str(port)],
                              env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    asks = {"move": ("POST", "/api/move", {"game": "connect4", "moves": "4444355535", "agent": "solver"}),
            "analysis": ("GET", "/api/analyze", {"game": "connect4", "moves": "4444355535", "budget": "0.5"}),
            "why": ("GET", "/api/explain", {"game": "connect4", "moves": "4444443332221", "agent": "solver"})}
    answers: dict[str, Any] = {}

    def ask(name: str, key: str = "") -> None:
        method, path, data = asks[name]
        asked = time.monotonic()
        if method == "POST":
            reply = httpx.post(url + path, json=data, timeout=PATIENCE)
        else:
            reply = httpx.get(url + path, params=data, timeout=PATIENCE)
        answers[key or name] = (reply.status_code, reply.json(), time.monotonic() - asked)

    try:
        start = time.monotonic()
        while True:  # the audit asked as soon as the server answered
            try:
                health = httpx.get(url + "/api/health", timeout=10).json()
                break
            except httpx.TransportError:
                assert server.poll() is None and time.monotonic() - start < 60, "the server did not start"
                time.sleep(0.1)
        assert health["ready"] is False, health  # a cold cache: nothing is warm this soon
        threads = [threading.Thread(target=ask, args=(name,)) for name in asks]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(PATIENCE)
        ask("move", "later")  # asked again, the engines warm: it waits for nothing
    finally:
        server.terminate()
        server.wait(30)
    status, later, _ = answers["later"]
    assert status == 200 and later["note"] is None, later
    for name in asks:
        status, reply, took = answers[name]
        assert status == 200, reply
        said = _said(reply["note"])  # the old server: null
        assert said is not None and COMPILING_AFTER <= said <= took + 0.5, (name, reply["note"], took)
        print(f"{name}: answered after {took:.1f} s, noted {reply['note']!r}")
