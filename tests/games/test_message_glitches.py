"""One-line messages said once and in the same words everywhere: a file of null bytes, a course game's
end, a missing bracket in a game's arguments, a homework player's answer at the start."""

import subprocess
import sys
from pathlib import Path

import pytest

import zerosum
from zerosum.agents.homework import BadAnswer
from zerosum.agents.registry import make_agent
from zerosum.errors import InvalidSpecError
from course_sources import nim

NIM = nim((1, 2))  # course_sources.py: AIMA's methods


def cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)


def test_a_file_of_null_bytes_names_no_line(tmp_path):
    (tmp_path / "bin.py").write_bytes(b"def player(board):\x00\n    return 0\n")
    done = cli(tmp_path, "match", "bin.py", "first")
    assert done.returncode == 2 and "line None" not in done.stderr
    assert done.stderr.strip() == ("zerosum match: error: bin.py: source code string cannot contain null bytes "
                                   "(the file does not parse)")


def test_the_end_of_a_course_game_is_said_once(tmp_path):
    (tmp_path / "nim.py").write_text(NIM)
    done = cli(tmp_path, "play", "--game", "nim.py:Nim((1,2))", "--first", "random", "--second", "random", "--seed", "1")
    last = done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0 and last.startswith(("Player 1 (random) wins. Moves: ", "Player 2 (random) wins. Moves: "))


@pytest.mark.parametrize("spec", ["nim.py:Nim(piles=", "nim.py:Nim(piles=(1,2)"])
def test_a_missing_bracket_is_said_the_same_in_python_and_on_the_command_line(tmp_path, spec, monkeypatch):
    (tmp_path / "nim.py").write_text(NIM)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidSpecError) as info:
        zerosum.get_game(spec)
    assert "a closing bracket is missing" in str(info.value)
    done = cli(tmp_path, "play", "--game", spec, "--first", "random", "--second", "random")
    assert done.returncode == 2 and done.stderr.strip() == f"zerosum play: error: {info.value}"


def test_a_homework_answer_at_the_start_and_a_full_column_are_worded_for_people(tmp_path):
    path = tmp_path / "hw.py"
    path.write_text("def player(board):\n    return None\n")
    game = zerosum.get_game("connect4-8x8")
    with pytest.raises(BadAnswer, match=r"^hw.py:player returned None \(NoneType\) at the start: expected"):
        make_agent(f"{path}:player")(game, game.initial_state)
    path.write_text("def player(board):\n    return 0\n")
    with pytest.raises(BadAnswer, match=r"in position '11111111': column 1 is full \(0-based 0\); expected"):
        make_agent(f"{path}:player")(game, game.from_moves("11111111"))
