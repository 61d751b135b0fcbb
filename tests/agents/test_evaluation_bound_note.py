"""An evaluation whose values pass ±HEURISTIC_BOUND (10**6) is said once, on standard error, naming the
function and the position: the searches count such values as ±10**6, so moves it tells apart only beyond
that look alike (7 of 56 positions chose another move than the same evaluation scaled down, in silence)."""

from __future__ import annotations

from zerosum import get_game
from zerosum.agents.alphabeta import AlphaBetaAgent
from zerosum.agents.base import Limits


def huge(game, state, player):  # a textbook's "a win is worth a billion" in an evaluation
    return 10**9 * (1 if player == 1 else -1) + state.ply


def within(game, state, player):
    return 999_999 if player == 1 else -999_999


def test_values_past_the_bound_are_said_once(capsys) -> None:
    game = get_game("connect4")
    agent = AlphaBetaAgent(eval=huge, limits=Limits(depth=3), plain=True)
    agent.search(game, game.position("4453"))
    agent.search(game, game.position("44"))
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("zerosum: note: evaluation ") and ":huge returned " in err[0], err
    assert " 999999993 at the position after" in err[0] or " -999999993 at the position after" in err[0]
    assert "count any value past ±1,000,000 as ±1,000,000" in err[0] and "scale it down" in err[0]


def test_values_within_the_bound_say_nothing(capsys) -> None:
    game = get_game("connect4")
    AlphaBetaAgent(eval=within, limits=Limits(depth=3), plain=True).search(game, game.position("4453"))
    assert capsys.readouterr().err == ""
