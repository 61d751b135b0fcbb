"""What ``zerosum explain`` and the page's why? call a root score (the player audit): a depth-limited,
heuristic value is "searched", never "exact"; a proof is "exact"; the solver's counts say the same thing in
the table's header and the tree's."""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

from zerosum.cli import main


def explain(capsys: Any, *argv: str) -> str:
    assert main(["explain", *argv]) == 0
    return capsys.readouterr().out


def kinds(text: str) -> dict[str, str]:
    """move -> the kind column of the table of root moves."""
    table = text.split("\n\n")[1].splitlines()[1:]
    return {m.group(1): m.group(2) for m in (re.match(r". (\S+)\s+\S+\s+(searched|exact|at most|at least)", line)
                                             for line in table) if m}


def test_a_depth_limited_heuristic_value_is_searched_not_exact(capsys) -> None:
    found = kinds(explain(capsys, "4453", "--agent", "minimax:depth=2", "--depth", "0"))
    assert found and set(found.values()) == {"searched"}, found


def test_a_search_to_the_end_is_exact(capsys) -> None:
    found = kinds(explain(capsys, "5", "--game", "tictactoe", "--agent", "alphabeta:plain=1", "--depth", "0"))
    assert found["1"] == "exact" and {found[m] for m in found if m != "1"} == {"at most"}


def test_the_pages_why_says_the_same_kind() -> None:
    pytest.importorskip("httpx")
    warnings.filterwarnings("ignore", message=".*httpx.*")
    from starlette.testclient import TestClient

    from zerosum.ui.server import create_app

    with TestClient(create_app(mode="inline", engine_time=1.0)) as client:
        rows = client.get("/api/explain", params={"game": "connect4", "moves": "4453",
                                                  "agent": "minimax:depth=2"}).json()["rows"]
    assert {r["kind"] for r in rows} == {"searched"}


def test_the_solvers_counts_read_the_same_in_the_header_and_the_tree(capsys) -> None:
    pytest.importorskip("zerosum.solver.solver")
    text = explain(capsys, "4455", "--agent", "solver", "--depth", "0")
    said = [line for line in text.splitlines() if line.startswith("solver: ")]
    assert len(said) == 2 and all(" nodes searched, not traced (the root alone recorded)" in s for s in said)
    assert said[0].split(",")[0] == said[1].split(";")[0].split(",")[0]
    assert "recorded per depth" not in text and "1 nodes" not in text
