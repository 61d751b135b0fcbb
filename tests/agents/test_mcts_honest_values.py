"""MCTS says exact only what it has proven: a win or loss is exact only with its minimal distance (the solver,
independent truth, agrees), else it is proven in outcome only, in every face; a proven draw is an exact draw."""

from __future__ import annotations

import pytest

from zerosum import ConnectX, make_agent
from zerosum.agents.base import HEURISTIC_BOUND, SearchResult
from zerosum.agents.mcts import tactical_move
from zerosum.agents.mcts_tree import DRAWN, LOST, UNKNOWN, WON, Node
from zerosum.games import get_game
from zerosum.pool.moves import move_report
from zerosum.ui.analysis import engine_move
from zerosum.ui.hints import format_move
from zerosum.values import plies_to_end

from agent_helpers import random_position

PATHS = ["fast=1", "fast=0"]
SIMULATIONS = {"fast=1": 20000, "fast=0": 3000}  # about 0.05 s and 0.15 s a search


def searched_positions(game: ConnectX, count: int) -> list:  # type: ignore[type-arg]
    """Late 7 x 6 positions (20 to 29 plies of random play) the root check does not answer, so MCTS must prove
    what it says.  (Twenty of them hold nearly as many proofs as thirty of 16 to 29 plies did -- with fast=0, 6
    exact and 9 in outcome only, against 7 and 9 -- in a third of the time: fewer searches that prove nothing
    and run out their simulations, and no solve of a second.)"""
    found = []
    seed = 199
    while len(found) < count:
        seed += 1
        state = random_position(game, 20 + seed % 10, 7000 + seed)
        if tactical_move(game, state)[0] is None:
            found.append(state)
    return found


def test_every_exact_value_is_the_solvers_and_every_outcome_agrees() -> None:
    game = ConnectX()
    solver = make_agent("solver")
    outcomes = {path: 0 for path in PATHS}
    for state in searched_positions(game, 20):  # exact, outcome only, a mean: 6, 9 and 5 of them with fast=0
        truth = solver.search(game, state).value
        for path in PATHS:
            found = make_agent(f"mcts:sims={SIMULATIONS[path]},seed=1,{path}").search(game, state)
            where = (path, game.to_moves(state), found.describe(), truth)
            if found.exact:
                assert found.value == truth, where  # a distance claimed exact is the minimal one
            elif getattr(found, "outcome", None) is not None:
                assert found.value == found.outcome * HEURISTIC_BOUND and not found.proven, where
                assert truth != 0 and (truth > 0) == (found.outcome > 0), where
                outcomes[path] += 1
            else:
                assert -1 <= found.value <= 1, where  # a mean reward
    assert min(outcomes.values()) >= 5, outcomes


@pytest.mark.parametrize("moves", ["7743461647641212644531", "675424544166475224251", "726757567324471473666435"])
@pytest.mark.parametrize("path", PATHS)
def test_a_proof_longer_than_the_shortest_line_is_not_an_exact_distance(path: str, moves: str) -> None:
    game = ConnectX()
    state = game.from_moves(moves)
    truth = make_agent("solver").search(game, state)
    agent = make_agent(f"mcts:sims={SIMULATIONS[path]},seed=1,{path}")
    found = agent.search(game, state)
    assert not found.exact and found.describe() == f"{'win' if truth.value > 0 else 'loss'} (distance not yet proven)"
    assert found.value == (HEURISTIC_BOUND if truth.value > 0 else -HEURISTIC_BOUND)
    assert agent._bound > plies_to_end(truth.value)  # the proof found is longer than the solver's line


def test_a_loss_proven_without_its_distance_is_not_exact_anywhere() -> None:
    game = ConnectX()
    state = game.from_moves("44444555525742277")  # the solver: loss in 9 moves; a proof found may be longer
    assert make_agent("solver").search(game, state).describe() == "loss in 9 moves"
    agent = make_agent("mcts:sims=200000,seed=2")  # proven after 143,631 simulations on the numba path
    found = agent.search(game, state)
    assert not found.exact and found.describe() == "loss (distance not yet proven)"  # was: loss in 11 moves, exact
    assert (found.proven, found.outcome, found.value) == (False, -1, -HEURISTIC_BOUND)
    assert "distance not yet proven" in agent.last_proof and "within" in agent.last_proof
    played = engine_move(game, state, agent)  # the terminal's words
    assert not played.exact and played.words == "loss (distance not yet proven)"
    line = format_move(game, agent, played)[0]
    assert "loss (distance not yet proven) (exact win/draw/loss)" in line and "moves (exact)" not in line
    report = move_report(game, state, agent)  # what the arena and the page record
    assert report.exact is False and report.proof


@pytest.mark.parametrize("path", PATHS)
def test_a_proven_draw_is_an_exact_draw(path: str) -> None:
    game = get_game("tictactoe")
    agent = make_agent(f"mcts:sims=500,seed=0,{path}")
    found = agent.search(game, "591")
    assert found.exact and found.describe() == "draw"  # was: 0 est., a mean it is not
    assert (found.value, found.outcome) == (0, None)
    assert found.nodes < 500  # the root is proven: the search stopped before its budget
    assert make_agent("minimax").search(game, "591").value == 0
    line = format_move(game, agent, engine_move(game, state := game.from_moves("591"), agent))[0]
    assert "draw (exact)" in line and "est." not in line and "mean result" not in line, (line, state)


def node(proof: int, plies: int = 0, children: list[Node] | None = None) -> Node:
    n = Node(None, None, None)
    n.proof, n.plies, n.children = proof, plies, children
    for ch in children or ():
        ch.parent = n
    return n


def test_a_distance_is_exact_only_where_the_tree_proves_it_minimal() -> None:
    from zerosum.agents.mcts_tree import distance

    # a win found in 2 plies (its replies lose at once) is the fastest only if no other move could be faster
    def win_in_two() -> Node:
        return node(WON, 2, [node(LOST, 1), node(LOST, 1)])

    assert distance(win_in_two()) == 2
    assert distance(node(LOST, 3, [win_in_two(), node(UNKNOWN)])) is None  # the unknown move may win sooner
    assert distance(node(LOST, 3, [win_in_two(), node(LOST, 1), node(DRAWN)])) == 3
    assert distance(node(LOST, 1, [node(WON, 0), node(UNKNOWN)])) == 1  # a win at once: nothing is faster
    win_in_four = node(WON, 4, [node(LOST, 3, [win_in_two()]), node(LOST, 1)])
    assert distance(win_in_four) == 4
    assert distance(node(LOST, 5, [win_in_four, win_in_two()])) == 3  # the fastest of the exact wins
    assert distance(node(WON, 4, [node(LOST, 3), node(LOST, 1)])) is None  # a loss of unknown distance
    assert distance(node(LOST, 7)) is None and distance(node(DRAWN)) is None
    assert SearchResult(action=0, value=HEURISTIC_BOUND, outcome=1).describe() == "win (distance not yet proven)"
