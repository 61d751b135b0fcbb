"""Node limits a contest can trust (docs/arena.md): homework-style students as files, played in real worker
processes; every zerosum game object counted, a declared search function's calls counted, "not counted" and a
CPU-time limit where nothing can be; and alpha-beta's ``plain=1,nodes=N`` against a textbook search."""

import importlib.util
import json
import math
import sqlite3
import textwrap
from pathlib import Path

import numpy as np
import pytest

import zerosum
from zerosum.agents.heuristics import window_eval
from zerosum.agents.registry import make_agent
from zerosum.arena.counting import cpu_limit_reason, node_limit_reason
from zerosum.cli import main

# The homework's pattern (CS 4100, Connect Four on 8 x 8): a recursive minMax on the numpy board, O (2)
# maximising, a global counter of its calls, and a stop: a call past the limit returns at once.
HOMEWORK = """
import numpy as np

N = 8
LIMIT = {limit}
MAX_DEPTH = {depth}
count = 0
{declaration}

def wins(board, p):
    m = board == p
    lines = (m[:, :-3] & m[:, 1:-2] & m[:, 2:-1] & m[:, 3:], m[:-3] & m[1:-2] & m[2:-1] & m[3:],
             m[:-3, :-3] & m[1:-2, 1:-2] & m[2:-1, 2:-1] & m[3:, 3:], m[3:, :-3] & m[2:-1, 1:-2] & m[1:-2, 2:-1] & m[:-3, 3:])
    return any(bool(line.any()) for line in lines)

def evaluate(board):
    return int((board[:, 3:5] == 2).sum()) - int((board[:, 3:5] == 1).sum())

def minMax(board, depth, maximizing):
    global count
    count += 1
    if LIMIT is not None and count > LIMIT:
        return 0
    if wins(board, 2):
        return 1000
    if wins(board, 1):
        return -1000
    if depth == 0:
        return evaluate(board)
    values = []
    for col in range(N):
        if board[0][col] != 0:
            continue
        row = max(r for r in range(N) if board[r][col] == 0)
        board[row][col] = 2 if maximizing else 1
        values.append(minMax(board, depth - 1, not maximizing))
        board[row][col] = 0
    if not values:
        return 0
    return max(values) if maximizing else min(values)

def player(board):
    global count
    count = 0
    best, best_col = None, None
    for col in range(N):
        if board[0][col] != 0:
            continue
        row = max(r for r in range(N) if board[r][col] == 0)
        board[row][col] = 2
        value = minMax(board, MAX_DEPTH - 1, False)
        board[row][col] = 0
        if best is None or value > best:
            best, best_col = value, col
    return best_col
"""

FRESH = """
import zerosum
from zerosum.games.tictactoe import TicTacToe

def _negamax(game, state):
    outcome = game.outcome(state)
    if outcome is not None:
        return 0 if outcome.winner is None else (1 if outcome.winner == game.player(state) else -1)
    return max(-_negamax(game, game.result(state, a)) for a in game.actions(state))

def by_spec(game, state):
    fresh = zerosum.get_game(game.spec)  # a new game object: its expansions count too
    return max(fresh.actions(state), key=lambda a: -_negamax(fresh, fresh.result(state, a)))

def by_class(game, state):
    fresh = TicTacToe()
    return max(fresh.actions(state), key=lambda a: -_negamax(fresh, fresh.result(state, a)))

class Mine(TicTacToe):
    def result(self, state, action):
        return super().result(state, action)  # counted once, not twice

def every_child(game, state):
    mine = Mine()
    children = [mine.result(state, a) for a in mine.actions(state)]
    return mine.actions(state)[0] if children else None
"""

SPIN = """
def player(board):
    x = 0
    while True:
        x += 1

def stubborn(board):
    try:
        return player(board)
    except Exception:
        return 0
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def homework(folder: Path, name: str, limit: int | None, depth: int, declare: bool) -> Path:
    declaration = 'NODES_COUNTED_BY = "minMax"' if declare else ""
    return write(folder, name, HOMEWORK.format(limit=limit, depth=depth, declaration=declaration))


def games(db: Path) -> list[tuple]:
    """(reason, forfeit, moves, nodes, first agent's id) of every game."""
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT g.reason, g.forfeit, g.moves, g.nodes, p.first FROM games g JOIN plan p USING (idx) "
                           "ORDER BY g.idx").fetchall()
    finally:
        con.close()
    return [(r, f, json.loads(m), json.loads(n), first) for r, f, m, n, first in rows]


def run(db: Path, *args: str) -> list[tuple]:
    assert main(["match", *args, "--games", "2", "--opening-plies", "0", "--jobs", "2", "--out", str(db),
                 "--quiet"]) == 0
    return games(db)


def load(path: Path):
    spec = importlib.util.spec_from_file_location(f"independent_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def moves_of(rows: list[tuple], student_first_id: int = 0):
    """(state, nodes) of every move the student (agent 0) made, replayed here."""
    game = zerosum.get_game("connect4-8x8")
    for reason, forfeit, moves, nodes, first in rows:
        state = game.initial_state
        for i, (text, n) in enumerate(zip(moves, nodes)):
            if (i % 2 == 0) == (first == student_first_id):
                yield game, state, n
            state = game.result(state, game.parse_action(text, state))


# ---- a declared search function ----------------------------------------------------------------------


def test_the_homework_player_with_its_stop_plays_and_its_minMax_calls_are_its_nodes(tmp_path):
    student = homework(tmp_path, "hw.py", limit=400, depth=3, declare=True)
    rows = run(tmp_path / "hw.db", f"{student}:player", "random", "--game", "connect4-8x8", "--nodes", "400")
    assert not any(forfeit for _, forfeit, *_ in rows), rows
    independent = load(student)  # the same player, run here on the same boards: its own counter is the truth
    seen = 0
    for game, state, nodes in moves_of(rows):
        board = np.array([[{".": 0, "X": 1, "O": 2}[c] for c in row] for row in game.to_grid(state).split("\n")])
        if game.player(state) == 1:
            board = np.where(board == 0, 0, 3 - board)
        independent.player(board)
        assert nodes == min(independent.count, 400)  # calls past the stop returned at once: not nodes
        seen += 1
    assert seen >= 4 and any(n == 400 for *_, n in moves_of(rows))


def test_a_player_without_a_stop_forfeits_past_10000_minMax_calls(tmp_path):
    write(tmp_path, "hw_student.py", HOMEWORK.format(limit=None, depth=5, declaration=""))  # ~37,000 calls a move
    adapter = write(tmp_path, "adapter.py", """
        import hw_student
        NODES_COUNTED_BY = "hw_student.minMax"
        def player(board):
            return hw_student.player(board)
    """)
    rows = run(tmp_path / "nostop.db", f"{adapter}:player", "random", "--game", "connect4-8x8", "--nodes", "10000")
    student_games = [r for r in rows]
    assert len(student_games) == 2
    assert all(forfeit and reason == node_limit_reason(10000) for reason, forfeit, *_ in student_games)


def test_a_bad_declaration_is_one_line(tmp_path):
    student = write(tmp_path, "hw.py", 'NODES_COUNTED_BY = "minmax"\ndef minMax(b, d, m):\n    return 0\n'
                                       "def player(board):\n    return 0\n")
    with pytest.raises(zerosum.errors.AgentError, match="there is no function 'minmax' there to count"):
        make_agent(f"{student}:player")


# ---- any zerosum game object -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["by_spec", "by_class"])
def test_states_expanded_through_a_fresh_game_object_count(tmp_path, name):
    fresh = write(tmp_path, "fresh.py", FRESH)
    db = tmp_path / f"{name}.db"
    assert main(["match", f"{fresh}:{name}", "first", "--game", "tictactoe", "--games", "2", "--opening-plies", "0",
                 "--nodes", "100", "--jobs", "2", "--out", str(db), "--quiet"]) == 0
    assert all(forfeit and reason == node_limit_reason(100) for reason, forfeit, *_ in games(db))


def test_a_subclass_of_the_game_counts_each_state_once(tmp_path):
    fresh = write(tmp_path, "fresh.py", FRESH)
    db = tmp_path / "mine.db"
    assert main(["match", f"{fresh}:every_child", "first", "--game", "tictactoe", "--games", "2", "--opening-plies",
                 "0", "--nodes", "100", "--jobs", "2", "--out", str(db), "--quiet"]) == 0
    game = zerosum.get_game("tictactoe")
    for reason, forfeit, moves, nodes, first in games(db):
        assert not forfeit, reason
        state = game.initial_state
        for i, (text, n) in enumerate(zip(moves, nodes)):
            if (i % 2 == 0) == (first == 0):
                assert n == len(game.actions(state))  # one state per child, though result calls super().result
            else:
                assert n is None  # 'first' is a built-in agent: no count
            state = game.result(state, game.parse_action(text, state))


# ---- nothing to count --------------------------------------------------------------------------------


def test_an_undeclared_numpy_player_is_not_counted_never_0(tmp_path):
    import subprocess
    import sys

    student = homework(tmp_path, "hw.py", limit=300, depth=2, declare=False)
    db = tmp_path / "uncounted.db"
    # in a process of its own: in this one, twice in a full run of two workers, capsys got none of the match's
    # lines (they went to pytest's own capture: sys.stdout was not capsys's during the call)
    done = subprocess.run([sys.executable, "-m", "zerosum", "match", f"{student}:player", "random", "--game",
                           "connect4-8x8", "--games", "2", "--opening-plies", "0", "--nodes", "10000", "--jobs", "2",
                           "--out", str(db)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = games(db)
    assert not any(forfeit for _, forfeit, *_ in rows)
    assert all(n is None for *_, n in moves_of(rows))
    out = " ".join(done.stdout.split())
    assert "not counted" in out
    assert "nodes: not counted for hw.py:player" in out and "held to 10 s of CPU time" in out


@pytest.mark.parametrize("name", ["player", "stubborn"])
def test_an_uncounted_player_over_its_cpu_time_forfeits(tmp_path, name):
    spin = write(tmp_path, "spin.py", SPIN)
    rows = run(tmp_path / f"{name}.db", f"{spin}:{name}", "random", "--game", "connect4-8x8", "--nodes", "1000",
               "--move-cpu", "0.3")
    assert len(rows) == 2
    assert all(forfeit and reason == cpu_limit_reason(0.3) for reason, forfeit, *_ in rows)
    from zerosum.arena.store import Store

    with Store(tmp_path / f"{name}.db") as store:
        assert store.meta("move_cpu") == 0.3  # kept with the run: --resume plays on under it


# ---- alpha-beta's plain=1,nodes=N against a textbook search --------------------------------------------

BIG = 10**12


class Spent(Exception):
    pass


def textbook(game, state, depth, budget, counter):
    """AIMA's alpha-beta (max/min form) to ``depth``, counting every state visited, the root included, and
    stopping where the next would pass ``budget``: (the best root action whose subtree finished, or None)."""
    me = game.player(state)

    def visit():
        if counter[0] >= budget:
            raise Spent
        counter[0] += 1

    def value(s, d, alpha, beta):
        visit()
        if game.is_terminal(s):
            return game.utility(s, me) * BIG
        if d == 0:
            v = window_eval(game, s, game.player(s))
            return v if game.player(s) == me else -v
        if game.player(s) == me:
            v = -math.inf
            for a in game.actions(s):
                v = max(v, value(game.result(s, a), d - 1, alpha, beta))
                if v >= beta:
                    return v
                alpha = max(alpha, v)
            return v
        v = math.inf
        for a in game.actions(s):
            v = min(v, value(game.result(s, a), d - 1, alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best, best_value, alpha = None, -math.inf, -math.inf
    try:
        visit()
        for a in game.actions(state):
            v = value(game.result(state, a), depth - 1, alpha, math.inf)
            if v > best_value:
                best, best_value = a, v
            alpha = max(alpha, best_value)
    except Spent:
        return best, True
    return best, False


def positions():
    ttt, c8 = zerosum.get_game("tictactoe"), zerosum.get_game("connect4-8x8")
    return [(ttt, ttt.initial_state), (ttt, ttt.from_moves("51")), (ttt, ttt.from_moves("5")),
            (c8, c8.initial_state), (c8, c8.from_moves("4453"))]


@pytest.mark.parametrize("budget", [1, 7, 60, 400, 3000])
def test_plain_alphabeta_with_a_depth_plays_the_best_finished_root_move(budget):
    for game, state in positions():
        depth = 4
        counter = [0]
        best, stopped = textbook(game, state, depth, budget, counter)
        found = make_agent(f"alphabeta:plain=1,eval=window,depth={depth},nodes={budget}").search(game, state)
        assert found.nodes == counter[0] <= budget
        assert found.action == (best if best is not None else game.actions(state)[0])
        if not stopped:  # within the budget: exactly the search without one
            assert found.action == make_agent(f"alphabeta:plain=1,eval=window,depth={depth}").search(game, state).action


@pytest.mark.parametrize("budget", [5, 50, 500, 5000])
def test_plain_alphabeta_without_a_depth_plays_the_deepest_completed_iteration(budget):
    for game, state in positions():
        counter, move, depth = [0], None, 0
        while True:  # iterative deepening by hand: each iteration a whole textbook search from scratch
            depth += 1
            before = counter[0]
            best, stopped = textbook(game, state, depth, budget, counter)
            if stopped:
                if move is None:
                    move = best if best is not None else game.actions(state)[0]
                break
            move = best
            full = make_agent(f"alphabeta:plain=1,eval=window,depth={depth}").search(game, state)
            assert full.nodes == counter[0] - before
            if full.evals == 0:  # the end of the game everywhere: done
                break
        found = make_agent(f"alphabeta:plain=1,eval=window,nodes={budget}").search(game, state)
        assert found.action == move and found.nodes == counter[0] <= budget


def test_the_homework_spec_no_longer_asks_for_a_depth():
    game = zerosum.get_game("connect4-8x8")
    found = make_agent("alphabeta:plain=1,depth=8,nodes=10000").search(game, game.initial_state)
    assert found.nodes == 10_000 and found.action in game.actions(game.initial_state)


def test_a_metered_move_counts_its_own_thread_only_and_leaves_the_game_classes_as_they_were():
    import threading

    from zerosum.arena.counting import Meter, metered
    from zerosum.games.tictactoe import TicTacToe

    game = zerosum.get_game("tictactoe")
    state = game.initial_state
    own = TicTacToe.__dict__["result"]
    meter = Meter(1000, declared=False)
    other_thread_done = threading.Event()

    def elsewhere():
        for a in game.actions(state):
            game.result(state, a)  # another thread's expansions: not this player's
        other_thread_done.set()

    with metered(meter):
        game.result(state, 0)
        worker = threading.Thread(target=elsewhere)
        worker.start()
        worker.join(timeout=60)
        assert other_thread_done.is_set()
        game.result(state, 1)
    assert meter.count == 2
    assert TicTacToe.__dict__["result"] is own  # restored
