"""zerosum.review from Python: the classes against a textbook minimax written here (Tic-Tac-Toe, judged by
a named engine, alpha-beta without a time limit, which proves every value there), the progressive marks, the summary, the annotated
record's round trip, and bad input as one line."""

from __future__ import annotations

import functools
import random

import pytest

import zerosum
from zerosum import TicTacToe, records
from zerosum.errors import GameError, UsageError
from zerosum.reviewer import CLASSES, iter_review
from zerosum.reviewer.text import summary_lines

T = TicTacToe()


@functools.lru_cache(maxsize=None)
def minimax(state) -> int:
    """The mover's score: 10 - plies to a win, plies - 10 to a loss, 0 a draw (faster wins, slower losses)."""
    out = T.outcome(state)
    if out is not None:
        return 0 if out.winner is None else -10  # the player who just moved won
    best = -99
    for a in T.actions(state):
        v = -minimax(T.result(state, a))
        best = max(best, v - 1 if v > 0 else v + 1 if v < 0 else 0)
    return best


def textbook_class(before: int, after: int) -> str:
    sign = lambda x: (x > 0) - (x < 0)  # noqa: E731
    if after == before:
        return "best"
    if sign(after) == sign(before):
        return "good"
    return "blunder" if (sign(before), sign(after)) == (1, -1) else "mistake"


def after_score(state, a) -> int:
    v = -minimax(T.result(state, a))
    return v - 1 if v > 0 else v + 1 if v < 0 else 0


@pytest.mark.parametrize("seed", range(6))
def test_tictactoe_classes_agree_with_a_textbook_minimax(seed):
    rng = random.Random(seed)
    state, actions = T.initial_state, []
    while not T.is_terminal(state):
        a = rng.choice(T.actions(state))
        actions.append(a)
        state = T.result(state, a)
    found = zerosum.review(actions, game="tictactoe", agent="alphabeta")  # no time limit: a full search
    states = T.states_of(actions)
    assert [m.ply for m in found.marks] == list(range(1, len(actions) + 1))
    for mark, s, a in zip(found.marks, states, actions):
        before, after = minimax(s), after_score(s, a)
        assert mark.kind == textbook_class(before, after), (seed, mark.ply, before, after)
        assert (mark.before > 0) - (mark.before < 0) == (before > 0) - (before < 0)
        best = [T.format_action(b) for b in T.actions(s) if after_score(s, b) == before]
        assert sorted(mark.best) == sorted(best)
    summary = found.summary()
    for player in (1, 2):
        mine = [m for m in found.marks if m.player == player]
        kept = [m for m in mine if m.kind in ("best", "good")]
        assert summary[player]["moves"] == len(mine) and summary[player]["kept"] == len(kept)
        errors = [m for m in mine if m.kind in ("mistake", "blunder")]
        assert summary[player]["first_error"] == (None if not errors else
                                                  {"ply": errors[0].ply, "move": errors[0].move,
                                                   "class": errors[0].kind})


def test_a_blunder_a_mistake_and_an_only_move_on_connect_four():
    found = zerosum.review("44444413")  # 4 is the only winning first move; 1 throws the win away
    kinds = [(m.kind, m.only) for m in found.marks]
    assert kinds[0] == ("best", True) and kinds[6] == ("blunder", False)
    assert found.marks[6].best == ["3", "5"] and len(found.marks[6].line) == 8
    assert found.marks[6].words(found.marks[6].before) == "win in 18 moves"
    data = found.to_json()
    assert {"ply", "move", "before", "after", "class", "best"} <= set(data[6])
    assert data[6]["class"] == "blunder" and data[6]["before"] == "win in 18 moves"


def test_marks_come_one_by_one_and_the_caller_may_stop():
    seen = []
    stream = iter_review("4444441", on_mark=seen.append)
    first = next(stream)
    assert first.ply == 1 and seen == [first]
    assert next(stream).ply == 2 and len(seen) == 2
    stream.close()  # stopping early is fine
    found = zerosum.review("4444441", on_mark=seen.append)
    assert seen[2:] == found.marks


def test_an_opening_is_played_not_judged_and_the_annotated_record_reads_back(tmp_path):
    text = '[Game "connect4"]\n[Opening "44"]\n[Result "*"]\n\n2. 4 {time=0.5s} 4 3 *\n'
    record = records.parse(text)[0]
    found = zerosum.review(record)
    assert [m.ply for m in found.marks] == [3, 4, 5]
    annotated = found.record()
    back = records.parse(records.format(annotated))[0]
    assert back == annotated and back.moves == record.moves and back.tags["Opening"] == "44"
    assert back.notes[0].time == 0.5  # the record's own notes are kept
    assert back.tags["Annotator"].startswith("zerosum review, the solver")
    for mark, note in zip(found.marks, back.notes):
        suffix = {"mistake": "?", "blunder": "??"}.get(mark.kind) or ("!" if mark.only else None)
        assert (note.mark if note else None) == suffix
        if mark.kind != "best":
            assert note.comment == mark.verdict()
    path = tmp_path / "a.pgn"
    records.write([annotated], path)
    assert records.read(path) == [annotated]


@pytest.mark.parametrize("call, error", [
    (lambda: zerosum.review("4444444"), GameError),
    (lambda: zerosum.review(42), UsageError),
    (lambda: zerosum.review("44", game=3.5), UsageError),
    (lambda: zerosum.review("44", line=-1), UsageError),
    (lambda: zerosum.review("44", seconds=0), UsageError),
    (lambda: zerosum.review("44", on_mark=5), UsageError),
    (lambda: zerosum.review(records.parse('[Game "tictactoe"]\n\n5 *')[0], game="connect4"), UsageError),
])
def test_bad_input_is_one_line(call, error):
    with pytest.raises(error) as info:
        call()
    assert "\n" not in str(info.value)


def test_where_the_solver_does_not_go_alpha_beta_estimates_within_a_stated_time():
    found = zerosum.review("5 1 9 2", game="tictactoe", seconds=0.4)
    assert found.engine == "alphabeta (about 0.4 s a position, shared among its moves)"
    assert [m.ply for m in found.marks] == [1, 2, 3, 4] and all(m.kind in CLASSES for m in found.marks)
    assert found.exact == all(m.exact for m in found.marks)  # each mark says whether it is a proof


def test_the_summary_says_how_many_moves_estimates_judged():
    far = zerosum.review("6,7,6", game="connectx:rows=8,cols=12,k=4", seconds=0.1)  # 108 bits: no solver
    assert not any(m.exact for m in far.marks)
    assert [far.summary()[p]["estimated"] for p in (1, 2)] == [2, 1]
    lines = far.table().splitlines()
    assert any(line.startswith("X: kept the result with 2 of 2 moves (100%; 2 judged by estimates); ") for line in lines)
    assert any(line.startswith("O: kept the result with 1 of 1 moves (100%; 1 judged by estimates); ") for line in lines)
    proven = zerosum.review("4453")
    assert [proven.summary()[p]["estimated"] for p in (1, 2)] == [0, 0]
    assert "estimates" not in "".join(summary_lines(proven))


class _CourseTicTacToe:
    """Tic-Tac-Toe written as a course writes it: a state is (the board's 9 cells, who moves); moves are (row, col)."""

    LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

    def __init__(self) -> None:
        self.initial_state = ((".",) * 9, "MAX")

    def _winner(self, b: tuple) -> str | None:
        return next((b[i] for i, j, k in self.LINES if b[i] != "." and b[i] == b[j] == b[k]), None)

    def actions(self, state: tuple) -> list:
        return [] if self.terminal_test(state) else [(i // 3 + 1, i % 3 + 1) for i in range(9) if state[0][i] == "."]

    def result(self, state: tuple, a: tuple) -> tuple:
        cells = list(state[0])
        cells[(a[0] - 1) * 3 + a[1] - 1] = "X" if state[1] == "MAX" else "O"
        return tuple(cells), "MIN" if state[1] == "MAX" else "MAX"

    def terminal_test(self, state: tuple) -> bool:
        return self._winner(state[0]) is not None or "." not in state[0]

    def utility(self, state: tuple, player: str) -> int:
        v = {"X": 1, "O": -1, None: 0}[self._winner(state[0])]
        return v if player == "MAX" else -v

    def to_move(self, state: tuple) -> str:
        return state[1]

    def display(self, state: tuple) -> None:
        print(state[0])


def test_review_takes_a_course_game_object_itself() -> None:
    # docs/games.md: every function that takes a game takes your own object; review refused it ("game is a game or
    # a game spec"), while get_game(object) was taken.  Centre, corner, corner, edge: the edge (1,2) lets X fork
    course = _CourseTicTacToe()
    moves = "(2,2) (1,1) (3,3) (1,2)"
    found = zerosum.review(moves, game=course)
    assert [m.kind for m in found.marks] == [m.kind for m in zerosum.review(moves, game=zerosum.get_game(course)).marks]
    assert [m.kind for m in found.marks] == ["best", "best", "best", "mistake"]
    with pytest.raises(UsageError, match="game is a game or a game spec"):
        zerosum.review(moves, game=object())
