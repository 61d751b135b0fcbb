"""Under ``--nodes N`` an outside engine is sent ``go nodes N``, and the nodes it reports are held to it: an ``info``
line whose ``nodes`` pass N forfeits the game with the arena's node-limit reason (``zerosum.arena.counting``'s, as
an in-process agent's), even when a later line reports fewer; one that reports N plays on, its N stored; one that
reports no nodes cannot be checked, and its moves store none (never a count made up).  Before, an engine that
reported 10**18 nodes to ``go nodes 100`` played on and the ranking showed its 10**18 nodes a move.

Real engine processes (test_check_parity.ENGINE, modes ``over``, ``dip``, ``honest``, ``silent``) in ``zerosum
match`` against ``first``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from zerosum.arena.counting import node_limit_reason

from process_helpers import rows, write_script, zerosum_run  # noqa: E402 (tests/process_helpers.py)
from test_check_parity import ENGINE  # noqa: E402

NODES = 50


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_script(tmp_path_factory.mktemp("nodes") / "parity.py", ENGINE)


def play(engine: Path, mode: str, db: Path) -> list[tuple]:
    """Two games of the engine in ``mode`` against ``first`` under ``--nodes``: (reason, forfeit, nodes) of each."""
    done = zerosum_run(["match", mode, "first", "--engine", f"{mode}={sys.executable} {engine} {mode}", "--game",
                        "tictactoe", "--nodes", str(NODES), "--games", "2", "--jobs", "1", "--out", str(db), "--quiet"])
    assert done.returncode == 0, done.stderr
    return rows(db, "SELECT reason, forfeit, nodes FROM games ORDER BY idx")


@pytest.mark.parametrize("mode", ["over", "dip"])
def test_nodes_past_the_limit_forfeit_with_the_arenas_node_limit_reason(engine: Path, tmp_path: Path,
                                                                        mode: str) -> None:
    reason = f"{node_limit_reason(NODES)} (it reported nodes {NODES + 1} to 'go nodes {NODES}')"
    games = play(engine, mode, tmp_path / f"{mode}.db")
    assert [(said, forfeit) for said, forfeit, _ in games] == [(reason, 1), (reason, 1)], games
    assert [nodes for _, _, nodes in games] == ["[]", "[null]"], games  # its move is no move: first's alone stored


def test_nodes_within_the_limit_are_kept_and_none_reported_are_none(engine: Path, tmp_path: Path) -> None:
    for mode, figure in (("honest", NODES), ("silent", None)):
        games = play(engine, mode, tmp_path / f"{mode}.db")
        assert all(forfeit == 0 for _, forfeit, _ in games), games
        mine = [json.loads(nodes)[seat::2] for (_, _, nodes), seat in zip(games, (0, 1))]  # its own moves
        assert all(mine) and {n for moves in mine for n in moves} == {figure}, (mode, games)
