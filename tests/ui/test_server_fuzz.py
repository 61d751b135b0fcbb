"""Every HTTP endpoint of `zerosum serve`, fuzzed with hypothesis through the ASGI app: bad input is a 4xx
JSON answer with a one-line message, never a 500 (nor a 502: the engine never fails on what we let through).

A bounded run is part of the suite; ``-m slow`` runs a longer one.
"""

from __future__ import annotations

import json
import warnings

import pytest

pytest.importorskip("httpx")
hypothesis = pytest.importorskip("hypothesis")
warnings.filterwarnings("ignore", message=".*httpx.*")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from zerosum.ui.server import create_app  # noqa: E402

#: what an engine may answer instead of a result: busy (503) or past its time (504), both documented
ENGINE_STATUSES = {503, 504}

NUMBERS = st.one_of(
    st.integers(-10, 40).map(str),
    st.integers(-(10**25), 10**25).map(str),
    st.sampled_from(["nan", "inf", "-inf", "1e999", "0.5", "4\u00b2", "\u0663", "\uff14", "", " ", "0x10", "1_000"]),
    st.text(max_size=6),
)
GAMES = st.one_of(
    st.sampled_from(["connect4", "connect4-8x8", "tictactoe", "migration", "chess", "", "connect4:"]),
    st.builds(lambda n: f"migration:n={n}", NUMBERS),
    st.builds(lambda r, c, k: f"connectx:rows={r},cols={c},k={k}", NUMBERS, NUMBERS, NUMBERS),
    st.text(max_size=40),
)
MOVES = st.one_of(
    st.text(alphabet="0123456789,; \u00b2\u0663\u00e9\x00-", max_size=30),
    st.lists(st.integers(1, 7), max_size=42).map(lambda cs: "".join(map(str, cs))),
    st.text(max_size=30),
)
AGENT_NAMES = st.sampled_from(["random", "first", "alphabeta", "solver", "mcts", "minimax", "human", "wizard"])
OPTION_KEYS = st.sampled_from(["depth", "time", "tt", "sims", "nodes", "seed", "c", "book", "eval", "fast", "x"])
AGENTS = st.one_of(
    AGENT_NAMES,
    st.builds(lambda n, opts: n + ":" + ",".join(f"{k}={v}" for k, v in opts), AGENT_NAMES,
              st.lists(st.tuples(OPTION_KEYS, NUMBERS), min_size=1, max_size=3)),
    st.text(max_size=40),
)
JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
                        st.lists(st.integers(), max_size=3))


@pytest.fixture(scope="module")
def client():
    # tiny engine budget: the fuzz is about answers, not about searching
    with TestClient(create_app(engine_time=0.05, workers=1, margin=2.0, busy_wait=30)) as c:
        yield c


def check(reply) -> None:
    assert reply.status_code < 500 or reply.status_code in ENGINE_STATUSES, reply.text
    assert reply.headers["content-type"].startswith("application/json"), reply.text
    if reply.status_code != 200:
        message = reply.json()["error"]
        assert isinstance(message, str) and message and "\n" not in message and "Traceback" not in message


def fuzz_get(client, path: str, game, moves) -> None:
    params = {k: v for k, v in (("game", game), ("moves", moves)) if v is not None}
    check(client.get(path, params=params))


def fuzz_move(client, body: bytes) -> None:
    check(client.post("/api/move", content=body, headers={"content-type": "application/json"}))


BODIES = st.one_of(
    st.fixed_dictionaries({}, optional={"game": st.one_of(GAMES, JSON_VALUES), "moves": st.one_of(MOVES, JSON_VALUES),
                                        "agent": st.one_of(AGENTS, JSON_VALUES), "seed": JSON_VALUES,
                                        "extra": JSON_VALUES}).map(lambda d: json.dumps(d).encode()),
    st.binary(max_size=60),
    st.text(max_size=60).map(str.encode),
)
BOUNDED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
LONG = settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@BOUNDED
@given(game=st.one_of(st.none(), GAMES), moves=st.one_of(st.none(), MOVES))
def test_state_answers_every_query_with_json(client, game, moves) -> None:
    fuzz_get(client, "/api/state", game, moves)


@settings(BOUNDED, max_examples=30)  # each one that reaches an engine takes up to 2 s
@given(game=st.one_of(st.none(), GAMES), moves=st.one_of(st.none(), MOVES))
def test_analyze_answers_every_query_with_json(client, game, moves) -> None:
    fuzz_get(client, "/api/analyze", game, moves)


@BOUNDED
@given(body=BODIES)
def test_move_answers_every_body_with_json(client, body) -> None:
    fuzz_move(client, body)


@BOUNDED
@given(query=st.binary(max_size=40))
def test_raw_query_strings_are_answered_with_json(client, query) -> None:
    from urllib.parse import quote_from_bytes

    check(client.get("/api/state?" + quote_from_bytes(query, safe="=&")))


@pytest.mark.slow
@LONG
@given(path=st.sampled_from(["/api/state", "/api/analyze", "/api/move"]), game=st.one_of(st.none(), GAMES),
       moves=st.one_of(st.none(), MOVES), body=BODIES)
def test_every_endpoint_answers_with_json_long_run(client, path, game, moves, body) -> None:
    if path == "/api/move":
        fuzz_move(client, body)
    else:
        fuzz_get(client, path, game, moves)
