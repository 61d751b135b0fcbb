"""``zerosum.match(..., move_cpu=)``: the CPU seconds a move of a plain function whose nodes cannot be counted
may take under a node limit, as ``zerosum match --move-cpu`` sets them (the note after the tables named
``--move-cpu``, which ``zerosum.match`` did not take)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

import zerosum
from zerosum.errors import AgentError

BURN = '''
import time

def player(game, state):
    start = time.process_time()
    while time.process_time() - start < 0.4:  # 0.4 s of CPU, no zerosum state expanded: nothing counted
        pass
    return game.actions(state)[0]
'''


def burn(game: Any, state: Any) -> Any:
    start = time.process_time()
    while time.process_time() - start < 0.4:
        pass
    return game.actions(state)[0]


def reasons(result: Any) -> set[str]:
    return {g.reason for g in result.games}


def test_a_function_is_held_to_the_cpu_time_given() -> None:
    held = zerosum.match(burn, "first", game="tictactoe", games=2, limits={"nodes": 100}, move_cpu=0.1)
    assert reasons(held) == {"cpu time limit: more than 0.1 s of CPU time in one move (its nodes are not counted)"}
    assert held.losses == 2
    free = zerosum.match(burn, "first", game="tictactoe", games=2, limits={"nodes": 100})  # default: 1 s a move
    assert not any(g.forfeit for g in free.games)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_agent_is_held_to_it_here_and_in_worker_processes(tmp_path: Path, jobs: int) -> None:
    path = tmp_path / "burn.py"
    path.write_text(BURN)
    held = zerosum.match(f"{path}:player", "first", game="tictactoe", games=2, limits={"nodes": 100},
                         move_cpu=0.1, jobs=jobs)
    assert held.losses == 2 and all(g.reason.startswith("cpu time limit: more than 0.1 s") for g in held.games)


def test_the_note_after_the_tables_names_move_cpu_and_the_time_given(capsys) -> None:
    zerosum.match(burn, "first", game="tictactoe", games=2, limits={"nodes": 100}, move_cpu=2.5).print()
    notes = [line for line in capsys.readouterr().out.splitlines() if line.startswith("nodes: not counted")]
    assert notes == ["nodes: not counted for burn (no zerosum state expanded and no NODES_COUNTED_BY): each of its "
                     "moves was held to 2.5 s of CPU time instead (move_cpu=)"]


@pytest.mark.parametrize("value, words", [
    (0, "move_cpu=0 is out of range: expected a number above 0, at most 3600"),
    (-1, "move_cpu=-1 is out of range"),
    (4000, "move_cpu=4000 is out of range"),
    (float("nan"), "move_cpu=nan is out of range"),
    ("1", "move_cpu='1' is not a number"),
    (True, "move_cpu=True is not a number"),
])
def test_a_bad_value_is_one_line_before_any_game(value: Any, words: str) -> None:
    with pytest.raises(AgentError, match="^match: " + words.replace("(", r"\(")) as caught:
        zerosum.match(burn, "first", game="tictactoe", games=2, limits={"nodes": 100}, move_cpu=value)
    assert "\n" not in str(caught.value)


def test_without_a_node_limit_it_has_nothing_to_bound() -> None:
    with pytest.raises(AgentError, match=r"give limits=\{'nodes': N\} too"):
        zerosum.match(burn, "first", game="tictactoe", games=2, move_cpu=1)
