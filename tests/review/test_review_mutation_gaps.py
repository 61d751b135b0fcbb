"""Review marks a mutation audit found untested: the alternatives best first, and a good move's
"slower" (a win put off) against "sooner" (a loss brought nearer)."""

from zerosum.games import get_game
from zerosum.reviewer.judge import Mark, marks
from zerosum.values import loss_value, win_value


def _marks(moves):
    game = get_game("tictactoe")
    return list(marks(game, [game.parse_action(m) for m in moves]))


def test_the_alternatives_are_the_best_other_moves_best_first():
    # X: 1 2, O: 4 5, X to move.  3 wins at once; 6 blocks O's row 4 5 6 and holds the draw; 7, 8 (and 9,
    # played) let O complete 4 5 6.  X plays 9: the three best other moves are 3 (win), 6 (draw), then a loss.
    mark = _marks("14259")[4]
    assert mark.move == "9" and mark.kind == "blunder" and mark.best == ["3"]
    moves = [m for m, _ in mark.alternatives]
    values = [v for _, v in mark.alternatives]
    assert moves[:2] == ["3", "6"] and moves[2] in ("7", "8")
    assert values[0] == win_value(1) and values[1] == 0 and values[2] < 0
    assert mark.to_json()["alternatives"][0]["move"] == "3"


def test_every_marks_alternatives_are_sorted_best_first():
    for mark in _marks("14259"):
        values = [v for _, v in mark.alternatives]
        assert len(values) == 3 and values == sorted(values, reverse=True), mark


def test_a_good_move_that_loses_sooner_says_sooner():
    # O: 4, X: 1 2 threatening 3.  Blocking at 3 loses in 2 moves (X then forks with 5); O's 5 lets X win at 3
    # on its next move: a loss one move sooner, still a loss, so "good".
    mark = _marks("1425")[3]
    assert mark.move == "5" and mark.kind == "good" and mark.slower == 1
    assert "loss in 2 moves -> loss in 1 move (1 move sooner)" in mark.verdict()


def test_a_good_move_that_wins_later_says_slower():
    mark = Mark(1, 1, "5", 4, win_value(1), win_value(5), "good")  # win in 1 move -> win in 3 moves
    assert mark.slower == 2
    assert mark.verdict() == "good: win in 1 move -> win in 3 moves (2 moves slower)"
    lost = Mark(1, 1, "5", 4, loss_value(6), loss_value(2), "good")  # loss in 3 moves -> loss in 1 move
    assert lost.slower == 2
    assert lost.verdict() == "good: loss in 3 moves -> loss in 1 move (2 moves sooner)"
