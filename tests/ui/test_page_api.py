"""The page's server side for #15: every board the page offers plays against every opponent it offers, the
solver's fallback says so, the textbook agents can be asked "why?", and POST /api/record opens a record."""

from __future__ import annotations

import re
import warnings

import pytest

pytest.importorskip("httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")

from zerosum import get_game, make_agent  # noqa: E402
from zerosum.ui import position, service  # noqa: E402
from zerosum.ui.record_api import MAX_RECORD  # noqa: E402



def offered_boards(client) -> list[str]:
    """Every board the page offers: each preset, and each sized game at its smallest, default and largest
    sizes as the page's controls allow them (plus the 7 x 9 board that once got stuck)."""
    games = client.get("/api/state").json()["games"]
    boards = ["connectx:rows=7,cols=9,k=4"]
    for g in games:
        if not g["options"]:
            boards.append(g["spec"])
            continue
        for pick in ("lo", "default", "hi"):
            values = {k: o[pick] for k, o in g["options"].items()}
            if "k" in values:  # k at most the longer side (the smallest board: one row of 4)
                values["cols"] = max(values["cols"], 4)
                values["k"] = min(4, max(values["rows"], values["cols"]))
            boards.append(g["spec"] + ":" + ",".join(f"{k}={v}" for k, v in values.items()))
    return boards


def fast(spec: str) -> str:
    """The offered opponent with a budget a test can afford (the same agent and options)."""
    spec = spec.replace("time=1", "time=0.05").replace("depth=4", "depth=1")
    return spec + ":time=0.05" if spec == "solver" else spec


def test_the_offered_games_sizes_stay_within_the_page_limit(client) -> None:
    for g in client.get("/api/state").json()["games"]:
        for o in g["options"].values():
            assert o["hi"] <= position.MAX_SIDE


def test_every_offered_board_plays_two_engine_moves_against_every_offered_opponent(client) -> None:
    opponents = client.get("/api/health").json()["opponents"]
    assert {o["spec"].split(":")[0] for o in opponents} >= {"random", "first"}
    boards = offered_boards(client)
    assert "othello:n=16" in boards and "connectx:rows=16,cols=16,k=4" in boards
    played = set()
    for board in boards:
        if get_game(board).spec in played:
            continue  # a preset that is a sized game's default (connect4): the same board, played already
        played.add(get_game(board).spec)
        for o in opponents:
            moves = ""
            for _ in range(2):  # an engine's move, then the other side's, as engines on both sides play
                reply = client.post("/api/move", json={"game": board, "moves": moves, "agent": fast(o["spec"])})
                assert reply.status_code == 200, (board, o["spec"], reply.text)
                data = reply.json()
                assert data["moves"].startswith(moves) and data["state"]["ply"] == len(data["state"]["move_list"])
                moves = data["moves"]
                if data["state"]["over"]:
                    break
            assert moves, (board, o["spec"])


def test_the_solver_on_a_board_past_128_bits_hands_its_moves_to_alphabeta_and_says_so(client) -> None:
    pytest.importorskip("zerosum.solver.solver")
    game = "connectx:rows=15,cols=9,k=4"  # 9 x 16 = 144 bits
    moves = ""
    for _ in range(2):
        reply = client.post("/api/move", json={"game": game, "moves": moves, "agent": "solver:time=0.05"})
        assert reply.status_code == 200, reply.text
        data = reply.json()
        plays = make_agent("solver").TRAITS.plays  # where it plays itself, as its traits say
        assert plays and plays in data["note"] and "alpha-beta moves for it" in data["note"]
        assert data["exact"] is False  # alpha-beta's estimate, never called a proof
        moves = data["moves"]
    on_its_board = client.post("/api/move", json={"game": "connect4", "moves": "", "agent": "solver"}).json()
    assert on_its_board["note"] is None and on_its_board["exact"] is True
    # the page labels it on such boards: the health answer gives that label
    solver = [o for o in client.get("/api/health").json()["opponents"] if o["spec"] == "solver"]
    assert solver and "alpha-beta" in solver[0]["elsewhere"]
    why = client.get("/api/explain", params={"game": game, "moves": moves, "agent": "solver"})
    assert why.status_code == 400 and "ask alphabeta:time=1 why" in why.json()["error"]


@pytest.mark.parametrize("agent", ["alphabeta:plain=1,depth=3", "minimax:discount=0,depth=3", "mcts:plain=1,sims=200"])
def test_the_textbook_variants_can_be_asked_why(client, agent) -> None:
    reply = client.get("/api/explain", params={"game": "tictactoe", "moves": "1 4 2 5 9 7", "agent": agent})
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["agent"] == agent and data["move"] == "3" and any(r["chosen"] for r in data["rows"])


@pytest.mark.parametrize("agent,words", [
    ("alphabeta:plain=1", "keeps no clock; give it depth=N"),  # the textbook recursion ignores a time budget
    ("alphabeta:plain=2,depth=2", "plain"),
    ("minimax:discount=maybe,depth=2", "discount"),
    ("alphabeta:plain=1,depth=9", "expected 1..8"),
])
def test_the_textbook_options_are_bounded_like_the_rest(client, agent, words) -> None:
    for reply in (client.get("/api/explain", params={"game": "tictactoe", "agent": agent}),
                  client.post("/api/move", json={"game": "tictactoe", "agent": agent})):
        assert reply.status_code == 400 and words in reply.json()["error"], reply.text
        assert "\n" not in reply.json()["error"]


def test_an_agent_that_keeps_no_clock_gets_the_servers_time_and_a_budgeted_one_does_not() -> None:
    game = get_game("connect4")
    assert service.checked_agent(game, "random").limits.time is None  # no budget to keep
    if service.agent_class("alphabeta") is not None:
        assert service.checked_agent(game, "alphabeta").limits.time == service.DEFAULT_TIME
        assert service.checked_agent(game, "alphabeta:depth=3").limits.time is None
        assert service.checked_agent(game, "alphabeta:plain=1,depth=3").spec == "alphabeta:plain=1,depth=3"
    if service.agent_class("solver") is not None:
        agent = service.checked_agent(game, "solver")
        assert agent.limits.time == service.DEFAULT_TIME and agent.spec == "solver:tt=22,time=1"


# ---- POST /api/record ------------------------------------------------------------------------------

def record_text(*games: tuple[str, str, str, str]) -> str:
    """A record of games (spec, opening, moves, result), written by zerosum.records itself."""
    records = pytest.importorskip("zerosum.records")
    out = []
    for spec, opening, moves, result in games:
        game = get_game(spec)
        moves_list = [game.format_action(a) for a in game.parse_moves(moves)]
        tags = {"Event": "test", "First": "alphabeta", "Second": "mcts", "Game": game.spec,
                "Opening": opening or "-", "Result": result, "Termination": "normal"}
        out.append(records.format(records.Record(tags=tags, moves=moves_list, notes=[None] * len(moves_list),
                                                 result=result)))
    return "\n".join(out)


def test_a_record_opens_as_games_with_their_lines_from_the_start(client) -> None:
    text = record_text(("connect4", "44", "1212121", "1-0"), ("tictactoe", "", "1 4 2 5 3", "1-0"))
    reply = client.post("/api/record", json={"text": text})
    assert reply.status_code == 200, reply.text
    games = reply.json()["games"]
    assert [g["game"] for g in games] == ["connectx:rows=6,cols=7,k=4", "tictactoe"]
    assert games[0]["line"] == list("44" + "1212121") and games[0]["moves"] == list("1212121")
    assert games[0]["tags"]["First"] == "alphabeta" and games[0]["result"] == "1-0" and games[0]["error"] is None
    assert games[1]["line"] == ["1", "4", "2", "5", "3"] and games[1]["separator"] == ""
    # the line replays to the stated result on the page's own state route
    state = client.get("/api/state", params={"game": games[0]["game"], "moves": "".join(games[0]["line"])}).json()
    assert state["over"] and state["winner"] == 1


def test_a_record_game_the_page_cannot_show_keeps_its_place_with_the_reason(client) -> None:
    text = record_text(("connectx:rows=20,cols=4,k=4", "", "1212121", "1-0"), ("tictactoe", "", "5", "*"))
    games = client.post("/api/record", json={"text": text}).json()["games"]
    assert "too big for the page" in games[0]["error"] and games[0]["line"] == []
    assert games[1]["error"] is None and games[1]["line"] == ["5"]


@pytest.mark.parametrize("body,status,words", [
    (b'{"text": "[Game \\"tictactoe\\"]\\n\\n5 5 *"}', 400, "line"),  # 5 twice: does not replay
    (b'{"text": 5}', 400, 'send {"text": RECORD}'),
    (b'{"text": "", "more": 1}', 400, 'send {"text": RECORD}'),
    (b'[1]', 400, "JSON object"),
    (b'{"text": ', 400, "not JSON"),
])
def test_a_bad_record_request_is_a_one_line_4xx(client, body, status, words) -> None:
    pytest.importorskip("zerosum.records")
    reply = client.post("/api/record", content=body, headers={"content-type": "application/json"})
    assert reply.status_code == status and words in reply.json()["error"], reply.text
    assert "\n" not in reply.json()["error"] and "Traceback" not in reply.text


def test_a_record_past_the_size_limit_is_refused_unread(client) -> None:
    big = '{"text": "' + "x" * MAX_RECORD + '"}'
    reply = client.post("/api/record", content=big, headers={"content-type": "application/json"})
    assert reply.status_code == 413 and f"larger than {MAX_RECORD} bytes" in reply.json()["error"]
    # a body that says it is small and is not: cut off at the limit all the same
    def chunks():
        yield b'{"text": "'
        for _ in range(MAX_RECORD // 65536 + 2):
            yield b"x" * 65536
    reply = client.post("/api/record", content=chunks(), headers={"content-type": "application/json"})
    assert reply.status_code == 413
    assert re.search("larger than 4096 bytes", client.post("/api/move", content=b"x" * 5000).json()["error"])
