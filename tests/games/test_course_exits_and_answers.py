"""A game's method that calls ``sys.exit()`` or raises what is no Exception (GeneratorExit, a bare
BaseException), a ``utility`` that is no number or too large for a float (an infinity counts by its sign, except
for the textbook agents, which score with it), and a
terminal test that answers neither yes nor no (a numpy array, a list or a string) are the game's bug: one ``GameBug`` line naming
the method and what it did, in ``play``, ``match`` and ``explain`` alike and from Python, never a silent exit,
a traceback or a player's forfeit (audit: ``zerosum play`` ended with status 0 and no line, ``match``
forfeited the innocent agent).  Ctrl-C (KeyboardInterrupt) in a method still stops everything."""

import subprocess
import sys
from pathlib import Path

import pytest

import zerosum
from zerosum.agents.registry import make_agent
from zerosum.errors import GameError
from zerosum.games.course_rules import GameBug

TAKE = """\
import sys
class TakeAway:
    def __init__(self, sticks=5):
        self.initial = (sticks, "A")
    def actions(self, state):
        {actions}
    def result(self, state, n):
        {result}
    def terminal_test(self, state):
        {terminal}
    def utility(self, state, player):
        {utility}
    def to_move(self, state):
        return state[1]
    def display(self, state):
        {display}
"""
GOOD = {"actions": "return [n for n in (1, 2) if n <= state[0]]",
        "result": "return (state[0] - n, 'B' if state[1] == 'A' else 'A')",
        "terminal": "return state[0] == 0", "utility": "return -1 if state[1] == player else +1",
        "display": "print('|' * state[0], f'({state[1]} to move)')"}

#: name: (the method bodies that differ, the words of its line)
BUGS = {
    "actions_exit": ({"actions": "sys.exit(0)"}, "TakeAway.actions(initial state) called sys.exit(0)"),
    "actions_generator_exit": ({"actions": "raise GeneratorExit"}, "TakeAway.actions(initial state) raised GeneratorExit"),
    "display_exit": ({"display": "sys.exit(4)"}, "TakeAway.display(initial state) called sys.exit(4)"),
    "utility_exit": ({"utility": "raise SystemExit(0)"},
                     "TakeAway.utility(state, player) called sys.exit(0) at state (0, "),
    "result_base": ({"result": "if state[0] < 4: raise BaseException('rb')\n"
                               "        return (state[0] - n, 'B' if state[1] == 'A' else 'A')"},
                    "TakeAway.result(state, action) raised BaseException: rb at state"),
    "utility_huge": ({"utility": "return 10**400 if state[1] != player else -10**400"},
                     "(int, too large for a float) at the end (state (0, "),
    "terminal_array": ({"terminal": "import numpy as np; return np.array([state[0] == 0, True])"},
                       "TakeAway: terminal_test(state) returned array([False, True]) (ndarray) at state (5, 'A'): "
                       "it must return True when the game is over, else False"),
    # true whenever not empty: every game ended at move 0, credited to player 2 (an audit's common slip)
    "terminal_list": ({"terminal": "return [state[0] == 0]"},
                      "TakeAway: terminal_test(state) returned [False] (list) at state (5, 'A'): it must return True "
                      "when the game is over, else False (a list is true whenever it is not empty)"),
    "terminal_str": ({"terminal": "return 'yes' if state[0] == 0 else 'no'"},
                     "TakeAway: terminal_test(state) returned 'no' (str) at state (5, 'A'): it must return True "
                     "when the game is over, else False (a str is true whenever it is not empty)"),
}
AT_PROBE = {"actions_exit", "actions_generator_exit", "display_exit", "terminal_array", "terminal_list", "terminal_str"}


def game_file(folder: Path, name: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(TAKE.format(**dict(GOOD, **BUGS[name][0])))
    return path


def cli(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", *args], cwd=folder,
                          capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("name", sorted(BUGS))
def test_from_python_the_game_s_bug_is_one_game_error_line(tmp_path, name):
    spec = str(game_file(tmp_path, name)) + ":TakeAway"
    if name in AT_PROBE:  # refused when the game is made
        with pytest.raises(GameError) as info:
            zerosum.get_game(spec)
    else:
        game = zerosum.get_game(spec)
        with pytest.raises(GameBug) as info:
            zerosum.play_game(game, "random", "alphabeta:plain=1", seed=1)
        with pytest.raises(GameBug) as again:
            make_agent("alphabeta:plain=1").search(game, game.initial_state)
        assert BUGS[name][1] in str(again.value)
    assert BUGS[name][1] in str(info.value) and "\n" not in str(info.value)


COMMANDS = [
    ("play", "--first", "alphabeta:plain=1", "--second", "random", "--log"),
    ("play", "--first", "random", "--second", "random", "--log", "--seed", "3"),
    ("match", "alphabeta:plain=1", "random", "--games", "2", "--opening-plies", "0", "-o", "out.db"),
    ("match", "random", "first", "--games", "2", "--opening-plies", "0", "-o", "out.db"),
    ("explain", "--agent", "alphabeta:plain=1"),
]


@pytest.mark.parametrize("name, command", [  # CI: each bug through one command, each command for some bug;
    pytest.param(name, command, marks=() if c == b % len(COMMANDS) else pytest.mark.slow)  # slow: all of them
    for b, name in enumerate(sorted(BUGS)) for c, command in enumerate(COMMANDS)])
def test_every_command_says_the_game_s_bug_in_one_line_and_nobody_forfeits(tmp_path, name, command):
    path = game_file(tmp_path, name)
    done = cli(tmp_path, command[0], "--game", f"{path.name}:TakeAway", *command[1:])
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr and "Forfeits" not in done.stdout and "error" not in done.stdout
    line, = done.stderr.strip().splitlines()
    assert line.startswith(f"zerosum {command[0]}: error: ") and BUGS[name][1] in line, line


def test_ctrl_c_in_a_game_s_method_still_stops_everything(tmp_path):
    path = tmp_path / "ctrl_c.py"
    path.write_text(TAKE.format(**dict(GOOD, utility="raise KeyboardInterrupt")))
    game = zerosum.get_game(f"{path}:TakeAway")
    with pytest.raises(KeyboardInterrupt):
        zerosum.play_game(game, "random", "random", seed=1)
    with pytest.raises(KeyboardInterrupt):
        make_agent("alphabeta:plain=1").search(game, game.initial_state)


def test_a_finite_utility_of_any_real_kind_still_scores_by_its_sign(tmp_path):
    from fractions import Fraction

    path = tmp_path / "kinds.py"
    path.write_text(TAKE.format(**dict(GOOD, utility="import numpy as np; from fractions import Fraction\n"
                                       "        return Fraction(-1, 3) if state[1] == player else np.int64(1) / 3")))
    game = zerosum.get_game(f"{path}:TakeAway")
    record = zerosum.play_game(game, "alphabeta:plain=1", "random", seed=1)
    assert record.winner in (1, 2)
    end = game.initial_state
    for move in record.moves:
        end = game.result(end, move.action)
    assert game.payoff(end, 3 - record.winner) == Fraction(-1, 3)


def test_an_infinite_utility_counts_by_its_sign_and_only_the_textbook_agents_refuse_it(tmp_path):
    """AIMA-style games that score a win ``math.inf`` play as they did before the GameBug checks (an audit found
    them refused outright); the textbook agents, which score a finished game with the utility, say why in one line."""
    path = tmp_path / "inf_game.py"
    path.write_text(TAKE.format(**dict(GOOD, utility="return float('inf') if state[1] != player else float('-inf')")))
    game = zerosum.get_game(f"{path}:TakeAway")
    assert zerosum.play_game(game, "first", "first").winner in (1, 2)  # 1, 1, 1, 1, 1: the fifth stick's taker
    done = cli(tmp_path, "match", "alphabeta", "random", "--game", "inf_game.py:TakeAway", "--games", "2",
               "--opening-plies", "0", "-o", "out.db")
    assert done.returncode == 0 and "Forfeits" not in done.stdout, done.stderr[-2000:]
    with pytest.raises(GameBug, match="textbook agents .* score a finished game with it: return a finite number"):
        zerosum.play_game(game, "alphabeta:plain=1", "random", seed=1)
    done = cli(tmp_path, "play", "--game", "inf_game.py:TakeAway", "--first", "minimax:discount=0", "--second",
               "random", "--log")
    line, = done.stderr.strip().splitlines()
    assert done.returncode == 2 and "textbook agents" in line and "Traceback" not in done.stderr, done.stderr
