"""An agent made from its class says what it was made with, in tables, records and ``repr``.

A notebook writes ``AlphaBetaAgent(eval=centre, limits=Limits(depth=2))``; that agent was labelled
``alphabeta`` and its repr was ``make_agent('alphabeta')``, the name of another agent (one second a move, the
default evaluation), so a match of it against ``alphabeta`` showed ``alphabeta vs alphabeta#2``.
"""

from __future__ import annotations

import zerosum
from zerosum import Limits
from zerosum.agents.alphabeta import AlphaBetaAgent
from zerosum.agents.base import Agent
from zerosum.agents.mcts import MCTSAgent
from zerosum.agents.minimax import MinimaxAgent


def centre(game, state, player):
    return 0


def test_an_agent_made_from_its_class_is_labelled_with_its_arguments() -> None:
    agent = AlphaBetaAgent(eval=centre, limits=Limits(depth=2))
    assert agent.spec == "alphabeta:depth=2,eval=centre"
    assert repr(agent) == "AlphaBetaAgent(eval=centre, limits=Limits(depth=2))"
    mcts = MCTSAgent(limits=Limits(simulations=200, time=0.5), c=1.0, fast=False, seed=4)
    assert mcts.spec == "mcts:time=0.5,sims=200,c=1,fast=0,seed=4"
    assert MinimaxAgent(discount=False).spec == "minimax:discount=0"


def test_an_agent_made_from_a_spec_keeps_its_spec_and_one_made_with_nothing_its_name() -> None:
    built = zerosum.make_agent("alphabeta:depth=3")
    assert built.spec == "alphabeta:depth=3" and repr(built) == "make_agent('alphabeta:depth=3')"
    assert AlphaBetaAgent().spec == "alphabeta" and repr(AlphaBetaAgent()) == "AlphaBetaAgent()"
    labelled = AlphaBetaAgent(limits=Limits(depth=1))
    labelled.spec = "mine"  # set by hand: kept
    assert labelled.spec == "mine" and repr(labelled) == "make_agent('mine')"


def test_a_subclass_with_arguments_of_its_own_says_them() -> None:
    class Boosted(AlphaBetaAgent):
        def __init__(self, boost: int = 2, **common) -> None:
            super().__init__(**common)  # the parent's __init__ changes nothing: the outermost call's arguments
            self.boost = boost

    assert Boosted(boost=3, limits=Limits(depth=1)).spec == "alphabeta:depth=1,boost=3"

    class Plain(Agent):
        name = "plain"

        def __call__(self, game, state):
            return game.actions(state)[0]

    assert Plain().spec == "plain" and Plain(seed=2).spec == "plain:seed=2"


def test_a_match_tells_the_class_made_agent_from_the_default_one() -> None:
    mine = AlphaBetaAgent(eval=centre, limits=Limits(depth=1))
    result = zerosum.match(mine, "alphabeta:depth=2", game="tictactoe", games=2, seed=1)
    assert {result.first, result.second} == {"alphabeta:depth=1,eval=centre", "alphabeta:depth=2"}
