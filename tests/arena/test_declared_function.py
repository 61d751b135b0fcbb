"""A player handed over in Python as a function object keeps its module's ``NODES_COUNTED_BY``
(docs/arena.md, node limits; docs/teaching.md, the homework's player).

``zerosum.play_game("connect4-8x8", hw.player, ...)`` and ``zerosum.match(hw.player, ...)`` read the
declaration from the module that defines the function, exactly as the file loader reads it from the agent
file (``"hw.py:player"``): its calls are the nodes, a search past the node limit forfeits, and a bad
declaration is the same one line.  Before, a function object's declaration was ignored: the homework played
past its limit, never forfeited, and its nodes read "not counted".  Homework files are written into tmp_path
and imported as modules (importlib); the spec form of the same file is the reference.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import zerosum
from process_helpers import zerosum_run
from zerosum.agents.registry import make_agent
from zerosum.arena.counting import node_limit_reason
from zerosum.errors import AgentError

# The homework's pattern: a recursive minMax on the numpy board, O (2) maximising, a global count of its
# calls and, with a LIMIT, the homework's stop (a call past it returns at once).
HOMEWORK = """
import numpy as np

LIMIT = {limit}
count = 0
{declaration}

def minMax(board, depth, maximizing):
    global count
    count += 1
    if LIMIT is not None and count > LIMIT:
        return 0
    if depth == 0:
        return int((board[:, 3:5] == 2).sum()) - int((board[:, 3:5] == 1).sum())
    values = []
    for col in range(board.shape[1]):
        if board[0][col] != 0:
            continue
        row = max(r for r in range(board.shape[0]) if board[r][col] == 0)
        board[row][col] = 2 if maximizing else 1
        values.append(minMax(board, depth - 1, not maximizing))
        board[row][col] = 0
    return (max(values) if maximizing else min(values)) if values else 0

def player(board):
    global count
    count = 0
    best, best_col = None, None
    for col in range(board.shape[1]):
        if board[0][col] != 0:
            continue
        row = max(r for r in range(board.shape[0]) if board[r][col] == 0)
        board[row][col] = 2
        value = minMax(board, {depth}, False)
        board[row][col] = 0
        if best is None or value > best:
            best, best_col = value, col
    return best_col
"""

# The classic player f(game, state), searching through the game: one call of search for the root and one
# for each child, so a move's declared nodes are 1 + its legal actions (the states it expands: one fewer).
CLASSIC = """
NODES_COUNTED_BY = "search"
DEPTH = 1

def search(game, state, depth):
    if depth == 0 or game.is_terminal(state):
        return 0
    return max(-search(game, game.result(state, a), depth - 1) for a in game.actions(state))

def agent(game, state):
    search(game, state, DEPTH)
    return game.actions(state)[0]
"""


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return path


def homework(folder: Path, name: str, *, limit: int | None, depth: int, declaration: str = '"minMax"') -> Path:
    line = f"NODES_COUNTED_BY = {declaration}" if declaration else ""
    return write(folder, name, HOMEWORK.format(limit=limit, depth=depth, declaration=line))


def imported(path: Path) -> Any:
    """The file as a module of its own, as a notebook's ``importlib`` gives it (not in ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location(f"declared_{path.stem}_{id(path)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def student_nodes(record: Any) -> list[Any]:
    """The nodes of the first player's moves (the student moves first in these games)."""
    return [m.nodes for m in record.moves if m.player == 1]


def test_the_homework_handed_over_in_python_forfeits_past_its_node_limit_as_its_file_does(tmp_path: Path) -> None:
    path = homework(tmp_path, "burn.py", limit=None, depth=3)  # ~4,700 minMax calls a move, no stop
    module = imported(path)
    for player in (module.player, f"{path}:player"):
        record = zerosum.play_game("connect4-8x8", player, "random", limits={"nodes": 1000}, seed=1)
        assert record.forfeit and record.winner == 2, record
        assert record.reason == node_limit_reason(1000), record.reason
        assert record.moves == []  # its first move was the one over the limit
    # the leaves after the 1,000th call returned at once; the next call that called on was stopped (of 4,680)
    assert 1000 < module.count <= 1000 + 8


def test_its_nodes_are_its_minMax_calls_as_with_its_file(tmp_path: Path) -> None:
    path = homework(tmp_path, "hw.py", limit=400, depth=2)  # the homework's stop: plays on at the limit
    module = imported(path)
    by_function = zerosum.play_game("connect4-8x8", module.player, "random", limits={"nodes": 400}, seed=3)
    by_spec = zerosum.play_game("connect4-8x8", f"{path}:player", "random", limits={"nodes": 400}, seed=3)
    assert not by_function.forfeit and by_function.notation == by_spec.notation
    nodes = student_nodes(by_function)
    assert nodes == student_nodes(by_spec) and None not in nodes
    independent = imported(path)  # the same player on the empty board, here: its own count is the truth
    independent.player(np.zeros((8, 8), dtype=np.int64))
    assert nodes[0] == min(independent.count, 400) and max(nodes) <= 400


def test_a_declared_function_is_counted_without_a_node_limit_too(tmp_path: Path) -> None:
    module = imported(homework(tmp_path, "free.py", limit=None, depth=1))
    record = zerosum.play_game("connect4-8x8", module.player, "random", seed=5)
    independent = imported(tmp_path / "free.py")
    independent.player(np.zeros((8, 8), dtype=np.int64))
    assert student_nodes(record)[0] == independent.count == 8 + 64  # eight roots' minMax, each with 8 children


def test_the_classic_player_f_game_state_counts_its_declared_search(tmp_path: Path) -> None:
    path = write(tmp_path, "classic.py", CLASSIC)
    module = imported(path)
    game = zerosum.get_game("tictactoe")
    for player in (module.agent, f"{path}:agent"):
        record = zerosum.play_game(game, player, "first", limits={"nodes": 50}, seed=1)
        states = record.states()
        assert not record.forfeit, record
        assert [m.nodes for m in record.moves if m.player == 1] == [
            1 + len(game.actions(states[i])) for i, m in enumerate(record.moves) if m.player == 1]
    capped = zerosum.play_game(game, module.agent, "first", limits={"nodes": 5}, seed=1)
    assert not capped.forfeit and capped.moves[0].nodes == 5  # the leaves past 5 returned at once: not nodes
    module.DEPTH = 2  # the search goes on past the limit
    over = zerosum.play_game(game, module.agent, "first", limits={"nodes": 5}, seed=1)
    assert over.forfeit and over.reason == node_limit_reason(5)


def test_a_module_in_sys_modules_and_a_callable_object_read_it_too(tmp_path: Path, monkeypatch) -> None:
    homework(tmp_path, "hw_listed.py", limit=None, depth=3)
    write(tmp_path, "hw_object.py", """
        import hw_listed
        NODES_COUNTED_BY = "hw_listed.minMax"

        class Player:
            def __call__(self, board):
                return hw_listed.player(board)

        player = Player()
    """)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        listed = importlib.import_module("hw_listed")
        holder = importlib.import_module("hw_object")
        for player in (listed.player, holder.player):
            record = zerosum.play_game("connect4-8x8", player, "random", limits={"nodes": 1000}, seed=1)
            assert record.forfeit and record.reason == node_limit_reason(1000), record
    finally:
        for name in ("hw_listed", "hw_object"):
            sys.modules.pop(name, None)


@pytest.mark.parametrize("declaration, words", [
    ('"minmax"', "there is no function 'minmax' there to count"),
    ("42", "expected the name of the search function"),
    ('"helpers.minMax"', "'helpers' is not a module the file imported"),
])
def test_a_bad_declaration_is_the_file_loaders_one_line(tmp_path: Path, declaration: str, words: str) -> None:
    path = homework(tmp_path, "bad.py", limit=None, depth=1, declaration=declaration)
    module = imported(path)
    with pytest.raises(AgentError) as by_spec:
        make_agent(f"{path}:player")
    with pytest.raises(AgentError) as by_function:
        make_agent(module.player)
    assert str(by_function.value) == str(by_spec.value) and words in str(by_function.value)
    assert str(by_function.value).startswith("'bad.py': NODES_COUNTED_BY = ")
    with pytest.raises(AgentError, match="NODES_COUNTED_BY"):  # before any game, as with the file
        zerosum.play_game("connect4-8x8", module.player, "random", seed=1)


def test_a_match_of_the_function_forfeits_and_counts_as_its_spec_does(tmp_path: Path) -> None:
    burn = imported(homework(tmp_path, "burn.py", limit=None, depth=3))
    over = zerosum.match(burn.player, "random", game="connect4-8x8", limits={"nodes": 1000}, games=2)
    assert over.losses == 2 and all(g.forfeit and g.reason == node_limit_reason(1000) for g in over.games)
    path = homework(tmp_path, "hw.py", limit=400, depth=2)
    kept = zerosum.match(imported(path).player, "random", game="connect4-8x8", limits={"nodes": 400}, games=2)
    spec = zerosum.match(f"{path}:player", "random", game="connect4-8x8", limits={"nodes": 400}, games=2)
    nodes = [[m.nodes for m in g.moves] for g in kept.games]
    assert nodes == [[m.nodes for m in g.moves] for g in spec.games]
    student = [m.nodes for g in kept.games for m in g.moves if (g.first == "player") == (m.player == 1)]
    assert student and None not in student and max(student) <= 400
    mean = [next(st.nodes for st in run.report.standings if st.label != "random") for run in (kept, spec)]
    assert mean[0] == mean[1] and 0 < mean[0] <= 400  # the ranking's nodes/move


# ---- the note after the tables (result.print() says what zerosum match says) --------------------------


def note_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("nodes: ")]


def test_print_names_an_undeclared_function_whose_nodes_were_not_counted_as_the_cli_does(tmp_path: Path,
                                                                                           capsys) -> None:
    path = homework(tmp_path, "hw.py", limit=None, depth=1, declaration="")  # nothing it does can be counted
    done = zerosum_run(["match", f"{path}:player", "random", "--game", "connect4-8x8", "--nodes", "1000",
                        "--games", "2", "-o", str(tmp_path / "cli.db")])
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())  # its lines folded at the terminal's width
    assert "nodes: not counted for hw.py:player (" in said, done.stdout
    capsys.readouterr()
    zerosum.match(imported(path).player, "random", game="connect4-8x8", limits={"nodes": 1000}, games=2).print()
    printed = capsys.readouterr().out
    notes = note_lines(printed)  # one line each: a print that is no terminal is wide
    assert len(notes) == 1 and notes[0].startswith("nodes: not counted for player ("), printed
    assert notes[0].endswith("instead (move_cpu=)")  # what sets that time in Python: not the CLI's --move-cpu
    python_words = notes[0].replace("player", "hw.py:player", 1).replace("(move_cpu=)", "(--move-cpu)")
    assert python_words in said  # the CLI's words, its agent's label and its option aside
    assert printed.index(notes[0]) > printed.index("nodes/move") and printed.index(notes[0]) < printed.index("endings")


def test_print_has_no_such_note_for_a_declared_function_or_a_search_agent(tmp_path: Path, capsys) -> None:
    declared = imported(homework(tmp_path, "hw.py", limit=400, depth=2))
    zerosum.match(declared.player, "alphabeta:depth=1", game="connect4-8x8", limits={"nodes": 400}, games=2).print()
    printed = capsys.readouterr().out
    assert "endings: " in printed and note_lines(printed) == [], printed
