"""What `zerosum serve` makes of the text it is sent (#20): a lone surrogate (JSON's ``"\\ud800"``) anywhere is
a 400 with a one-line JSON error on every route, never a 500; ``GET /api/agent`` names the nearest agent it
plays; the "why?" route's traced search is bounded (nodes, and the worker's time limit) before it starts.

Through the ASGI app with the real engine pool (worker processes), as `zerosum serve` runs it."""

from __future__ import annotations

import json
import warnings
from urllib.parse import quote

import pytest

pytest.importorskip("httpx")
hypothesis = pytest.importorskip("hypothesis")
warnings.filterwarnings("ignore", message=".*httpx.*")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from zerosum.ui.server import create_app  # noqa: E402

#: every route that reads what it is sent: (method, path, its fields)
ROUTES = [
    ("GET", "/api/state", ("game", "moves")),
    ("GET", "/api/analyze", ("game", "moves", "budget")),
    ("GET", "/api/explain", ("game", "moves", "agent")),
    ("GET", "/api/agent", ("game", "agent")),
    ("POST", "/api/move", ("game", "moves", "agent", "seed")),
    ("POST", "/api/record", ("text",)),
]
ENGINE_STATUSES = {503, 504}  # busy, past its time: documented answers of an engine route
SURROGATES = st.sampled_from(["\ud800", "\udfff", "\udc80", "a\ud83d", "\ude00b"])
#: text with lone surrogates mixed in
TEXT = st.lists(st.one_of(st.text(max_size=8), SURROGATES), max_size=4).map("".join)
JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), TEXT),
                    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(TEXT, inner, max_size=3)),
                    max_leaves=8)
RECORD = '[Game "tictactoe"]\n[Event "{}"]\n\n5 {} *\n'


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(engine_time=0.2, workers=1, margin=20.0, busy_wait=60)) as c:
        yield c


def check(reply, *, bad_text: bool = False) -> None:
    """A JSON answer, never a 500; an error is one line; ``bad_text``: it must be the 400 of bad input."""
    assert reply.status_code < 500 or reply.status_code in ENGINE_STATUSES, reply.text
    assert reply.headers["content-type"].startswith("application/json"), reply.text
    if reply.status_code != 200:
        message = reply.json()["error"]
        assert message and "\n" not in message and "Traceback" not in message
    if bad_text:
        assert reply.status_code == 400 and "lone surrogate" in reply.json()["error"], reply.text


def utf8(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"))


def send(client, method: str, path: str, fields: dict) -> object:
    if method == "POST":  # json.dumps writes a lone surrogate as \ud800, as a browser's JSON.stringify does
        return client.post(path, content=json.dumps(fields).encode(), headers={"content-type": "application/json"})
    # a query value carries any text as UTF-8 bytes (a surrogate's too, as a careless client sends them)
    query = "&".join(f"{utf8(k)}={utf8(str(v))}" for k, v in fields.items())
    return client.get(f"{path}?{query}")


@pytest.mark.parametrize("route", [r for r in ROUTES if r[0] == "POST"], ids=lambda r: r[1])
def test_surrogates_are_a_400_on_every_route(client, route) -> None:
    method, path, names = route
    good = {"/api/move": {"game": "tictactoe", "moves": "5", "agent": "first"},
            "/api/record": {"text": RECORD.format("x", "1")}}[path]
    check(send(client, method, path, good))
    assert send(client, method, path, good).status_code == 200
    for name in names:
        if name == "seed":
            continue  # a number
        for bad in ("\ud800", "tic\udfff", "a\ud83d"):
            check(send(client, method, path, {**good, name: bad}), bad_text=True)
        check(send(client, method, path, {**good, "\udc80": 1}), bad_text=True)  # in a field's name
    if path == "/api/record":  # in a tag, in the moves, in a comment
        for text in (RECORD.format("\ud800", "1"), RECORD.format("x", "\ud800"), RECORD.format("x", "{\udfff}")):
            check(send(client, method, path, {"text": text}), bad_text=True)


@pytest.mark.parametrize("route", [r for r in ROUTES if r[0] == "GET"], ids=lambda r: r[1])
def test_surrogate_bytes_in_a_query_are_refused_as_bad_input(client, route) -> None:
    method, path, names = route
    for name in names:
        reply = send(client, method, path, {name: "\ud800"})  # its UTF-8 bytes are not UTF-8 text
        check(reply)
        assert reply.status_code in (200, 400), reply.text


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(route=st.sampled_from(ROUTES), fields=st.data())
def test_any_json_with_surrogates_is_answered_by_every_route_without_a_500(client, route, fields) -> None:
    method, path, names = route
    body = fields.draw(st.one_of(
        st.fixed_dictionaries({}, optional={n: JSON for n in names}),
        st.dictionaries(TEXT, JSON, max_size=3),
        JSON,
    ))
    if method == "GET":
        body = body if isinstance(body, dict) else {"game": body}
        check(send(client, method, path, {k: v for k, v in body.items() if v is not None}))
    else:
        check(client.post(path, content=json.dumps(body).encode(), headers={"content-type": "application/json"}))


# ---- GET /api/agent: what the page's address may ask for -------------------------------------------

@pytest.mark.parametrize("agent,accepted,nearest", [
    ("alphabeta:depth=3", True, None),
    ("alphabeta:depth=100", False, "alphabeta:depth=8"),
    ("mcts:sims=0,seed=3", False, "mcts:sims=1,seed=3"),
    ("minimax:depth=9,wizardry=2", False, "minimax:depth=6"),
    ("solver:tt=99", False, "solver:tt=22"),
    ("alphabeta:plain=1", False, None),  # the textbook alpha-beta needs a depth: no nearest, the page's default
    ("human", False, None),
    ("wizard", False, None),
])
def test_the_server_names_the_nearest_agent_it_plays(client, agent, accepted, nearest) -> None:
    reply = client.get("/api/agent", params={"game": "tictactoe", "agent": agent})
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert (data["agent"], data["accepted"], data["nearest"]) == (agent, accepted, nearest)
    assert (data["error"] is None) == accepted
    if nearest is not None:  # and the nearest one plays
        check(client.post("/api/move", json={"game": "tictactoe", "moves": "5", "agent": nearest}))
    assert client.get("/api/agent", params={"game": "chess", "agent": agent}).status_code == 400


# ---- the "why?": a traced search, bounded before it starts ------------------------------------------

def test_the_why_route_bounds_its_traced_search_by_nodes_and_time(client) -> None:
    """Searches far past the page's bounds end as a one-line 400 (the node budget the trace is given) or a 504
    (the worker's hard time limit, engine time + margin): never a search without an end."""
    for game, agent in (("connect4", "mcts:sims=100000"), ("connect4", "minimax:depth=6"),
                        ("connectx:rows=16,cols=16,k=4", "alphabeta:depth=8")):
        reply = client.get("/api/explain", params={"game": game, "moves": "", "agent": agent})
        check(reply)
        assert reply.status_code in (400, 504), reply.text
        if reply.status_code == 400:  # the trace stopped itself: past its nodes, or past the engine time
            message = reply.json()["error"]
            assert "nodes" in message or "within 0.2 s" in message, message
