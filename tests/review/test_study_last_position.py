"""The study board's last position (``GET /api/review``: the current position while a game is played with the
analysis on) is valued from the side to move there: the last move's value, from the mover's view, is one ply
further from the end than the same position seen by the side to move (audit: ``moves=1311`` on 4 x 4 said
"loss in 6 moves (the game ends on its own move)" where the loss is in 5, and ``connect4`` ``44`` said
"(the game ends on the opponent's move)", which never happens in Connect Four)."""

from __future__ import annotations

import random

import zerosum
from zerosum.ui.study import review_job
from review_lines import completes_line


def _last(game, actions):
    return review_job(game, actions, budget=60.0)["positions"][-1]


def test_the_last_position_reads_as_the_same_position_judged_before_a_move() -> None:
    game = zerosum.get_game("connectx:rows=4,cols=4,k=3")
    rng = random.Random(7)
    checked = 0
    while checked < 25:
        state, actions = game.initial_state, []
        for _ in range(rng.randint(1, 9)):
            action = rng.choice(game.actions(state))
            actions.append(action)
            state = game.result(state, action)
            if game.is_terminal(state):
                break
        if game.is_terminal(state):
            continue
        last = _last(game, actions)
        # the same position as the one before a further move: valued by the solver for the side to move
        again = review_job(game, actions + [game.actions(state)[0]], budget=60.0)["positions"][len(actions)]
        assert (last["ply"], last["side"]) == (again["ply"], again["side"]) == (len(actions), game.player(state))
        assert last["words"] == again["words"] and last["short"] == again["short"], game.format_moves(actions)
        assert "the game ends on" not in last["words"]  # Connect-X: the winner's move always ends it
        checked += 1


def _plies_to_end(cells: tuple, player: int, rows: int = 4, cols: int = 4, k: int = 3, memo: dict = {}) -> int:
    """Plain negamax over a grid (cells[col] = the column's stones, bottom first): plies until the game ends
    with best play, positive when the side to move wins, negative when it loses, 0 for a draw."""
    key = (cells, player)
    if key in memo:
        return memo[key]

    best = None
    for c in range(cols):
        if len(cells[c]) == rows:
            continue
        grid = cells[:c] + (cells[c] + (player,),) + cells[c + 1:]
        if completes_line(grid, c, len(cells[c]), player, k):
            value = 1
        elif all(len(col) == rows for col in grid):
            value = 0
        else:
            child = _plies_to_end(grid, 3 - player)
            value = -child + 1 if child < 0 else -child - 1 if child > 0 else 0
        if best is None or (value > 0 and (best <= 0 or value < best)) or (value == 0 and best < 0) \
                or (value < 0 and best < 0 and value < best):
            best = value
    memo[key] = best
    return best


def test_the_last_position_after_a_blunder_on_4x4_is_a_loss_in_5() -> None:
    """X to move after 1 3 1 1 (4 x 4, three in a row): O wins with its 5th move whatever X does."""
    cells = ((1, 1, 2), (), (2,), ())  # columns 1 and 3 as the moves 1 3 1 1 leave them: X X O, O
    assert _plies_to_end(cells, 1) == -10  # the negamax's truth: O's 5th move, 10 plies away
    game = zerosum.get_game("connectx:rows=4,cols=4,k=3")
    assert _last(game, game.parse_moves("1311"))["words"] == "red to move: loss in 5 moves"
