"""A real `zerosum serve`: the `resume` of /api/analyze is sealed by the server, and one it did not seal is a
400 that changes nothing -- so no client can make it say "proven" of what it never proved, to itself or to
anyone else; and an early 8 x 8 position, out of the solver's reach, gets alpha-beta's view at once (analysis
and "why?"), no worker killed."""

from __future__ import annotations

import json
import os
import time
from typing import Iterator

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("zerosum.solver.solver")
pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="finds worker processes in /proc (Linux)")

from test_server_load import Server, children  # noqa: E402

from zerosum import get_game  # noqa: E402
from zerosum.analysis import REACH  # noqa: E402

WIDE = "connectx:rows=7,cols=7,k=4"  # 56 bits: every position in the solver's reach, few in its book
MOVES = "123467"
ENGINE_TIME = 2.0


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server(workers=2, engine_time=ENGINE_TIME)
    yield running
    running.close()


def ask(c: httpx.Client, **params: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    reply = c.get("/api/analyze", params=params)
    return reply.status_code, reply.json()


def test_a_forged_resume_is_refused_and_no_other_client_gets_its_claim(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as c:
        status, honest = ask(c, game=WIDE, moves=MOVES, budget="0.05")
        assert status == 200 and not honest["done"], honest
        token = json.loads(honest["resume"])
        assert "seal" in token  # the server's seal, the JSON text's last field
        hi = (49 + 2 - (len(MOVES) + 1)) // 2  # a win with the very next stone: false in every column here
        forged = dict(token, exact=[[0, hi], [6, hi]])
        unsealed = {k: v for k, v in forged.items() if k != "seal"}  # the progress as the analysis writes it
        last = honest["resume"][-3]
        changed = honest["resume"][:-3] + ("1" if last == "0" else "0") + '"}'  # one digit of the seal
        for text in (json.dumps(forged, separators=(",", ":")), json.dumps(unsealed, separators=(",", ":")),
                     changed, ""):
            status, said = ask(c, game=WIDE, moves=MOVES, budget="0.05", resume=text)
            assert status == 400 and "\n" not in said["error"], said
            assert said["error"].startswith("resume is not one this server handed out"), said
        for _ in range(3):  # whichever worker answers: nobody is told the forged proof
            status, victim = ask(c, game=WIDE, moves=MOVES, budget="0.3")
            assert status == 200
            assert "win in 1 move" not in victim["score_words"].values(), victim["score_words"]
            assert victim["classes"].get("1") != "win" and victim["classes"].get("7") != "win", victim["classes"]
        # and the honest resume still goes on
        status, again = ask(c, game=WIDE, moves=MOVES, budget="0.05", resume=honest["resume"])
        assert status == 200 and again["nodes"] > honest["nodes"], again


def test_a_sealed_resume_goes_on_to_the_proof_and_is_refused_for_another_game(server: Server) -> None:
    from zerosum.solver.solver import Solver

    game, moves = get_game("connect4"), "4444433321"  # ply 10, past the opening book
    truth = Solver(game, tt_size=1 << 20).analyze(game.from_moves(moves))
    with httpx.Client(base_url=server.url, timeout=60) as c:
        params = {"game": "connect4", "moves": moves, "budget": "0.2"}
        for _ in range(200):
            status, reply = ask(c, **params)
            assert status == 200, reply
            if reply["done"]:
                break
            params["resume"] = reply["resume"]
        assert reply["done"] and reply["exact"] and reply["resume"] is None
        assert reply["columns"] == truth
        # a sealed resume of one game is no resume of another whose positions are the same bits (k=5)
        status, first = ask(c, game=WIDE, moves=MOVES, budget="0.05")
        assert status == 200 and first["resume"]
        status, said = ask(c, game=WIDE.replace("k=4", "k=5"), moves=MOVES, budget="0.05", resume=first["resume"])
        assert status == 400 and said["error"].startswith("resume is not one this server handed out"), said


def test_an_early_8x8_position_gets_alpha_betas_view_at_once_and_no_worker_dies(server: Server) -> None:
    workers = sorted(children(server.proc.pid))
    with httpx.Client(base_url=server.url, timeout=60) as c:
        began = time.monotonic()
        reply = c.get("/api/analyze", params={"game": "connect4-8x8", "moves": "45"})
        took = time.monotonic() - began
        assert reply.status_code == 200, reply.text
        found = reply.json()
        assert took < ENGINE_TIME + 2.5, took  # alpha-beta's second, not the solver's hours (nor the hard limit)
        assert found["engine"].startswith("alphabeta") and not found["exact"]
        assert found["note"].startswith("the solver answers positions of 8 rows x 8 columns with at most "
                                        f"{REACH} empty cells"), found["note"]
        began = time.monotonic()  # the page's "why?" after the solver moved there
        why = c.get("/api/explain", params={"game": "connect4-8x8", "moves": "45", "agent": "solver:tt=22,time=1"})
        took = time.monotonic() - began
        assert why.status_code == 200, why.text
        said = why.json()
        assert took < ENGINE_TIME + 2.5, took
        assert said["rows"] and all(row["kind"] == "estimate" for row in said["rows"])
        assert f"at most {REACH} empty cells" in said["note"] and "alphabeta:time=1 chose" in said["note"], said
    assert sorted(children(server.proc.pid)) == workers  # none was killed and replaced


def test_a_reviews_resume_is_only_where_the_askers_own_review_goes_on(server: Server) -> None:
    # /api/review's resume is a count of moves judged, which the page also writes itself (a line that goes on
    # from the one reviewed keeps its marks); it skips moves of the asker's own answer, claims nothing, and is
    # kept nowhere, so there is nothing to seal.  A board the solver judges: every mark proven, so two reviews
    # agree whatever the machine's load (Tic-Tac-Toe's alpha-beta, about 1 s a position, estimated under load)
    params = {"game": "connectx:rows=4,cols=4,k=3", "moves": "12213", "budget": "2"}
    with httpx.Client(base_url=server.url, timeout=60) as c:
        whole = c.get("/api/review", params=params).json()
        assert whole["done"] and len(whole["marks"]) == 5 and all(m["exact"] for m in whole["marks"])
        part = c.get("/api/review", params={**params, "resume": "3"}).json()
        assert part["done"] and part["marks"] == whole["marks"][3:]
        again = c.get("/api/review", params=params).json()
        assert again["marks"] == whole["marks"] and again["positions"] == whole["positions"]


def test_the_seal_module_says_what_it_does() -> None:
    import doctest

    from zerosum.ui import tokens

    assert doctest.testmod(tokens).attempted and not doctest.testmod(tokens).failed
