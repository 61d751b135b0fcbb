"""The audit of the course adapter (zerosum.games.course): player labels that collide with zerosum's numbers, a
``result`` that mutates its state late in a search, the cost of ``result`` on wide positions, a ``display``
that raises, a class's own fixed-side ``evaluate`` and the probe's names for the methods it calls.

Truth is independent of the adapter: Nim's value by a brute force over heaps (and Bouton's XOR rule), and
Tic-Tac-Toe's by a brute force over boards."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import pytest

import zerosum
from zerosum.errors import AgentError, IllegalMoveError, InvalidSpecError
from zerosum.games.course_rules import GameBug

# ---- independent truth ----------------------------------------------------------------------------------------


@functools.cache
def nim_wins(heaps: tuple[int, ...]) -> bool:
    """True when the player to move wins normal-play Nim from ``heaps`` (brute force over every move)."""
    return any(not nim_wins(tuple(sorted(heaps[:i] + (h - n,) + heaps[i + 1:])))
               for i, h in enumerate(heaps) for n in range(1, h + 1))


def after(heaps: tuple[int, ...], action: tuple[int, int]) -> tuple[int, ...]:
    i, n = action
    return tuple(sorted(heaps[:i] + (heaps[i] - n,) + heaps[i + 1:]))


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


@functools.cache
def ttt_value(board: tuple[int, ...], mover: int) -> int:
    """Tic-Tac-Toe's value for ``mover`` (+1 / 0 / -1), by brute force."""
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return 1 if board[a] == mover else -1
    if all(board):
        return 0
    return max(-ttt_value(board[:i] + (mover,) + board[i + 1:], 3 - mover) for i in range(9) if not board[i])


# ---- 1. player labels ------------------------------------------------------------------------------------------


def labelled_nim(first: object, second: object) -> type:
    class Nim:
        def __init__(self, heaps=(1, 2, 3)):
            self.heaps = tuple(heaps)

        def initial_state(self):
            return (self.heaps, first)

        def to_move(self, s):
            return s[1]

        def actions(self, s):
            return [(i, n) for i, h in enumerate(s[0]) for n in range(1, h + 1)]

        def result(self, s, a):
            h = list(s[0])
            h[a[0]] -= a[1]
            return (tuple(h), second if s[1] == first else first)

        def terminal_test(self, s):
            return not any(s[0])

        def utility(self, s, p):  # the player to move at the end took no stone last: lost
            return -1 if s[1] == p else 1

    return Nim


LABELS = [(1, 2), ("X", "O"), (0, 1), (2, 1), (1, 0), (True, False)]
POSITIONS = [(2, 3), (1, 2, 3), (1, 3, 4), (2, 2)]


def test_the_brute_force_agrees_with_bouton() -> None:
    for heaps in [(a, b, c) for a in range(4) for b in range(4) for c in range(5)]:
        x = heaps[0] ^ heaps[1] ^ heaps[2]
        assert nim_wins(tuple(sorted(heaps))) == (x != 0)


@pytest.mark.parametrize("labels", LABELS, ids=repr)
@pytest.mark.parametrize("agent", ["minimax", "alphabeta", "alphabeta:plain=1", "mcts:sims=3000"])
def test_every_search_finds_nim_s_true_value_whatever_the_labels(labels, agent) -> None:
    Nim = labelled_nim(*labels)
    for heaps in POSITIONS:
        game = Nim(heaps)
        found = zerosum.make_agent(agent, seed=1).search(game, None)
        wins = nim_wins(tuple(sorted(heaps)))
        if wins:  # the move played is a winning one: the opponent is left lost
            assert not nim_wins(after(heaps, found.action)), (labels, heaps, found)
        assert (found.value > 0) == wins and found.value != 0, (labels, heaps, found)  # mcts: proven here


@pytest.mark.parametrize("labels", LABELS, ids=repr)
def test_utility_winner_and_payoff_agree_at_the_end(labels) -> None:
    first, second = labels
    game = zerosum.get_game(labelled_nim(first, second)((1, 1)))
    for loser, winner in ((first, 2), (second, 1)):  # the player to move at the end lost
        end = game.wrap(((0, 0), loser))
        assert game.winner(end) == winner
        assert game.utility(end, winner) == 1 and game.utility(end, 3 - winner) == -1  # zerosum's numbers
        assert (game.payoff(end, winner), game.payoff(end, 3 - winner)) == (1, -1)
        for label, number in ((first, 1), (second, 2)):  # a label that cannot be taken for a number: yours
            if not (type(label) is int and label in (1, 2)):
                assert game.utility(end, label) == (1 if number == winner else -1)
        assert game.utility(end, game.to_move(end)) == -1  # the label to_move hands out is read as yours


@pytest.mark.parametrize("labels", LABELS, ids=repr)
def test_alphabeta_wins_every_game_from_a_won_start_and_as_second_from_a_lost_one(labels) -> None:
    Nim = labelled_nim(*labels)
    for seed in range(4):
        assert zerosum.play_game(Nim((1, 3, 4)), "alphabeta", "random", seed=seed).winner == 1
        assert zerosum.play_game(Nim((1, 2, 3)), "random", "alphabeta", seed=seed).winner == 2


@pytest.mark.parametrize("labels", [(0, 1), (2, 1), ("X", "O")], ids=repr)
def test_a_player_function_reading_its_own_labels_plays_perfectly(labels) -> None:
    def course_player(game, state):  # the textbook's search, on the course's own names
        me = game.to_move(state)

        def value(s, mine):
            if game.terminal_test(s):
                return game.utility(s, me)
            values = [value(game.result(s, a), not mine) for a in game.actions(s)]
            return max(values) if mine else min(values)

        return max(game.actions(state), key=lambda a: value(game.result(state, a), False))

    Nim = labelled_nim(*labels)
    for seed in range(3):
        assert zerosum.play_game(Nim((1, 3, 4)), course_player, "random", seed=seed).winner == 1
        assert zerosum.play_game(Nim((1, 2, 3)), "random", course_player, seed=seed).winner == 2


def test_int_labels_are_named_with_zerosum_s_number_first() -> None:
    game = zerosum.get_game(labelled_nim(2, 1)((1, 1)))
    assert (game.player_label(1), game.player_label(2)) == ("player 1 (2)", "player 2 (1)")
    assert zerosum.get_game(labelled_nim(1, 2)((1, 1))).player_label(2) == "player 2"
    record = zerosum.play_game(labelled_nim(0, 1)((1, 2)), "alphabeta", "random", seed=0)
    assert record.winner == 1 and record.reason == "player 1 (0) wins"


# ---- 2. a result that mutates its state, late ----------------------------------------------------------------


class ListTicTacToe:
    """Tic-Tac-Toe on a list; ``careless`` stops copying the board once 4 stones are down."""

    careless = False

    def __init__(self):
        self.initial = [[0] * 9, 1]

    def to_move(self, s):
        return s[1]

    def win(self, s):
        for a, b, c in LINES:
            if s[0][a] and s[0][a] == s[0][b] == s[0][c]:
                return s[0][a]
        return 0

    def actions(self, s):
        return [] if self.win(s) else [i for i in range(9) if s[0][i] == 0]

    def result(self, s, a):
        b = s[0] if self.careless and sum(1 for x in s[0] if x) >= 4 else list(s[0])
        b[a] = s[1]
        return [b, 3 - s[1]]

    def is_terminal(self, s):
        return self.win(s) != 0 or all(s[0])

    def utility(self, s, p):
        w = self.win(s)
        return 0 if not w else (1 if w == p else -1)


class CarelessTicTacToe(ListTicTacToe):
    careless = True


def test_a_copying_list_game_is_searched_to_its_true_value() -> None:
    assert ttt_value((0,) * 9, 1) == 0
    found = zerosum.make_agent("alphabeta").search(ListTicTacToe(), None)
    assert found.value == 0 and found.exact
    board = (1, 2, 0, 0, 1, 0, 0, 0, 0)  # X to move: a win
    found = zerosum.make_agent("alphabeta").search(ListTicTacToe(), [list(board), 1])
    assert found.value > 0 and ttt_value(board[:found.action] + (1,) + board[found.action + 1:], 2) == -1


@pytest.mark.parametrize("agent", ["alphabeta", "alphabeta:plain=1", "minimax:depth=9", "mcts:sims=2000"])
def test_a_result_that_mutates_late_is_the_game_s_line_in_every_search(agent) -> None:
    with pytest.raises(GameBug, match=r"^CarelessTicTacToe: result\(state, \d\) changed the state it was given"):
        zerosum.make_agent(agent, seed=0).search(CarelessTicTacToe(), None)


def test_a_result_that_mutates_late_is_the_game_s_line_in_play() -> None:
    for seed in (1, 2):
        with pytest.raises(GameBug, match="changed the state it was given"):
            zerosum.play_game(CarelessTicTacToe(), "alphabeta", "alphabeta", seed=seed)
    game = zerosum.get_game(CarelessTicTacToe())
    state = game.initial_state
    for _ in range(300):  # many calls first: the check holds past any count
        game.result(state, 0)
    for move in (0, 1, 2, 3):
        state = game.result(state, move)
    with pytest.raises(GameBug, match=r"^CarelessTicTacToe: result\(state, 4\) changed the state"):
        game.result(state, 4)


# ---- 3. result's legality check on wide positions ------------------------------------------------------------


class Counted:
    """An action that counts how often it is compared."""

    compared = 0

    def __init__(self, n):
        self.n = n

    def __eq__(self, other):
        Counted.compared += 1
        return type(other) is Counted and other.n == self.n

    def __hash__(self):
        return hash(self.n)

    def __repr__(self):
        return f"C{self.n}"


class Wide:
    def __init__(self, width):
        self.width, self.initial = width, ((), 1)

    def actions(self, s):
        return [Counted(i) for i in range(self.width)]

    def result(self, s, a):
        return (s[0] + (a.n,), 3 - s[1])

    def is_terminal(self, s):
        return len(s[0]) >= 2

    def utility(self, s, p):
        return 1 if (sum(s[0]) % 2 == 0) == (p == 1) else -1

    def to_move(self, s):
        return s[1]


def test_expanding_a_wide_position_compares_each_action_a_few_times_not_width_times() -> None:
    width = 400
    game = zerosum.get_game(Wide(width))
    state = game.initial_state
    legal = game.actions(state)
    Counted.compared = 0
    children = [game.result(state, a) for a in legal]
    assert Counted.compared < 4 * width  # a list.index each time: about width * width / 2
    assert [c.value[0] for c in children] == [(i,) for i in range(width)]
    with pytest.raises(IllegalMoveError, match=r"^C400 is not a legal move here: the legal moves are C0 C1 "):
        game.result(state, Counted(width))
    with pytest.raises(IllegalMoveError, match="is not a legal move here"):
        game.result(state, [1])  # unhashable: compared as before, and refused


def test_numbers_equal_to_an_action_are_that_action_before_and_after_the_table() -> None:
    game = zerosum.get_game(labelled_nim(1, 2)((3, 3)))
    state = game.initial_state
    for _ in range(3):  # the first look-up scans, the later ones read the table
        assert game.result(state, (1, 2.0)).value == ((3, 1), 2)
        with pytest.raises(IllegalMoveError, match=r"^\(0, 4\) is not a legal move here"):
            game.result(state, (0, 4))
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.result(game.wrap(((0, 0), 1)), (0, 1))


# ---- 4. a display that raises -------------------------------------------------------------------------------

DISPLAY = '''
class Nim:
    def __init__(self, heaps=(2, 2, 3)):
        self.initial = (tuple(heaps), "MAX")
    def actions(self, state):
        return [(i, n) for i, h in enumerate(state[0]) for n in range(1, h + 1)]
    def result(self, state, action):
        heaps = list(state[0]); heaps[action[0]] -= action[1]
        return (tuple(heaps), "MIN" if state[1] == "MAX" else "MAX")
    def is_terminal(self, state):
        return sum(state[0]) == 0
    def utility(self, state, player):
        return -1 if player == state[1] else 1
    def to_move(self, state):
        return state[1]

class DispBug(Nim):
    def display(self, state):
        if sum(state[0]) < 5: raise ValueError("display bug")
        print(state)

class LongBug(Nim):
    def display(self, state):
        if state[0] != (2, 2, 3): raise ValueError("word " * 400)
        print(state)

class Returns(Nim):
    def render(self, state):
        return list(state[0])

class Prints(Nim):
    def print_state(self, state):
        print("heaps", *state[0])
'''


@pytest.fixture
def display_file(tmp_path: Path) -> Path:
    path = tmp_path / "disp.py"
    path.write_text(DISPLAY)
    return path


def test_a_display_that_raises_is_one_line_of_the_game(display_file: Path) -> None:
    game = zerosum.get_game(f"{display_file}:DispBug")
    state = game.result(game.initial_state, (2, 3))
    line = r"^DispBug.display\(state\) raised ValueError: display bug at state \(\(2, 2, 0\), 'MIN'\)$"
    with pytest.raises(GameBug, match=line):
        game.render(state)
    tree = zerosum.trace("alphabeta:plain=1,depth=2", game, "(2,3)")
    with pytest.raises(GameBug, match=line):
        tree.text(depth=1)
    with pytest.raises(InvalidSpecError, match=r"^DispBug.display\(initial state\) raised ValueError: display bug$"):
        zerosum.get_game(f"{display_file}:DispBug((1, 1))")
    long = zerosum.get_game(f"{display_file}:LongBug")
    with pytest.raises(GameBug, match=r"^LongBug.display\(state\) raised ValueError: word word ") as caught:
        long.render(long.result(long.initial_state, (0, 1)))
    assert len(str(caught.value)) <= 300 and "\n" not in str(caught.value)


@pytest.mark.parametrize("argv", [["play", "--first", "alphabeta", "--second", "random"],
                                  ["explain", "(2,3)", "--agent", "alphabeta:plain=1,depth=3", "--depth", "2"]])
def test_the_faces_end_with_the_game_s_line_and_status_2(display_file: Path, argv) -> None:
    done = subprocess.run([sys.executable, "-m", "zerosum", *argv, "--game", f"{display_file}:DispBug((2,2,3))"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "DispBug.display(state) raised ValueError: display bug at state" in lines[0]
    assert len(lines[0]) <= 300 and "Traceback" not in done.stdout


def test_a_display_that_returns_no_text_or_prints_still_draws(display_file: Path) -> None:
    returns = zerosum.get_game(f"{display_file}:Returns")
    assert returns.render(returns.initial_state) == "[2, 2, 3]"
    prints = zerosum.get_game(f"{display_file}:Prints")
    assert prints.render(prints.initial_state) == "heaps 2 2 3"
    assert "heaps 2 2 3" in prints.svg(prints.initial_state)


# ---- 5. a class's own evaluate, and the probe's names --------------------------------------------------------


def nim_with(evaluate, first="MAX", second="MIN"):
    Nim = labelled_nim(first, second)
    return type("NimEval", (Nim,), {"evaluate": evaluate})


def test_an_own_evaluate_that_ignores_player_is_refused_naming_the_game_s_players() -> None:
    fixed = nim_with(lambda self, s, p: sum(s[0]) + 1)
    with pytest.raises(AgentError) as caught:
        zerosum.make_agent("alphabeta:depth=2").search(fixed((2, 3)), None)
    text = str(caught.value)
    assert text.startswith("evaluation NimEval.evaluate gives 6 for both MAX and MIN at the start position: it "
                           "ignores player")
    assert "\n" not in text and len(text) <= 300 and "O," not in text and 'view="first"' in text
    numbered = nim_with(lambda self, s, p: sum(s[0]) + 7, 0, 1)
    with pytest.raises(AgentError, match=r"gives 12 for both player 1 \(0\) and player 2 \(1\) at the start"):
        zerosum.make_agent("alphabeta:depth=2").search(numbered((2, 3)), None)


def test_an_own_evaluate_that_scores_for_player_or_declares_its_side_plays() -> None:
    from zerosum.agents.heuristics import evaluation

    def bouton(self, s, p):  # +1 when the player p would win with the move: Bouton's rule, for p
        x = 0
        for h in s[0]:
            x ^= h
        good = 1 if x else -1
        return good if s[1] == p else -good

    @evaluation(view="first")
    def for_max(self, s, p):
        return bouton(self, s, "MAX")

    constant = nim_with(lambda self, s, p: 0.5)((1, 3, 4))  # a constant is no side's score: left alone
    assert zerosum.make_agent("alphabeta:depth=1").search(constant, None).value == -0.5  # the reply's, negated
    for method in (bouton, for_max):
        game = nim_with(method)((1, 3, 4))
        found = zerosum.make_agent("alphabeta:depth=1").search(game, None)
        assert not nim_wins(after((1, 3, 4), found.action))  # the evaluation picks the winning move


def test_the_probe_names_the_method_that_failed_by_its_own_name() -> None:
    Nim = labelled_nim(1, 2)
    broken = type("Nim", (Nim,), {"terminal_test": lambda self, s: sum(s[0]) > "a"})
    with pytest.raises(InvalidSpecError, match=r"^Nim.terminal_test\(initial state\) raised TypeError: "):
        zerosum.get_game(broken((1, 2)))

    class Named(Nim):
        def is_terminal(self, s):
            return sum(s[0] + ("a",)) == 0

        def state_key(self, s):
            raise KeyError("no key")

    # (terminal_test is inherited: is_terminal is found first)
    with pytest.raises(InvalidSpecError, match=r"^Named.state_key\(initial state\) raised KeyError: 'no key'$"):
        zerosum.get_game(Named((1, 2)))
    del Named.state_key
    with pytest.raises(InvalidSpecError, match=r"^Named.is_terminal\(initial state\) raised TypeError: "):
        zerosum.get_game(Named((1, 2)))

