"""In Othello a game can end on the loser's own move (the board fills up on it), so "loss in 2 moves" could
stand for 3 plies or 4: the words say which (audit: d3 and c4 both read 'loss in 2 moves', and the review
called the slower one 'good' with the same words before and after).  Checked against a plain negamax written
here that counts the plies to the end."""

from __future__ import annotations

from functools import lru_cache

import zerosum
from zerosum.core.words import exact_words

GAME = zerosum.get_game("othello:n=4")
START = "b1a1a2a3a4d2d1b4"


@lru_cache(maxsize=None)
def _solve(state) -> tuple[int, int]:  # noqa: ANN001 - (result for the side to move: 1/0/-1, plies to the end)
    if GAME.is_terminal(state):
        winner = GAME.winner(state)
        return (0 if winner is None else 1 if winner == GAME.player(state) else -1), 0
    best: tuple[int, int] | None = None
    for action in GAME.actions(state):
        result, plies = _solve(GAME.result(state, action))
        mine = (-result, plies + 1)
        # a win sooner, a loss later: rank by result, then by plies (fewer for a win, more for a loss)
        key = (mine[0], -mine[1] if mine[0] > 0 else mine[1])
        if best is None or key > (best[0], -best[1] if best[0] > 0 else best[1]):
            best = mine
    assert best is not None
    return best


def test_a_loss_ended_by_the_loser_s_own_move_reads_apart_from_one_ended_by_the_opponent() -> None:
    state = GAME.states_of(GAME.parse_moves(START))[-1]
    found = zerosum.make_agent("minimax").search(GAME, state)
    words = {GAME.format_action(a): exact_words(v) for a, v in found.scores.items()}
    truth = {GAME.format_action(a): _solve(GAME.result(state, a)) for a in GAME.actions(state)}
    assert truth == {"d3": (1, 2), "c4": (1, 3)}  # the opponent wins after d3 in 2 more plies, after c4 in 3
    assert words == {"d3": "loss in 2 moves (the game ends on its own move)", "c4": "loss in 2 moves"}
    assert GAME.format_action(found.action) == "c4"  # the slower loss


def test_the_words_agree_with_the_plies_on_random_positions() -> None:
    """Every exact word minimax says on 4 x 4 positions: 'win/loss in N' with N the side concerned's moves, and
    the clause exactly where the game ends on the other side's move."""
    import random

    rng = random.Random(3)
    agent = zerosum.make_agent("minimax")
    for _ in range(25):
        state = GAME.initial_state
        for _ in range(rng.randrange(4, 10)):
            if GAME.is_terminal(state):
                break
            state = GAME.result(state, rng.choice(GAME.actions(state)))
        if GAME.is_terminal(state):
            continue
        for action, value in agent.search(GAME, state).scores.items():
            result, plies = _solve(GAME.result(state, action))
            result, plies = -result, plies + 1  # the mover's, from this position
            said = exact_words(value)
            if result == 0:
                assert said == "draw"
                continue
            n = (plies + 1) // 2
            base = f"{'win' if result > 0 else 'loss'} in {n} move{'' if n == 1 else 's'}"
            odd_end = (result > 0) == (plies % 2 == 0)
            clause = (" (the game ends on the opponent's move)" if result > 0 else " (the game ends on its own move)")
            assert said == base + (clause if odd_end else ""), (GAME.format_moves(GAME.moves_played(state)), action)
