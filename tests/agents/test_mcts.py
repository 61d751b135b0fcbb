"""MCTS: tactics from the root check, MCTS-Solver proofs, budgets, seeds, the fast path and strength."""

from __future__ import annotations

import time

import pytest

from zerosum import ConnectX, Limits, Migration, TicTacToe, make_agent
from zerosum.agents.base import win_value
from zerosum.agents.mcts import MCTSAgent, tactical_move
from zerosum.agents.mcts_tree import LOST
from zerosum.agents.simple import FirstAgent
from zerosum.errors import AgentError

from agent_helpers import blocking_column, immediate_wins, random_position, tactical_positions

PATHS = ["fast=1", "fast=0"]


def proved(result) -> bool:  # type: ignore[no-untyped-def]
    """A proven win or loss, with its exact distance or in outcome only (the sign of ``value`` says which)."""
    return result.proven or result.outcome is not None


@pytest.mark.parametrize("path", PATHS)
def test_plays_a_win_in_one_even_with_one_simulation(path: str) -> None:
    game = ConnectX()
    for state in tactical_positions(game, "win", 10, seed=3):
        result = make_agent(f"mcts:sims=1,{path}").search(game, state)
        assert result.action in immediate_wins(game, state)
        assert result.value == win_value(1)


@pytest.mark.parametrize("path", PATHS)
def test_blocks_a_loss_in_one(path: str) -> None:
    game = ConnectX()
    for state in tactical_positions(game, "block", 10, seed=4):
        _, _, safe = tactical_move(game, state)
        result = make_agent(f"mcts:sims=50,seed=1,{path}").search(game, state)
        if len(safe) < len(game.actions(state)):  # some move is safe: it must be the block
            assert result.action == blocking_column(game, state)


@pytest.mark.parametrize("path", PATHS)
def test_finds_a_win_in_two(path: str) -> None:
    game = ConnectX()
    state = game.from_moves("3344")  # X: columns 3 and 4 on the bottom row; 2 or 5 makes an open three
    result = make_agent(f"mcts:sims=1,{path}").search(game, state)
    assert result.action in (1, 4) and result.value == win_value(3)
    after = game.result(state, result.action)
    for reply in game.actions(after):  # whatever O does, X wins next move
        assert immediate_wins(game, game.result(after, reply))


def test_tactical_move_on_tictactoe() -> None:
    game = TicTacToe()
    state = game.from_moves("1425")  # X: 1, 2 (top row); O: 4, 5: X wins at 3
    assert tactical_move(game, state)[:2] == (2, win_value(1))
    state = game.from_moves("142")  # O to move must block at 3
    action, value, safe = tactical_move(game, state)
    assert action is None and safe == [2]
    assert make_agent("mcts:sims=10").search(game, state).action == 2


def test_solver_proves_small_games() -> None:
    # 4 x 4 with three in a row: the first player wins (alpha-beta to the end says so)
    game = ConnectX(4, 4, 3)
    exact = make_agent("alphabeta:depth=99").search(game, game.initial_state).value
    result = make_agent("mcts:sims=300000,seed=1").search(game, game.initial_state)
    assert proved(result) and (result.value > 0) == (exact > 0)
    assert result.nodes < 300000  # a proven root stops the search early
    # Tic-Tac-Toe after X in a corner and O on an edge next to it: X wins; the generic path proves it
    ttt = TicTacToe()
    state = ttt.from_moves("12")
    result = make_agent("mcts:sims=20000,seed=2").search(ttt, state)
    assert proved(result) and result.value > 0 and make_agent("minimax").search(ttt, state).value > 0


@pytest.mark.parametrize("path", PATHS)
def test_simulation_budget_and_result(path: str) -> None:
    game = ConnectX()
    result = make_agent(f"mcts:sims=300,seed=5,{path}").search(game, game.initial_state)
    assert result.nodes == 300
    assert result.action in game.actions(game.initial_state) and result.pv[0] == result.action
    assert -1 <= result.value <= 1 and set(result.scores) == set(range(7))


@pytest.mark.parametrize("path", PATHS)
def test_time_limit_is_met(path: str) -> None:
    game = ConnectX()
    make_agent(f"mcts:sims=10,{path}").search(game, game.initial_state)  # compile/load the kernels first
    t0 = time.perf_counter()
    result = make_agent(f"mcts:time=0.3,{path}").search(game, game.initial_state)
    assert time.perf_counter() - t0 < 0.3 + 1.5  # a shared, loaded machine: loose on purpose
    assert result.nodes > 0


@pytest.mark.parametrize("spec", ["mcts:sims=100,seed=7", "mcts:sims=100,seed=7,fast=0",
                                  "mcts:sims=60,seed=7,playout=greedy", "mcts:sims=60,seed=7,playout=greedy,fast=0"])
def test_same_seed_same_game(spec: str) -> None:
    game = ConnectX()

    def play() -> list[int]:
        players = {1: make_agent(spec), 2: make_agent("random:seed=3")}
        state = game.initial_state
        moves = []
        while not game.is_terminal(state):
            move = players[game.player(state)](game, state)
            moves.append(move)
            state = game.result(state, move)
        return moves

    assert play() == play()


def test_fast_and_generic_paths_agree_on_the_empty_board() -> None:
    # both reach the same statistics: the centre column is the most visited and scores best
    game = ConnectX()
    for path in PATHS:
        result = make_agent(f"mcts:sims=6000,seed=11,{path}").search(game, game.initial_state)
        assert result.action == 3, path
        assert max(result.scores, key=result.scores.get) == 3


def test_most_visited_child_is_chosen() -> None:
    game = ConnectX()
    agent = MCTSAgent(limits=Limits(simulations=500), seed=1, fast=False)
    state = game.from_moves("44")
    chosen = agent.search(game, state).action
    agent.reset()
    # rebuild the root's statistics through the generic search and check the rule on them
    from zerosum.agents import mcts as M

    seen = {}
    original = M.MCTSAgent._answer

    def spy(self, game_, state_, root, *args):
        seen["children"] = [(ch.action, ch.visits, ch.total, ch.proof) for ch in root.children]
        return original(self, game_, state_, root, *args)

    M.MCTSAgent._answer = spy
    try:
        again = agent.search(game, state).action
    finally:
        M.MCTSAgent._answer = original
    assert again == chosen
    rank = {a: i for i, a in enumerate(game.actions(state))}
    pool = [c for c in seen["children"] if c[3] != LOST]
    best = min(pool, key=lambda c: (-c[1], -(c[2] / c[1] if c[1] else 0), rank[c[0]]))
    assert best[0] == chosen


def test_other_playouts_and_games() -> None:
    game = ConnectX(4, 5, 3)
    for playout in ("greedy", "alphabeta"):
        assert make_agent(f"mcts:sims=40,seed=1,playout={playout}")(game, game.initial_state) in game.actions(
            game.initial_state)
    agent = MCTSAgent(limits=Limits(simulations=30), seed=1, playout=FirstAgent())
    assert agent(game, game.initial_state) in range(5)
    m = Migration(6)
    assert make_agent("mcts:sims=100,seed=1")(m, m.initial_state) in m.actions(m.initial_state)
    big = ConnectX(9, 9, 5)  # does not fit 64 bits: the generic path
    assert not big.fits_64
    assert make_agent("mcts:sims=50,seed=1")(big, big.initial_state) in range(9)


def test_beats_random_every_game() -> None:
    game = ConnectX()
    for game_no in range(10):
        seat = 1 + game_no % 2
        players = {seat: make_agent(f"mcts:sims=200,seed={game_no}"), 3 - seat: make_agent(f"random:seed={game_no}")}
        state = game.initial_state
        while not game.is_terminal(state):
            state = game.result(state, players[game.player(state)](game, state))
        assert game.winner(state) == seat


def test_bad_options() -> None:
    for spec in ("mcts:playout=smart", "mcts:c=-1", "mcts:depth=3", "mcts:sims=0", "mcts:time=0", "mcts:fast=2"):
        with pytest.raises(AgentError):
            make_agent(spec)
    with pytest.raises(AgentError):
        MCTSAgent(playout=42)  # type: ignore[arg-type]
    game = ConnectX()
    with pytest.raises(AgentError, match="game is over"):
        make_agent("mcts:sims=10").search(game, game.from_moves("1212121"))
    state = random_position(game, 5, 1)
    copy = (state, game.to_moves(state))
    make_agent("mcts:sims=50")(game, state)
    assert (state, game.to_moves(state)) == copy


def test_fast_and_generic_proofs_agree_with_alphabeta() -> None:
    game = ConnectX(4, 4, 3)
    proven = 0
    for seed in range(10):
        state = random_position(game, 3 + seed % 3, 500 + seed)
        exact = make_agent("alphabeta:depth=99").search(game, state).value
        for path in PATHS:
            result = make_agent(f"mcts:sims=20000,seed=1,{path}").search(game, state)
            if proved(result):
                assert (result.value > 0) == (exact > 0) and exact != 0, (path, game.to_moves(state))
                proven += 1
    assert proven >= 12


def cells_agent(sims: int, seed: int, **options) -> MCTSAgent:
    agent = MCTSAgent(limits=Limits(simulations=sims), seed=seed, **options)
    agent._cells = True  # the cell-array kernel, even where the bitboard one fits
    return agent


def test_cell_kernel_proofs_agree_with_alphabeta() -> None:
    game = ConnectX(4, 4, 3)
    proven = 0
    for seed in range(10):
        state = random_position(game, 3 + seed % 3, 500 + seed)
        exact = make_agent("alphabeta:depth=99").search(game, state).value
        for playout in ("random", "greedy"):
            result = cells_agent(20000, 1, playout=playout).search(game, state)
            if proved(result):
                assert (result.value > 0) == (exact > 0) and exact != 0, game.to_moves(state)
                proven += 1
    assert proven >= 12


def test_cell_kernel_runs_boards_beyond_64_bits() -> None:
    game = ConnectX(8, 8, 4)
    assert not game.fits_64 and MCTSAgent()._uses_fast_path(game)
    result = make_agent("mcts:sims=3000,seed=2").search(game, game.initial_state)
    assert result.nodes == 3000 and result.action in (3, 4)
    for state in tactical_positions(game, "win", 5, seed=6):
        assert make_agent("mcts:sims=5").search(game, state).action in immediate_wins(game, state)
    first = [make_agent("mcts:sims=200,seed=4").search(game, game.from_moves("45")).pv for _ in range(2)]
    assert first[0] == first[1]
    # the cell kernel and the bitboard kernel see the same board the same way on 7 x 6
    c4 = ConnectX()
    a = cells_agent(6000, 11).search(c4, c4.initial_state)
    b = make_agent("mcts:sims=6000,seed=11").search(c4, c4.initial_state)
    assert a.action == b.action == 3


@pytest.mark.parametrize("path", PATHS)
def test_avoids_walking_into_a_loss_in_two(path: str) -> None:
    game = ConnectX()
    state = game.from_moves("6436313324445")  # O to move; column 5 would give X a forced win
    child = game.result(state, 4)
    assert make_agent("alphabeta:depth=4").search(game, child).value == win_value(3)
    assert tactical_move(game, state)[2] == [0, 1, 2, 3, 5, 6]
    for seed in range(5):
        assert make_agent(f"mcts:sims=100,seed={seed},{path}")(game, state) != 4


def expected_proofs(game: ConnectX, state) -> dict[int, int]:  # type: ignore[no-untyped-def]
    """Brute force: 1 for a move that wins, -1 for one after which the opponent wins at once, 2 for a
    move that fills the board, 0 otherwise (proofs for the player who moves, as the tree stores them)."""
    me = game.player(state)
    proofs = {}
    for a in game.actions(state):
        s1 = game.result(state, a)
        if game.winner(s1) == me:
            proofs[a] = 1
        elif any(game.winner(game.result(s1, b)) == game.player(s1) for b in game.actions(s1)):
            proofs[a] = -1
        else:
            proofs[a] = 2 if game.is_terminal(s1) else 0
    return proofs


@pytest.mark.parametrize("game", [ConnectX(), ConnectX(4, 5, 3)], ids=["7x6", "5x4k3"])
def test_expansion_marks_moves_that_let_the_opponent_win_at_once(game: ConnectX) -> None:
    # every path's children at expansion: wins and draws proven, and a move that leaves (or uncovers) a
    # winning cell for the opponent proven lost, so the tree never spends a simulation on it
    import numpy as np

    from zerosum.agents import kernels as fast
    from zerosum.agents.mcts import _Node

    cols = game.cols
    lost = 0
    for seed in range(150):
        state = random_position(game, 4 + seed % 25, 900 + seed)
        truth = expected_proofs(game, state)
        lost += sum(1 for p in truth.values() if p == -1)
        agent = MCTSAgent()
        root = _Node(state, None, None)
        generic = {a: agent._child(game, root, a).proof for a in game.actions(state)}
        assert generic == truth, game.to_moves(state)
        allowed = np.array(game.actions(state), dtype=np.int64)
        n = 1 + cols
        pos, ints = np.zeros((n, 2), dtype=np.uint64), np.zeros((n, fast.T_FIELDS), dtype=np.int64)
        total, meta = np.zeros(n), np.zeros(2, dtype=np.int64)
        rng = np.array([seed * 2 + 1], dtype=np.uint64)
        fast.mcts_init(np.uint64(state.current), np.uint64(state.mask), allowed, pos, ints, total, meta, game.rows,
                       cols, game.k, rng)
        bits = {int(ints[i, fast.T_MOVE]): int(ints[i, fast.T_PROOF]) for i in range(1, meta[0])}
        grid, heights, _ = fast.grid_of(game, state, np.zeros((2, game.cells), dtype=np.uint64))
        fast.mcts_init_grid(grid, heights, state.to_move, state.ply, allowed, ints, total, meta, game.rows, cols,
                            game.k, rng)
        cells = {int(ints[i, fast.T_MOVE]): int(ints[i, fast.T_PROOF]) for i in range(1, meta[0])}
        assert bits == cells == truth, game.to_moves(state)
    assert lost >= 50
