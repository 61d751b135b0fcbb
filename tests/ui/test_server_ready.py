"""The server while its engines warm up: a request waits for the first warm engine (never a 503 for that),
``/api/health`` says whether they are ready and what they are doing; ``/api/move`` answers with the position
after the move, so the page need not ask again.  The slow test runs a real ``zerosum serve`` on a cold numba
cache (a fresh NUMBA_CACHE_DIR)."""

from __future__ import annotations

import functools
import os
import re
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")
import httpx  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from slow_warmup import slow_warm_up  # noqa: E402

from zerosum.ui.engines import preparing_words  # noqa: E402
from zerosum.ui.server import create_app  # noqa: E402

WARM_UP = 4.0  # seconds the test's warm-up takes: far past the server's busy_wait here


def test_a_move_during_the_warm_up_waits_for_the_engine_and_health_says_what_it_does() -> None:
    app = create_app(engine_time=1.0, workers=1, busy_wait=0.3)  # a busy engine: 503 after 0.3 s
    app.state.pool.warmup = functools.partial(slow_warm_up, WARM_UP)
    with TestClient(app) as client:
        start = time.monotonic()
        health = client.get("/api/health").json()
        assert health["ready"] is False and health["engines_ready"] == 0 and health["ready_wait"] >= 150
        assert health["preparing"].startswith(("starting the engine", "preparing the engine"))
        while "slow engine" not in (client.get("/api/health").json()["preparing"] or "") and time.monotonic() - start < 30:
            time.sleep(0.1)
        assert client.get("/api/health").json()["preparing"].startswith("preparing the engine (a slow engine)")
        reply = client.post("/api/move", json={"game": "tictactoe", "moves": "5", "agent": "first"})
        assert reply.status_code == 200, reply.text
        assert reply.json()["move"] == "1" and time.monotonic() - start >= WARM_UP - 1
        health = client.get("/api/health").json()
        assert health["ready"] is True and health["preparing"] is None and health["engines_ready"] == 1


def test_the_words_of_a_warm_up() -> None:
    assert preparing_words(0.4, "") == "starting the engine: 0.4 s"
    assert preparing_words(1.25, "the solver's tables") == "preparing the engine (the solver's tables): 1.2 s"
    assert preparing_words(12.4, "the solver's search") == "preparing the engine (the solver's search), first run only: 12 s"


def test_a_move_answers_with_the_position_after_it() -> None:
    with TestClient(create_app(mode="inline", workers=1)) as client:
        assert client.get("/api/health").json()["ready"] is True
        reply = client.post("/api/move", json={"game": "connect4", "moves": "4453", "agent": "first"}).json()
        after = client.get("/api/state", params={"game": "connect4", "moves": reply["moves"]}).json()
    assert reply["moves"] == "44531" and "games" in after
    assert reply["state"] == {k: v for k, v in after.items() if k != "games"}  # the page uses it as it is


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow  # compiles every offered engine's numba code from nothing: half a minute to two
def test_a_real_server_on_a_cold_cache_answers_its_first_move_200(tmp_path) -> None:
    port = _free_port()
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}  # a cold compile cache
    server = subprocess.Popen([sys.executable, "-m", "zerosum", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        start = time.monotonic()
        health = None
        while health is None and time.monotonic() - start < 60:
            try:
                health = httpx.get(url + "/api/health", timeout=5).json()
            except httpx.TransportError:
                time.sleep(0.1)
        assert health is not None, "the server did not answer /api/health"
        assert health["ready"] is False and health["preparing"]  # a cold cache: nothing is warm this soon
        moves = {}
        for moves_text, agent in (("", "solver"), ("4453", "alphabeta:time=1"), ("4453", "mcts:time=1")):
            asked = time.monotonic()
            reply = httpx.post(url + "/api/move", json={"game": "connect4", "moves": moves_text, "agent": agent},
                               timeout=300)
            assert reply.status_code == 200, reply.text  # never 503 while the engines warm up
            note = reply.json()["note"]  # the agent itself moved (nothing overran); the first said what it waited
            assert note is None or re.fullmatch(r"after \d+ s preparing the engine, first run only", note), note
            moves[agent] = (round(asked - start, 1), round(time.monotonic() - asked, 1))
        assert httpx.get(url + "/api/health", timeout=5).json()["ready"] is True
        print("asked at, answered after (s):", moves)
    finally:
        server.terminate()
        server.wait(30)
