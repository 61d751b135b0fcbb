"""`zerosum play` (#15): one hint format for every engine, distances in moves, undo messages, the continue
command, and boards drawn in place on a terminal (a scrolling log elsewhere).  Scripted keys, in-process."""

from __future__ import annotations

import io
import re
import shlex
import sys

import pytest
from process_helpers import zerosum_run

from zerosum import get_game
from zerosum.agents.registry import agent_class
from zerosum.cli import build_parser, main
from zerosum.core.files import benchmark_data
from zerosum.ui.analysis import Analysis
from zerosum.core.words import estimate_words, exact_words
from zerosum.ui.hints import format_hints
from zerosum.ui.terminal import play
from zerosum.ui.terminal_view import CLEAR
from zerosum.values import HEURISTIC_BOUND, loss_value, win_value

ESC = "\x1b["
EXACT = re.compile(r"^(win in \d+ moves?( \(the game ends on the opponent's move\))?|"
                   r"loss in \d+ moves?( \(the game ends on its own move\))?|draw)$")
ESTIMATE = re.compile(r"^(0|[+-]\d+(\.\d+)?) est\.$")
ROW = re.compile(r"^  +(\S+)  (.+?)(  <- best)?$", re.M)


def run(lines: list[str], out: io.StringIO | None = None, **kwargs) -> tuple[int, str]:
    feed = iter(lines)
    out = out or io.StringIO()
    code = play(read=lambda prompt: next(feed, None), out=out, **kwargs)
    return code, out.getvalue()


def hint_rows(text: str) -> list[tuple[str, str, bool]]:
    """The rows of the last hint in ``text``: (move, value, best)."""
    block = text.split("Hint from")[-1].split("  move  value\n", 1)[1]
    rows = []
    for line in block.splitlines():
        m = ROW.match(line)
        if not m:
            break
        rows.append((m.group(1), m.group(2), bool(m.group(3))))
    return rows


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


# ---- the words of values ------------------------------------------------------------------------

def test_exact_values_and_estimates_never_look_alike() -> None:
    exact = [exact_words(v) for v in (0, win_value(1), win_value(2), win_value(41), loss_value(2), loss_value(23))]
    guesses = [estimate_words(v) for v in (0, 0.35, -0.35, 12, -12, HEURISTIC_BOUND, -HEURISTIC_BOUND, 1e-9)]
    assert all(EXACT.match(w) for w in exact) and not any(ESTIMATE.match(w) for w in exact)
    assert all(ESTIMATE.match(w) for w in guesses) and not any(EXACT.match(w) for w in guesses)


def test_distances_count_the_side_to_moves_moves_not_plies() -> None:
    assert exact_words(win_value(1)) == "win in 1 move"  # its very next stone
    assert exact_words(win_value(3)) == "win in 2 moves"  # ply 1, opponent, ply 3: its 2nd move
    assert exact_words(loss_value(2)) == "loss in 1 move"  # the opponent's next move wins
    assert exact_words(loss_value(6)) == "loss in 3 moves"


# ---- hints: the solver (exact) and heuristic searches (estimates) ------------------------------------

PONS = benchmark_data("pons")


def test_solver_hint_rows_are_exact_distances_in_moves_agreeing_with_pons() -> None:
    pytest.importorskip("zerosum.solver.solver")
    path = PONS / "Test_L3_R1"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    game = get_game("connect4")
    checked = 0
    for line in path.read_text().splitlines()[:6]:
        moves, score = line.split()[0], int(line.split()[1])
        _, out = run(["h", "q"], moves=moves, first="human", second="human", solver_time=120)
        state = game.from_moves(moves)
        rows = hint_rows(out)
        assert [m for m, _, _ in rows] == [game.format_action(a) for a in game.actions(state)]  # the game's order
        assert all(EXACT.match(said) for _, said, _ in rows) and "est." not in out
        assert "(win in N moves:" in out or all(said == "draw" for _, said, _ in rows)
        best = [said for _, said, b in rows if b]
        assert len(best) == 1 and "(exact)" in out
        # Pons' score: a win with the winner's stone k scores 22 - k; the side to move has played ply // 2
        ply = len(moves)
        if score > 0:
            expected = 22 - score - ply // 2
            assert re.fullmatch(rf"win in {expected} moves?", best[0]), (moves, score, best)
        elif score < 0:
            expected = 22 + score - (ply + 1) // 2  # the opponent's stone k = 22 + score; it has played
            assert re.fullmatch(rf"loss in {expected} moves?", best[0]), (moves, score, best)
        else:
            assert best[0] == "draw"
        checked += 1
    assert checked == 6


@pytest.mark.parametrize("spec", ["migration:n=6", "othello:n=6"])
def test_a_heuristic_hint_shows_estimates_with_their_unit(spec) -> None:
    if agent_class("alphabeta") is None:
        pytest.skip("alphabeta is not installed")
    game = get_game(spec)
    _, out = run(["h", "q"], game_spec=spec, first="human", second="human", hint_time=0.3)
    rows = hint_rows(out)
    assert [m for m, _, _ in rows] == [game.format_action(a) for a in game.actions(game.initial_state)]
    assert all(ESTIMATE.match(said) for _, said, _ in rows)  # nothing proven at the start
    assert "Hint from alphabeta:time=0.3 (estimates): play" in out
    assert out.count("est.: alphabeta:time=0.3's heuristic estimate") == 1  # the unit, said once


def test_an_analysis_mixing_proofs_and_estimates_tells_each_apart() -> None:
    game = get_game("tictactoe")
    values = {0: float(win_value(1)), 4: 0.5, 8: 0.0}
    lines = format_hints(game, game.initial_state, Analysis("alphabeta:time=1", False, dict(values), dict(values), 0))
    rows = dict((m, said) for m, said, _ in hint_rows("Hint from" + "\n".join(p for p, _ in lines)))
    assert rows["1"] == "win in 1 move" and rows["5"] == "+0.50 est." and rows["9"] == "0 est."
    assert rows["2"] == "not yet proven"
    assert any("(win in N moves:" in p for p, _ in lines) and any("est.: alphabeta" in p for p, _ in lines)


# ---- the engine's move line ---------------------------------------------------------------------

def test_a_book_move_says_book_not_a_depth_and_counts_moves() -> None:
    pytest.importorskip("zerosum.solver.solver")
    _, out = run(["q"], first="solver", second="human")
    # the empty 7 x 6 board scores +1 (DESIGN): the first player wins with its 21st stone
    assert "X (solver) plays 4: win in 21 moves (exact, from the opening book)" in out
    assert "depth" not in out and "plies" not in out


@pytest.mark.parametrize("spec, words", [
    ("alphabeta:depth=3", r"(0|[+-][\d.]+) est\. \(alphabeta depth 3 estimate\), [\d,]+ nodes"),
    ("minimax:depth=2", r"(0|[+-][\d.]+) est\. \(minimax depth 2 estimate\), [\d,]+ nodes"),
    ("mcts:sims=200", r"(0|[+-][\d.]+) est\. \(mcts: mean result of 200 simulations, -1 loss \.\. \+1 win\)"),
    ("minimax", r"draw \(exact\), [\d,]+ nodes"),
])
def test_every_engines_move_line_says_exact_or_estimate(spec, words) -> None:
    if agent_class(spec.split(":")[0]) is None:
        pytest.skip(f"{spec} is not installed")
    _, out = run(["q"], game_spec="tictactoe", first="human", second=spec, moves="5", seed=1)
    assert re.search(rf"O \({re.escape(spec)}\) plays \d: {words}", out), out


# ---- undo ---------------------------------------------------------------------------------------

def test_undo_messages_say_what_was_taken_back() -> None:
    _, out = run(["u"], second="first")
    assert "Nothing to undo: no moves have been played yet." in out
    _, out = run(["4", "u", "s"], second="first")  # 'first' answers in column 1
    assert "Took back 2 plies: your move (4) and the engine's reply (1)." in out
    assert "Move string: (empty: the start position)" in out
    _, out = run(["4", "5", "u", "s"], second="human")
    assert "Took back O's move (5)." in out and "Move string: 4\n" in out
    _, out = run(["u", "s"], first="first", second="human")  # only the engine's opening move so far
    assert "Nothing to undo: only the engine's move has been played." in out and "Move string: 1\n" in out
    _, out = run(["u", "s"], first="human", second="first", moves="4")  # into the given moves
    assert "Took back 2 plies: your move (4) and the engine's reply (1)." in out and "(empty:" in out


# ---- the continue command -----------------------------------------------------------------------

def continue_args(out: str) -> list[str]:
    command = re.findall(r"Continue later with: (.+)", out)[-1]
    words = shlex.split(command)
    assert words[:2] == ["zerosum", "play"]
    return words[1:]


def test_the_continue_command_restores_players_moves_and_settings() -> None:
    if agent_class("mcts") is None:
        pytest.skip("mcts is not installed")
    argv = ["play", "--game", "tictactoe", "--first", "human", "--second", "mcts:sims=50", "--seed", "7",
            "--hint-time", "0.25", "--solver-time", "3", "--no-color", "--log"]
    done = zerosum_run(argv, stdin="5\na\ns\nq\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    args = build_parser().parse_args(continue_args(out))
    given = build_parser().parse_args(argv)
    moves = re.findall(r"Move string: (\S+)", out)[-1]
    assert len(moves) == 2 and moves[0] == "5"  # the person's move and the engine's reply
    assert get_game(args.game).spec == get_game(given.game).spec
    assert (args.first, args.second, args.seed, args.hint_time, args.solver_time) == (
        "human", "mcts:sims=50", 7, 0.25, 3.0)
    assert args.moves == moves and args.analysis and args.no_color and args.log  # a turned analysis on
    # and it runs: the same position, and the same command again
    again_done = zerosum_run(continue_args(out), stdin="s\nq\n")
    assert again_done.returncode == 0, again_done.stderr
    again = again_done.stdout
    assert f"Move string: {moves}\n" in again and continue_args(again) == continue_args(out)


def test_the_continue_command_quotes_what_a_shell_would_split() -> None:
    _, out = run(["1,0", "s"], game_spec="migration:n=6", second="first")
    saved = re.search(r"Move string: (\S+)", out).group(1)
    args = build_parser().parse_args(continue_args(out))
    assert ";" in saved and args.moves == saved and args.second == "first" and args.first == "human"
    assert not args.analysis and not args.log and args.seed is None


def test_quitting_prints_the_continue_command_too() -> None:
    _, out = run(["4", "q"], second="first")
    args = build_parser().parse_args(continue_args(out))
    assert args.moves == "41" and args.second == "first"


# ---- in place on a terminal, a log elsewhere -------------------------------------------------------

def test_a_terminal_gets_each_board_drawn_in_place() -> None:
    _, out = run(["4", "x", "u", "q"], out=Tty(), second="first", color=False)
    frames = out.split(CLEAR)[1:]
    assert len(frames) == 4  # the start, after 4, after the reply, after the undo
    assert all(f.startswith("Connect Four, 6 rows x 7 columns: X (you) against O (first).") for f in frames)
    assert "Moves: 41\n" in frames[2] and "O (first) plays 1" in frames[2]
    # after the undo: its message under the board, the stale error gone
    assert "Took back 2 plies" in frames[3] and "is not a column number" not in frames[3]


def test_a_pipe_or_log_gets_a_scrolling_log(monkeypatch, capsys) -> None:
    _, out = run(["4", "q"], out=Tty(), second="first", color=False, log=True)
    assert ESC not in out and out.count("1 2 3 4 5 6 7") == 3
    monkeypatch.setenv("TERM", "dumb")
    _, out = run(["4", "q"], out=Tty(), second="first", color=False)
    assert ESC not in out
    monkeypatch.setattr(sys, "stdin", io.StringIO("4\nq\n"))
    assert main(["play", "--second", "first"]) == 0  # captured standard output: not a terminal
    out = capsys.readouterr().out
    assert ESC not in out and out.count("1 2 3 4 5 6 7") == 3 and out.index("O (first) plays") < out.rindex("1 2 3")


def test_colour_on_a_terminal_redraws_with_rich() -> None:
    _, out = run(["4", "q"], out=Tty(), second="first", color=True)
    assert out.count("\x1b[2J") == 3 and "●" in out
