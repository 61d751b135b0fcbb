"""Counts against published truth: OEIS A212693 (7 x 6 positions by ply) and Tic-Tac-Toe's game tree."""

from __future__ import annotations

from zerosum import ConnectX, TicTacToe

# OEIS A212693: distinct 7 x 6 Connect Four positions after n plies, play stopping at a win.
A212693 = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]


def test_connect4_positions_by_ply_match_oeis_a212693() -> None:
    game = ConnectX()
    layer = {game.initial_state}
    counts = [1]
    for _ in range(len(A212693) - 1):
        nxt = set()
        for state in layer:
            for action in game.actions(state):  # empty at a win: play stops there
                nxt.add(game.result(state, action))
        layer = nxt
        counts.append(len(layer))
    assert counts == A212693


def test_tictactoe_game_tree() -> None:
    game = TicTacToe()
    wins = {1: 0, 2: 0, None: 0}
    seen = set()

    def walk(state) -> None:
        seen.add(state)
        out = game.outcome(state)
        if out is not None:
            wins[out.winner] += 1
            return
        for action in game.actions(state):
            walk(game.result(state, action))

    walk(game.initial_state)
    assert sum(wins.values()) == 255_168
    assert (wins[1], wins[2], wins[None]) == (131_184, 77_904, 46_080)
    assert len(seen) == 5_478
