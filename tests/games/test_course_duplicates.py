"""A course game's ``actions`` must list each legal move once.  A move listed twice was taken silently (an
audit: the terminal listed it twice, a hint marked two moves "<- best", MCTS split its visits and played losing
moves); now it is one GameBug line naming the move and the state, from Python and from the command line alike,
for moves that hash and for moves that do not (lists, dicts: compared by their contents)."""

import re

import pytest
from course_sources import nim  # tests/course_sources.py: course games as a student writes them
from process_helpers import zerosum_run  # tests/process_helpers.py: zerosum, its output captured

import zerosum
from zerosum.games.course_bugs import GameBug, first_repeat

SOURCE = nim((1, 2, 3)) + '''

class Duplicates(Nim):
    def actions(self, state):
        moves = super().actions(state)
        return moves + moves[:2]          # oops: the first two again


class LateDuplicates(Nim):
    """Right on the start; a move twice once a pile is empty."""
    def actions(self, state):
        moves = super().actions(state)
        return moves + moves[-1:] if 0 in state[0] else moves


class ListMoves(Nim):
    def actions(self, state):
        moves = [list(m) for m in super().actions(state)]
        return moves + [list(moves[0])]   # an equal list, not the same one
    def result(self, state, move):
        return super().result(state, tuple(move))


class DictMoves(Nim):
    def actions(self, state):
        moves = [{"pile": i, "take": n} for i, n in super().actions(state)]
        return moves + [dict(moves[1])]
    def result(self, state, move):
        return super().result(state, (move["pile"], move["take"]))


class EasyNim:
    """easyAI's names: the object is the position."""
    def __init__(self):
        self.piles, self.current_player = [1, 2], 1
    def possible_moves(self):
        moves = [f"{i},{n}" for i, pile in enumerate(self.piles) for n in (1, 2) if n <= pile]
        return moves + moves[:1]
    def make_move(self, move):
        i, n = map(int, move.split(","))
        self.piles[i] -= n
    def is_over(self):
        return sum(self.piles) == 0
    def lose(self):
        return self.is_over()
'''


def classes() -> dict:
    found: dict = {}
    exec(compile(SOURCE, "duplicate_games.py", "exec"), found)
    return found


TAIL = ": each legal move must be listed once (a move listed twice is shown and searched twice)"
START = "Duplicates: actions returned (0, 1) twice at state ((1, 2, 3), 1)" + TAIL
LATE = re.compile(r"^LateDuplicates: actions returned \([0-9], [0-9]\) twice at state "
                  r"\(\([0-9], [0-9], [0-9]\), [12]\)"
                  + re.escape(TAIL) + "$")


def test_a_move_twice_on_the_start_is_refused_when_the_game_is_made(tmp_path):
    with pytest.raises(GameBug) as info:
        zerosum.get_game(classes()["Duplicates"]())
    assert str(info.value) == START
    (tmp_path / "nims.py").write_text(SOURCE)
    with pytest.raises(GameBug) as info:
        zerosum.get_game(f"{tmp_path}/nims.py:Duplicates")
    assert str(info.value) == START
    for spec in ("alphabeta", "mcts:sims=200,seed=1"):  # an agent handed the object itself
        with pytest.raises(GameBug) as info:
            zerosum.make_agent(spec).search(classes()["Duplicates"](), ((1, 2, 3), 1))
        assert str(info.value) == START
    with pytest.raises(GameBug) as info:
        zerosum.play_game(classes()["Duplicates"](), "random", "random", seed=1)
    assert str(info.value) == START


def test_a_move_twice_later_in_the_game_is_refused_where_it_appears():
    game = zerosum.get_game(classes()["LateDuplicates"]())  # the start is right
    assert len(game.actions(game.initial_state)) == 6
    for first, second in (("alphabeta", "random"), ("random", "mcts:sims=200,seed=1"), ("random", "random")):
        with pytest.raises(GameBug) as info:
            zerosum.play_game(classes()["LateDuplicates"](), first, second, seed=2)
        assert LATE.match(str(info.value)), str(info.value)
    with pytest.raises(GameBug, match=LATE):
        zerosum.match("alphabeta", "random", game=classes()["LateDuplicates"](), games=2)
    with pytest.raises(GameBug) as info:
        game.actions(game.wrap(((0, 2, 3), 2)))
    assert str(info.value) == "LateDuplicates: actions returned (2, 3) twice at state ((0, 2, 3), 2)" + TAIL


@pytest.mark.parametrize(("name", "said"), [("ListMoves", "[0, 1]"), ("DictMoves", "{'pile': 1, 'take': 1}")])
def test_moves_that_do_not_hash_are_compared_by_their_contents(name, said):
    with pytest.raises(GameBug) as info:
        zerosum.get_game(classes()[name]())
    assert str(info.value) == f"{name}: actions returned {said} twice at state ((1, 2, 3), 1)" + TAIL


def test_an_easyai_game_that_lists_a_move_twice_is_refused_too():
    with pytest.raises(GameBug, match=r"^EasyNim: actions returned '0,1' twice at state "):
        zerosum.get_game(classes()["EasyNim"]())


def test_a_game_whose_moves_are_numpy_arrays_is_checked_by_their_contents():
    np = pytest.importorskip("numpy")

    class Cells:
        def __init__(self):
            self.initial = (0, 1)

        def actions(self, state):
            return [np.array([0, 1]), np.array([1, 0]), np.array([0, 1])]

        def result(self, state, move):
            return (state[0] + 1, 3 - state[1])

        def is_terminal(self, state):
            return state[0] == 2

        def utility(self, state, player):
            return 0

        def to_move(self, state):
            return state[1]

    with pytest.raises(GameBug, match=r"^Cells: actions returned array\(\[0, 1\]\) twice at state \(0, 1\)"):
        zerosum.get_game(Cells())


def test_the_first_repeat_is_found_by_a_set_or_by_equality():
    class Cell:  # equal by value, not hashable (__eq__ without __hash__)
        def __init__(self, n):
            self.n = n

        def __eq__(self, other):
            return isinstance(other, Cell) and other.n == self.n

    assert first_repeat([1, 2, 3]) == -1 and first_repeat([]) == -1
    assert first_repeat([(0, 1), (0, 2), (0, 1), (0, 2)]) == 2
    assert first_repeat([Cell(1), Cell(2)]) == -1 and first_repeat([Cell(1), Cell(2), Cell(2)]) == 2
    assert first_repeat([[1], {"a": 1}, [1]]) == 2


def test_the_command_line_says_the_same_one_line(tmp_path):
    (tmp_path / "nims.py").write_text(SOURCE)
    done = zerosum_run(["play", "--game", f"{tmp_path}/nims.py:Duplicates", "--second", "alphabeta"],
                       stdin="zz\nh\nq\n")
    assert done.returncode == 2 and "<- best" not in done.stdout and "Traceback" not in done.stderr, done.stdout
    assert done.stderr.strip().splitlines() == ["zerosum play: error: " + START]
    done = zerosum_run(["match", "alphabeta", "random", "--game", f"{tmp_path}/nims.py:LateDuplicates",
                        "--games", "2", "-o", str(tmp_path / "late.db")])
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    line, = done.stderr.strip().splitlines()
    assert line.startswith("zerosum match: error: ") and LATE.match(line[len("zerosum match: error: "):]), line
    done = zerosum_run(["match", "alphabeta", "random", "--game", f"{tmp_path}/nims.py:Nim", "--games", "2",
                        "-o", str(tmp_path / "good.db")])
    assert done.returncode == 0, done.stderr
