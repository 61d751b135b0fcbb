"""Othello: perft against OEIS A124004, the rules against a plain reference and OpenSpiel, notation, evaluations."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum import get_game
from zerosum.errors import GameError, IllegalMoveError, InvalidMoveError, InvalidSpecError
from zerosum.games.othello import Othello, OthelloState

#: OEIS A124004, the number of move paths of each length from the start (passes count as moves)
A124004 = (1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288)
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def perft(game: Othello, state: OthelloState, depth: int) -> int:
    """Move paths of exactly ``depth`` actions (a game that ends sooner has none)."""
    if depth == 0:
        return 1
    result, actions = game.result, game.actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(game, result(state, a), depth - 1) for a in actions)


@pytest.mark.parametrize("depth", range(8))
def test_perft_from_the_start_equals_oeis_a124004(depth: int) -> None:
    game = get_game("othello")
    assert perft(game, game.initial_state, depth) == A124004[depth]  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [8, 9])
def test_deep_perft_equals_oeis_a124004(depth: int) -> None:
    game = Othello()
    assert perft(game, game.initial_state, depth) == A124004[depth]


# ---- a plain reference: cells and the eight directions ---------------------------------------------------


def grid(game: Othello, state: OthelloState) -> list[list[int]]:
    return [list(row) for row in game.board_view(state).cells]


def reference_flips(board: list[list[int]], r: int, c: int, me: int) -> list[tuple[int, int]]:
    n = len(board)
    if board[r][c]:
        return []
    out: list[tuple[int, int]] = []
    for dr, dc in DIRECTIONS:
        run, rr, cc = [], r + dr, c + dc
        while 0 <= rr < n and 0 <= cc < n and board[rr][cc] == 3 - me:
            run.append((rr, cc))
            rr, cc = rr + dr, cc + dc
        if run and 0 <= rr < n and 0 <= cc < n and board[rr][cc] == me:
            out += run
    return out


def reference_moves(board: list[list[int]], me: int) -> list[int]:
    n = len(board)
    return [r * n + c for r in range(n) for c in range(n) if reference_flips(board, r, c, me)]


def random_game(game: Othello, seed: int, plies: int = 10_000) -> list[OthelloState]:
    rng, state = random.Random(seed), game.initial_state
    states = [state]
    while plies > 0 and game.actions(state):
        state = game.result(state, rng.choice(game.actions(state)))
        states.append(state)
        plies -= 1
    return states


sizes = st.sampled_from([4, 6, 8, 10, 16])


@settings(max_examples=60, deadline=None)
@given(n=sizes, seed=st.integers(0, 2**32))
def test_moves_and_flips_equal_a_plain_reference_on_every_board(n: int, seed: int) -> None:
    game = Othello(n)
    states = random_game(game, seed)
    for before, after in zip(states, states[1:]):
        board, me = grid(game, before), before.to_move
        mine, theirs = reference_moves(board, me), reference_moves(board, 3 - me)
        want = mine or ([n * n] if theirs else [])
        assert game.actions(before) == want
        action = after.history[-1]
        if action == n * n:  # a pass changes only the side to move
            assert (after.black, after.white, after.to_move) == (before.black, before.white, 3 - me)
            continue
        r, c = divmod(action, n)
        for rr, cc in reference_flips(board, r, c, me) + [(r, c)]:
            board[rr][cc] = me
        assert grid(game, after) == board and after.to_move == 3 - me
    last = states[-1]
    assert game.actions(last) == [] and game.is_terminal(last)
    black, white = last.black.bit_count(), last.white.bit_count()
    assert game.winner(last) == (None if black == white else 1 if black > white else 2)


def transform(n: int, k: int) -> Any:
    """The k-th of the board's eight symmetries, on (row, col)."""
    def f(r: int, c: int) -> tuple[int, int]:
        for _ in range(k % 4):
            r, c = c, n - 1 - r
        return (c, r) if k >= 4 else (r, c)
    return f


@settings(max_examples=40, deadline=None)
@given(n=sizes, seed=st.integers(0, 2**32), plies=st.integers(0, 80), k=st.integers(0, 7))
def test_legal_moves_turn_with_the_board(n: int, seed: int, plies: int, k: int) -> None:
    game = Othello(n)
    state = random_game(game, seed, plies)[-1]
    f = transform(n, k)

    def moved(bits: int) -> int:
        return sum(1 << (f(*divmod(i, n))[0] * n + f(*divmod(i, n))[1]) for i in range(n * n) if bits >> i & 1)

    turned = OthelloState(moved(state.black), moved(state.white), state.to_move)
    want = sorted(f(*divmod(a, n))[0] * n + f(*divmod(a, n))[1] if a < n * n else a for a in game.actions(state))
    assert game.actions(turned) == want


@settings(max_examples=40, deadline=None)
@given(n=sizes, seed=st.integers(0, 2**32), plies=st.integers(0, 60), action=st.integers(-3, 300))
def test_an_illegal_action_raises_and_changes_nothing(n: int, seed: int, plies: int, action: int) -> None:
    game = Othello(n)
    state = random_game(game, seed, plies)[-1]
    copy = OthelloState(state.black, state.white, state.to_move)
    if action in game.actions(state):
        assert game.result(state, action) != state
        return
    with pytest.raises(IllegalMoveError):
        game.result(state, action)
    assert state == copy


@pytest.mark.parametrize("bad", ["d3", 3.0, None, True, (2, 3)])
def test_a_malformed_action_is_one_invalid_move_error(bad: object) -> None:
    with pytest.raises(InvalidMoveError, match="cell number"):
        Othello().result(Othello().initial_state, bad)  # type: ignore[arg-type]


def test_the_shortest_game_ends_when_neither_side_can_move() -> None:
    game = Othello()
    actions = game.parse_moves("d3c3b3d2e1d6d7e3f4")  # nine moves, a wipe-out
    end = game.states_of(actions)[-1]
    assert game.actions(end) == [] and game.winner(end) == 1 and end.white == 0
    with pytest.raises(IllegalMoveError, match="game is over"):
        game.result(end, 64)


# ---- specs, notation, pictures ---------------------------------------------------------------------------


def test_specs_name_even_boards_from_4_to_16() -> None:
    assert get_game("othello") == Othello(8) and get_game("othello:n=6") == Othello(6)
    assert get_game(get_game("othello:n=6").spec) == Othello(6)
    assert get_game("othello").title == "Othello 8 x 8"
    for bad in ("othello:n=7", "othello:n=2", "othello:n=18", "othello:rows=8", "othello:n=x"):
        with pytest.raises(InvalidSpecError):
            get_game(bad)
    with pytest.raises(InvalidSpecError, match="256 cells"):
        get_game("othello:n=16", max_cells=100)


def test_the_start_is_the_standard_one_black_first() -> None:
    game = Othello()
    assert game.render(game.initial_state).splitlines()[4:6] == ["4 . . . o x . . .", "5 . . . x o . . ."]
    assert game.player(game.initial_state) == 1 and game.player_label(1) == "black"
    assert [game.format_action(a) for a in game.actions(game.initial_state)] == ["d3", "c4", "f5", "e6"]
    small = Othello(4)
    assert small.board_view(small.initial_state).cells == ((0, 0, 0, 0), (0, 2, 1, 0), (0, 1, 2, 0), (0, 0, 0, 0))


@settings(max_examples=40, deadline=None)
@given(n=sizes, seed=st.integers(0, 2**32))
def test_move_strings_round_trip(n: int, seed: int) -> None:
    game = Othello(n)
    actions = list(random_game(game, seed)[-1].history)
    text = game.format_moves(actions)
    assert game.parse_moves(text) == actions
    assert game.parse_moves(" ".join(game.format_action(a) for a in actions).upper()) == actions
    assert all(game.parse_action(game.format_action(a)) == a for a in actions)


def test_a_pass_may_be_left_out_of_a_move_string() -> None:
    game = Othello()
    for seed in range(200):
        actions = list(random_game(game, seed)[-1].history)
        if 64 in actions[:-1]:
            break
    else:  # pragma: no cover
        pytest.fail("no random game with a pass")
    short = "".join(game.format_action(a) for a in actions if a != 64)
    assert game.parse_moves(short) == actions
    assert "pass" in game.format_moves(actions)


@pytest.mark.parametrize("text,cls,words", [
    ("f5d6x3", InvalidMoveError, "move 3 of 'f5d6x3'.*not an Othello move"),
    ("f5 i1", IllegalMoveError, "i1 is outside the 8 x 8 board"),
    ("f5f5", IllegalMoveError, "move 2.*taken; legal moves: f4 d6 f6"),
    ("a1", IllegalMoveError, "flips no disc"),
    ("pass", IllegalMoveError, "black has a move"),
    ("f5,,d6", InvalidMoveError, "has an empty move after move 1"),  # as Connect-X says it
    ("d3" * 3000, InvalidMoveError, "at most"),
])
def test_bad_move_strings_name_the_move(text: str, cls: type, words: str) -> None:
    with pytest.raises(cls, match=words) as info:
        Othello().parse_moves(text)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_the_board_view_shows_discs_labels_and_the_flips() -> None:
    game = Othello()
    actions = game.parse_moves("f5d6")
    state = game.states_of(actions)[-1]
    view = game.board_view(state, last=actions[-1])
    assert view.col_labels[0] == "a" and view.row_labels[-1] == "8" and not view.gravity
    assert view.pass_action == "pass" and view.highlight == ()
    assert sorted(view.last) == [(4, 3), (5, 3)]  # d6 placed, d5 flipped
    assert view.cells[4][3] == view.cells[5][3] == 2
    assert game.action_at(state, 2, 2) == 18 and game.action_at(state, 0, 0) is None
    assert game.winning_line(state) == []


# ---- evaluations ------------------------------------------------------------------------------------------


def position(game: Othello, rows: list[str], to_move: int = 1) -> OthelloState:
    black = white = 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            black |= (ch == "x") << (r * game.n + c)
            white |= (ch == "o") << (r * game.n + c)
    return OthelloState(black, white, to_move)


def test_evaluations_are_offered_by_name_combined_first() -> None:
    assert list(Othello().evaluations()) == ["combined", "mobility", "corners", "stability"]


def test_corners_stability_and_mobility_on_a_drawn_position() -> None:
    game = Othello(4)
    state = position(game, ["xxxo",
                            "x.o.",
                            ".xo.",
                            "o..o"])
    ev = game.evaluations()
    assert ev["corners"](game, state, 1) == 1 - 3
    # black: the whole top row is filled (x x x) and a1's run down the left edge adds a2; white: d1 (filled
    # top row), a4, d4 (corners)
    assert ev["stability"](game, state, 1) == 4 - 3
    own = [a for a in game.actions(OthelloState(state.black, state.white, 1)) if a < 16]
    theirs = [a for a in game.actions(OthelloState(state.black, state.white, 2)) if a < 16]
    assert ev["mobility"](game, state, 1) == len(own) - len(theirs)
    assert ev["combined"](game, state, 1) == 10 * (len(own) - len(theirs)) + 100 * -2 + 25 * 1


@settings(max_examples=30, deadline=None)
@given(n=sizes, seed=st.integers(0, 2**32), plies=st.integers(0, 120))
def test_evaluations_are_whole_and_antisymmetric(n: int, seed: int, plies: int) -> None:
    game = Othello(n)
    state = random_game(game, seed, plies)[-1]
    for name, f in game.evaluations().items():
        a, b = f(game, state, 1), f(game, state, 2)
        assert isinstance(a, int) and a == -b, name
    stable = game.stable_discs(state, 1) | game.stable_discs(state, 2)
    assert stable & ~(state.black | state.white) == 0


def test_stable_discs_are_never_flipped() -> None:
    game = Othello(6)
    for seed in range(30):
        states = random_game(game, seed)
        for i, state in enumerate(states):
            for player in (1, 2):
                stable = game.stable_discs(state, player)
                for later in states[i + 1:]:
                    assert later.discs(player) & stable == stable


# ---- OpenSpiel's othello, step by step ---------------------------------------------------------------------


BLACK, WHITE = str.maketrans("x-o", "100"), str.maketrans("x-o", "001")  # OpenSpiel's board text to bits


def lockstep(games: int, seed: int) -> int:
    pyspiel = pytest.importorskip("pyspiel")
    game, ps_game = Othello(), pyspiel.load_game("othello")
    rng, steps = random.Random(seed), 0
    for _ in range(games):
        state, ps_state = game.initial_state, ps_game.new_initial_state()
        while True:
            actions = game.actions(state)
            assert actions == ([] if ps_state.is_terminal() else ps_state.legal_actions())
            if not actions:
                break
            assert ps_state.current_player() == game.player(state) - 1
            action = rng.choice(actions)
            assert ps_state.action_to_string(ps_state.current_player(), action) == game.format_action(action)
            state = game.result(state, action)
            ps_state.apply_action(action)
            cells = "".join(row[2:17:2] for row in str(ps_state).splitlines()[2:10])[::-1]  # bit 0 last
            assert int(cells.translate(BLACK), 2) == state.black and int(cells.translate(WHITE), 2) == state.white
            steps += 1
        assert ps_state.returns() == [game.utility(state, 1), game.utility(state, 2)]
    return steps


def test_random_games_agree_step_by_step_with_openspiel() -> None:
    assert lockstep(2000, seed=12) > 100_000


@pytest.mark.slow
def test_many_random_games_agree_step_by_step_with_openspiel() -> None:
    assert lockstep(30_000, seed=2024) > 1_500_000


def test_errors_are_game_errors() -> None:
    game = Othello()
    for bad in ("", "zz", "a0", "p1"):
        with pytest.raises(GameError):
            game.parse_action(bad, game.initial_state)


def test_othello_is_public_at_the_top_level() -> None:
    import zerosum
    from zerosum.games import registered_games

    assert zerosum.Othello is Othello and Othello in registered_games()
    assert get_game("othello") == get_game("othello:n=8") != get_game("othello:n=6")
