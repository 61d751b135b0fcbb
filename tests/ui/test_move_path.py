"""The server's move path and the faces' engine questions: one position, one parse, exactness from the search,
and the solver's capability asked of the solver (no game class named in the faces)."""

from __future__ import annotations

import warnings
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")
from starlette.testclient import TestClient  # noqa: E402

import zerosum.agents.registry as registry  # noqa: E402
import zerosum.pool.moves as moves  # noqa: E402
import zerosum.ui.position as position  # noqa: E402
import zerosum.ui.service as service  # noqa: E402
from zerosum import get_game  # noqa: E402
from zerosum.agents.base import SearchAgent, SearchResult  # noqa: E402
from zerosum.agents.registry import FunctionAgent  # noqa: E402
from zerosum.game import Game  # noqa: E402
from zerosum import analysis  # noqa: E402
from zerosum.ui.analysis import engine_move  # noqa: E402
from zerosum.ui.server import create_app  # noqa: E402


def _count(monkeypatch: pytest.MonkeyPatch, calls: Counter[str], owner: Any, name: str) -> None:
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[name] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


@pytest.mark.parametrize("agent", ["first", "alphabeta:depth=2"])
def test_a_move_request_builds_the_position_once_and_parses_the_agent_once(monkeypatch, agent) -> None:
    if registry.agent_class(agent.split(":")[0]) is None:
        pytest.skip(f"{agent} is not installed")
    calls: Counter[str] = Counter()
    with TestClient(create_app(mode="inline", workers=1)) as client:
        _count(monkeypatch, calls, Game, "parse_position")  # checks each move as it replays the position
        _count(monkeypatch, calls, Game, "parse_moves")  # would be a second replay
        _count(monkeypatch, calls, Game, "states_of")  # would be a second replay
        _count(monkeypatch, calls, service, "parse_spec")
        _count(monkeypatch, calls, registry, "parse_spec")
        reply = client.post("/api/move", json={"game": "connect4", "moves": "4453", "agent": agent})
    assert reply.status_code == 200, reply.text
    assert reply.json()["moves"].startswith("4453") and reply.json()["agent"] == agent
    # was 2 replays (parse_moves, then states_of) and 3 parses of the spec; 5 builds before that
    assert calls == Counter({"parse_position": 1, "parse_spec": 1})


@pytest.mark.parametrize("path", ["/api/move", "/api/state"])
def test_a_request_plays_each_of_its_moves_once(monkeypatch, path) -> None:
    """Counted where a position is built move by move (the game's ``result``): a request that replays its
    moves twice, or rebuilds them after checking, plays more than one ``result`` a move."""
    from zerosum.games.connectx import ConnectX

    calls: Counter[str] = Counter()
    moves = "44535"
    with TestClient(create_app(mode="inline", workers=1)) as client:
        _count(monkeypatch, calls, ConnectX, "result")
        if path == "/api/move":  # 'first' plays without searching: one result more, its own move
            reply = client.post(path, json={"game": "connect4", "moves": moves, "agent": "first"})
        else:
            reply = client.get(path, params={"game": "connect4", "moves": moves})
    assert reply.status_code == 200, reply.text
    assert calls["result"] == len(moves) + (path == "/api/move")


def test_a_move_request_is_checked_before_the_engine_runs(monkeypatch) -> None:
    ran: list[Any] = []
    monkeypatch.setattr(moves, "move_report", lambda *args: ran.append(args))
    with TestClient(create_app(mode="inline", workers=1)) as client:
        bad_agent = client.post("/api/move", json={"game": "connect4", "moves": "44", "agent": "random:seed=x"})
        over = client.post("/api/move", json={"game": "tictactoe", "moves": "1425 3", "agent": "random"})
    assert bad_agent.status_code == 400 and "seed" in bad_agent.json()["error"]
    assert over.status_code == 400 and "over" in over.json()["error"]
    assert ran == []


class _Claims(SearchAgent):
    """A search agent whose results say what ``exact`` is, whatever its spec is called."""

    name = "claims"

    def __init__(self, exact: bool) -> None:
        super().__init__()
        self.exact = exact

    def search(self, game: Game[Any, Any], state: Any) -> SearchResult:
        return SearchResult(action=game.actions(state)[0], value=0, exact=self.exact)


def test_exact_comes_from_the_search_not_from_the_agent_spec() -> None:
    game = get_game("connect4")
    state = game.initial_state
    named_solver = FunctionAgent(lambda g, s: g.actions(s)[0], spec="solver")
    assert not engine_move(game, state, named_solver).exact  # a name proves nothing
    proving = _Claims(True)
    proving.spec = "claims"
    assert engine_move(game, state, proving).exact and engine_move(game, state, proving).words == "draw"
    guessing = _Claims(False)
    guessing.spec = "solver"
    assert not engine_move(game, state, guessing).exact and engine_move(game, state, guessing).words == "0 est."


def test_a_move_reply_says_whether_its_value_is_exact() -> None:
    if registry.agent_class("alphabeta") is None:
        pytest.skip("alphabeta is not installed")
    with TestClient(create_app(mode="inline", workers=1)) as client:
        won = client.post("/api/move", json={"game": "tictactoe", "moves": "1425", "agent": "alphabeta:depth=2"})
        early = client.post("/api/move", json={"game": "connect4", "moves": "", "agent": "alphabeta:depth=2"})
    assert won.status_code == 200 and won.json()["exact"] is True and won.json()["move"] == "3"
    assert early.status_code == 200 and early.json()["exact"] is False


def test_the_solver_answers_which_games_it_takes() -> None:
    solver = pytest.importorskip("zerosum.solver.solver")
    takes = {spec: solver.supports(get_game(spec)) for spec in ("connect4", "connectx:rows=8,cols=8,k=4",
                                                                "connectx:rows=15,cols=9,k=4", "tictactoe")}
    assert takes == {"connect4": True, "connectx:rows=8,cols=8,k=4": True, "connectx:rows=15,cols=9,k=4": False,
                     "tictactoe": False}  # 72 bits taken (the 128-bit search), 144 bits not
    for spec, fits in takes.items():  # the faces ask the solver, nothing else
        assert analysis.service(get_game(spec)).solves is fits
        assert position.solver_plays(get_game(spec)) is fits


def test_an_analyze_request_builds_the_position_once_and_says_if_it_is_exact(monkeypatch) -> None:
    if registry.agent_class("alphabeta") is None:
        pytest.skip("alphabeta is not installed")
    calls: Counter[str] = Counter()
    with TestClient(create_app(mode="inline", workers=1)) as client:
        _count(monkeypatch, calls, Game, "parse_position")
        _count(monkeypatch, calls, Game, "parse_moves")
        _count(monkeypatch, calls, Game, "states_of")
        reply = client.get("/api/analyze", params={"game": "tictactoe", "moves": "1425"})
    assert reply.status_code == 200, reply.text
    assert reply.json()["best"] == "3" and reply.json()["exact"] is True
    assert calls == Counter({"parse_position": 1})  # was parse_moves 2 and states_of 2, then 1 and 1
