"""``zerosum openings`` without a judge writes random openings, each a different position; when fewer exist
than asked, it writes them all and says so in one line (real processes, files in tmp_path)."""

import subprocess
import sys
from pathlib import Path

import zerosum
from course_sources import nim

NIM = nim((1, 2, 3))  # course_sources.py: AIMA's methods


def openings(tmp_path: Path, *args: str) -> tuple[list[str], str]:
    out = tmp_path / "openings.txt"
    done = subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", "openings", *args, "-o",
                           str(out), "--overwrite"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return [line for line in out.read_text().splitlines() if not line.startswith("#")], done.stderr


def test_fewer_positions_than_asked_are_all_written_once_and_said(tmp_path):
    lines, said = openings(tmp_path, "--game", "tictactoe", "--plies", "1")
    assert sorted(lines) == [str(c) for c in range(1, 10)]
    assert said.splitlines()[0] == ("only 9 distinct open positions 1 ply into tictactoe: writing all "
                                    "(--count 100 asked for more)")


def test_two_move_orders_to_one_position_are_one_opening(tmp_path):
    (tmp_path / "nim.py").write_text(NIM)
    lines, said = openings(tmp_path, "--game", "nim.py", "--plies", "2")
    game = zerosum.get_game(str(tmp_path / "nim.py"))
    states = [game.parse_position(line)[1] for line in lines]
    every = {game.result(game.result(game.initial_state, a), b) for a in game.actions(game.initial_state)
             for b in game.actions(game.result(game.initial_state, a))}
    every = {s for s in every if not game.is_terminal(s)}
    assert len(set(states)) == len(states) == len(every) < 100
    assert f"only {len(every)} distinct open positions 2 plies into" in said


def test_enough_positions_give_the_count_asked_all_different(tmp_path):
    lines, said = openings(tmp_path, "--game", "tictactoe", "--plies", "3", "--count", "50")
    game = zerosum.get_game("tictactoe")
    assert len(lines) == 50 and len({game.parse_position(line)[1] for line in lines}) == 50
    assert "only" not in said
