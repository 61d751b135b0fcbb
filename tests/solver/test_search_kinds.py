"""Each kind of compiled search is a step of its own (``zerosum.solver.steps.search_kind``): numba compiles the
solver's search once for each kind of bitboard and table entry, so a solver whose kind was never prepared
would compile for tens of seconds in silence (as a table of 2**26 entries on 7 x 9 did: 24 s, nothing said)."""

from __future__ import annotations

from typing import Any

import pytest

import zerosum.solver.steps as steps
from zerosum import ConnectX, Solver

#: (board, table log, wide) -> the kind: 64-bit; 128-bit with two-word entries; one-word ones (a table large
#: enough past 64 bits); 128-bit bitboards on a board that fits 64 bits
KINDS = [
    (ConnectX(6, 7, 4), 16, None, ""),
    (ConnectX(8, 8, 4), 24, None, " 128"),
    (ConnectX(9, 7, 4), 25, None, " 128"),
    (ConnectX(9, 7, 4), 26, None, " 128 one-word"),  # 70 bits: 44 left to store
    (ConnectX(12, 5, 4), 24, None, " 128 one-word"),  # 65 bits: one word even at the default
    (ConnectX(6, 7, 4), 16, True, " 128 on 64"),
]


def _layout(solver: Any) -> tuple[bool, int, int]:
    """What numba compiles the search for: the bitboards' width, the table's and the small table's words."""
    return solver.wide, solver.table.ndim, solver._near_table.ndim


@pytest.mark.parametrize("game, log, wide, kind", KINDS, ids=[f"{g.rows}x{g.cols}-{lg}-{w}" for g, lg, w, _ in KINDS])
def test_the_probe_of_each_kind_compiles_what_a_solver_of_that_kind_runs(game, log, wide, kind) -> None:
    real = Solver(game, tt_size=1 << log, book=False, wide=wide)
    assert steps.search_kind(game, real.table_log, real.wide) == kind
    made: list[Solver] = []

    def make(board: Any, **options: Any) -> Solver:
        made.append(Solver(board, **options))
        return made[-1]

    steps._probe(make, game, kind)  # the search step's small solver (whose search, the same types, is compiled
    assert _layout(made[0]) == _layout(real)  # for what the real one runs: searched here, it would compile)


def test_a_solver_s_search_prepares_its_own_kind(monkeypatch) -> None:
    told: list[list[str]] = []

    def warm(todo: list[Any]) -> None:  # what the search would wait for, then no search (no compile here)
        told.append([s.key for s in todo])
        raise LookupError("told")

    monkeypatch.setattr(steps, "warm", warm)
    monkeypatch.setattr(steps, "_READY", {"solver tables 128", "solver search", "solver search 128"})  # the usual
    big = Solver(ConnectX(9, 7, 4), tt_size=1 << 26, book=False)  # 512 MB asked, hardly touched
    with pytest.raises(LookupError, match="told"):
        big.solve("4455443")
    assert told == [["numba", "solver tables 128", "solver search 128 one-word"]]
    assert told[-1][-1] == [s.key for s in steps.solver_steps(big.game, Solver, 26)][-1]
    assert "large tables" in steps.solver_steps(big.game, Solver, 26)[-1].label


def test_the_solver_agent_and_analyze_prepare_the_kind_of_their_table() -> None:
    from zerosum.solver.agent import solver_steps

    assert solver_steps("connectx:rows=9,cols=7,k=4", 27)[-1].key == "solver search 128 one-word"
    assert solver_steps("connect4-8x8")[-1].key == "solver search 128"
    assert solver_steps("connect4", 30)[-1].key == "solver search"
