"""An agent file whose function raises, or takes the wrong parameters: one line and exit status 2 in
``zerosum play``, a refusal at load in the arena, never a traceback (real processes, files in tmp_path)."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import zerosum
from zerosum.agents.registry import make_agent
from zerosum.errors import AgentError


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def zerosum_cli(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", *args], cwd=cwd, input=stdin, text=True,
                          capture_output=True, timeout=180)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize("first,second,stdin,where", [
    ("raises.py", "random", "", "at the start"),
    ("human", "raises.py", "4\n", "in position '4'"),
])
def test_play_names_a_board_player_that_raises_in_one_line(tmp_path, first, second, stdin, where):
    write(tmp_path, "raises.py", "def player(board):\n    raise ValueError('oops')\n")
    line = one_line(zerosum_cli("play", "--game", "connect4-8x8", "--first", first, "--second", second,
                                cwd=tmp_path, stdin=stdin))
    assert line == f"zerosum play: error: raises.py:player failed {where}: ValueError: oops"


@pytest.mark.parametrize("call, said", [("sys.exit(0)", "SystemExit: 0"), ("sys.exit('bye')", "SystemExit: bye")])
def test_play_names_a_board_player_that_calls_sys_exit_in_one_line(tmp_path, call, said):
    """It ended zerosum play quietly with status 0, or printed only 'bye' (audit)."""
    write(tmp_path, "quits.py", f"import sys\ndef player(board):\n    {call}\n")
    done = zerosum_cli("play", "--game", "connect4-8x8", "--first", "quits.py", "--second", "first", cwd=tmp_path)
    assert one_line(done) == f"zerosum play: error: quits.py:player failed at the start: {said}"


def test_play_names_a_two_argument_function_that_raises_in_one_line(tmp_path):
    write(tmp_path, "raise2.py", "def agent(game, state):\n    raise RuntimeError('two-arg boom')\n")
    line = one_line(zerosum_cli("play", "--first", "raise2.py:agent", "--second", "random", cwd=tmp_path))
    assert line == "zerosum play: error: raise2.py:agent failed at the start: RuntimeError: two-arg boom"


@pytest.mark.parametrize("text,takes", [
    ("def player():\n    return 0\n", "takes no parameters"),
    ("def minMax(board, depth, maximizing):\n    return 0\n", "takes (board, depth, maximizing)"),
    ("def agent(game, state, *, k):\n    return 0\n", "takes (game, state, k)"),
])
def test_a_function_that_takes_neither_one_nor_two_arguments_is_refused_at_load(tmp_path, text, takes):
    path = write(tmp_path, "hw.py", text)
    name = text.split("(")[0].split()[-1]
    with pytest.raises(AgentError) as info:
        make_agent(f"{path}:{name}")
    assert str(info.value) == (f"hw.py:{name} {takes}: expected player(board), which returns a column, or "
                               "f(game, state), which returns an action")


def test_the_arena_refuses_a_three_parameter_function_before_any_game(tmp_path):
    write(tmp_path, "hw.py", "def player(board):\n    return 0\ndef minMax(board, depth, maximizing):\n    return 0\n")
    done = zerosum_cli("match", "hw.py:minMax", "random", "--game", "connect4-8x8", "--games", "2",
                       "-o", str(tmp_path / "out.db"), cwd=tmp_path)
    assert one_line(done) == ("zerosum match: error: hw.py:minMax takes (board, depth, maximizing): expected "
                              "player(board), which returns a column, or f(game, state), which returns an action")
    assert not (tmp_path / "out.db").exists()


@pytest.mark.parametrize("text", [
    "def player(board, depth=3):\n    return 0\n",
    "def player(*args):\n    return 0\n",
    "def player(game, state, extra=None):\n    return game.actions(state)[0]\n",
    "def player(game, *rest):\n    return game.actions(rest[0])[0]\n",
])
def test_defaults_and_star_args_callable_with_one_or_two_arguments_are_accepted(tmp_path, text):
    path = write(tmp_path, "hw.py", text)
    agent = make_agent(f"{path}:player")
    game = zerosum.get_game("connect4-8x8")
    assert agent(game, game.initial_state) == 0


def test_a_python_function_of_no_arguments_is_refused():
    with pytest.raises(AgentError, match=r"^<lambda> takes no parameters: expected player\(board\)"):
        make_agent(lambda: 0)


def test_an_evaluation_from_one_fixed_side_is_one_whole_line_in_the_arena(tmp_path):
    """A value that ignores player (the plies played, the same for both); a constant is left alone (below)."""
    write(tmp_path, "evals.py", "def fixed(game, state, player):\n    return 1 + len(game.moves_played(state))\n"
          "def constant(game, state, player):\n    return 1\n")
    done = zerosum_cli("match", "alphabeta:depth=2,eval=evals.py:fixed", "random", "--games", "2",
                       "-o", str(tmp_path / "ev.db"), cwd=tmp_path)
    line = one_line(done)
    assert "characters)" not in line  # nothing cut out of it
    assert ("evaluation evals.py:fixed gives 1 for player 1 and for player 2 at the start position: it scores from "
            "one fixed side, but is called with the side to move; declare its side with @evaluation(view=\"second\") "
            "(player 2, O) or view=\"first\" (player 1, X), or @evaluation(view=\"mover\") if it reads the "
            "side to move from the state (from zerosum.agents.heuristics import evaluation)") in line
    done = zerosum_cli("match", "alphabeta:depth=2,eval=evals.py:constant", "random", "--games", "2",
                       "-o", str(tmp_path / "constant.db"), cwd=tmp_path)
    assert done.returncode == 0 and "evaluation" not in done.stderr, done.stderr  # no side's score: not refused


def test_an_evaluation_from_one_fixed_side_names_the_game_s_own_players(tmp_path):
    """On a course game of MAX and MIN it said 'player 2, O' (audit)."""
    write(tmp_path, "take.py", "class Take:\n    initial = 9\n"
          "    def actions(self, s): return [n for n in (1, 2) if n <= s]\n"
          "    def result(self, s, n): return s - n\n    def is_terminal(self, s): return s == 0\n"
          "    def utility(self, s, p): return -1 if p == self.to_move(s) else 1\n"
          "    def to_move(self, s): return 'MAX' if s % 2 else 'MIN'\n")
    write(tmp_path, "evals.py", "def fixed(game, state, player):\n    return state.value\n")  # the stones left
    done = zerosum_cli("match", "alphabeta:depth=2,eval=evals.py:fixed", "random", "--game", "take.py:Take",
                       "--games", "2", "-o", str(tmp_path / "ev.db"), cwd=tmp_path)
    line = one_line(done)
    assert "(player 2, MIN) or view=\"first\" (player 1, MAX)" in line and ", O" not in line, line
