"""``SearchResult.score_kinds`` says which root scores are bounds, checked against a full-window search of
each root move: minimax (no window at all) to one ply less than the search's depth (its deepest finished
iteration), its value brought up to the root.  An ``exact``
score equals it, an ``upper`` score is at least it, a ``lower`` one at most it.  Alpha-beta's three paths
(the numba kernel on Connect Four, the generic search, the textbook recursion) on seeded positions of Connect
Four and Tic-Tac-Toe; MCTS's means are the searched values themselves (``exact``), never bounds."""

from __future__ import annotations

import random

import pytest

from zerosum import get_game, make_agent
from zerosum.values import WIN, is_proven, to_parent, win_value


def positions(spec: str, count: int, seed: int) -> list:
    game, rng, out = get_game(spec), random.Random(seed), []
    while len(out) < count:
        state = game.initial_state
        for _ in range(rng.randrange(0, 9)):
            moves = game.actions(state)
            if not moves:
                break
            state = game.result(state, rng.choice(moves))
        if not game.is_terminal(state):
            out.append(state)
    return out


def full_window(game, state, action, depth: int, discount: bool) -> float:
    """The root move's value at ``depth``: the child searched by minimax to ``depth - 1``, negated (and, with
    the depth discount, a proven value moved one ply further away)."""
    child = game.result(state, action)
    out = game.outcome(child)
    if out is not None:  # the move ends the game: a draw, or the mover's win on this ply
        return 0 if out.winner is None else win_value(1) if discount else WIN
    v = make_agent(f"minimax:depth={depth - 1},discount={int(discount)}").search(game, child).value
    if discount:
        return to_parent(v)
    return -v


@pytest.mark.parametrize("game_spec, agent, discount", [
    ("connect4", "alphabeta:depth=4", True),  # the numba kernel
    ("connect4", "alphabeta:depth=3,fast=0", True),  # the generic search, its table and ordering
    ("connect4", "alphabeta:depth=3,plain=1", False),  # the textbook recursion
    ("tictactoe", "alphabeta:depth=3", True),
    ("tictactoe", "alphabeta:depth=4,plain=1", False),
])
def test_root_score_kinds_agree_with_a_full_window_search_of_each_move(game_spec, agent, discount):
    game = get_game(game_spec)
    seen = set()
    for state in positions(game_spec, 6, seed=len(agent)):
        found = make_agent(agent).search(game, state)
        assert set(found.score_kinds) == set(found.scores) == set(game.actions(state)) or is_proven(found.value)
        assert found.score_kinds.get(found.action) == "exact" and found.scores[found.action] == found.value
        for action, score in found.scores.items():  # the scores of the deepest iteration it finished
            truth = full_window(game, state, action, found.depth, discount)
            kind = found.score_kinds[action]
            seen.add(kind)
            if kind == "exact":
                assert score == truth, (state, action, score, truth)
            elif kind == "upper":
                assert truth <= score, (state, action, score, truth)
            else:
                assert kind == "lower" and truth >= score, (state, action, kind)
    assert "upper" in seen  # refuted moves are there, and said to be bounds


def test_mcts_means_are_the_searched_values():
    game = get_game("connect4")
    found = make_agent("mcts:sims=400", seed=3).search(game, game.from_moves("4453"))
    assert found.score_kinds == dict.fromkeys(found.scores, "exact")


def test_explain_shows_as_bounds_exactly_the_scores_the_search_calls_bounds():
    import subprocess
    import sys

    game = get_game("connect4")
    found = make_agent("alphabeta:depth=4").search(game, game.from_moves("4453"))
    run = subprocess.run([sys.executable, "-m", "zerosum", "explain", "4453", "--agent", "alphabeta:depth=4",
                          "--depth", "0"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["move", "score"]) + 1
    table = lines[start:lines.index("", start)]  # the rows: mark, move, score, kind, why
    shown = {game.parse_action(line[2:].split()[0], game.from_moves("4453")): "at most" in line for line in table}
    assert len(shown) == 7 and shown == {a: found.score_kinds[a] == "upper" for a in shown}
    assert any(shown.values()) and not all(shown.values())


@pytest.mark.parametrize("spec, moves", [("solver", "4453"), ("solver", "32771557"), ("solver:time=5", "411241364423"),
                                         ("solver:book=0", "44433362")])
def test_every_score_of_the_solver_is_exact(spec, moves):
    # every scored column is "exact": the book's answer, the one-call analysis's, the progressive one's
    game = get_game("connect4")
    found = make_agent(spec).search(game, moves)
    assert found.exact and found.score_kinds == dict.fromkeys(found.scores, "exact")
    assert set(found.scores) == set(game.actions(game.from_moves(moves)))


def test_a_partial_solver_answer_says_which_scores_it_has():
    # a person waiting for a move proven in win/draw/loss, with no time for the distances: what is scored is exact
    game = get_game("connect4")
    agent = make_agent("solver:book=0")
    found = agent.search_within(game, game.from_moves("411241364423"), 0.001)
    assert not found.exact and agent.last_proof and len(found.scores) < len(game.actions(game.from_moves("411241364423")))
    assert found.score_kinds == dict.fromkeys(found.scores, "exact")
