"""The nodes/move column and the footnote of a run with a node limit say what was counted: an agent whose
file declares NODES_COUNTED_BY, or that forfeited over its node limit, was counted, and is never listed as
"not counted" (real runs, files written into tmp_path)."""

import math
import sqlite3
import subprocess
import sys
from pathlib import Path

from zerosum.arena.forfeits import counted_labels, nodes_cell, not_counted_note
from zerosum.arena.report import Standing

HW = """\
countNodes = 0
def minMax(board, depth):
    global countNodes
    countNodes += 1
    if depth == 0:
        return 0
    return max(minMax(board, depth - 1) for _ in range(8))
def player(board):
    minMax(board, 6)
    return [c for c in range(board.shape[1]) if board[0][c] == 0][0]
"""
ADAPTER = """\
import hw
NODES_COUNTED_BY = "hw.minMax"
def player(board):
    hw.countNodes = 0
    return hw.player(board)
"""


def test_a_declared_adapter_over_its_limit_is_not_called_uncounted(tmp_path: Path) -> None:
    (tmp_path / "hw.py").write_text(HW)
    (tmp_path / "hw_adapter.py").write_text(ADAPTER)
    done = subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", "match", "hw_adapter.py",
                           "random", "--game", "connect4-8x8", "--nodes", "200", "--games", "2", "--opening-plies", "0",
                           "-o", str(tmp_path / "r.db")], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "node limit: more than 200" in out
    assert "not counted for" not in out and "no NODES_COUNTED_BY" not in out


def test_an_agent_that_forfeited_over_its_node_limit_was_counted(tmp_path: Path) -> None:
    student = tmp_path / "student_agents.py"
    student.write_text("def full_search(game, state):\n    return game.actions(state)[0]\n"
                       "def first(game, state):\n    return game.actions(state)[0]\n")
    specs = {"student_agents.py:full_search": f"{student}:full_search", "student_agents.py:first": f"{student}:first"}
    standings = [Standing("student_agents.py:full_search", games=4), Standing("student_agents.py:first", games=4)]
    counted = counted_labels({("student_agents.py:full_search", "node limit"): 4}, specs)
    assert counted == {"student_agents.py:full_search"}
    note = not_counted_note(standings, specs, 1.0, counted)
    assert note is not None and note.startswith("nodes: not counted for student_agents.py:first (")
    assert nodes_cell(math.nan, 4, 1.0, "student_agents.py:full_search" in counted) == "-"
    assert nodes_cell(math.nan, 4, 1.0, "student_agents.py:first" in counted) == "not counted"
    assert nodes_cell(101.0, 4, 1.0) == "101"


def test_the_tables_of_a_run_do_not_call_an_agent_stopped_by_its_node_limit_uncounted(tmp_path: Path) -> None:
    """The audit's run: the Forfeits table said ``node limit: more than 100 states expanded`` while the footnote
    and the nodes/move column said the agent's nodes were ``not counted``."""
    (tmp_path / "student_agents.py").write_text(
        "def full_search(game, state, depth=3):\n"
        "    for a in game.actions(state):\n"
        "        after = game.result(state, a)\n"
        "        if depth and not game.is_terminal(after):\n"
        "            full_search(game, after, depth - 1)\n"
        "    return game.actions(state)[0]\n")
    done = subprocess.run([sys.executable, "-c", "from zerosum.cli import entry; entry()", "match",
                           "student_agents.py:full_search", "first", "--game", "tictactoe", "--nodes", "100",
                           "--games", "2", "--opening-plies", "0", "-o", str(tmp_path / "r.db")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300, env={**__import__("os").environ,
                                                                                        "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())
    assert "node limit: more than 100" in out, out
    rows = [line for line in done.stdout.splitlines() if "full_search" in line and "%" in line]  # its ranking row
    assert rows and all("not counted" not in row for row in rows), done.stdout
    assert "not counted for student_agents.py:full_search" not in out and "full_search (no" not in out, out
