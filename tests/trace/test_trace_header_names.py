"""The traced tree's header names MAX, the side to move: ``MAX = X`` on Tic-Tac-Toe.  A course game whose
players are themselves called MAX and MIN (AIMA's) read ``MAX = MIN`` when MIN was to move."""

from __future__ import annotations

import zerosum
from course_sources import Nim  # tests/course_sources.py: AIMA's style, players "MAX" and "MIN"


def header(game, moves):
    state = game.initial_state
    for m in moves:
        state = game.result(state, m)
    return zerosum.trace("alphabeta:depth=3", game, state).text().splitlines()[0]


def test_the_header_never_says_max_is_min() -> None:
    game = zerosum.get_game(Nim((1, 2)))
    first = game.actions(game.initial_state)[0]
    assert "MAX = the side to move, your MAX (" in header(game, [])
    after = header(game, [first])
    assert "MAX = MIN" not in after and "MAX = the side to move, your MIN (" in after


def test_other_games_keep_their_players_names() -> None:
    assert "MAX = X (values from MAX's view" in header(zerosum.get_game("tictactoe"), [])
