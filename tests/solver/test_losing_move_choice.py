"""Out of time in a lost position, the solver agent plays a move whose loss is not yet timed, never one that
hands over a win at once where a slower loss exists.  Before, it took the centre-most column, or one whose
fast loss was proven first: on 8 x 8 (``148856554667151156688886``) it played the column that lets the
opponent win at once (-20) where another held out for 18 moves (-3)."""

from __future__ import annotations

import pytest

import zerosum
from zerosum.solver.progressive import Progressive

#: positions of 7 x 6 where every move loses and exactly one loses at once (the centre one, or near it)
LOST = ["4667556233763316", "3415745344543671", "522675777412731564", "132267347367567476"]


@pytest.mark.parametrize("moves", LOST)
def test_out_of_time_the_agent_does_not_hand_over_a_win_at_once(moves) -> None:
    game = zerosum.get_game("connect4")
    truth = zerosum.Solver(game, book=False).analyze(moves)
    state = zerosum.Solver(game, tt_size=1 << 10, book=False).position(moves)
    agent = zerosum.make_agent("solver:threads=1")
    found = agent.search_within(game, state, 1e-4)  # win/draw/loss proven, no time for any distance
    assert not found.exact and "loses slowest is not yet known" in agent.last_proof
    assert truth[found.action] > min(s for s in truth if s is not None), (found.action, truth)


#: with them, positions won, drawn and balanced (Pons' Test_L3_R1, lines 2 and 3; a ply-8 position)
OTHERS = ["7422341735647741166133573473242566", "23163416124767223154467471272416755633", "32164625"]


@pytest.mark.parametrize("moves", LOST + OTHERS)
def test_each_column_s_floor_is_a_true_lower_bound_of_its_score(moves) -> None:
    solver = zerosum.Solver("connect4", book=False)
    truth = solver.analyze(moves)
    run = Progressive(solver, moves, threads=1)
    for _ in run.events(kinds=("wdl",)):
        pass
    for column, score in enumerate(truth):
        if score is not None:
            assert run.floor(column) <= score, (column, run.floor(column), score)
    cells, ply = 42, len(moves)
    at_once = [c for c, s in enumerate(truth) if s == -((cells - ply) // 2)]  # the moves that lose at once
    assert all(run.floor(c) == truth[c] for c in at_once)  # exactly their score: nothing is worse
