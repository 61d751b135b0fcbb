"""The faces on boards past 64 bits (8 x 8, 9 x 7, 7 x 9): the analysis service, the solver agent, the page's
move, adjudication and review take them with the 128-bit search, and their answers agree with the brute force
of :mod:`test_wide_truth` (written without zerosum's code).  An early position, out of the solver's reach while
a person waits (``analysis.REACH`` empty cells), gets alpha-beta's estimate at once, and says so."""

from __future__ import annotations

import pytest

from test_wide_truth import WIDE, Grid, brute_columns, late_positions
from zerosum import get_game, make_agent
from zerosum.analysis import REACH, service

pytest.importorskip("numba")


def _truth(spec: str, rows: int, cols: int, state):  # type: ignore[no-untyped-def]
    return brute_columns(Grid(rows, cols, list(state.history)), {})


def test_the_faces_take_the_wide_boards_and_reach_their_late_positions() -> None:
    for spec, _, _ in WIDE:
        game = get_game(spec)
        engine = service(game)
        assert game.traits.solver and engine.solves
        assert not engine.reaches(game.initial_state)
        late = late_positions(spec, REACH, 1, 0)[0]
        assert engine.reaches(late) and not engine.reaches(game.from_moves(game.to_moves(late)[:-1]))
        assert f"at most {REACH} empty cells (from ply {game.cells - REACH})" in engine.beyond_reach()
    assert service(get_game("connect4")).reaches(get_game("connect4").initial_state)  # 64 bits: every position
    from zerosum.agents.registry import strongest_agent_spec

    assert strongest_agent_spec(get_game("connect4-8x8")) == "solver"  # the default opponent of play and the page
    assert not get_game("connectx:rows=15,cols=9,k=4").traits.solver  # 144 bits: past the solver


@pytest.mark.parametrize("spec,rows,cols", WIDE)
def test_a_progressive_analysis_of_a_late_wide_position_is_the_brute_force(spec: str, rows: int, cols: int) -> None:
    game = get_game(spec)
    for state in late_positions(spec, 12, 2, 7):
        found = service(game).analyse(state, seconds=600)  # the faces' way: progressive, in slices
        expected = _truth(spec, rows, cols, state)
        assert found.done and found.exact and found.engine == "the solver", game.to_moves(state)
        assert {c: int(s) for c, s in found.scores.items()} == {c: s for c, s in enumerate(expected) if s is not None}


def test_an_early_wide_position_gets_estimates_at_once_and_says_why() -> None:
    game = get_game("connect4-8x8")
    found = service(game).analyse(game.from_moves("45"), seconds=30, time=0.2)
    assert found.engine.startswith("alphabeta:time=") and not found.exact
    assert found.note and "40 empty cells (from ply 24)" in found.note
    assert set(found.scores) == set(game.actions(game.from_moves("45")))


def test_a_board_past_128_bits_gets_estimates_saying_why() -> None:
    # the page's and the hint's analysis said nothing there; a move said why (the solver agent's reason)
    game = get_game("connectx:rows=9,cols=13,k=4")  # 13 x 10 = 130 bits
    found = service(game).analyse(game.from_moves("7,7"), seconds=0.2, time=0.2)
    assert not found.exact and found.note == ("the solver takes boards with cols x (rows + 1) <= 128; 9 rows x 13 "
                                              "columns need 130 bits")
    assert service(get_game("tictactoe")).analyse(get_game("tictactoe").initial_state, seconds=0.2).note == ""
    assert service(game).analyse(game.initial_state, use_solver=False, time=0.1).note == ""  # not asked for


def test_the_solver_agent_proves_late_wide_moves_and_hands_early_ones_to_alphabeta() -> None:
    agent = make_agent("solver:time=1")
    for spec, rows, cols in WIDE:
        game = get_game(spec)
        early = game.from_moves("1")
        move = agent.search_within(game, early, 0.2)  # type: ignore[attr-defined]
        assert move.action in game.actions(early) and not move.exact
        assert "empty cells" in agent.last_fallback and "alphabeta:time=" in agent.last_fallback  # type: ignore[attr-defined]
        for state in late_positions(spec, 12, 2, 3):
            expected = _truth(spec, rows, cols, state)
            for found in (agent.search_within(game, state, 600), agent.search(game, state)):  # type: ignore[attr-defined]
                assert agent.last_fallback is None, game.to_moves(state)  # type: ignore[attr-defined]
                chosen, best = expected[found.action], max(s for s in expected if s is not None)
                assert chosen is not None and (chosen > 0) - (chosen < 0) == (best > 0) - (best < 0)
                assert not found.exact or chosen == best  # exact: a best move; else one that keeps the result


@pytest.mark.filterwarnings("ignore:.*httpx")
def test_the_page_plays_the_solver_on_8x8_and_says_when_alphabeta_moved() -> None:
    pytest.importorskip("httpx")
    from starlette.testclient import TestClient

    from zerosum.ui.server import create_app

    game = get_game("connect4-8x8")
    late = late_positions("connect4-8x8", 14, 1, 5)[0]
    with TestClient(create_app(mode="inline", engine_time=5.0)) as client:
        early = client.post("/api/move", json={"game": "connect4-8x8", "moves": "45", "agent": "solver"}).json()
        assert early["exact"] is False and "40 empty cells" in early["note"]
        reply = client.post("/api/move", json={"game": "connect4-8x8", "moves": game.to_moves(late),
                                               "agent": "solver"})
        assert reply.status_code == 200, reply.text
        answer = reply.json()
        assert answer["note"] is None and (answer["exact"] or answer["proof"])  # the solver's own move
        expected = _truth("connect4-8x8", 8, 8, late)
        chosen = expected[game.parse_action(answer["move"])]
        best = max(s for s in expected if s is not None)
        assert chosen is not None and (chosen > 0) - (chosen < 0) == (best > 0) - (best < 0)


def test_adjudication_and_review_are_exact_on_8x8() -> None:
    from zerosum import review
    from zerosum.arena.adjudicate import check_adjudication

    game = get_game("connect4-8x8")
    check_adjudication(game, {"solver": 1000})  # accepted: no error
    state = late_positions("connect4-8x8", 12, 1, 11)[0]
    moves = game.to_moves(state)
    expected = _truth("connect4-8x8", 8, 8, state)
    best = max(s for s in expected if s is not None)
    ruling = service(game).prove(state, 10**7, 1 << 16)
    assert ruling is not None and ruling[0] == (best > 0) - (best < 0)
    found = review(moves, game="connect4-8x8", seconds=0.05)
    marks = found.marks
    assert len(marks) == len(state.history)
    assert all(m.exact for m in marks if m.ply > game.cells - REACH)  # the solver judged every move in reach
    assert not marks[0].exact  # ply 1: alpha-beta's estimate, out of the solver's reach


def test_zerosum_analyze_says_an_early_wide_position_may_take_hours_and_answers_a_late_one(capsys) -> None:
    import subprocess
    import sys

    from zerosum.cli import main

    game = get_game("connect4-8x8")
    state = late_positions("connect4-8x8", 12, 1, 2)[0]
    assert main(["analyze", "--game", "connect4-8x8", game.to_moves(state)]) == 0
    out, err = capsys.readouterr()
    expected = _truth("connect4-8x8", 8, 8, state)
    best = max(s for s in expected if s is not None)
    assert "may take hours" not in err
    assert (f"(score {best:+d}:" if best else "(a draw)") in out  # the brute force's value of the position
    early = subprocess.Popen([sys.executable, "-m", "zerosum", "analyze", "--game", "connect4-8x8", "4455"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert early.stderr is not None
        said = next(line for line in early.stderr if "empty cells" in line)  # before the search, not after it
        assert said.startswith("zerosum: 60 empty cells:") and "may take hours (Ctrl-C stops it)" in said
    finally:
        early.kill()
        early.wait()


def test_zerosum_solve_says_an_early_wide_position_may_take_hours_before_it_searches() -> None:
    """`echo 44 | zerosum solve --game connect4-8x8` was silent for hours, where `analyze` says it at once
    (audit); a late position's line says nothing of the kind, and its score is the brute force's."""
    import queue
    import subprocess
    import sys
    import threading

    game = get_game("connect4-8x8")
    state = late_positions("connect4-8x8", 12, 1, 3)[0]
    done = subprocess.run([sys.executable, "-m", "zerosum", "solve", "--game", "connect4-8x8"],
                          input=game.to_moves(state) + "\n", capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "may take hours" not in done.stderr, done.stderr
    expected = _truth("connect4-8x8", 8, 8, state)
    assert done.stdout.split() == [game.to_moves(state), str(max(s for s in expected if s is not None))]
    early = subprocess.Popen([sys.executable, "-m", "zerosum", "solve", "--game", "connect4-8x8"],
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert early.stdin is not None and early.stderr is not None
        early.stdin.write(game.to_moves(state) + "\n44\n")
        early.stdin.flush()
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in early.stderr], daemon=True).start()
        said = ""
        while "empty cells" not in said:  # before the search, not after it (the old code: queue.Empty, no line)
            said = lines.get(timeout=120)
        assert said.startswith("zerosum solve: line 2: 62 empty cells:") and "may take hours (Ctrl-C stops it)" in said
    finally:
        early.kill()
        early.wait()


def test_zerosum_play_on_8x8_says_who_chose_an_early_move_and_the_solver_moves_from_ply_24() -> None:
    import io

    from zerosum.ui.terminal import play

    game = get_game("connect4-8x8")
    keys = iter(["4", "q"])
    out = io.StringIO()
    assert play("connect4-8x8", read=lambda prompt: next(keys, None), out=out, color=False) == 0
    said = [line for line in out.getvalue().splitlines() if line.startswith("O (solver) plays")]
    assert said and "est. (the solver answers positions of 8 rows x 8 columns with at most 40 empty cells" in said[0]  # ply 1
    assert "alphabeta:time=" in said[0] and "exact" not in said[0]  # alpha-beta's estimate, never called exact
    late = late_positions("connect4-8x8", REACH, 1, 3)[0]  # ply 24, X (the human) to move
    keys = iter([str(game.actions(late)[0] + 1), "q"])  # any move: the solver's reply is what is looked at
    out = io.StringIO()
    play("connect4-8x8", moves=game.to_moves(late), read=lambda prompt: next(keys, None), out=out, color=False)
    said = [line for line in out.getvalue().splitlines() if line.startswith("O (solver) plays")]
    assert said and "(exact" in said[0] and "est." not in said[0], said  # ply 25: the solver's own move


def test_explain_refuses_an_early_wide_position_in_one_line_and_explains_a_late_one(capsys) -> None:
    from zerosum.cli import main

    assert main(["explain", "--agent", "solver", "--game", "connect4-8x8", "45"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "at most 40 empty cells (from ply 24)" in err and "this one has 62" in err
    game = get_game("connect4-8x8")
    state = late_positions("connect4-8x8", 12, 1, 4)[0]
    assert main(["explain", "--agent", "solver", "--game", "connect4-8x8", "--no-boards", game.to_moves(state)]) == 0
    out = capsys.readouterr().out
    expected = _truth("connect4-8x8", 8, 8, state)
    best = max(s for s in expected if s is not None)
    chosen = next(line for line in out.splitlines() if line.startswith("* "))
    assert int(chosen.split()[2].replace("+", "")) == best and " exact " in chosen  # the brute force's best score


def test_explain_holds_the_solver_to_max_time(capsys) -> None:
    from zerosum.cli import main

    # 7 x 6 without the book, one stone in: minutes to prove; --max-time 1 stops it in about a second
    assert main(["explain", "--agent", "solver:book=0", "--max-time", "1", "4"]) == 2
    assert "did not end within 1 s (max_time, --max-time)" in capsys.readouterr().err


def test_reaches_takes_only_a_position_of_its_game() -> None:
    from zerosum.errors import InvalidPositionError

    engine = service(get_game("connect4-8x8"))
    for bad in ("4455", None, 17):
        with pytest.raises(InvalidPositionError, match="is not a position of"):
            engine.reaches(bad)
    ttt = get_game("tictactoe")
    assert not service(ttt).reaches(ttt.initial_state)  # the solver does not take it at all


def test_the_untimed_solver_agent_plays_a_whole_8x8_game() -> None:
    import time

    from zerosum import play_game

    game = get_game("connect4-8x8")
    agent = make_agent("solver")  # no time: exact within its reach, alpha-beta in 1 s before (days of proof)
    started = time.perf_counter()
    found = agent.search(game, game.initial_state)
    assert found.action in game.actions(game.initial_state) and not found.exact
    assert "alphabeta:time=1.00 chose" in agent.last_fallback  # type: ignore[attr-defined,operator]
    assert time.perf_counter() - started < 600  # not the hours of a proof (a bound far from the 1 s expected)
    record = play_game("connect4-8x8", "solver", "random", seed=1)
    assert record.result == "1-0" and not record.forfeit  # the first player, the solver, wins
