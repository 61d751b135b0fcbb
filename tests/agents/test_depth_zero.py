"""``depth=0`` is the evaluation of the position itself (README, Limits; docs/arena.md's openings judge):
one node, the evaluation's value, the same for alpha-beta, the textbook alpha-beta and minimax."""

import pytest

import zerosum
from zerosum.agents.registry import make_agent


@pytest.mark.parametrize("spec", ["alphabeta:depth=0,eval=window", "alphabeta:plain=1,depth=0,eval=window",
                                  "minimax:depth=0,eval=window"])
def test_depth_zero_is_the_evaluation_of_the_position_itself(spec):
    game = zerosum.get_game("connect4")
    state = game.from_moves("44445")
    found = make_agent(spec).search(game, state)
    assert found.value == game.evaluations()["window"](game, state, game.player(state)) == -30
    assert found.nodes == 1 and found.depth == 0 and found.action == game.actions(state)[0]
