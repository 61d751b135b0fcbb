"""A course game's actions of any kind that compares by value: dicts play (the legal moves keep them as dicts
that hash, and your own dict is found among them), a list handed back as a list is found among the tuples
the legal moves keep, error lines name the legal moves in the game's notation (``{'n':1}``, never
``frozenset({('n',1)})``), and an action that is not equal to itself (NaN) is one GameBug line when it first
appears, at loading when it is a first move.

Before: a dict-action game could not be loaded (``{'n': 1} is not a legal move here: the legal moves are
frozenset({('n',1)})``: the raw dict was looked up among frozen moves), and a NaN action gave ``nan is not a
legal move here: the legal moves are nan`` (``nan != nan``)."""

import copy
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

import zerosum
from zerosum.errors import IllegalMoveError
from zerosum.games.course_rules import GameBug

TAKE = """\
class TakeAway:
    \"\"\"Take 1 or 2 sticks from 5; whoever takes the last wins.\"\"\"
    def __init__(self):
        self.initial = (5, "A")
    def actions(self, state):
        return {actions}
    def result(self, state, move):
        return (state[0] - {taken}, "B" if state[1] == "A" else "A")
    def terminal_test(self, state):
        return state[0] == 0
    def utility(self, state, player):
        return -1 if state[1] == player else 1
    def to_move(self, state):
        return state[1]
"""
KINDS = {  # name: (actions, how result reads the number taken)
    "dicts": ("[{'n': k} for k in (1, 2) if k <= state[0]]", "move['n']"),
    "lists": ("[[k, 'sticks'] for k in (1, 2) if k <= state[0]]", "move[0]"),
    "nan_first": ("[float('nan')] + [k for k in (1, 2) if k <= state[0]]", "(move if move == move else 1)"),
    "nan_later": ("[k for k in (1, 2) if k <= state[0]] + ([float('nan')] if state[0] == 3 else [])",
                  "(move if move == move else 1)"),
    "nan_inside": ("[(k, float('nan') if state[0] == 4 else 0.0) for k in (1, 2) if k <= state[0]]", "move[0]"),
    "numpy_nan": ("[k for k in (1, 2) if k <= state[0]] + ([__import__('numpy').float64('nan')] if state[0] == 4 "
                  "else [])", "(move if move == move else 1)"),
}


def game_file(folder: Path, name: str) -> Path:
    actions, taken = KINDS[name]
    path = folder / f"{name}.py"
    path.write_text(TAKE.format(actions=actions, taken=taken), encoding="utf-8")
    return path


def test_a_game_whose_actions_are_dicts_loads_and_plays(tmp_path: Path) -> None:
    spec = str(game_file(tmp_path, "dicts"))
    game = zerosum.get_game(spec)  # before: IllegalMoveError at loading
    start = game.initial_state
    assert [game.format_action(a) for a in game.actions(start)] == ["{'n':1}", "{'n':2}"]
    record = zerosum.play_game(spec, "alphabeta:plain=1", "random", seed=1)
    assert record.winner == 1 and not record.forfeit, record  # 5 sticks: take 2, then answer to 3
    assert record.moves[0].notation == "{'n':2}"
    own = game.base  # the game itself, its actions as yours
    assert own.actions(start) == [{"n": 1}, {"n": 2}]
    assert own.result(start, {"n": 2}).value == (3, "B")  # your own dict, found among the legal moves
    assert game.result(start, game.parse_action("{'n':1}", start)).value == (4, "B")


def test_error_lines_name_the_legal_moves_as_the_game_writes_them(tmp_path: Path) -> None:
    game = zerosum.get_game(str(game_file(tmp_path, "dicts")))
    start = game.initial_state
    with pytest.raises(IllegalMoveError) as info:
        game.base.result(start, {"n": 3})
    assert str(info.value) == "{'n': 3} is not a legal move here: the legal moves are {'n':1} {'n':2}"
    with pytest.raises(IllegalMoveError) as info:
        game.parse_action("three", start)
    assert "type one of {'n':1} {'n':2}" in str(info.value) and "frozenset" not in str(info.value)


def test_a_dict_action_stays_a_dict_that_cannot_change() -> None:
    class Pick:
        initial = 3

        def actions(self, state):  # noqa: ANN001, ANN202 - as a student writes it
            return [{"n": 1, "path": [state]}] + ([{"n": 2, "path": [state]}] if state > 1 else [])

        def result(self, state, move):  # noqa: ANN001, ANN202
            return state - move["n"]

        def terminal_test(self, state):  # noqa: ANN001, ANN202
            return state == 0

        def utility(self, state, player):  # noqa: ANN001, ANN202
            return 1 if state % 2 == player else -1

        def to_move(self, state):  # noqa: ANN001, ANN202
            return state % 2

    game = zerosum.get_game(Pick())
    start = game.initial_state
    moves = game.actions(start)
    assert moves == [{"n": 1, "path": [3]}, {"n": 2, "path": [3]}] and moves[1]["n"] == 2
    assert len({moves[0], moves[1], moves[0]}) == 2  # hashable, by content
    with pytest.raises(TypeError, match="cannot be changed"):
        moves[0]["n"] = 2
    for copied in (pickle.loads(pickle.dumps(moves[1])), copy.deepcopy(moves[1])):
        assert copied == moves[1] and hash(copied) == hash(moves[1])
        assert game.result(start, copied).value == 1
    assert game.result(start, {"path": [3], "n": 2}).value == 1  # your own dict, its keys in any order
    assert zerosum.play_game(Pick(), "alphabeta:plain=1", "random", seed=1).winner is not None


def test_a_list_handed_back_as_a_list_is_found(tmp_path: Path) -> None:
    game = zerosum.get_game(str(game_file(tmp_path, "lists"))).base
    start = game.initial_state
    assert game.actions(start) == [(1, "sticks"), (2, "sticks")]  # a list becomes a tuple
    assert game.result(start, [2, "sticks"]).value == (3, "B")  # before: not a legal move


@pytest.mark.parametrize("name", ["nan_first", "nan_later", "nan_inside", "numpy_nan"])
def test_an_action_not_equal_to_itself_is_the_game_s_bug(tmp_path: Path, name: str) -> None:
    spec = str(game_file(tmp_path, name))
    if name == "nan_first":  # at loading: the first position's moves are tried there
        with pytest.raises(GameBug) as info:
            zerosum.get_game(spec)
    else:
        zerosum.get_game(spec)
        with pytest.raises(GameBug) as info:
            zerosum.play_game(spec, "first", "first")
    line = str(info.value)
    assert line.startswith("TakeAway: actions returned ") and "\n" not in line, line
    assert "which is not equal to itself: a move must be (NaN" in line, line
    assert "not a legal move" not in line


def test_the_arena_stops_with_the_line_of_a_nan_action(tmp_path: Path) -> None:
    path = game_file(tmp_path, "nan_later")
    done = subprocess.run([sys.executable, "-m", "zerosum", "match", "first", "random", "--game", path.name,
                           "--games", "2", "--opening-plies", "0", "-o", str(tmp_path / "out.db")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stdout + done.stderr
    line, = done.stderr.strip().splitlines()
    assert re.fullmatch(r"zerosum match: error: TakeAway: actions returned nan at state \(3, '[AB]'\), which is "
                        r"not equal to itself: a move must be \(NaN, or a move holding NaN, never is: it could not "
                        r"be found among the legal moves\)", line), line  # (3 sticks after one move or two)
