"""Your own game plays (#22, item 1): a game class written the way the courses write it -- AIMA's Tic-Tac-Toe
(a GameState namedtuple with to_move, utility, board, moves; ``display`` prints) and easyAI's Nim (the
object is the position; ``possible_moves``, ``make_move``, ``scoring``) -- plays with every agent, in
``trace``, ``play_game``, ``match`` and on the command line, checked against a brute-force minimax and
Nim's known winning rule written here.  This file is also a game file: ``path/to/this.py:TicTacToe``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import namedtuple
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zerosum
from zerosum import make_agent
from zerosum.errors import GameError, IllegalMoveError, InvalidSpecError

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent.parent

# ---- the course's games, written as the courses write them ------------------------------------------------

GameState = namedtuple("GameState", "to_move, utility, board, moves")


class TicTacToe:
    """AIMA's Tic-Tac-Toe: the board a dict {(x, y): player}, moves the free cells, X first."""

    def __init__(self, h=3, v=3, k=3):
        self.h, self.v, self.k = h, v, k
        moves = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.initial = GameState(to_move="X", utility=0, board={}, moves=moves)

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        if move not in state.moves:
            return state  # illegal move has no effect
        board = state.board.copy()
        board[move] = state.to_move
        moves = list(state.moves)
        moves.remove(move)
        return GameState(to_move=("O" if state.to_move == "X" else "X"),
                         utility=self.compute_utility(board, move, state.to_move), board=board, moves=moves)

    def utility(self, state, player):
        return state.utility if player == "X" else -state.utility

    def terminal_test(self, state):
        return state.utility != 0 or len(state.moves) == 0

    def to_move(self, state):
        return state.to_move

    def display(self, state):
        board = state.board
        for x in range(1, self.h + 1):
            for y in range(1, self.v + 1):
                print(board.get((x, y), "."), end=" ")
            print()

    def compute_utility(self, board, move, player):
        if (self.k_in_row(board, move, player, (0, 1)) or self.k_in_row(board, move, player, (1, 0))
                or self.k_in_row(board, move, player, (1, -1)) or self.k_in_row(board, move, player, (1, 1))):
            return +1 if player == "X" else -1
        return 0

    def k_in_row(self, board, move, player, delta_x_y):
        (delta_x, delta_y) = delta_x_y
        x, y = move
        n = 0
        while board.get((x, y)) == player:
            n += 1
            x, y = x + delta_x, y + delta_y
        x, y = move
        while board.get((x, y)) == player:
            n += 1
            x, y = x - delta_x, y - delta_y
        n -= 1
        return n >= self.k


class Nim:
    """easyAI's Nim: take any number of pieces from one pile; whoever takes the last piece loses."""

    def __init__(self, players=None, piles=(5, 5, 5, 5)):
        self.players = players
        self.piles = list(piles)
        self.current_player = 1

    def possible_moves(self):
        return ["%d,%d" % (i + 1, j) for i in range(len(self.piles)) for j in range(1, self.piles[i] + 1)]

    def make_move(self, move):
        move = list(map(int, move.split(",")))
        self.piles[move[0] - 1] -= move[1]

    def unmake_move(self, move):
        move = list(map(int, move.split(",")))
        self.piles[move[0] - 1] += move[1]

    def show(self):
        print(" ".join(map(str, self.piles)))

    def win(self):
        return max(self.piles) == 0

    def is_over(self):
        return self.win()

    def scoring(self):
        return 100 if self.win() else 0

    def ttentry(self):
        return tuple(self.piles)


# ---- independent truth --------------------------------------------------------------------------------------

def brute_minimax(game, state, memo=None):
    """The textbook minimax value of ``state`` for X, on the course's own names (memoised by board; ``memo``, a
    dict, keeps the values found for the next call)."""
    memo = {} if memo is None else memo

    def value(s):
        key = (s.to_move, frozenset(s.board.items()))
        if key not in memo:
            if game.terminal_test(s):
                memo[key] = game.utility(s, "X")
            else:
                values = [value(game.result(s, a)) for a in game.actions(s)]
                memo[key] = max(values) if game.to_move(s) == "X" else min(values)
        return memo[key]

    return value(state)


def nim_mover_wins(piles):
    """Misère Nim: the player to move wins unless every pile is at most 1 and an odd number of 1-piles is
    left, or some pile is larger and the piles' XOR is 0 (Bouton)."""
    if max(piles, default=0) <= 1:
        return sum(piles) % 2 == 0
    x = 0
    for p in piles:
        x ^= p
    return x != 0


def textbook_alphabeta_nodes(game, state):
    """The textbook alpha-beta (max/min form) on the course's names: the states it visits, root included."""
    count = 0

    def max_value(s, alpha, beta):
        nonlocal count
        count += 1
        if game.terminal_test(s):
            return game.utility(s, "X")
        v = -float("inf")
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(s, alpha, beta):
        nonlocal count
        count += 1
        if game.terminal_test(s):
            return game.utility(s, "X")
        v = float("inf")
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    value = (max_value if game.to_move(state) == "X" else min_value)(state, -float("inf"), float("inf"))
    return value, count


def play(game, state, *moves):
    for m in moves:
        state = game.result(state, m)
    return state


# ---- search: every agent on the course's own objects ---------------------------------------------------------

def test_tic_tac_toe_is_a_draw_and_the_textbook_alpha_beta_visits_what_the_textbook_visits() -> None:
    game = TicTacToe()
    assert brute_minimax(game, game.initial) == 0
    found = make_agent("alphabeta:plain=1").search(game, game.initial)
    value, nodes = textbook_alphabeta_nodes(game, game.initial)
    assert (found.value, value) == (0, 0) and found.exact
    assert found.nodes == nodes  # the same states, in the course's own action order
    assert found.action in game.actions(game.initial)


def test_every_position_two_plies_in_gets_the_brute_force_value_from_each_searching_agent() -> None:
    game = TicTacToe()
    agents = [make_agent(spec) for spec in ("alphabeta:plain=1", "alphabeta", "minimax:depth=9")]
    memo: dict = {}  # the brute force's values, shared by the 72 positions (their subtrees overlap)
    for i, (a, b) in enumerate((a, b) for a in game.actions(game.initial)
                               for b in game.actions(game.result(game.initial, a))):
        state = play(game, game.initial, a, b)
        truth = brute_minimax(game, state, memo)  # X to move: X's view is the mover's
        # minimax (no pruning: a second for three) after X's corner, edge and centre, not every eighth position
        for agent in agents if i in (0, 8, 32) else agents[:2]:
            value = agent.search(game, state).value
            assert (value > 0) - (value < 0) == truth, (a, b, agent)


@pytest.mark.slow  # 10 s; CI keeps tests/games/test_counts.py's Tic-Tac-Toe game tree
def test_the_full_minimax_tree_of_tic_tac_toe_has_its_published_549946_nodes() -> None:
    game = TicTacToe()
    found = make_agent("minimax:discount=0").search(game, game.initial)
    assert (found.value, found.nodes) == (0, 549_946)


def test_nim_values_follow_the_winning_rule_from_every_position() -> None:
    import itertools

    for piles in itertools.product(range(4), range(4), range(3)):
        if sum(piles) == 0:
            continue
        nim = Nim(piles=piles)
        found = make_agent("alphabeta:plain=1").search(nim, nim)
        assert (found.value > 0) == nim_mover_wins(piles), piles
        assert found.exact


def test_mcts_random_and_first_play_legal_moves_and_mcts_takes_a_win() -> None:
    game = TicTacToe()
    state = play(game, game.initial, (1, 1), (2, 1), (1, 2), (2, 2))  # X wins at (1, 3)
    for spec in ("mcts:sims=400,seed=1", "mcts:plain=1,sims=400,seed=1"):
        assert make_agent(spec)(game, state) == (1, 3)
    for spec in ("random:seed=3", "first"):
        assert make_agent(spec)(game, state) in state.moves
    nim = Nim(piles=(1, 2))  # the mover wins by taking the 2-pile whole: '2,2' (in misère Nim the one who ends
    for spec in ("mcts:plain=1,sims=500,seed=2", "mcts:sims=500,seed=2"):  # the game loses: a proof must see it)
        assert make_agent(spec)(nim, nim) == "2,2", spec
    # piles (1, 1, 2): the one winning move leaves three 1-piles, an odd number (Bouton's misère rule); taking
    # the 2-pile whole leaves two, and loses
    nim = Nim(piles=(1, 1, 2))
    assert make_agent("mcts:sims=2000,seed=4")(nim, nim) == "3,1"


def test_numpy_numbers_are_numbers() -> None:
    np = pytest.importorskip("numpy")
    NumpyTicTacToe = type("TicTacToe", (TicTacToe,),
                          {"utility": lambda self, s, p: np.int64(TicTacToe.utility(self, s, p))})
    NumpyNim = type("Nim", (Nim,), {"scoring": lambda self: np.int64(Nim.scoring(self))})
    assert make_agent("alphabeta").search(NumpyTicTacToe(), NumpyTicTacToe().initial).value == 0
    nim = NumpyNim(piles=(1, 2))
    assert make_agent("alphabeta:plain=1").search(nim, nim).value > 0  # scoring's sign, from the mover's view


def test_states_are_hashable_keys_equal_for_transpositions() -> None:
    game = zerosum.get_game(TicTacToe())
    one = play(game, game.initial_state, (1, 1), (2, 2), (1, 2))
    two = play(game, game.initial_state, (1, 2), (2, 2), (1, 1))
    assert one == two and hash(one) == hash(two) and len({one, two}) == 1
    assert one.value.board == {(1, 1): "X", (2, 2): "O", (1, 2): "X"}  # your own state, unchanged
    assert game.player(one) == 2 and game.player_label(2) == "O"


# ---- the faces -------------------------------------------------------------------------------------------------

def test_trace_draws_the_course_display_and_counts_every_node() -> None:
    game = TicTacToe()
    state = play(game, game.initial, (1, 1), (2, 2), (1, 2))
    tree = zerosum.trace("alphabeta:plain=1", game, state)
    assert len(tree) == tree.result.nodes and tree.result.action == (1, 3)
    assert "X X ." in tree.text()  # the course's display, captured
    assert zerosum.trace("alphabeta:plain=1", game, "(1,1) (2,2) (1,2)").result.nodes == tree.result.nodes


def test_play_game_and_match_play_the_course_games() -> None:
    game = TicTacToe()
    record = zerosum.play_game(game, "alphabeta", "alphabeta:plain=1", seed=1)
    assert record.result == "1/2-1/2" and not record.forfeit
    assert all(move.action in [(x, y) for x in (1, 2, 3) for y in (1, 2, 3)] for move in record.moves)
    assert record.game.parse_moves(record.notation) == record.actions
    result = zerosum.match("alphabeta", "random", game=game, games=4, seed=2)
    assert result.losses == 0 and len(result.games) == 4
    nim = Nim(piles=(1, 2, 2))  # XOR 1: the first player wins
    for seed in range(3):
        record = zerosum.play_game(nim, "alphabeta", "random", seed=seed)
        assert (record.winner, record.forfeit) == (1, False), record
        assert record.reason == "player 1 wins"
        assert all(isinstance(move.action, str) for move in record.moves)
    with pytest.raises(GameError, match="worker processes can build"):
        zerosum.match("random", "first", game=nim, games=2, jobs=2)
    assert repr(zerosum.get_game(nim).initial_state) == "CourseState(Nim: 1 2 2)"  # what show() prints
    tree = zerosum.trace("alphabeta:plain=1", nim, nim)  # easyAI's object is its own start position
    assert len(tree) == tree.result.nodes and tree.result.value > 0 and "1 2 2" in tree.text()
    with pytest.raises(InvalidSpecError, match=r"^Nim is a class: pass a game made from it, such as Nim\(\)$"):
        zerosum.play_game(Nim, "random", "random")


def test_a_player_function_written_for_the_course_game_plays_on_it() -> None:
    def course_player(game, state):  # the textbook's search, on the course's own names and fields
        me = game.to_move(state)

        def value(s, alpha, beta, mine):
            if game.terminal_test(s):
                return game.utility(s, me)
            best = -2 if mine else 2
            for a in game.actions(s):
                v = value(game.result(s, a), alpha, beta, not mine)
                best = max(best, v) if mine else min(best, v)
                alpha, beta = (max(alpha, best), beta) if mine else (alpha, min(beta, best))
                if alpha >= beta:
                    break
            return best

        assert len(state.moves) == len(game.actions(state))  # your state's own fields
        return max(game.actions(state), key=lambda a: value(game.result(state, a), -2, 2, False))

    record = zerosum.play_game(TicTacToe(), course_player, "alphabeta", seed=0)  # seed 1 played the same game
    assert (record.result, record.forfeit) == ("1/2-1/2", False), record


def test_a_zerosum_game_subclass_written_with_the_course_names_plays() -> None:
    class Race(zerosum.Game):
        """Count to 5 by adding 1 or 2; whoever says 5 wins."""

        def __init__(self):
            self.initial_state = (0, "A")

        def actions(self, state):
            return [n for n in (1, 2) if state[0] + n <= 5]

        def result(self, state, action):
            return (state[0] + action, "B" if state[1] == "A" else "A")

        def is_terminal(self, state):
            return state[0] == 5

        def utility(self, state, player):
            return -1 if state[1] == player else 1  # the player who just moved said 5

        def to_move(self, state):
            return state[1]

        def print_state(self, state):
            print(f"{state[0]} ({state[1]} to move)")

    race = Race()
    assert race.render(race.initial_state) == "0 (A to move)" and race.player(race.initial_state) == 1
    found = make_agent("alphabeta:plain=1").search(race, race.initial_state)
    assert (found.action, found.value > 0) == (2, True)  # 2, then keep to 2 and 5: the first player wins
    assert zerosum.play_game(race, "alphabeta", "random", seed=1).winner == 1


def test_a_zerosum_game_without_a_notation_of_its_own_plays_and_reads_moves() -> None:
    Said = namedtuple("Said", "total, mover")

    class Count(zerosum.Game):  # zerosum's own protocol, with no parse_action: moves are read as they print
        initial_state = Said(0, 1)

        def player(self, state):
            return state.mover

        def actions(self, state):
            return [] if state.total >= 4 else [n for n in (1, 2) if state.total + n <= 4]

        def result(self, state, action):
            if action not in self.actions(state):
                raise IllegalMoveError(f"{action} is not a move here")
            return Said(state.total + action, 3 - state.mover)

        def outcome(self, state):
            return zerosum.Outcome(3 - state.mover, "said 4") if state.total == 4 else None

        def render(self, state):
            return str(state[0])

    game = Count()
    assert not game.COURSE and game.parse_moves("2 1") == [2, 1] and game.parse_action("2", game.initial_state) == 2
    record = zerosum.play_game(game, "alphabeta", "random", seed=1)
    assert (record.winner, record.forfeit, record.reason) == (1, False, "said 4")  # say 1, then 4
    with pytest.raises(IllegalMoveError, match=r"^'3' is not a legal move here: type one of 1 2$"):
        game.parse_action("3", game.initial_state)


# ---- the command line -------------------------------------------------------------------------------------------

def _zerosum(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "zerosum", *args], cwd=cwd, input=stdin, capture_output=True,
                          text=True, timeout=600, env=env)


def test_cli_match_tournament_play_and_explain_load_the_game_file(tmp_path: Path) -> None:
    ttt, nim = f"{HERE}:TicTacToe", f"{HERE}:Nim(piles=(1, 2, 2))"
    # the match in its own process (--jobs 1), the tournament's games in two workers that load the file again
    done = _zerosum("match", "alphabeta", "random", "--game", ttt, "--games", "2", "--jobs", "1", "--out", "m.db",
                    cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "2 games" in done.stdout and "forfeits" in done.stdout
    done = _zerosum("tournament", "alphabeta", "random", "first", "--game", nim, "--games", "2", "--jobs", "2",
                    "--out", "t.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "6 games in t.db" in done.stdout and "endings: player" in done.stdout  # the Nim's own players 1, 2
    done = _zerosum("play", "--game", nim, "--first", "human", "--second", "alphabeta", cwd=tmp_path,
                    stdin="1\n9,9\nq\n")
    assert done.returncode == 0, done.stderr
    assert "1 2 2" in done.stdout and "0 2 2" in done.stdout  # the Nim's own show(): 1,1 (move 1) was played
    assert "'9,9' is not a legal move here" in done.stdout
    done = _zerosum("explain", "(1,1) (2,2)", "--agent", "alphabeta:plain=1", "--game", ttt, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "TicTacToe, after (1,1) (2,2): X to move" in done.stdout
    assert "* (1,2)  0      exact    chosen" in done.stdout and "principal variation: (1,2) " in done.stdout
    done = _zerosum("match", "random", "first", "--game", f"{HERE}:Nope", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "has no 'Nope'" in done.stderr


# ---- one line for what a game lacks or gets wrong -------------------------------------------------------------

def _without(cls, *names):
    return type(cls.__name__, (object,), {k: v for k, v in vars(cls).items() if k not in names})


@pytest.mark.parametrize("names, said", [
    (("actions",), "actions(state) returning the legal moves"),
    (("result",), "result(state, action) returning the next state"),
    (("terminal_test",), "is_terminal(state) (or terminal_test) returning True"),
    (("utility",), "utility(state, player) returning a number"),
    (("to_move",), "to_move(state) (or player) returning the player to move"),
    (("actions", "utility"), "actions(state) returning the legal moves (a list); utility(state, player)"),
])
def test_a_missing_method_of_the_course_is_named_with_what_it_returns(names, said) -> None:
    with pytest.raises(InvalidSpecError) as caught:
        zerosum.get_game(_without(TicTacToe, *names)())
    text = str(caught.value)
    assert "\n" not in text and "TicTacToe cannot be played yet" in text and said in text


def test_a_missing_initial_state_and_missing_easyai_methods_are_named() -> None:
    bare = _without(TicTacToe, "__init__")
    with pytest.raises(InvalidSpecError, match=r"add initial_state \(or AIMA's initial\): the start state"):
        zerosum.get_game(bare())
    for names, said in ((("possible_moves",), "possible_moves() returning the legal moves"),
                        (("make_move",), "make_move(move) playing move on the object itself"),
                        (("scoring", "win"), "scoring() returning the score for the player to move")):
        with pytest.raises(InvalidSpecError) as caught:
            zerosum.get_game(_without(Nim, *names)())
        text = str(caught.value)
        assert text.startswith("Nim cannot be played yet (easyAI style): add ") and said in text


def test_what_a_game_gets_wrong_is_one_line_naming_the_method() -> None:
    class Base:  # AIMA's Game: the methods a subclass must write raise NotImplementedError
        def utility(self, state, player):
            raise NotImplementedError

    Unwritten = type("TicTacToe", (Base,), {k: v for k, v in vars(TicTacToe).items() if k != "utility"})
    state = play(Unwritten(), Unwritten().initial, (1, 1), (2, 1), (1, 2), (2, 2), (1, 3))
    with pytest.raises(InvalidSpecError, match=r"TicTacToe.utility\(state, player\) is not written yet .*add utility"):
        zerosum.get_game(Unwritten()).outcome(state)

    def mutating(self, state, move):
        state.board[move] = state.to_move
        state.moves.remove(move)
        return GameState("O" if state.to_move == "X" else "X", 0, state.board, state.moves)

    Mutating = type("TicTacToe", (TicTacToe,), {"result": mutating})
    with pytest.raises(GameError, match="changed the state it was given, or a call before it did .*: it must return "
                                        "a new state"):
        make_agent("alphabeta:plain=1").search(Mutating(), Mutating().initial)
    Silent = type("TicTacToe", (TicTacToe,), {"utility": lambda self, state, player: None})
    with pytest.raises(GameError, match=r"utility returned None at the end \(state .*\): it must return a number"):
        zerosum.play_game(Silent(), "first", "first")
    Failing = type("TicTacToe", (TicTacToe,), {"actions": lambda self, state: state.nope})
    with pytest.raises(InvalidSpecError, match=r"TicTacToe.actions\(initial state\) raised AttributeError"):
        zerosum.get_game(Failing())


def test_moves_are_typed_as_printed_or_by_their_number_and_a_bad_one_is_one_line() -> None:
    game = zerosum.get_game(Nim(piles=(1, 2)))
    start = game.initial_state
    assert game.parse_action("2,1", start) == "2,1" and game.parse_action("2", start) == "2,1"
    assert game.parse_moves("2,2") == ["2,2"] and game.format_moves(["1,1", "2,1"]) == "1,1 2,1"
    refused = r"^'3,1' is not a legal move here: type one of 1,1 2,1 2,2, or its number 1..3$"
    with pytest.raises(IllegalMoveError, match=refused):
        game.parse_action("3,1", start)
    with pytest.raises(IllegalMoveError, match="is not a legal move here"):
        game.result(start, "9,9")
    ttt = zerosum.get_game(TicTacToe())
    assert ttt.parse_action("( 2, 2 )", ttt.initial_state) == (2, 2) and ttt.format_action((2, 2)) == "(2,2)"


def test_game_files_and_their_arguments_are_read_with_one_line_errors(tmp_path: Path) -> None:
    nim = zerosum.get_game(f"{HERE}:Nim(piles=(1, 2, 2))")
    assert nim.render(nim.initial_state) == "1 2 2" and nim.spec == f"{HERE}:Nim(piles=(1, 2, 2))"
    assert zerosum.get_game(nim.spec) is nim  # read once while the file is unchanged
    (tmp_path / "broken.py").write_text("class Game:\n    def __init__(self):\n        raise ValueError('no')\n")
    for spec, said in ((f"{tmp_path}/missing.py:Nim", "not found"),
                       (f"{HERE}:Nope", "has no 'Nope'"),
                       (f"{HERE}:Nim(piles=__import__('os'))", "are Python literals"),
                       (f"{tmp_path}/broken.py:Game", "could not be made: ValueError: no"),
                       (f"{HERE}:HERE", "is a PosixPath, not a game")):
        with pytest.raises(InvalidSpecError, match=said) as caught:
            zerosum.get_game(spec)
        assert "\n" not in str(caught.value)


def test_a_game_file_named_alone_plays_its_only_class_read_from_its_syntax(tmp_path: Path) -> None:
    (tmp_path / "games.py").write_text(AIMA_GAMES)
    (tmp_path / "nim.py").write_text(  # AIMA's import of its base class: a name the file binds, not a class it defines
        "from games import Game\n\n\nclass Nim(Game):\n    initial = (3, 1)\n"
        "    def actions(self, state):\n        return [k for k in (1, 2) if k <= state[0]]\n"
        "    def result(self, state, move):\n        return (state[0] - move, 3 - state[1])\n"
        "    def terminal_test(self, state):\n        return state[0] == 0\n"
        "    def utility(self, state, player):\n        return 1 if player == state[1] else -1\n"
        "    def to_move(self, state):\n        return state[1]\n")
    game = zerosum.get_game(f"{tmp_path}/nim.py")
    assert game.spec == f"{tmp_path}/nim.py:Nim" and game.actions(game.initial_state)
    (tmp_path / "two.py").write_text("open('ran', 'w').close()\nclass A: pass\nclass B: pass\n")
    (tmp_path / "none.py").write_text("def f():\n    return 1\n")
    (tmp_path / "bad.py").write_text("class A(:\n")
    os.mkfifo(tmp_path / "fifo.py")  # reading it would wait for ever
    for name, said in (("two.py", r"defines 2 classes \(A, B\): name the one to play, as two\.py:A$"),
                       ("none.py", r"defines no class: name the game in it, as none\.py:Name$"),
                       ("bad.py", r"bad\.py line 1: invalid syntax \(the file does not parse\)"),
                       ("fifo.py", "is a FIFO, not a regular file"), ("missing.py", "game file '.*' not found")):
        with pytest.raises(InvalidSpecError, match=said) as caught:
            zerosum.get_game(f"{tmp_path}/{name}")
        assert "\n" not in str(caught.value)
    assert not (tmp_path / "ran").exists()  # only its syntax was read


AIMA_GAMES = """
class Game:
    def actions(self, state):
        raise NotImplementedError

    def terminal_test(self, state):
        return not self.actions(state)

    def to_move(self, state):
        return state.to_move

    def display(self, state):
        print(state)
"""


def test_a_game_file_imports_the_modules_beside_it_as_aima_s_do(tmp_path: Path) -> None:
    (tmp_path / "games.py").write_text(AIMA_GAMES)  # AIMA's games.py: the base class with its defaults
    source = HERE.read_text().split("class TicTacToe:")[1].split("\nclass Nim:")[0]
    source = source.replace("    def to_move(self, state):\n        return state.to_move\n", "")
    (tmp_path / "tictactoe.py").write_text("from collections import namedtuple\nfrom games import Game\n\n"
                                          "GameState = namedtuple('GameState', 'to_move, utility, board, moves')\n\n"
                                          "class TicTacToe(Game):" + source)
    game = zerosum.get_game(f"{tmp_path}/tictactoe.py:TicTacToe(3, 3, k=3)")
    assert "def to_move" not in (tmp_path / "tictactoe.py").read_text()  # AIMA's base class says who moves
    assert game.player_label(1) == "X" and make_agent("alphabeta").search(game, game.initial_state).value == 0
    assert str(tmp_path) not in sys.path


def test_states_draw_as_svg_in_notebooks() -> None:
    import xml.etree.ElementTree as ET

    game = zerosum.get_game(TicTacToe())
    state = play(game, game.initial_state, (1, 1))
    svg = state._repr_svg_()
    root = ET.fromstring(svg)
    assert "X . ." in "".join(root.itertext())
    assert game.evaluations() == {} and "scoring" in zerosum.get_game(Nim()).evaluations()


@pytest.fixture(scope="module")
def nim_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A game file holding the Nim above (this file cannot be loaded inside a hypothesis test: its own tests
    would nest)."""
    import inspect

    path = tmp_path_factory.mktemp("nim") / "nim.py"
    path.write_text(inspect.getsource(Nim))
    return str(path)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=30))
def test_any_constructor_arguments_give_a_game_or_one_line(nim_file: str, text: str) -> None:
    try:
        game = zerosum.get_game(f"{nim_file}:Nim({text})")
    except GameError as exc:
        assert "\n" not in str(exc)
    else:
        assert game.title == "Nim"


@settings(max_examples=100, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(1, 3), st.integers(1, 3)), st.sampled_from("XO"), max_size=9),
       st.randoms(use_true_random=False))
def test_a_derived_key_depends_on_the_position_not_on_the_order_it_was_built_in(board, rnd) -> None:
    game = zerosum.get_game(TicTacToe())
    items = list(board.items())
    rnd.shuffle(items)
    moves = [m for m in game.initial_state.value.moves if m not in board]
    one, two = (game.wrap(GameState("X", 0, b, list(moves))) for b in (board, dict(items)))
    assert one == two and hash(one) == hash(two)
    if board:
        changed = dict(board)
        cell = next(iter(changed))
        changed[cell] = "O" if changed[cell] == "X" else "X"
        assert game.wrap(GameState("X", 0, changed, list(moves))) != one


class Fig52Game:
    """AIMA's Figure 5.2, written as AIMA writes it: MAX moves a1..a3, MIN answers; leaves worth 3..14."""

    succs = dict(A=dict(a1="B", a2="C", a3="D"), B=dict(b1="B1", b2="B2", b3="B3"),
                 C=dict(c1="C1", c2="C2", c3="C3"), D=dict(d1="D1", d2="D2", d3="D3"))
    utils = dict(B1=3, B2=12, B3=8, C1=2, C2=4, C3=6, D1=14, D2=5, D3=2)
    initial = "A"

    def actions(self, state):  # type: ignore[no-untyped-def]
        return list(self.succs.get(state, {}).keys())

    def result(self, state, move):  # type: ignore[no-untyped-def]
        return self.succs[state][move]

    def utility(self, state, player):  # type: ignore[no-untyped-def]
        return self.utils[state] if player == "MAX" else -self.utils[state]

    def terminal_test(self, state):  # type: ignore[no-untyped-def]
        return state not in ("A", "B", "C", "D")

    def to_move(self, state):  # type: ignore[no-untyped-def]
        return "MIN" if state in "BCD" else "MAX"

    def display(self, state):  # type: ignore[no-untyped-def]
        print(state)


def test_the_textbook_searches_keep_a_course_games_own_utilities() -> None:
    # AIMA's Figure 5.2: the minimax value is 3 (a1); alpha-beta cuts C after c1 (2 <= 3) and visits 11 states
    game = Fig52Game()
    found = make_agent("minimax:discount=0").search(game, game.initial)
    assert (found.action, found.value, found.nodes) == ("a1", 3, 13)
    assert found.scores == {"a1": 3, "a2": 2, "a3": 2}
    found = make_agent("alphabeta:plain=1").search(game, game.initial)
    assert (found.action, found.value, found.nodes) == ("a1", 3, 11)
    assert found.scores["a1"] == 3 and found.scores["a2"] <= 2 and found.scores["a3"] <= 2  # refuted: bounds
    tree = zerosum.trace("alphabeta:plain=1", game, game.initial)
    assert "cut-off by c1, skipped c2 c3" in tree.text()
    # the other agents read the utility's sign: every leaf is MAX's, so each move wins for MAX
    assert make_agent("alphabeta").search(game, game.initial).value > 0


def test_explain_reads_its_moves_as_a_move_string_on_a_game_whose_states_are_strings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import inspect

    (tmp_path / "fig52.py").write_text(inspect.getsource(Fig52Game))
    out = subprocess.run([sys.executable, "-m", "zerosum", "explain", "", "--agent", "alphabeta:plain=1",
                          "--game", f"{tmp_path}/fig52.py:Fig52Game"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "* a1    +3     exact" in out.stdout and "refuted by c1 (+2)" in out.stdout
    out = subprocess.run([sys.executable, "-m", "zerosum", "explain", "a1", "--agent", "minimax:discount=0",
                          "--game", f"{tmp_path}/fig52.py:Fig52Game"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "* b1    -3     exact  chosen" in out.stdout, out.stderr


def test_a_method_that_raises_mid_search_is_one_line_naming_it_and_the_state() -> None:
    class Broken(Fig52Game):
        def utility(self, state, player):  # type: ignore[no-untyped-def]
            if state == "D2":
                raise KeyError(state)
            return super().utility(state, player)

    game = Broken()
    for spec in ("minimax", "alphabeta:plain=1", "mcts:sims=50,seed=1"):
        with pytest.raises(GameError, match=r"^Broken.utility\(state, player\) raised KeyError: 'D2' at state 'D2'$"):
            make_agent(spec).search(game, game.initial)


def test_the_terminal_calls_the_players_by_the_games_own_names(tmp_path: Path) -> None:
    """A game whose players are 'MAX' and 'MIN' is played as MAX and MIN, not X and O (audit: 'X (random)
    plays two' beside the game's own 'MIN to move' and 'Player 2 (MIN, random) wins')."""
    (tmp_path / "sticks.py").write_text(
        "class Sticks:\n"
        "    def __init__(self):\n        self.initial = (5, 'MAX')\n"
        "    def actions(self, s):\n        return [n for n in (1, 2) if n <= s[0]]\n"
        "    def result(self, s, n):\n        return (s[0] - n, 'MIN' if s[1] == 'MAX' else 'MAX')\n"
        "    def is_terminal(self, s):\n        return s[0] == 0\n"
        "    def utility(self, s, p):\n        return 1 if s[1] == p else -1\n"
        "    def to_move(self, s):\n        return s[1]\n")
    done = _zerosum("play", "--game", "sticks.py", "--first", "first", "--second", "first", "--log", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Sticks: MAX (first) against MIN (first)." in done.stdout and "MAX (first) plays 1" in done.stdout
    assert not any(line.startswith(("X ", "O ")) or " X (" in line for line in done.stdout.splitlines()), done.stdout


def test_a_number_typed_where_the_moves_are_numbers_is_never_read_as_a_moves_place() -> None:
    """Take 1 or 3: '2' is no move of the game; it played 3 (the second legal move), and '1' is the move 1."""
    from course_sources import take_away  # here: this file is itself a game file the CLI's tests load

    game = zerosum.get_game(take_away("Take", 5, (1, 3), lambda state: 1 if state % 2 else 2))
    with pytest.raises(IllegalMoveError, match=r"^'2' is not a legal move here: type one of 1 3$"):
        game.parse_action("2", game.initial_state)
    assert game.parse_action("1", game.initial_state) == 1 and game.parse_action("3", game.initial_state) == 3
