"""The page's API says what each value is (the player audit): a finished game's last position is over, not
a side to move; a move proven only in win/draw/loss is never given a number a real score uses; the words of
a solver's result are one wording; errors over HTTP speak of the request, not the command line."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("httpx")
warnings.filterwarnings("ignore", message=".*httpx.*")




@pytest.mark.parametrize("game, moves, words, result, short", [
    ("connect4", "1212121", "game over: red won", "win", "red won"),
    ("tictactoe", "519746382", "game over: drawn", "draw", "draw"),
])
def test_a_finished_games_last_position_says_it_is_over_and_its_result(client, game, moves, words, result,
                                                                         short) -> None:
    params = {"game": game, "moves": moves, "budget": "1"}
    reply = client.get("/api/review", params=params).json()
    while not reply["done"]:  # a cold machine may take more than one slice
        reply = client.get("/api/review", params={**params, "resume": reply["resume"]}).json()
    last = reply["positions"][-1]
    assert last["ply"] == len(moves) and last["over"] is True and last["side"] is None
    assert (last["words"], last["result"], last["short"], last["kind"]) == (words, result, short, "exact")
    assert last["bar"] == {"win": 1.0, "draw": 0.0}[result] and last["best"] is None
    assert "to move" not in last["words"] and not any(p["over"] for p in reply["positions"][:-1])


def test_a_move_proven_only_in_win_or_loss_has_no_score_until_its_distance_is_proven(client) -> None:
    pytest.importorskip("zerosum.solver.solver")
    params, replies = {"game": "connect4", "moves": "4757744575", "budget": "0.05"}, []
    for _ in range(200):  # slices, as the page asks, until done
        replies.append(client.get("/api/analyze", params=params).json())
        if replies[-1]["done"]:
            break
        params["resume"] = replies[-1]["resume"]
    final = replies[-1]
    assert final["done"] and final["columns"] == [-4, -4, 15, -12, 2, -16, 14]
    assert final["column_kinds"] == ["exact"] * 7 and set(final["classes"]) == set(final["scores"]) == set("1234567")
    assert final["classes"]["3"] == "win" and final["classes"]["4"] == "loss"
    for r in replies:
        for move, word in r["classes"].items():
            if move in r["scores"]:  # a real score: its class is its sign
                assert word == ("win" if r["scores"][move] > 0 else "loss" if r["scores"][move] < 0 else "draw")
                assert r["scores"][move] == final["scores"][move]
            else:  # a class alone: said through classes and points, never a number a score uses
                assert r["columns"][int(move) - 1] is None and r["column_kinds"][int(move) - 1] == "class"
                assert r["points"][move] in ("W", "L", "0") and "not yet proven" in r["score_words"][move]
        for c, kind in enumerate(r["column_kinds"]):
            assert (r["columns"][c] is not None) == (kind in ("exact", "estimate")), (c, kind, r)


def test_a_full_column_is_told_from_one_not_scored_yet(client) -> None:
    reply = client.get("/api/analyze", params={"game": "connect4", "moves": "444444"}).json()
    assert reply["columns"][3] is None and reply["column_kinds"][3] == "full"
    assert reply["column_kinds"].count("full") == 1


def test_why_over_http_states_the_servers_cap_and_what_to_change_in_the_request(client) -> None:
    for agent in ("minimax:depth=6", "mcts:sims=100000"):
        r = client.get("/api/explain", params={"game": "connect4", "moves": "44", "agent": agent})
        error = r.json()["error"]
        assert r.status_code == 400 and "within 1 s, this server's engine time" in error and "agent=" in error
        assert "--max" not in error and "max_time" not in error and "3600" not in error and "\n" not in error


def test_why_past_the_servers_node_cap_says_that_cap() -> None:
    from zerosum.errors import AgentError
    from zerosum.ui.explain import check_explain, explain_job, over_http
    from zerosum.trace.bounds import TraceBound

    request = check_explain("connect4", "44", "minimax:depth=4", 5.0)
    with pytest.raises(AgentError) as caught:
        explain_job(request, max_nodes=50, max_time=5.0)
    assert "more than 50 nodes, the most this server traces" in str(caught.value)
    assert "--max-nodes" not in str(caught.value) and "1,000,000" not in str(caught.value)
    sims = over_http(TraceBound("", "simulations", 100_000, 200_000, "'mcts:sims=200000'"))
    assert "lower sims= in agent=" in str(sims) and "100,000 nodes" in str(sims)


@pytest.mark.parametrize("game, moves, first", [("connect4", "4453", "1"), ("connect4", "4453", "5"),
                                               ("tictactoe", "12547", "3")])
def test_the_best_line_from_a_given_move_says_that_moves_value_as_the_analysis_does(client, game, moves,
                                                                                     first) -> None:
    if game == "connect4":
        pytest.importorskip("zerosum.solver.solver")
    line = client.get("/api/line", params={"game": game, "moves": moves, "first": first}).json()
    analysis = client.get("/api/analyze", params={"game": game, "moves": moves}).json()
    assert line["line"][0] == first and line["words"] == analysis["score_words"][first] != ""


def test_a_line_whose_first_move_ends_the_game_says_so(client) -> None:
    line = client.get("/api/line", params={"game": "tictactoe", "moves": "1425", "first": "3"}).json()
    assert line["line"] == ["3"] and line["words"] == "win in 1 move"


@pytest.mark.parametrize("sign, words", [(1, "win (distance not yet proven)"), (0, "draw"),
                                         (-1, "loss (distance not yet proven)")])
def test_a_move_proven_only_in_win_draw_loss_is_worded_as_every_face_words_it(sign, words) -> None:
    from zerosum import get_game
    from zerosum.agents.base import SearchAgent, SearchResult
    from zerosum.core.words import CLASS_WORDS
    from zerosum.pool.moves import MoveReport
    from zerosum.ui.analysis import engine_move
    from zerosum.ui.service import check_move, move_reply
    from zerosum.values import HEURISTIC_BOUND

    assert CLASS_WORDS[sign] == words  # the analysis's and the terminal's words
    request = check_move("connect4", "4453", "alphabeta:depth=1")
    agents_words = {1: "a proven win; distance not yet known", 0: "a proven draw", -1: "a proven loss"}[sign]
    report = MoveReport("solver", 3, "4", value=sign * HEURISTIC_BOUND, proof=agents_words)
    reply = move_reply(request, report)
    assert reply["words"] == reply["proof"] == words

    class Proving(SearchAgent):  # an agent that proves only the win/draw/loss, in words of its own
        name = "proving"
        last_proof = agents_words

        def search(self, game, state):
            return SearchResult(action=game.actions(state)[0], value=sign * HEURISTIC_BOUND, exact=False)

    game = get_game("connect4")
    assert engine_move(game, game.initial_state, Proving()).words == words


def test_an_analysis_asked_again_without_resume_reports_its_own_figures(monkeypatch) -> None:
    pytest.importorskip("zerosum.solver.solver")
    import itertools

    from zerosum.ui import position, service

    ticks = itertools.count(0, 1)
    monkeypatch.setattr(service, "CLOCK", lambda: float(next(ticks)))  # a second a search: a slice of 2 s
    game, actions, state = position.check_position("connectx:rows=7,cols=6,k=4", "1")
    replies = [service.analyze_job(game, actions, state, 1.0, True, 2.0, None) for _ in range(3)]
    assert not any(r["done"] for r in replies)
    for r in replies:  # each its own slice: about 2 s of the clock, never the earlier requests' too
        assert 2.0 <= r["elapsed"] <= 4.0 and r["nodes"] > 0, r["elapsed"]
    resumed = service.analyze_job(game, actions, state, 1.0, True, 2.0, replies[-1]["resume"])
    assert resumed["elapsed"] >= replies[-1]["elapsed"] + 2.0  # with resume, the slices add up
    assert resumed["nodes"] > replies[-1]["nodes"]


def test_alpha_betas_analysis_keeps_to_the_budget(client) -> None:
    import time

    client.get("/api/analyze", params={"game": "othello:n=6", "moves": "", "budget": "0.05"})  # warm
    began = time.perf_counter()
    reply = client.get("/api/analyze", params={"game": "othello:n=6", "moves": "", "budget": "0.05"}).json()
    took = time.perf_counter() - began
    assert reply["engine"] == "alphabeta:time=0.05" and reply["elapsed"] < 0.4 and took < 0.6, (reply, took)
