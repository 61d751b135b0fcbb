"""OpenSpiel adapter: games and states both ways, lockstep random games, bots both ways."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from zerosum import ConnectX, Limits, TicTacToe, get_game, make_agent  # noqa: E402
from zerosum.errors import AgentError, InvalidPositionError  # noqa: E402
from zerosum.interop import openspiel as zo  # noqa: E402

BOARDS = [(6, 7, 4), (5, 4, 3), (4, 9, 4), (7, 5, 5), (3, 3, 3), (8, 8, 4)]


def lockstep_games(game, n_games: int, seed: int) -> int:
    """Random games played in both engines at once; every step must agree.  Returns the steps checked."""
    rng = random.Random(seed)
    ps_game = zo.to_pyspiel_game(game)
    steps = 0
    for _ in range(n_games):
        state, ps_state = game.initial_state, ps_game.new_initial_state()
        while True:
            steps += 1
            terminal = game.is_terminal(state)
            assert terminal == ps_state.is_terminal()
            if terminal:
                assert ps_state.returns() == [game.utility(state, 1), game.utility(state, 2)]
                assert game.actions(state) == [] and ps_state.legal_actions() == []
                break
            assert ps_state.current_player() == game.player(state) - 1
            assert ps_state.returns() == [0.0, 0.0]
            legal = game.actions(state)
            assert legal == ps_state.legal_actions()
            action = rng.choice(legal)
            state = game.result(state, action)
            ps_state.apply_action(action)
    return steps


@pytest.mark.parametrize("rows,cols,k", BOARDS)
def test_connect_four_lockstep(rows: int, cols: int, k: int) -> None:
    assert lockstep_games(ConnectX(rows, cols, k), 100, seed=rows * 31 + cols) > 100


def test_tic_tac_toe_lockstep() -> None:
    assert lockstep_games(TicTacToe(), 400, seed=9) > 400


@pytest.mark.slow
@pytest.mark.parametrize("rows,cols,k", BOARDS)
def test_connect_four_lockstep_many(rows: int, cols: int, k: int) -> None:
    lockstep_games(ConnectX(rows, cols, k), 5000, seed=rows + cols)


@pytest.mark.slow
def test_tic_tac_toe_lockstep_many() -> None:
    lockstep_games(TicTacToe(), 20000, seed=1)


def test_games_both_ways() -> None:
    for rows, cols, k in BOARDS:
        game = ConnectX(rows, cols, k)
        ps_game = zo.to_pyspiel_game(game)
        assert ps_game.get_parameters()["rows"] == rows and ps_game.get_parameters()["x_in_row"] == k
        assert zo.from_pyspiel_game(ps_game) == game
    assert zo.from_pyspiel_game(zo.to_pyspiel_game(TicTacToe())) == TicTacToe()
    with pytest.raises(AgentError, match="no counterpart"):
        zo.to_pyspiel_game(get_game("migration:n=5"))
    with pytest.raises(AgentError, match="no counterpart"):
        zo.from_pyspiel_game(pyspiel.load_game("kuhn_poker"))


def ps_grid(ps_state) -> str:
    """OpenSpiel's board text in zerosum's grid notation (x is the first player, o the second)."""
    return str(ps_state).strip().replace("x", "X").replace("o", "O")


@pytest.mark.parametrize("rows,cols,k", BOARDS[:4])
def test_states_both_ways_with_and_without_history(rows: int, cols: int, k: int) -> None:
    game = ConnectX(rows, cols, k)
    rng = random.Random(rows * cols)
    for _ in range(60):
        state = game.initial_state
        for _ in range(rng.randrange(game.cells)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        ps_state = zo.to_pyspiel_state(game, state)
        assert ps_grid(ps_state) == game.to_grid(state)
        assert zo.from_pyspiel_state(ps_state) == state
        # the same board from a grid has no history: a move order is found by taking stones back
        from_grid = game.from_grid(game.to_grid(state))
        assert from_grid.history is None
        ps_again = zo.to_pyspiel_state(game, from_grid)
        assert ps_grid(ps_again) == game.to_grid(state)
        assert ps_again.is_terminal() == game.is_terminal(state)
        assert ps_again.returns() == ps_state.returns()


def test_tic_tac_toe_states_both_ways() -> None:
    game = TicTacToe()
    rng = random.Random(4)
    for _ in range(100):
        state = game.initial_state
        for _ in range(rng.randrange(10)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(game.actions(state)))
        ps_state = zo.to_pyspiel_state(game, state)
        assert ps_grid(ps_state) == game.render(state)
        assert zo.from_pyspiel_state(ps_state) == state
        assert ps_state.returns() == [game.utility(state, 1), game.utility(state, 2)]


def test_positions_no_play_reaches_are_refused() -> None:
    game = ConnectX(6, 7, 4)
    # O to move while O already has four in a line: X moved after the game ended
    grid = "\n".join(["......."] * 2 + ["O......", "O......", "O.X....", "OXXX..."])
    state = game.from_grid(grid, strict=False, to_move=2)
    with pytest.raises(InvalidPositionError, match="no order of play"):
        zo.to_pyspiel_state(game, state)
    ttt = TicTacToe()
    from zerosum.games.tictactoe import TicTacToeState

    with pytest.raises(InvalidPositionError):
        zo.move_sequence(ttt, TicTacToeState((1, 1, 0, 0, 0, 0, 0, 0, 0)))  # two X, no O
    with pytest.raises(InvalidPositionError):
        zo.move_sequence(ttt, TicTacToeState((1, 1, 1, 2, 2, 2, 0, 0, 0)))  # both have lines


# ---- bots both ways -----------------------------------------------------------------------------------


def test_zerosum_agents_as_openspiel_bots() -> None:
    for ps_game in (pyspiel.load_game("connect_four"), pyspiel.load_game("tic_tac_toe"),
                    pyspiel.load_game("connect_four", {"rows": 5, "columns": 9, "x_in_row": 3})):
        for seed in range(5):
            returns = pyspiel.evaluate_bots(ps_game.new_initial_state(), [zo.bot("random", seed=seed), zo.bot("first")],
                                            seed)
            assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    # "first" always plays the first legal action: against itself on connect_four, X stacks column 0 and wins
    state = pyspiel.load_game("connect_four").new_initial_state()
    assert pyspiel.evaluate_bots(state, [zo.bot("first"), zo.bot("first")], 0) == [1.0, -1.0]


def test_openspiel_bots_as_zerosum_agents() -> None:
    game = ConnectX(5, 6, 4)
    uniform = zo.BotAgent(lambda ps_game: pyspiel.make_uniform_random_bot(0, 7))
    rng = random.Random(3)
    for _ in range(10):
        state = game.initial_state
        while not game.is_terminal(state):
            action = uniform(game, state) if game.player(state) == 1 else rng.choice(game.actions(state))
            state = game.result(state, action)
    with pytest.raises(AgentError, match="game is over"):
        uniform(game, state)


def test_seat_specific_openspiel_bots_play_both_seats() -> None:
    # pyspiel's uniform random bot crashes the interpreter when asked to move for the other seat; a factory
    # taking the seat makes one bot a seat, so one BotAgent plays both sides of whole games
    seats: list[int] = []

    def make(ps_game, player):  # type: ignore[no-untyped-def]
        seats.append(player)
        return pyspiel.make_uniform_random_bot(player, 11 + player)

    both = zo.BotAgent(make)
    game = ConnectX(5, 6, 4)
    for _ in range(5):
        state = game.initial_state
        while not game.is_terminal(state):
            action = both(game, state)
            assert action in game.actions(state)
            state = game.result(state, action)
    assert sorted(seats) == [0, 1]  # one bot a seat, made once


def test_openspiel_mcts_spec() -> None:
    agent = make_agent("openspiel-mcts:sims=300,c=1.4,seed=5")
    assert agent.limits == Limits(simulations=300)
    game = ConnectX()
    # an immediate win (column 4 completes four in a column) is found
    state = game.from_moves("414141")
    assert agent(game, state) == 3
    # and a win must be blocked
    assert agent(game, game.from_moves("1414147")) == 3  # O to move completes column 4 (before X does column 1)
    ttt = TicTacToe()
    assert agent(ttt, ttt.from_moves("1425")) == 2  # X completes the top row (cells 1 2 3)
    timed = make_agent("openspiel-mcts:time=0.05,seed=1")
    assert timed(game, game.initial_state) in range(7)
    with pytest.raises(AgentError):
        make_agent("openspiel-mcts:solve=2")
    with pytest.raises(AgentError, match="no counterpart"):
        agent(get_game("migration:n=5"), get_game("migration:n=5").initial_state)


def test_every_counterpart_in_the_table_converts_both_ways() -> None:
    for pair in zo.GAMES.values():
        game = get_game(pair.ours)
        ps_game = zo.to_pyspiel_game(game)
        assert ps_game.get_type().short_name == pair.theirs
        assert zo.from_pyspiel_game(ps_game) == game
        assert ps_game.num_distinct_actions() == game.action_space_size


def test_a_position_of_a_placement_game_built_from_cells_is_searched_back() -> None:
    game = ConnectX(6, 7, 4)
    state = game.from_moves("4453")
    built = game.from_board(game.board_view(state).cells, game.player(state))
    assert game.moves_played(built) is None
    ps_state = zo.to_pyspiel_state(game, built)
    assert zo.from_pyspiel_state(ps_state) == state
