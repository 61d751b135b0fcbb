"""`zerosum play`: scripted games, the keys (hint, undo, save, quit), colour only on a terminal."""

from __future__ import annotations

import io
import re
import subprocess
import sys

import pytest

from zerosum import get_game
from zerosum.agents.base import plies_to_end
from zerosum.cli import main
from zerosum.core.files import benchmark_data
from zerosum import analysis
from zerosum.ui.analysis import Analysis
from zerosum.ui.terminal import play

ESC = "\x1b["
PONS = benchmark_data("pons")  # $ZEROSUM_BENCHMARKS, else ../shared/benchmarks beside the checkout


def run(lines: list[str], **kwargs) -> tuple[int, str]:
    feed = iter(lines)
    out = io.StringIO()
    code = play(read=lambda prompt: next(feed, None), out=out, **kwargs)
    return code, out.getvalue()


def pons_positions(name: str, count: int) -> list[tuple[str, int]]:
    path = PONS / name
    if not path.exists():
        pytest.skip(f"{path} is absent")
    rows = []
    for line in path.read_text().splitlines()[:count]:
        moves, score = line.split()
        rows.append((moves, int(score)))
    return rows


# ---- plain scripted play (works with the simple agents) -------------------------------------------

def test_bad_input_is_explained_and_the_game_goes_on() -> None:
    code, out = run(["", "x", "9", "0", "4!", "4", "4", "4", "4"], second="first")
    assert code == 0
    assert "'x' is not a column number" in out and "column 9 is outside 1..7" in out
    assert "column 0 is outside 1..7" in out and "'4!' is not a column number" in out
    assert "Player 1 (X) wins: 4 in a row, column 4, rows 1 to 4. You win!" in out
    assert "Moves: 4141414" in out
    assert ESC not in out  # not a terminal: no escape codes


def test_engine_moves_are_reported_and_engines_play_each_other() -> None:
    code, out = run([], game_spec="tictactoe", first="first", second="random:seed=3")
    assert code == 0
    assert "X (first) plays 1" in out and "O (random:seed=3) plays" in out
    assert "wins" in out or "Draw" in out


def test_undo_takes_back_a_full_move_against_an_engine() -> None:
    code, out = run(["4", "s", "u", "s", "u", "3", "s", "q"], second="first")
    assert code == 0
    saved = re.findall(r"Move string: (\S+)", out)
    assert saved == ["41", "(empty:", "31"]
    assert "Nothing to undo: no moves have been played yet." in out and "Game abandoned. Moves: 31" in out
    assert out.count("Took back 2 plies: your move (4) and the engine's reply (1).") == 1


def test_two_people_undo_one_move_at_a_time() -> None:
    code, out = run(["4", "5", "u", "s"], second="human")
    assert code == 0 and "Move string: 4\n" in out


def test_save_prints_a_move_string_that_replays() -> None:
    code, out = run(["1,0", "s"], game_spec="migration:n=6", second="first")
    saved = re.search(r"Move string: (\S+)", out).group(1)
    assert saved.startswith("1,0;") and f"--game migration:n=6 --first human --second first --moves '{saved}'" in out
    code, again = run(["s"], game_spec="migration:n=6", first="human", second="human", moves=saved)
    assert f"Move string: {saved}" in again


def test_end_of_input_ends_cleanly_and_the_winning_line_is_shown() -> None:
    code, out = run([], second="first", moves="121212")
    assert code == 0 and "End of input" in out
    code, out = run(["1"], second="human", moves="121212")
    assert "Player 1 (X) wins: 4 in a row, column 1, rows 1 to 4" in out
    code, out = run([], game_spec="tictactoe", first="human", second="human", moves="14253")
    assert "Player 1 (X) wins: three in a row, cells 1 2 3" in out


def test_describe_line_in_every_direction() -> None:
    game = get_game("connect4")
    cases = {  # random games that ended with a line, checked by eye against game.render
        "1122334": "row 1, columns 1 to 4",
        "4267446235676": "column 6, rows 1 to 4",
        "6314651725743461413675": "diagonal from column 3 row 1 to column 6 row 4",
        "274314756126673163665457233545451": "diagonal from column 1 row 4 to column 4 row 1",
    }
    for moves, words in cases.items():
        assert game.describe_win(game.from_moves(moves)) == f"4 in a row, {words}"


def test_colour_only_on_request_or_a_terminal(monkeypatch) -> None:
    code, out = run(["4", "q"], second="first", color=True)
    assert ESC in out and "●" in out
    code, out = run(["4", "q"], second="first", color=False)
    assert ESC not in out


def test_cli_no_color_and_scripted_stdin(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("4\ns\nq\n"))
    assert main(["play", "--second", "first", "--no-color"]) == 0
    out = capsys.readouterr().out
    assert ESC not in out and "Move string: 41" in out


def test_hint_uses_the_analysis_and_says_so() -> None:
    def fake(game, state, time, solver_time, report=None):  # every column scored, column 3 (index 2) best
        scores = {c: (2 if c == 2 else -1) for c in game.actions(state)}
        values = {c: analysis.service(game).score_value(state, s) for c, s in scores.items()}
        return Analysis("the solver", True, scores, values, 2, points={c: f"{s:+d}" for c, s in scores.items()})

    feed = iter(["h", "q"])
    out = io.StringIO()
    from zerosum.ui import terminal

    game = get_game("connect4")
    session = terminal.PlaySession(game, {1: None, 2: None}, lambda p: next(feed, None),
                                   terminal.Output(out, False), [], analyzer=fake)
    assert session.run() == 0
    text = out.getvalue()
    assert "Hint from the solver (exact): play 3, win in" in text
    rows = re.findall(r"^ +(\d)  (.+)$", text, re.M)  # one row per legal move, in column order
    assert [c for c, _ in rows] == [str(c) for c in range(1, 8)]
    assert all(("win in" if c == "3" else "loss in") in said for c, said in rows) and "<- best" in rows[2][1]


def test_hint_without_an_engine_says_why() -> None:
    from zerosum.ui import terminal

    game = get_game("tictactoe")
    feed = iter(["h", "q"])
    out = io.StringIO()
    session = terminal.PlaySession(game, {1: None, 2: None}, lambda p: next(feed, None), terminal.Output(out, False),
                                   [], analyzer=lambda *a, **k: Analysis("", note="no search agent is installed yet"))
    session.run()
    assert "No hint: no search agent is installed yet." in out.getvalue()


def test_console_script_end_to_end() -> None:
    code = subprocess.run([sys.executable, "-c", "import sys; from zerosum.cli import main; sys.exit(main())",
                           "play", "--second", "first"], input="x\n4\n4\n4\n4\n", capture_output=True, text=True,
                          timeout=60)
    # on a loaded machine the game can end before numba's background start has: the one line that says so
    said = [line for line in code.stderr.splitlines() if not line.startswith("zerosum: finishing starting numba")]
    assert code.returncode == 0 and said == [], code.stderr
    assert "X (you) to move: x\n" in code.stdout  # input echoed, so a transcript reads well
    assert "You win!" in code.stdout and ESC not in code.stdout


# ---- with the real engines (skip until they exist) ------------------------------------------------

def test_solver_value_words_follow_the_value_algebra() -> None:
    from zerosum.values import score_to_value

    game = get_game("connect4")
    for moves in ("", "4453", "44444", "445544332"):
        state = game.from_moves(moves)
        win_most = (game.cells + 2 - (state.ply + 1)) // 2  # winning with the very next stone
        loss_most = (game.cells + 2 - (state.ply + 2)) // 2  # losing to the stone after it
        for score in range(-loss_most, win_most + 1):
            assert analysis.service(game).score_value(state, score) == score_to_value(score, state.ply, game.cells)
        assert plies_to_end(analysis.service(game).score_value(state, win_most)) == 1
        assert plies_to_end(analysis.service(game).score_value(state, -loss_most)) == 2


def test_hint_from_the_solver_matches_pons_scores() -> None:
    pytest.importorskip("zerosum.solver.solver")
    game = get_game("connect4")
    for moves, score in pons_positions("Test_L3_R1", 3):
        state = game.from_moves(moves)
        found = analysis.service(game).analyse(state)
        assert found.engine == "the solver" and found.exact
        assert max(found.scores.values()) == score == found.scores[found.best]
        if score:
            moves = (plies_to_end(found.value) + 1) // 2  # distances in moves of the side concerned, not plies
            assert found.words(found.best) == ("win" if score > 0 else "loss") + f" in {moves} move" + "s" * (moves > 1)
        else:
            assert found.words(found.best) == "draw"


def test_solver_wins_a_won_position_against_a_script() -> None:
    pytest.importorskip("zerosum.solver.solver")
    # a position where the side to move (the person) is lost: the solver must win whatever is typed
    moves, score = next((m, s) for m, s in pons_positions("Test_L3_R1", 200) if s < 0)
    person = 1 if len(moves) % 2 == 0 else 2
    seats = {"first": "human", "second": "solver"} if person == 1 else {"first": "solver", "second": "human"}
    code, out = run([str(c) for c in range(1, 8)] * 6, moves=moves, solver_time=300, **seats)
    assert code == 0
    assert "solver wins." in out and re.search(r"plays \d: win in \d+ moves? \(exact", out)


def test_alphabeta_hint_on_tictactoe_scores_every_cell() -> None:
    pytest.importorskip("zerosum.agents.alphabeta")
    # X took 1 and 2, O took 4 and 5: X wins at once at 3; 6 blocks O and holds; 7, 8, 9 lose to O at 6
    code, out = run(["h", "q"], game_spec="tictactoe", first="human", second="human", moves="1425", hint_time=0.5)
    assert "play 3, win in 1 move;" in out
    assert re.search(r"^\s+6\s+(0 est\.|draw)$", out, re.M)
    for cell in "789":  # O wins with its next move: a loss in 1 move
        assert re.search(rf"^\s+{cell}\s+loss in 1 move$", out, re.M)


def test_rich_board_highlights_the_last_move_and_the_line() -> None:
    from zerosum.ui.terminal import STYLE, render_rich

    game = get_game("connect4")
    state = game.from_moves("1212121")  # X: four in column 1
    text = render_rich(game, state, last=0)
    won = [span for span in text.spans if STYLE["win"] in str(span.style)]
    assert len(won) == 4 and all(text.plain[s.start:s.end].strip() == "●" for s in won)
    state = game.from_moves("4453")
    text = render_rich(game, state, last=2)
    last = [span for span in text.spans if STYLE["last"] in str(span.style)]
    assert len(last) == 1  # the stone just played: column 3, bottom row
    bottom_start = text.plain.rindex("\n") + 1
    assert (last[0].start - bottom_start) // 3 == 2
    header = text.plain.splitlines()[0]
    assert header.split() == [str(c) for c in range(1, 8)]


def test_a_slow_solver_move_is_a_proven_move_never_alphabeta(monkeypatch) -> None:
    pytest.importorskip("zerosum.solver.solver")
    from zerosum.solver.agent import SolverAgent

    monkeypatch.setattr(SolverAgent, "_alphabeta", lambda self, seconds: pytest.fail("alpha-beta moved"))
    # ply 10: the win/draw/loss comes first, whatever the time; the distance only if there is time for it
    code, out = run(["q"], moves="4444433321", first="solver", second="human", solver_time=0.001)
    assert code == 0
    assert "X (solver) plays" in out and "alphabeta" not in out
    assert re.search(r"X \(solver\) plays \d: ((win|loss) \(distance not yet proven\)|win in|loss in|draw)", out)
    assert "a proven" not in out  # one wording for a move proven only in win/draw/loss (core.words)
    assert "\r" not in out and ESC not in out  # not a terminal: the final result only


def test_a_hint_in_a_pipe_prints_only_the_final_result() -> None:
    pytest.importorskip("zerosum.solver.solver")
    code, out = run(["h", "q"], moves="4444433321", first="human", second="human", solver_time=60)
    assert code == 0 and "\r" not in out and ESC not in out
    assert "Hint from the solver (exact): play" in out and "analysing" not in out
    assert "not yet proven" not in out.split("Hint")[1]


def test_a_textbook_search_s_exact_utility_is_said_exact_once(tmp_path) -> None:
    """minimax:discount=0 and alphabeta:plain=1 keep a course game's utility as it is (3 for a win): the move
    line says '+3 (exact)', not '+3 (exact) (exact)'."""
    (tmp_path / "take.py").write_text(
        "class Take:\n"
        "    initial = 4\n"
        "    def actions(self, s): return [n for n in (1, 2) if n <= s]\n"
        "    def result(self, s, n): return s - n\n"
        "    def is_terminal(self, s): return s == 0\n"
        "    def utility(self, s, player): return -3 if player == self.to_move(s) else 3\n"
        "    def to_move(self, s): return 'A' if s % 2 == 0 else 'B'\n")
    code, out = run([], game_spec=f"{tmp_path / 'take.py'}:Take", first="minimax:discount=0",
                    second="alphabeta:plain=1")
    assert code == 0 and "(exact) (exact)" not in out, out
    assert re.search(r"^A \(minimax:discount=0\) plays 1: \+3 \(exact\), \d+ nodes", out, re.M), out


def test_an_undiscounted_proof_of_a_loss_is_not_said_lost_while_the_game_goes_on() -> None:
    """alphabeta:plain=1 proves a loss without counting its distance (its value is the full -WIN): the move line
    said 'lost (exact)', the words of a game over, and then the game went on (audit)."""
    code, out = run(["q"], game_spec="connect4-8x8", moves="45445521415842511222446161665561127", first="human",
                    second="alphabeta:plain=1,nodes=10000")
    line = next(x for x in out.splitlines() if x.startswith("O (alphabeta:plain=1,nodes=10000) plays"))
    assert ": loss (distance not counted: no depth discount) (exact)," in line and "lost" not in line, line
