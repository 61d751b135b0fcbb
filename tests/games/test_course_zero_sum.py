"""A course game's ``utility`` must speak for both players: at a finished state the two players' utilities sum
to 0.  zerosum reads the first player's alone, so a ``utility(state, player)`` that ignores ``player`` credited
every game to one side (an audit: alpha-beta "lost in 1 move" after taking the last stick, ``endings: B wins
10``).  Now it is one GameBug line naming the state, both players and both values, from Python and from the
command line alike; every documented form of a utility still plays."""

import re
from collections import Counter

import pytest
from course_sources import Nim, nim  # tests/course_sources.py: course games as a student writes them
from process_helpers import zerosum_run  # tests/process_helpers.py: zerosum, its output captured

import zerosum
from zerosum.games.course_bugs import ZERO_SUM_CHECKS, GameBug

SOURCE = nim((1, 2, 3)) + '''

class MoverLost(Nim):
    def utility(self, state, player):
        return -1          # "the player to move at the end has lost": player ignored


class FixedSide(Nim):
    def utility(self, state, player):
        return -1 if state[1] == 1 else 1    # always the first player's view: player ignored


class Guess:
    """A says 0 or 1, then B does: the same is a draw; A wins with 1 against 0, B with 1 against 0."""
    def __init__(self):
        self.initial = ()
    def actions(self, state):
        return [0, 1]
    def result(self, state, n):
        return state + (n,)
    def terminal_test(self, state):
        return len(state) == 2
    def winner(self, state):
        return None if state[0] == state[1] else "A" if state[0] else "B"
    def utility(self, state, player):
        won = self.winner(state)
        return 0 if won is None else 1 if won == player else -1
    def to_move(self, state):
        return "A" if len(state) % 2 == 0 else "B"


class WinLossHalf(Guess):
    def utility(self, state, player):      # a constant sum, as some texts score chess: 1, 0, 1/2 each
        won = self.winner(state)
        return 0.5 if won is None else 1 if won == player else 0
'''

FORMS = {  # documented utilities (docs/games.md, "Your own game"): each still plays
    "ints": "return 0 if won is None else 1 if won == player else -1",
    "scaled": "return 0 if won is None else 3 if won == player else -3",
    "floats rounded": "return 0.0 if won is None else (0.1 + 0.2 if won == player else -0.3)",
    "infinities": "import math\n        return 0 if won is None else math.inf if won == player else -math.inf",
    "fractions": "from fractions import Fraction\n        return Fraction(0) if won is None else "
                 "Fraction(1, 3) if won == player else Fraction(-1, 3)",
    "numpy": "import numpy as np\n        return np.float64(0 if won is None else 1 if won == player else -1)",
}


def classes() -> dict:
    found: dict = {}
    exec(compile(SOURCE, "zero_sum_games.py", "exec"), found)
    return found


def form(body: str) -> object:
    text = ("class Form(Guess):\n    def utility(self, state, player):\n        won = self.winner(state)\n"
            f"        {body}\n")
    found = classes()
    exec(text, found)
    return found["Form"]()


IGNORES = re.compile(r"^(MoverLost|FixedSide): utility is not zero-sum at state \(\(0, 0, 0\), [12]\): "
                     r"utility\(state, 1\) and utility\(state, 2\) both returned -?1 \(they must sum to 0\): "
                     r"utility may ignore its player argument \(a draw is 0 for both\)$")


@pytest.mark.parametrize("name", ["MoverLost", "FixedSide"])
def test_a_utility_that_ignores_player_is_one_line_from_python(name):
    game = classes()[name]()
    with pytest.raises(GameBug) as info:
        zerosum.play_game(game, "alphabeta", "random", seed=1)
    assert IGNORES.match(str(info.value)), str(info.value)
    wrapped = zerosum.get_game(classes()[name]())  # the probe plays one move: nothing ends there
    with pytest.raises(GameBug, match=IGNORES):
        zerosum.make_agent("minimax").search(wrapped, wrapped.initial_state)
    with pytest.raises(GameBug, match=IGNORES):
        zerosum.match("alphabeta", "random", game=classes()[name](), games=2)
    with pytest.raises(GameBug, match=IGNORES):
        zerosum.play_game(classes()[name](), "random", "random", seed=3)  # no search: the end of play itself


def test_a_win_loss_and_half_utility_is_refused_with_what_zero_sum_means():
    with pytest.raises(GameBug) as info:
        zerosum.play_game(classes()["WinLossHalf"](), "first", "first")  # 0 then 0: a draw, 1/2 each
    assert str(info.value) == ("WinLossHalf: utility is not zero-sum at state (0, 0): utility(state, 'A') and "
                               "utility(state, 'B') both returned 0.5 (they must sum to 0): utility may ignore its "
                               "player argument (a draw is 0 for both)")
    with pytest.raises(GameBug) as info:
        zerosum.make_agent("alphabeta:plain=1").search(classes()["WinLossHalf"](), ())
    assert str(info.value) == ("WinLossHalf: utility is not zero-sum at state (0, 0): utility(state, 'A') and "
                               "utility(state, 'B') both returned 0.5 (they must sum to 0): utility may ignore its "
                               "player argument (a draw is 0 for both)")
    game = zerosum.get_game(classes()["WinLossHalf"]())
    with pytest.raises(GameBug) as info:
        game.outcome(game.wrap((1, 0)))  # A won: 1 for A, 0 for B
    assert str(info.value) == ("WinLossHalf: utility is not zero-sum at state (1, 0): utility(state, 'A') returned "
                               "1 and utility(state, 'B') returned 0 (they must sum to 0): a loss must score the "
                               "opposite of a win, a draw 0 for both")


@pytest.mark.parametrize("name", sorted(FORMS))
def test_every_documented_utility_still_plays(name):
    game = zerosum.get_game(form(FORMS[name]))
    for state, winner in (((1, 0), 1), ((0, 1), 2), ((1, 1), None), ((0, 0), None)):
        assert game.winner(game.wrap(state)) == winner
    assert zerosum.make_agent("alphabeta").search(game, game.initial_state).value == 0  # A's 1 meets B's 1
    for seed in range(4):
        zerosum.play_game(game, "random", "random", seed=seed)
    if name != "infinities":  # the textbook agents need a finite number (docs/games.md)
        assert zerosum.make_agent("minimax:discount=0").search(game, game.initial_state).value == 0


def test_a_good_game_plays_to_its_end_from_python_and_the_command_line(tmp_path):
    game = zerosum.get_game(classes()["Nim"]())
    record = zerosum.play_game(game, "alphabeta", "random", seed=1)
    end = game.states_of([move.action for move in record.moves])[-1]
    assert game.is_terminal(end) and record.winner == end.value[1]  # this Nim's last mover wins
    (tmp_path / "nims.py").write_text(SOURCE)
    done = zerosum_run(["match", "alphabeta", "random", "--game", f"{tmp_path}/nims.py:Nim", "--games", "2",
                        "-o", str(tmp_path / "good.db")])
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", ["MoverLost", "FixedSide"])
def test_the_command_line_says_the_same_one_line(tmp_path, name):
    (tmp_path / "nims.py").write_text(SOURCE)
    spec = f"{tmp_path}/nims.py:{name}"
    done = zerosum_run(["match", "alphabeta", "random", "--game", spec, "--games", "4", "-o", str(tmp_path / "m.db")])
    assert done.returncode == 2 and "Traceback" not in done.stderr and "wins" not in done.stdout, done.stderr
    line, = done.stderr.strip().splitlines()
    assert line.startswith("zerosum match: error: ") and IGNORES.match(line[len("zerosum match: error: "):]), line
    done = zerosum_run(["play", "--game", spec, "--first", "alphabeta", "--second", "random", "--seed", "1"])
    assert done.returncode == 2 and "wins" not in done.stdout, done.stdout + done.stderr
    line, = done.stderr.strip().splitlines()
    assert line.startswith("zerosum play: error: ") and IGNORES.match(line[len("zerosum play: error: "):]), line


def test_the_second_utility_is_asked_at_the_first_finished_states_only():
    """What the check costs: one more call of utility at each of the first ZERO_SUM_CHECKS finished states a game
    object scores (a whole-tree minimax of Tic-Tac-Toe scores 255,168), none after; none for easyAI's score."""
    calls: Counter = Counter()

    class Counted(Nim):  # 19,924 ways to the end
        def utility(self, state, player):
            calls[player] += 1
            return super().utility(state, player)

    game = zerosum.get_game(Counted((1, 2, 3, 3)))
    zerosum.make_agent("minimax").search(game, game.initial_state)
    assert calls["MAX"] == 19_924 and calls["MIN"] == ZERO_SUM_CHECKS == 10_000 and game.zero_sum_left == 0
    zerosum.play_game(game, "random", "random", seed=1)
    assert calls["MIN"] == ZERO_SUM_CHECKS  # spent: no more
