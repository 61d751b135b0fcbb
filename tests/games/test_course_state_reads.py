"""A course game's state is read by your own functions as your state is: unpacked, indexed, measured.

zerosum hands your player and evaluation functions its view of your state (a CourseState); it forwarded your
state's fields (``state.board``) but not unpacking: ``piles, player = state`` raised ``cannot unpack
non-iterable CourseState object`` and the player forfeited, though the same code worked as the game's own
method.  And an evaluation file could not import the game module beside it (``from nim import Nim``), as an
agent file can.
"""

from __future__ import annotations

import pytest

import zerosum
from zerosum.games.course_state import CourseState

NIM = '''
class Nim:
    """Take 1..3 sticks from one pile; whoever takes the last stick wins."""

    def __init__(self, piles=(1, 3, 5)):
        self.initial = (tuple(piles), "MAX")

    def actions(self, state):
        piles, _ = state
        return [(i, n) for i, p in enumerate(piles) for n in range(1, min(p, 3) + 1)]

    def result(self, state, move):
        piles, player = state
        i, n = move
        new = list(piles)
        new[i] -= n
        return (tuple(new), "MIN" if player == "MAX" else "MAX")

    def terminal_test(self, state):
        return sum(state[0]) == 0

    def utility(self, state, player):
        return -1 if state[1] == player else 1

    def to_move(self, state):
        return state[1]
'''

EVAL = '''
from nim import Nim  # the game beside it


def balance(game, state, player):
    piles, _ = state  # unpacked, as the game's own code does
    assert isinstance(Nim().initial, tuple)
    return len(piles) - 3  # 0 for both sides: no side favoured
'''


def greedy(game, state):
    piles, me = state
    assert state[1] == me and len(state) == 2 and me in state and list(state) == [piles, me]
    i = max(range(len(piles)), key=lambda j: piles[j])
    return (i, min(piles[i], 3))


@pytest.fixture()
def nim(tmp_path):
    (tmp_path / "nim.py").write_text(NIM)
    (tmp_path / "nim_eval.py").write_text(EVAL)
    return tmp_path


def test_a_player_unpacks_and_indexes_the_state_as_its_game_does(nim) -> None:
    game = zerosum.get_game(f"{nim}/nim.py:Nim")
    for seed in range(3):
        record = zerosum.play_game(game, greedy, "random", seed=seed)
        assert not record.forfeit, record.reason
        assert len(record.moves) >= 3


def test_the_state_is_always_true_and_a_value_that_is_no_sequence_says_so_itself() -> None:
    class Game:
        pass

    empty = CourseState(Game(), ())
    assert bool(empty) and len(empty) == 0 and list(empty) == []

    class Board:
        cells = 3

    state = CourseState(Game(), Board())
    assert state.cells == 3 and bool(state)
    with pytest.raises(TypeError, match="Board"):
        iter(state)
    with pytest.raises(TypeError, match="Board"):
        state[0]


def test_an_evaluation_file_imports_the_game_beside_it(nim, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path.parent)  # not the file's folder
    result = zerosum.match(f"alphabeta:depth=2,eval={nim}/nim_eval.py:balance", "random", game=f"{nim}/nim.py:Nim",
                           games=2, seed=1)
    assert result.wins + result.draws + result.losses == 2
    assert not any(g.forfeit for g in result.games)


class _Mutating:
    """A game whose result changes the state it is given (a student's first bug), its state made by ``make``."""

    def __init__(self, make):
        self.make, self.initial = make, make()

    def actions(self, state):
        return [0, 1] if state[0] == 0 else []

    def result(self, state, move):
        state[0] = 1  # changes the state in place
        return state

    def terminal_test(self, state):
        return state[0] == 1

    def utility(self, state, player):
        return 0

    def to_move(self, state):
        return "MAX"


@pytest.mark.parametrize("make, hint", [
    (lambda: __import__("numpy").zeros(3, dtype=int), "board = state.copy()"),
    (lambda: [0, 0, 0], "board = copy.deepcopy(state)"),
])
def test_a_result_that_changes_its_state_is_told_how_to_copy_that_kind_of_state(make, hint) -> None:
    from zerosum.games.course_bugs import GameBug

    with pytest.raises(GameBug, match="changed the state it was given") as caught:
        game = zerosum.get_game(_Mutating(make))  # its check plays a move already
        game.result(game.initial_state, 0)
    assert hint in str(caught.value) and "dict(state.board)" not in str(caught.value), str(caught.value)
